"""The text as a person reads it: what a screen shows, mapped back to the characters the text holds.

A word can be hidden from a program and still be read by a person (issue 25): "s<b></b>aid", "n&#111;t" and
"n*o*t" show "said" and "not" (``markup.py``); "s\\x00aid", "s\\u200baid" and "s\\u3164aid" show "said", since
control and default-ignorable characters show nothing; "\\u202ediaS\\u202c" shows "Said" (``bidi.py``); "ѕаіԁ" in
Cyrillic, "ΝОТ" in Greek and Cyrillic capitals and "ɴᴏᴛ" in small capitals show "said", "NOT" and "not".
``read`` gives the text as it is read, in that order (markup, display order, invisible characters, look-alike
letters), as a :class:`Shadow` whose pieces map every offset back to the text given and whose notes say what was
read otherwise than written; None when the text reads as it is written (the common case: an ASCII text with no
control character and none of ``<&*~`` costs one ``isascii`` test and one regular-expression scan).

Look-alike letters (``confusables.tsv``: the letters of other scripts that Unicode's confusables table reads as one
Latin letter, and the Latin small capitals; not the Latin letters of other alphabets, Turkish "ı", which a word is
read in) are read as Latin only where a person would take them for Latin, so that Russian or Greek text stays
Russian or Greek for the gate's language check:

- in a word that also holds a Latin letter ("nоt" with a Cyrillic o), always;
- in a word made of look-alike letters only ("ѕаіԁ", "ΝОТ"), when no word beside it is written in another script:
  the nearest word on each side that is not itself all look-alikes is Latin or there is none. In Russian text
  the words beside one ("ТАК сказал") hold letters that look like no Latin letter, so it is left alone.
"""

import re
import unicodedata
from functools import lru_cache
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..lexicon.entries import LexiconError
from ..lexicon.sets import CONFUSABLES_FILE, SYNTAX
from ..lexicon.tables import table_origin, table_text
from .bidi import display_edits
from .markup import markup_edits
from .textmap import Edit, Note, Shadow, applied, compose

ASCII_MARKS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f<&*~]")
# controls (tab, newline and carriage return kept) and Unicode's default-ignorable code points, which show nothing;
# and the Braille blank, which shows as a blank but is no space
INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5"
                       "\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0"
                       "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+")
LINE_BREAKING = frozenset("\x0b\x0c\x85")  # controls that show as a break: read as a space
BLANK = "\u2800"
WORD = re.compile(r"[^\W\d_]+")
Step = Callable[[str], Tuple[List[Edit], List[Note]]]


@lru_cache(maxsize=1)
def confusables() -> Dict[str, str]:
    """Letters read as the Latin letter they look like, from ``confusables.tsv`` (the syntax tables this process
    reads)."""
    table = {}
    for number, line in enumerate(table_text(SYNTAX.name, CONFUSABLES_FILE).splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or len(parts[0]) != 1 or not parts[1].isascii():
            raise LexiconError(f"{table_origin(SYNTAX.name, CONFUSABLES_FILE)}:{number}: expected "
                               "'character<TAB>latin<TAB>name'")
        table[parts[0]] = parts[1]
    return table


def invisible_edits(text: str) -> Tuple[List[Edit], List[Note]]:
    """Control and default-ignorable characters read as nothing (a line-breaking control as a space; a Braille
    blank as nothing inside a word, as a space elsewhere)."""
    edits: List[Edit] = []
    notes: List[Note] = []
    for run in INVISIBLE.finditer(text):
        start, end = run.span()
        chars = run.group()
        inside_word = 0 < start and end < len(text) and text[start - 1].isalnum() and text[end].isalnum()
        shows_space = not LINE_BREAKING.isdisjoint(chars) or (BLANK in chars and not inside_word)
        edits.append((start, end, " " if shows_space else "", False))
        control = any(unicodedata.category(char) == "Cc" for char in chars)
        notes.append(("control" if control else "invisible", start, end))
    return edits, notes


def look_alike_edits(text: str) -> Tuple[List[Edit], List[Note]]:
    """Look-alike letters read as Latin where a person takes them for Latin (the module's rule), one note per
    word."""
    table = confusables()
    if table.keys().isdisjoint(text):  # a look-up per character (a character class of them, half outside the
        return [], []                  # Basic Multilingual Plane, cost a regular expression 30 us a sentence)
    words = list(WORD.finditer(text))
    kinds = [_script(word.group(), table) for word in words]
    foreign = _beside_foreign(kinds)
    edits: List[Edit] = []
    notes: List[Note] = []
    for n, word in enumerate(words):
        if kinds[n] == "mixed" or (kinds[n] == "look-alike" and not foreign[n]):
            for offset, char in enumerate(word.group()):
                if char in table:
                    edits.append((word.start() + offset, word.start() + offset + 1, table[char], True))
            notes.append(("look-alike", word.start(), word.end()))
    return edits, notes


def _script(word: str, table: Dict[str, str]) -> str:
    """How a word is written: ``latin`` (no look-alike), ``mixed`` (look-alikes beside a Latin letter),
    ``look-alike`` (look-alikes only), ``foreign`` (a letter of another script that looks like no Latin one)."""
    latin = look_alikes = foreign = False
    for char in word:
        if char in table:
            look_alikes = True
        elif char.isascii() or _is_latin(char):
            latin = True
        else:
            foreign = True
    if latin and look_alikes:
        return "mixed"
    if foreign:
        return "foreign"
    return "look-alike" if look_alikes else "latin"


@lru_cache(maxsize=4096)
def _is_latin(char: str) -> bool:
    """Whether a letter is of the Latin script (by its Unicode name: "LATIN SMALL LETTER E WITH ACUTE")."""
    return unicodedata.name(char, "").startswith("LATIN")


def _beside_foreign(kinds: Sequence[str]) -> List[bool]:
    """For each word, whether the nearest word before or after it that is not all look-alikes is foreign (one
    pass each way)."""
    beside = [False] * len(kinds)
    for order in (range(len(kinds)), range(len(kinds) - 1, -1, -1)):
        last = None
        for n in order:
            if kinds[n] == "look-alike":
                beside[n] = beside[n] or last == "foreign"
            else:
                last = kinds[n]
    return beside


STEPS: Tuple[Step, ...] = (markup_edits, display_edits, invisible_edits, look_alike_edits)


def read(text: str) -> Optional[Shadow]:
    """The text as a person reads it, mapped back to ``text``; None when it reads as it is written."""
    if text.isascii() and ASCII_MARKS.search(text) is None:
        return None
    shadow: Optional[Shadow] = None
    for step in STEPS:
        current = text if shadow is None else shadow.text
        edits, notes = step(current)
        if edits:
            shadow = compose(applied(current, edits, notes), shadow)
    return shadow
