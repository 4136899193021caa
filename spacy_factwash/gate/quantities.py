"""Numbers and units in a sentence, found with quantulum3 only where spaCy sees a number.

quantulum3 costs milliseconds a call, growing with the text, so it runs
only on spans that hold a token spaCy marks ``like_num`` (digits or number
words), and then only on short windows around those tokens (a few words on
each side: enough for "$1.2 million", "1.2 million dollars", "5 GB").
"""

import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import List, Tuple

from spacy.tokens import Span

DIMENSIONLESS = "dimensionless"
BEFORE, AFTER = 3, 4  # tokens read on each side of a number


@dataclass(frozen=True)
class Quantity:
    """A value with its unit, and where it stands in its text."""

    value: float
    unit: str
    entity: str
    surface: str
    start_char: int
    end_char: int

    @property
    def has_unit(self) -> bool:
        return self.entity != DIMENSIONLESS


@lru_cache(maxsize=1)
def _parser():
    """quantulum3's parser, imported once (its optional classifier is not needed)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Classifier dependencies not installed")
        from quantulum3 import parser
    return parser


PLUS_MINUS = ("±", "+/-", "+-", "plus or minus")


def _values(quantity) -> Tuple[float, ...]:
    """The values a quantulum3 quantity states: a range ("from 120 ms to 80 ms", "5-10 GB") is read as its
    midpoint and half-width, so it gives back both ends; a stated uncertainty ("5 ± 0.2 mg") stays one value."""
    spread = float(getattr(quantity, "uncertainty", None) or 0)
    if spread and not any(mark in quantity.surface.lower() for mark in PLUS_MINUS):
        return float(quantity.value) - spread, float(quantity.value) + spread
    return (float(quantity.value),)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Tuple[Tuple[float, str, str, str, int, int], ...]:
    """(value, unit, entity, surface, start, end) for each value quantulum3 finds in ``text``."""
    found = []
    for quantity in _parser().parse(text):
        found += [(value, quantity.unit.name, quantity.unit.entity.name, quantity.surface,
                   quantity.span[0], quantity.span[1]) for value in _values(quantity)]
    return tuple(found)


def number_windows(span: Span) -> List[Span]:
    """Merged windows of a few tokens around every number-like token of the span."""
    windows: List[Span] = []
    for token in span:
        if not token.like_num:
            continue
        start, end = max(span.start, token.i - BEFORE), min(span.end, token.i + AFTER + 1)
        if windows and start <= windows[-1].end:
            windows[-1] = span.doc[windows[-1].start: max(end, windows[-1].end)]
        else:
            windows.append(span.doc[start:end])
    return windows


def quantities(span: Span) -> Tuple[Quantity, ...]:
    """The quantities of a span, with offsets in its Doc's text; empty when it holds no number."""
    found = []
    for window in number_windows(span):
        offset = window.start_char
        found += [Quantity(v, unit, entity, surface, offset + s, offset + e)
                  for v, unit, entity, surface, s, e in _parse(window.text)]
    return tuple(found)


def same_value(a: float, b: float) -> bool:
    """Equal up to float noise."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
