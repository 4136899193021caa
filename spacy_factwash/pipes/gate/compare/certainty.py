"""Certainty: a claim stated as surer than the source states it (``strengthened_certainty``).

Each side's certainty is the least certain rank of its hedges that bear on
what the two claims share, on the scale slight < possible < likely < very
likely < certain (``records.py``; a claim with no hedge is certain). A
memory above its source strengthened the claim: "might" -> "will", "might"
-> "probably", "is projected to" -> "will". The same rank in other words
("might" -> "may", "is expected to" -> "is projected to", "likely" ->
"probably") keeps it. An attribution that names no speaker ("is expected",
"reportedly") keeps a hedge as a hedge does (the claim is not the writer's
own).
"""

from bisect import bisect_left
from typing import List, Sequence

from ..records import CERTAINTY, Part, in_as_clause
from ..report import Change
from . import equivalent
from .base import Pair
from .mood import asks
from .qualifiers import kept_by_speakerless

CERTAIN = CERTAINTY["certain"]


MODALS = frozenset({"may", "might", "could", "can", "ca", "should", "would", "must"})


def _reach(pair: Pair, part: Part, claim) -> Part:
    """A modal hedge bears on the whole verb phrase after it ("may improve sleep quality in people with chronic
    pain" ~ "may help people with chronic pain sleep better"), not only the next few words."""
    span = part.spans[0] if part.spans else None
    if span is None or span.text.lower() not in MODALS or not claim.holds(span):
        return part
    after = frozenset(k for i, k in claim.key_at.items() if i >= span.end)
    return Part(part.kind, part.value, part.rank, part.spans, part.words, after or part.bears_on, part.detail)


def _bearing(parts: Sequence[Part], keys) -> List[Part]:
    """The parts that bear on content the other claim has (a part of a frame bears on the whole claim)."""
    return [p for p in parts if not p.bears_on or p.bears_on & keys]


SIBLING_REACH = 8  # memory claims either side of this one that may carry part of a split source claim


def _stated_here(pair: Pair, parts: Sequence[Part]) -> List[Part]:
    """The source hedges bearing on what this memory claim states, and stated no better by another memory claim
    aligned to the same source claim: a source sentence cut into two memory claims is checked hedge by hedge where
    each hedge's content went ("they expect sales to rise, with costs expected to fall" -> "They expect sales to
    rise. Costs are expected to fall.")."""
    aligned = pair.aligned_to.get(pair.source.index, [])  # in memory order: only the nearby claims are read
    at = bisect_left(aligned, pair.memory.index - SIBLING_REACH, key=lambda c: c.index)
    siblings = [c for c in aligned[at:at + 2 * SIBLING_REACH + 1]
                if c is not pair.memory and abs(c.index - pair.memory.index) <= SIBLING_REACH]
    here = []
    for part in _bearing(parts, pair.memory.keys):
        shared = len(part.bears_on & pair.memory.keys)
        if not any(len(part.bears_on & c.keys) > shared for c in siblings):
            here.append(part)
    return here


QUESTION_HEDGES = frozenset({"hedge:r1_whether"})  # "asked whether": the question's word, kept by "asked if"


def _modal_moods(pair: Pair, hedges: Sequence[Part], moods: Sequence[Part]) -> List[Part]:
    """Memory moods that keep a hedge's reading at the hedge's own rank: a permission for "may" / "can" / "could"
    read as permission ("may park" -> "are allowed to park"), a question for the "whether" of a question."""
    asked = any(s.id_ in QUESTION_HEDGES for h in hedges for s in h.spans)
    kept = []
    for mood in moods:
        if mood.value == "permission":
            kept.append(Part("certainty", "possible", CERTAINTY["possible"], mood.spans, mood.words, mood.bears_on))
        if mood.value == "intent":  # "expects to" -> "plans to": an intention states the claim as likely, no more
            kept.append(Part("certainty", "likely", CERTAINTY["likely"], mood.spans, mood.words, mood.bears_on))
        if mood.value in ("question", "request") and asked:
            kept.append(Part("certainty", "possible", min(h.rank for h in hedges), mood.spans, mood.words,
                             mood.bears_on))
    if asked and asks(pair.memory):  # "asked whether X" -> "asked if X": the question kept under its asking frame
        kept.append(Part("certainty", "possible", min(h.rank for h in hedges), (), (), frozenset()))
    return kept


def check_certainty(pair: Pair) -> List[Change]:
    """strengthened_certainty when, for some hedge of the source claim, what the memory claim keeps of it (its
    hedges bearing on what that hedge bears on) ranks above it."""
    source, memory = pair.records()
    hedges = _stated_here(pair, [_reach(pair, p, pair.source) for p in source.of("certainty")])
    if not hedges:
        return []
    merged = frozenset().union(*(c.keys for c in (pair.candidates or [pair.source])))
    held = [_reach(pair, p, pair.memory) for p in memory.of("certainty")]
    moods = _modal_moods(pair, hedges, memory.of("mood"))
    for hedge in sorted(hedges, key=lambda p: p.rank):
        # a memory hedge keeps this one only when it bears on what this one bears on ("potential buyers may be
        # offered" -> "potential buyers are offered" keeps no hedge of the offer)
        target = hedge.bears_on & merged or merged
        kept = _bearing(held, target) + _bearing(moods, target) + [
            Part("certainty", hedge.value, hedge.rank, (w.span,), (w,), target)
            for w in equivalent.synonyms(pair, hedge.spans, target) + equivalent.same_frame(pair, hedge.spans, target)
            if not in_as_clause(pair.memory.doc, w.span.start)]
        memory_rank = min((p.rank for p in kept), default=hedge.rank if kept_by_speakerless(pair) else CERTAIN)
        if memory_rank > hedge.rank:
            return [_change(pair, hedges, hedge, kept)]
    return []


def _change(pair: Pair, hedges: Sequence[Part], weakest: Part, kept: Sequence[Part]) -> Change:
    """The change, with the source's hedges and what the memory has instead as evidence."""
    evidence = pair.cue_evidence([s for p in hedges for s in p.spans if s.label_ == "HEDGE"], "source")
    evidence += pair.part_evidence([p for p in hedges if not any(s.label_ == "HEDGE" for s in p.spans)], "source")
    said = ", ".join(p.text for p in hedges)
    if not kept:
        return pair.change("strengthened_certainty", f"the source hedges this claim ({said}); the memory states it "
                           "as certain", evidence)
    surest = min(kept, key=lambda p: p.rank)
    return pair.change("strengthened_certainty", f"the source hedges this claim ({said}: "
                       f"{weakest.value.replace('_', ' ')}); the memory as {surest.value.replace('_', ' ')} "
                       f"({surest.text})", evidence + pair.part_evidence(kept, "memory"))
