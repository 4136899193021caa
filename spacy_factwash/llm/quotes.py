"""Checking a model's quote against the text it claims to quote, and finding where it is.

A quote counts when it occurs in the text after both are normalised the same
documented way: lower-cased, curly quotes folded to straight ones, and runs
of whitespace collapsed to one space (leading and trailing space dropped).
Nothing else is forgiven: no stemming, no punctuation dropped, no fuzzy match.
A quote must stand at word boundaries (it never starts or ends inside a
word: "a" is not found in "was"), and it must hold at least one word that is
not a function word (``function_words.txt``), so a full stop, a letter or
"the" can never serve as a quoted cue. ``locate`` maps a match in the
normalised text back to character offsets in the original, so every model
finding points into the text like a cue does. (The witness's quotes are held
to more: ``markers.py``.)
"""

import re
from functools import lru_cache
from importlib import resources
from typing import FrozenSet, List, Optional, Tuple

QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Lower-cased, curly quotes folded, whitespace collapsed: the form quotes are checked in."""
    return SPACE.sub(" ", text.translate(QUOTES).lower()).strip()


def normalised_with_offsets(text: str) -> Tuple[str, List[int]]:
    """The normalised text and, for each of its characters, the offset of the original character it came from."""
    chars: List[str] = []
    offsets: List[int] = []
    for match in re.finditer(r"\S+", text):
        if chars:
            chars.append(" ")
            offsets.append(match.start() - 1)
        for i, char in enumerate(match.group()):
            folded = char.translate(QUOTES).lower()
            chars.extend(folded)  # lower() can lengthen a character ("İ"): each piece points at its source
            offsets.extend([match.start() + i] * len(folded))
    return "".join(chars), offsets


def locate(text: str, quote: str) -> Optional[Tuple[int, int]]:
    """(start, end) character offsets of the first occurrence of ``quote`` in ``text`` at word boundaries, or None."""
    needle = normalise(quote)
    if not needle:
        return None
    haystack, offsets = normalised_with_offsets(text)
    before = r"(?<!\w)" if re.match(r"\w", needle) else ""
    after = r"(?!\w)" if re.search(r"\w$", needle) else ""
    match = re.search(before + re.escape(needle) + after, haystack)
    if match is None:
        return None
    return offsets[match.start()], offsets[match.end() - 1] + 1


@lru_cache(maxsize=1)
def function_words() -> FrozenSet[str]:
    """The closed-class words no quote may consist of alone (``function_words.txt`` beside this module)."""
    text = resources.files("spacy_factwash.llm").joinpath("function_words.txt").read_text(encoding="utf8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def quote_problem(text: str, quote: object) -> Optional[str]:
    """Why ``quote`` cannot count as a quotation of ``text`` (None when it can): not a string, not found at word
    boundaries, or holding no word besides function words and punctuation."""
    if not isinstance(quote, str):
        return f"a quote must be a string, got {type(quote).__name__}"
    words = re.findall(r"\w+", normalise(quote))
    if not any(word not in function_words() and not word.isdigit() for word in words):
        return f"{quote!r} holds no word that can be a cue (only punctuation or function words)"
    if locate(text, quote) is None:
        return f"{quote!r} is not in the text as whole words"
    return None
