"""Qualifiers: a hedge, an attribution or a time scope bound to the source claim and to nothing in the memory claim.

Classes are compared as classes, so "said" -> "according to", "might" ->
"may" pass; a cue of the class that qualifies another claim of the memory
never satisfies this one. An attribution that names no speaker ("is
expected", "was deemed", "reportedly") marks the claim as not the writer's
own, as a hedge does, so the two stand for each other ("was deemed" ->
"was thought"). Conditions have their own check (``conditions.py``), since a
condition can also change or become a fact.
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


def _speakerless(claims, cues) -> bool:
    """Whether every attribution cue names no speaker (an evidential: "is expected", "reportedly")."""
    return all(not claims.speakers_of(cue) for cue in cues)


def _kept(pair: Pair, label: str) -> bool:
    """Whether the memory claim keeps a qualifier of the class (or its stand-in: a hedge for a speakerless
    attribution, a speakerless attribution for a hedge)."""
    if label == "TEMPORAL":
        return bool(time_cues(pair.memory_claims, pair.memory))
    if pair.memory.cues(label):
        return True
    if label == "ATTRIBUTION":
        return _speakerless(pair.source_claims, pair.source.cues(label)) and bool(pair.memory.cues("HEDGE"))
    if label == "HEDGE":
        attributions = pair.memory.cues("ATTRIBUTION")
        return bool(attributions) and _speakerless(pair.memory_claims, attributions)
    return False


def check_qualifiers(pair: Pair) -> List[Change]:
    """One change per qualifier class the source claim has and the memory claim lacks (a time word that is part
    of a value, such as "hours" in "2 hours", is the value's, not a time scope)."""
    changes = []
    for change_type, (label, message) in PRESENCE.items():
        source_cues = time_cues(pair.source_claims, pair.source) if label == "TEMPORAL" else pair.source.cues(label)
        if source_cues and not _kept(pair, label):
            changes.append(pair.change(change_type, message.format(cues=quoted(source_cues)),
                                       pair.cue_evidence(source_cues, "source")))
    return changes
