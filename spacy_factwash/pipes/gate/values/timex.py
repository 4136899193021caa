"""The value of a time expression, so two notations of one time compare equal and two times do not.

A TEMPORAL cue ("5 pm", "17:00", "7 June 2020", "June 7, 2020", "Friday",
"last week", "Q3") is read into fields: clock time (minutes after midnight;
"10 o'clock" could be either half of the day), weekday, day, month, year,
quarter, and a relative period ("last week": last, week). Two expressions
of the same kind disagree when a field both fill differs; a field only one
fills is not a disagreement ("June 7" and "June 7, 2020" agree).
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, Optional, Tuple

from spacy.tokens import Span

from ....lexicon.sets import TIMEX_FILE, VALUES
from ....lexicon.tables import table_json

CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|o'clock|utc|gmt)?", re.IGNORECASE)
ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
SLASHED = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b")
YEAR = re.compile(r"\b(1[6-9]\d\d|20\d\d)\b")
DAY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\b")
QUARTER = re.compile(r"\b(?:Q([1-4])|([1-4])Q|H([12]))\b")


@dataclass(frozen=True)
class TimeValue:
    """The fields a time expression fills (None where it says nothing)."""

    clock: Optional[FrozenSet[int]] = None  # minutes after midnight (two readings for "10 o'clock")
    weekday: Optional[int] = None
    day: Optional[int] = None
    month: Optional[int] = None
    year: Optional[int] = None
    quarter: Optional[str] = None
    relative: Optional[Tuple[str, str]] = None
    numeric_date: Optional[FrozenSet[Tuple[int, int]]] = None  # "3/4/2020": (month, day) read both ways

    def empty(self) -> bool:
        return not any(getattr(self, name) is not None for name in self.__dataclass_fields__)

    def conflicts(self, other: "TimeValue") -> Optional[str]:
        """The first field both fill with different values, or None."""
        for name in self.__dataclass_fields__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine is None or theirs is None:
                continue
            if name in ("clock", "numeric_date"):
                if not mine & theirs:
                    return name
            elif mine != theirs:
                return name
        return None


def _clock(text: str, cue_id: str) -> Optional[FrozenSet[int]]:
    """Minutes after midnight of a clock time ("5 pm" 1020, "17:00" 1020, "10 o'clock" 600 or 1320)."""
    if cue_id not in ("temporal:clock_time", "temporal:hour_ampm"):
        return None
    match = CLOCK.search(text)
    if match is None:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    suffix = (match.group(3) or "").lower().replace(".", "")
    if hour > 24 or minute > 59:
        return None
    if suffix == "pm" and hour < 12:
        hour += 12
    elif suffix == "am" and hour == 12:
        hour = 0
    elif suffix == "o'clock" and hour <= 12:
        return frozenset({(hour % 12) * 60 + minute, (hour % 12 + 12) * 60 + minute})
    return frozenset({(hour % 24) * 60 + minute})


@lru_cache(maxsize=1)
def names() -> Dict[str, Dict[str, object]]:
    """Weekday, month, relative-word and period names from ``timex.json`` (the value tables this process reads)."""
    return table_json(VALUES.name, TIMEX_FILE)


def _month(word: str) -> Optional[int]:
    return names()["months"].get(word.lower().rstrip("."))


def _weekday(word: str) -> Optional[int]:
    return names()["weekdays"].get(word.lower().rstrip("."))


def time_value(cue: Span) -> TimeValue:
    """Read a TEMPORAL cue (with a ", 2020" that follows a month and day) into its fields."""
    doc = cue.doc
    end = cue.end
    if end + 1 < len(doc) and doc[end].text == "," and YEAR.fullmatch(doc[end + 1].text):
        end += 2
    text = doc[cue.start:end].text
    words = re.findall(r"[A-Za-z]+\.?|\d+", text)
    fields = {}
    clock = _clock(text, cue.id_)
    if clock is not None:
        return TimeValue(clock=clock)
    iso = ISO.search(text)
    if iso:
        return TimeValue(year=int(iso.group(1)), month=int(iso.group(2)), day=int(iso.group(3)))
    slashed = SLASHED.search(text)
    if slashed:
        a, b = int(slashed.group(1)), int(slashed.group(2))
        return TimeValue(year=int(slashed.group(3)) % 100 + 2000 if len(slashed.group(3)) == 2 else int(slashed.group(3)),
                         numeric_date=frozenset({(a, b), (b, a)}))
    for word in words:
        if _weekday(word) is not None and "weekday" not in fields:
            fields["weekday"] = _weekday(word)
        elif _month(word) is not None and word[0].isupper() and "month" not in fields:
            fields["month"] = _month(word)
    year = YEAR.search(text)
    if year:
        fields["year"] = int(year.group(1))
    if "month" in fields:
        for match in DAY.finditer(text):
            if not YEAR.fullmatch(match.group(1)) and 1 <= int(match.group(1)) <= 31:
                fields["day"] = int(match.group(1))
                break
    quarter = QUARTER.search(text)
    if quarter:
        fields["quarter"] = "".join(g for g in quarter.groups() if g) + ("H" if quarter.group(3) else "Q")
    lowered = [w.lower() for w in words]
    relative, periods = names()["relative"], names()["periods"]
    for first, second in zip(lowered, lowered[1:]):
        period = periods.get(second) or (second if _weekday(second) is not None else None)
        if first in relative and period is not None:
            fields["relative"] = (relative[first], period)
    return TimeValue(**fields)
