"""Checking a model's quote against the text it claims to quote, and finding where it is.

A quote counts when it occurs in the text after both are normalised the same
documented way: lower-cased, curly quotes folded to straight ones, and runs
of whitespace collapsed to one space (leading and trailing space dropped).
Nothing else is forgiven: no stemming, no punctuation dropped, no fuzzy match.
``locate`` maps a match in the normalised text back to character offsets in
the original, so every model finding points into the text like a cue does.
"""

import re
from typing import List, Optional, Tuple

QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Lower-cased, curly quotes folded, whitespace collapsed: the form quotes are checked in."""
    return SPACE.sub(" ", text.translate(QUOTES).lower()).strip()


def _normalised_with_offsets(text: str) -> Tuple[str, List[int]]:
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
    """(start, end) character offsets of the first occurrence of ``quote`` in ``text``, or None when absent."""
    needle = normalise(quote)
    if not needle:
        return None
    haystack, offsets = _normalised_with_offsets(text)
    at = haystack.find(needle)
    if at < 0:
        return None
    return offsets[at], offsets[at + len(needle) - 1] + 1
