"""quantulum3, fenced: the one module that imports it or reaches into it; the rest of the package reads values
through ``read_values`` and gets plain ``Reading`` records back.

quantulum3 is imported on the first number (it costs a second or more), never at package import. It is set up
once, so that it reads the same way in every process and starts fast:

- its set-valued word lists (operators, range words, decimal marks) are put in a fixed order and the regexes it
  cached from them rebuilt: it builds regexes from Python sets and breaks ties between units by set order, so
  what it read ("0.5 /mL" with or without its unit) changed with the string hash seed (quantulum3 issue #230);
  its unit chooser (the one used without its optional classifier) is handed the candidates by name;
- its ``import inflect`` is answered by a table of the plurals inflect gives, recorded once (``plurals.py``),
  so later processes never import inflect;
- its ``regex`` module's ``re`` keeps the compiled programs of its large patterns (``compiled_patterns.py``);
- a first parse builds the tables it builds on first use, and the plurals they asked for are recorded when the
  table lacked any.

``plurals.py``, ``compiled_patterns.py`` and ``cache_files.py`` serve this module alone.
"""

import re
import warnings
from dataclasses import dataclass
from functools import lru_cache, wraps
from importlib import import_module
from typing import List, Tuple

from . import plurals
from .cache_files import cache_folder
from .compiled_patterns import keeping_compiled

QUANTULUM_LANGUAGE = "en_US"
WARM_UP = "between one and 2.5 km"  # a first parse, which makes quantulum3 build its unit tables and regexes
# quantulum3 reads a long numeral in time growing with the cube of its length (200 digits: 8 s, 700: 5 minutes; 3,200
# characters of "1,000,000...": 4.6 s), so a numeral (digits, commas and points) longer than this is blanked (to "_",
# which it reads as nothing) before it is given the text
MAX_NUMERAL = 24
LONG_NUMERAL = re.compile(r"\d[\d,.]{%d,}" % MAX_NUMERAL)
# quantulum3 functions that return a set of operator or range words, which it joins into regex alternations (or,
# for the grouping and decimal marks, character classes: the same meaning in any order, but one pattern text, so
# that its compiled program is kept once)
ORDERED_WORDS = ("multiplication_operators", "division_operators", "operators", "ranges", "uncertainties",
                 "grouping_operators", "decimal_operators")


@dataclass(frozen=True)
class Reading:
    """One value quantulum3 read in a text, as plain data."""

    value: float
    unit: str  # quantulum3's unit name ("kilometre", "dimensionless")
    entity: str  # the unit's entity ("length", "currency", "dimensionless", "unknown")
    surface: str  # the words it was read from
    span: Tuple[int, int]  # where they stand in the text (a negative start when quantulum3 lost the offsets)
    uncertainty: float = 0.0  # a range's half-width ("5-10 GB": 7.5 and 2.5) or a stated one ("5 ± 0.2 mg")


def read_values(text: str) -> List[Reading]:
    """Every value quantulum3 reads in ``text``, in its order; none in a numeral longer than ``MAX_NUMERAL``."""
    text = LONG_NUMERAL.sub(lambda numeral: "_" * len(numeral.group()), text)
    return [Reading(float(quantity.value), quantity.unit.name, quantity.unit.entity.name, quantity.surface,
                    tuple(quantity.span), float(getattr(quantity, "uncertainty", None) or 0))
            for quantity in _parser().parse(text)]


def _in_fixed_order(words):
    """``words`` longest first, then alphabetically: one alternation order whatever the hash seed."""
    @wraps(words)
    def ordered(lang: str = "en_US") -> List[str]:
        return sorted(words(lang), key=lambda word: (-len(word), word))

    return ordered


def _by_name(choose):
    """quantulum3's unit chooser, given the candidates by name: it keeps the first of equally good ones."""
    @wraps(choose)
    def by_name(candidates, text: str, lang: str = "en_US"):
        return choose(sorted(candidates, key=lambda candidate: candidate.name), text, lang)

    return by_name


@lru_cache(maxsize=1)
def _parser():
    """quantulum3's parser, imported and set up once (see the module docstring)."""
    folder = cache_folder()
    path = None if folder is None else plurals.table_path(folder)
    with warnings.catch_warnings(), plurals.plurals_from_table(path) as table:
        warnings.filterwarnings("ignore", message="Classifier dependencies not installed")
        from quantulum3 import load, no_classifier, parser, regex
        import_module(f"quantulum3._lang.{QUANTULUM_LANGUAGE}.parser")  # imports inflect, for its plurals
    if folder is not None:
        regex.re = keeping_compiled(folder)
    for name in ORDERED_WORDS:
        if not hasattr(getattr(regex, name), "__wrapped__"):
            setattr(regex, name, _in_fixed_order(getattr(regex, name)))
    if not hasattr(no_classifier.disambiguate_no_classifier, "__wrapped__"):
        no_classifier.disambiguate_no_classifier = _by_name(no_classifier.disambiguate_no_classifier)
    load._CACHE_DICT.clear()  # regexes built before this point were built in hash order
    parser.parse(WARM_UP)
    if table is not None and table.added:
        plurals.write_table(table, path)
    return parser
