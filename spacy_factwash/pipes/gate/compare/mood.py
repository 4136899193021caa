"""Mood: a claim the source does not assert, stated as a fact in the memory (``changed_mood``).

The source claim is an obligation or permission ("must", "are allowed
to"), an intent, plan or wish ("plan to", "hope to", "will"), a hypothetical
or counterfactual ("would have", "almost"), a statement inside a dream, a
joke or a story, a request ("please"), or a question ("?", "whether"). The
memory keeps its mood when its claim carries a word of the same mood; a
question is kept by a question or by an asking frame ("the user asked
whether ..."). A modal that is a hedge ("may", "could") is the certainty
check's (``qualifiers.py``), so one word is never two changes.
"""

from typing import List, Sequence

from ..records import Part
from ..report import Change
from .base import Pair

ASKING = frozenset({"ask", "asks", "asked", "asking", "inquire", "inquired", "inquires", "enquire", "enquired",
                    "wonder", "wondered", "wonders", "wondering", "question", "questioned", "query", "queried"})
AS = {"obligation": "an obligation", "permission": "a permission or an ability", "intent": "an intent or plan",
      "hypothetical": "hypothetical", "frame": "inside a frame that is not the real world", "request": "a request",
      "question": "a question"}


def _hedged(pair: Pair, part: Part, claim) -> bool:
    """Whether a mood word overlaps a hedge cue of the claim (left to the certainty check)."""
    return any(c.start < s.end and s.start < c.end for c in claim.cues("HEDGE") for s in part.spans)


def asks(claim) -> bool:
    """Whether the claim sits under an asking frame ("asked whether", "wondered if")."""
    return any(t.lower_ in ASKING for cue in claim.cues("ATTRIBUTION") for t in cue) or any(
        t.lower_ in ASKING for t in claim.sentence)


FUTURE = frozenset({"would", "will", "'ll"})


def _keeps(part: Part, memory: Sequence[Part], claim) -> bool:
    """Whether the memory's moods keep a source mood: the same mood, a question kept as an asking frame, and
    "would" kept by "would" or "will" (the reported future, or a hypothetical both sides state so)."""
    if part.value in ("question", "request"):
        return any(p.value in ("question", "request") for p in memory) or asks(claim)
    if part.spans[0].text.lower() in FUTURE:
        return any(p.value in ("intent", "hypothetical") for p in memory)
    return any(p.value == part.value for p in memory)


def check_mood(pair: Pair) -> List[Change]:
    """changed_mood for a source mood the memory claim does not keep."""
    source, memory = pair.records()
    moods = [p for p in source.of("mood") if not _hedged(pair, p, pair.source) and p.bears_on & pair.memory.keys]
    if not moods:
        return []
    kept = [p for p in memory.of("mood") if not _hedged(pair, p, pair.memory)]
    lost = [p for p in moods if not _keeps(p, kept, pair.memory)]
    if not lost:
        return []
    first = lost[0]
    other = [p for p in kept if p.value != first.value]
    says = f"as {AS[other[0].value]} ({other[0].text})" if other else "as a plain fact"
    return [pair.change("changed_mood", f"the source states this claim as {AS[first.value]} ({first.text}); the "
                        f"memory {says}", pair.part_evidence(lost, "source") + pair.part_evidence(other, "memory"))]
