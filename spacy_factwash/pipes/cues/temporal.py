"""Temporal scope: when a claim held ("as of Monday", "until 2020", "currently", "back in 2019").

Dates, years after a preposition, weekdays, months and relative expressions
("last week", "three days ago") are token patterns in
``lexicons/temporal.jsonl``; a bare capitalised "May" only counts next to a
number or a preposition, which the patterns encode.
"""

from .component import register_factory
from .detector import CueDetector


class TemporalDetector(CueDetector):
    """Resolve temporal-scope cues: the lexicon and its patterns say everything."""

    label = "TEMPORAL"
    name = "temporal"


make_temporal = register_factory("factwash_temporal", lambda: [TemporalDetector()])
