"""quantulum3, fenced: the one module that imports it or reaches into it; the rest of the package reads values
through ``read_values`` and gets plain ``Reading`` records back.

quantulum3 is imported on the first number (it costs a second or more), never at package import. It is set up
once, so that it reads the same way in every process and starts fast:

- its set-valued word lists (operators, range words, decimal marks) are put in a fixed order and the regexes it
  cached from them rebuilt: it builds regexes from Python sets and breaks ties between units by set order, so
  what it read ("0.5 /mL" with or without its unit) changed with the string hash seed (quantulum3 issue #230);
  its unit chooser (the one used without its optional classifier) is handed the candidates by name, and scores
  them from each unit's training words counted once (the same scores, without splitting every training text again
  for each value read);
- its ``import inflect`` is answered by a table of the plurals inflect gives, recorded once (``plurals.py``),
  so later processes never import inflect;
- its ``regex`` module's ``re`` keeps the compiled programs of its large patterns (``compiled_patterns.py``);
- its language modules are looked up once per name: it asks for them several times for each value it reads, each
  time normalising the language name with a regex and importing the module again;
- a first parse builds the tables it builds on first use, and the plurals they asked for are recorded when the
  table lacked any.

``plurals.py``, ``compiled_patterns.py`` and ``cache_files.py`` serve this module alone.
"""

import re
import warnings
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache, wraps
from importlib import import_module
from typing import Callable, Dict, List, Optional, Set, Tuple

from . import plurals
from .cache_files import cache_folder
from .compiled_patterns import keeping_compiled
from .tries import trie, words_of

QUANTULUM_LANGUAGE = "en_US"
WARM_UP = "between one and 2.5 km"  # a first parse, which makes quantulum3 build its unit tables and regexes
# quantulum3 reads a long numeral in time growing with the cube of its length (200 digits: 8 s, 700: 5 minutes; 3,200
# characters of "1,000,000...": 4.6 s), so a numeral (digits, commas and points) longer than this is blanked (to "_",
# which it reads as nothing) before it is given the text
MAX_NUMERAL = 24
LONG_NUMERAL = re.compile(r"\d[\d,.]{%d,}" % MAX_NUMERAL)
UNITS_GROUP = "(?P<unit1>(?:"  # where the unit pattern's alternation of units first stands
ESCAPED_RUN = re.compile(r"(?:\\.|[^\\)])*")  # an alternation of escaped literals, up to the bracket closing it
MAX_PIECES_TEXT = 1000  # characters: a text this short is cut into its stretches to find training words in it
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
    """``words`` longest first, then alphabetically: one alternation order whatever the hash seed, sorted once per
    language. quantulum3 asks for some of these sets several times for every value it reads, each time through its
    own cache (a hash of the arguments); the words are its language module's own, which no cache clearing and no
    custom unit changes, so the order made at the first call is kept."""
    kept: Dict[str, Tuple[str, ...]] = {}

    @wraps(words)
    def ordered(lang: str = "en_US") -> Tuple[str, ...]:
        known = kept.get(lang)
        if known is None:
            known = kept[lang] = tuple(sorted(words(lang), key=lambda word: (-len(word), word)))
        return known

    return ordered


def _modules_kept(get):
    """quantulum3's ``language.get`` (the module of one name for a language), each module looked up once: the same
    module, which it otherwise imports again, with the language name rewritten by a regex, several times a value."""
    kept: Dict[Tuple[str, str], object] = {}

    @wraps(get)
    def module(name: str, lang: str = "en_US"):
        found = kept.get((name, lang))
        if found is None:
            found = kept[name, lang] = get(name, lang)
        return found

    return module


def _by_name(choose):
    """quantulum3's unit chooser (the one used without its classifier), given the candidates by name: it keeps the
    first of equally good ones. It scores a candidate as quantulum3 does (the words of the unit's training texts
    found in the text, over the length of those texts), from each unit's words counted once (``_training_words``)
    instead of splitting every training text again for each candidate of each value read."""
    @wraps(choose)
    def by_name(candidates, text: str, lang: str = "en_US"):
        chosen, chosen_count, chosen_share = None, 0, 0
        units, longest = _training_words(lang)
        pieces = _pieces(text, longest)
        for candidate in sorted(candidates, key=lambda candidate: candidate.name):
            length, words = units.get(candidate.name, (0, Counter()))
            found = pieces & words.keys() if pieces is not None else [word for word in words if word in text]
            count = sum(words[word] for word in found)
            share = count / length if length else 0
            if share > chosen_share or (share == chosen_share and count > chosen_count):
                chosen, chosen_count, chosen_share = candidate, count, share
        return chosen

    return by_name


def _pieces(text: str, longest: int) -> Optional[Set[str]]:
    """Every stretch of a text that a training word could be (the empty one, which occurs in any text; none with a
    space, since the words are split on spaces; none longer than the ``longest`` word), so that the training words
    found in the text are looked up rather than searched for; None for a text longer than ``MAX_PIECES_TEXT``."""
    if len(text) > MAX_PIECES_TEXT:
        return None
    return {chunk[start:end] for chunk in text.split(" ") for start in range(len(chunk))
            for end in range(start + 1, min(len(chunk), start + longest) + 1)} | {""}


@lru_cache(maxsize=2)
def _training_words(lang: str) -> Tuple[Dict[str, Tuple[int, Counter]], int]:
    """For each unit of quantulum3's training set: the length of its texts together, and their words (split on
    spaces, as quantulum3 splits them) with how often each occurs; and the length of the longest word."""
    from quantulum3 import load

    units: Dict[str, Tuple[int, Counter]] = {}
    for example in load.training_set(lang):
        length, words = units.get(example["unit"], (0, Counter()))
        words.update(example["text"].split(" "))
        units[example["unit"]] = (length + len(example["text"]), words)
    return units, max((len(word) for _, words in units.values() for word in words), default=0)


def _as_tries(build, rewrite):
    """One of quantulum3's pattern builders, giving its pattern rewritten by ``rewrite`` (once per pattern it
    builds: it builds its patterns again when its tables change)."""
    rewritten: Dict[str, Tuple[re.Pattern, re.Pattern]] = {}

    @wraps(build)
    def built(lang: str = "en_US") -> re.Pattern:
        pattern = build(lang)
        known = rewritten.get(lang)
        if known is None or known[0] is not pattern:
            known = rewritten[lang] = (pattern, rewrite(pattern))
        return known[1]

    return built


def _units_as_tries(compile_):
    """A rewrite of quantulum3's unit pattern: its alternation of unit names and symbols (eight times in it, longest
    first) written as a trie (``tries.py``: the same matches, the same groups); the pattern itself when it is not
    built as this expects."""
    def rewrite(pattern: re.Pattern) -> re.Pattern:
        start = pattern.pattern.find(UNITS_GROUP)
        if start < 0:
            return pattern
        alternation = ESCAPED_RUN.match(pattern.pattern, start + len(UNITS_GROUP)).group()
        words = words_of(alternation)
        if not words or any(len(a) < len(b) for a, b in zip(words, words[1:])):
            return pattern
        faster = compile_(pattern.pattern.replace(alternation, trie(words, pattern.flags)), pattern.flags)
        return faster if (faster.groups, faster.groupindex) == (pattern.groups, pattern.groupindex) else pattern

    return rewrite


def _number_words_as_tries(compile_, number_words: Callable[[], Dict[str, object]], alternation: Callable[[], str]):
    """A rewrite of quantulum3's spelled-number pattern: its alternation of number words, each between word
    boundaries (twice in it), written as the boundaries around one trie of the words. At one place at most one of
    them ends at a boundary (each is letters, or "&"), so the alternation's order never
    mattered, and quantulum3 reads only the whole match of this pattern (the rewrite drops the alternation's empty
    groups); the pattern itself when it is not built as this expects."""
    def rewrite(pattern: re.Pattern) -> re.Pattern:
        words = sorted((word for word in number_words() if word), key=len, reverse=True)
        written = alternation()
        if written not in pattern.pattern or not all(re.fullmatch(r"[A-Za-z]+|&", word) for word in words) or \
                written != "|".join(r"((?<=\W)|^)%s((?=\W)|$)" % word for word in number_words() if word):
            return pattern
        bounded = r"(?:(?<=\W)|^)(?:%s)(?:(?=\W)|$)" % trie(words, pattern.flags)
        faster = compile_(pattern.pattern.replace(written, bounded), pattern.flags)
        return faster if faster.groupindex == pattern.groupindex else pattern

    return rewrite


@lru_cache(maxsize=1)
def _parser():
    """quantulum3's parser, imported and set up once (see the module docstring)."""
    folder = cache_folder()
    path = None if folder is None else plurals.table_path(folder)
    with warnings.catch_warnings(), plurals.plurals_from_table(path) as table:
        warnings.filterwarnings("ignore", message="Classifier dependencies not installed")
        from quantulum3 import language, load, no_classifier, parser, regex
        import_module(f"quantulum3._lang.{QUANTULUM_LANGUAGE}.parser")  # imports inflect, for its plurals
    if folder is not None:
        regex.re = keeping_compiled(folder)
    for name in ORDERED_WORDS:
        if not hasattr(getattr(regex, name), "__wrapped__"):
            setattr(regex, name, _in_fixed_order(getattr(regex, name)))
    if not hasattr(language.get, "__wrapped__"):
        language.get = _modules_kept(language.get)
    if not hasattr(no_classifier.disambiguate_no_classifier, "__wrapped__"):
        no_classifier.disambiguate_no_classifier = _by_name(no_classifier.disambiguate_no_classifier)
    if not hasattr(regex.units_regex, "__wrapped__"):
        regex.units_regex = _as_tries(regex.units_regex, _units_as_tries(regex.re.compile))
    if not hasattr(regex.text_pattern_reg, "__wrapped__"):
        regex.text_pattern_reg = _as_tries(regex.text_pattern_reg, _number_words_as_tries(
            regex.re.compile, lambda: regex.numberwords(QUANTULUM_LANGUAGE),
            lambda: regex.numberwords_regex(QUANTULUM_LANGUAGE)))
    load._CACHE_DICT.clear()  # regexes built before this point were built in hash order
    parser.parse(WARM_UP)
    if table is not None and table.added:
        plurals.write_table(table, path)
    return parser
