"""Qualifiers: a hedge, an attribution or a time scope bound to the source claim and to nothing in the memory claim.

Classes are compared as classes, so "said" -> "according to", "might" ->
"may" pass; a cue of the class that qualifies another claim of the memory
never satisfies this one. Conditions have their own check
(``conditions.py``), since a condition can also change or become a fact.
"""

from typing import List

from ..report import Change
from .base import Pair, quoted
from .values import time_cues

PRESENCE = {
    "dropped_attribution": ("ATTRIBUTION", "the source attributes this claim ({cues}); the memory states it as fact"),
    "strengthened_certainty": ("HEDGE", "the source hedges this claim ({cues}); the memory states it as certain"),
    "dropped_temporal_scope": ("TEMPORAL", "the source scopes this claim in time ({cues}); the memory drops it"),
}


def check_qualifiers(pair: Pair) -> List[Change]:
    """One change per qualifier class the source claim has and the memory claim lacks (a time word that is part
    of a value, such as "hours" in "2 hours", is the value's, not a time scope)."""
    changes = []
    for change_type, (label, message) in PRESENCE.items():
        if label == "TEMPORAL":
            source_cues = time_cues(pair.source_claims, pair.source)
            kept = time_cues(pair.memory_claims, pair.memory)
        else:
            source_cues, kept = pair.source.cues(label), pair.memory.cues(label)
        if source_cues and not kept:
            changes.append(pair.change(change_type, message.format(cues=quoted(source_cues)),
                                       pair.cue_evidence(source_cues, "source")))
    return changes
