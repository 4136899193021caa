"""Claim strength: a correlation or a possible cause stated as a cause.

The source claim is correlational ("is associated with lower risk") or
conditional causal ("may lower risk") and the memory claim it aligned to is
direct causal ("lowers risk"): ``strengthened_causality``. A cause word in
an agentless passive ("Alice will be promoted", "the price was lowered")
names an event, not a cause, so it does not make the memory claim causal. The strengths are
read by ``spacy_factwash.pipes.strength`` from the ``factwash_strength`` cue spans
inside each claim; without that component in the pipeline the check cannot
run and the gate declares it in ``not_checked``.
"""

from typing import List

from spacy.tokens import Span

from ...cues.extensions import spans_within
from ...strength.claim import STRENGTH_KEY, STRENGTHENABLE, Strength, strength_of_cues, strengthened
from ..claims import Claim
from ..report import Change, Cue
from .base import Pair


def runs_on(pair: Pair) -> bool:
    """Whether both Docs were annotated by ``factwash_strength``."""
    return STRENGTH_KEY in pair.source.doc.spans and STRENGTH_KEY in pair.memory.doc.spans


def strength_of(claim: Claim) -> Strength:
    """The strength of a claim, read over the stretch its pieces cover (worked out once per claim)."""
    if claim.strength is None:
        stretch = Span(claim.doc, claim.clause.start, claim.clause.end)
        claim.strength = strength_of_cues(claim.doc, spans_within(stretch, STRENGTH_KEY))
    return claim.strength


def _evidence(strength: Strength, side: str) -> List[Cue]:
    return [Cue(side, cue.label, cue.text, cue.start_char, cue.end_char, cue.entry, strength.lexicon_version)
            for cue in strength.cues]


BE = frozenset({"be", "is", "are", "was", "were", "been", "being", "'s", "’s", "get", "got", "gets"})


def _agentless_passive(claim: Claim, strength: Strength) -> bool:
    """Whether the cause word that makes a claim direct causal stands in a passive with no "by" agent."""
    cause = strength.cues[-1]
    doc = claim.doc
    before = doc[max(claim.clause.start, cause.start - 2):cause.start]
    after = doc[cause.end:min(claim.clause.end, cause.end + 6)]
    return any(t.lower_ in BE for t in before) and not any(t.lower_ == "by" for t in after)


def check_strength(pair: Pair) -> List[Change]:
    """strengthened_causality: a correlational or conditional claim stated as a direct cause."""
    if not runs_on(pair):
        return []
    cache = pair.source_claims.cache
    if "strength_cues" not in cache:  # counted once per Doc, read with no call for every pair after
        cache["strength_cues"] = {"held": len(pair.source.doc.spans[STRENGTH_KEY])}
    if not cache["strength_cues"]["held"]:
        return []  # a source Doc with no strength cue states nothing a memory can strengthen (``decide`` reads none)
    source = strength_of(pair.source)
    if source.label not in STRENGTHENABLE:  # nothing to strengthen: the memory claim's strength is not read
        return []
    memory = strength_of(pair.memory)
    if not strengthened(source, memory) or _agentless_passive(pair.memory, memory):
        return []
    return [pair.change(
        "strengthened_causality",
        f"the source's claim is {source.label.replace('_', ' ')} ({source.reason}); the memory states a direct "
        f"cause ({memory.reason})",
        _evidence(source, "source") + _evidence(memory, "memory"),
        values={"source": source.label, "memory": memory.label})]
