"""JSON as the standard has it, in and out: the JSON lines every run reads and writes go through here.

Python's ``json`` reads ``NaN``, ``Infinity`` and ``-Infinity`` (and a number
too large for a float, as infinity) and writes them back, which no other
JSON reader accepts; and a line nested 10^6 levels deep makes it raise
``RecursionError``. ``loads`` refuses all of these with a ``ValueError``
saying what, so that a reader names the line; ``dumps`` refuses to write a
value that is not JSON, so that nothing written is unreadable elsewhere.
"""

import json
import math
from typing import Any


def _constant(name: str) -> float:
    """``parse_constant``: NaN, Infinity and -Infinity are not JSON."""
    raise ValueError(f"{name} is not a JSON value")


def _number(text: str) -> float:
    """``parse_float``: a number, unless it is too large for a float."""
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:24]}{'...' if len(text) > 24 else ''} is too large")
    return value


def loads(text: str) -> Any:
    """A JSON text's value: ``json.JSONDecodeError`` for text that is not JSON, another ``ValueError`` for a
    value JSON has not (NaN, infinities) or one nested too deeply to read."""
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_number)
    except RecursionError:
        raise ValueError("nested too deeply to read") from None


def dumps(value: Any, **settings: Any) -> str:
    """A value as JSON (characters kept, not escaped); ``ValueError`` for a float JSON has not (NaN, infinities)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, **settings)
