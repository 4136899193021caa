"""Restrictions: the population, place, subgroup or study a claim is limited to, dropped (``broadened``) or
added (``weakened``).

A source restriction ("Among smokers over 60, ...", "in patients over 70",
"at the Leeds site") is kept when the memory claim keeps most of its content
words ("in smokers older than 60" keeps "smoker" and "60"); a memory that
drops it states the claim of everyone, everywhere. A restriction only the
memory has limits a claim the source states generally. Incidental detail a
faithful compression may drop (an appositive, a relative clause set off by
commas) is no restriction: the record reads only phrases that restrict.
"""

from typing import List

from ..records import numbers
from ..report import Change
from .base import Pair

KEPT_SHARE = 0.5  # of a restriction's words (beside all its numbers) the other claim must have to keep it


def _kept(part, claim) -> bool:
    """Whether a claim keeps a restriction: every number of it ("over 60") and at least half of its words."""
    other = _content(claim)
    figures = part.detail[0] if part.detail else frozenset()
    words = part.bears_on - figures
    return figures <= other and (not words or len(words & other) >= KEPT_SHARE * len(words))


def _content(claim) -> frozenset:
    """A claim's content keys and its numbers: what a restriction of the other side must find in it."""
    return claim.keys | frozenset().union(*(numbers(claim.doc, s, e) for s, e in claim.clause.ranges))


def check_restriction(pair: Pair) -> List[Change]:
    """broadened for a source restriction the memory claim drops, weakened for one only the memory claim has."""
    source, memory = pair.records()
    dropped = [p for p in source.of("restriction") if not _kept(p, pair.memory)]
    added = [p for p in memory.of("restriction") if not _kept(p, pair.source)]
    changes = []
    if dropped and pair.source.keys - frozenset().union(*(p.bears_on for p in dropped)) & pair.memory.keys:
        changes.append(pair.change("broadened", f"the source limits this claim to {', '.join(p.text for p in dropped)}; "
                                   "the memory states it without that limit", pair.part_evidence(dropped, "source"),
                                   check="restriction"))
    if added:
        changes.append(pair.change("weakened", f"the memory limits this claim to {', '.join(p.text for p in added)}; "
                                   "the source states it without that limit", pair.part_evidence(added, "memory"),
                                   check="restriction"))
    return changes
