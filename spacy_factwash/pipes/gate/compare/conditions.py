"""Conditions: dropped, changed, or stated as a fact.

The source claim holds only under a condition (a CONDITIONAL cue bound to
it, and the condition clause the cue opens). In the memory claim:

- no conditional cue, and the condition's content nowhere asserted in the
  memory: ``dropped_condition``;
- no conditional cue, but some memory claim states the condition itself
  ("If the audit passes, access is granted" -> "The audit passed. Access is
  granted."): ``changed_condition``;
- a conditional cue of another kind ("if" -> "even if", "unless"), the
  same condition reversed ("if the audit passes" -> "if the audit fails"),
  or a condition that aligned to another source claim than the source's
  condition (a condition about something else the source says):
  ``changed_condition``. (A memory condition that aligns to nothing is
  uncheckable, like any claim: words alone cannot tell "if they sign up"
  -> "if they register" from a new condition.)

A memory claim that states a source condition as a plain claim (it aligned
to the condition clause and is not one itself) is ``changed_condition`` too.
"""

from typing import List, Optional, Tuple

from ..claims import Claim
from ..report import Change
from .base import Pair, quoted
from .polarity import negations


def _kind(claim: Claim, cue) -> str:
    """The kind of condition a conditional cue sets ("if", "only if", "even if", "unless"): the gate's CONDITION
    word at the cue, in the condition clause it opens; "if" when there is none."""
    opened = _opened(claim, cue)
    words = opened.words_of("CONDITION") if opened is not None else []
    at = [w for w in words if w.span.start <= cue.start < w.span.end or cue.start <= w.span.start < cue.end]
    return at[0].entry.value if at else "if"


def _reading(claim: Claim, cue) -> Tuple[str, int]:
    """A condition's kind with the parity of its negations, "unless X" read as "if not X" (so "unless the audit
    passes" and "if the audit does not pass" agree)."""
    kind = _kind(claim, cue)
    opened = _opened(claim, cue)
    parity = negations(opened) % 2 if opened is not None else 0
    return ("if", 1 - parity) if kind == "unless" else (kind, parity)


def _opened(claim: Claim, cue) -> Optional[Claim]:
    """The condition clause a conditional cue of ``claim`` opens, if any."""
    return next((c for c in claim.conditions if c.clause.start <= cue.start < c.clause.end), None)


def check_conditions(pair: Pair) -> List[Change]:
    """dropped_condition or changed_condition."""
    if pair.memory.kind == "claim" and pair.source.kind == "condition":
        return [pair.change("changed_condition", f"the source gives {pair.source.text!r} only as a condition; the "
                            "memory states it as a fact")]
    source_cues = pair.source.cues("CONDITIONAL")
    if not source_cues:
        return _unmarked(pair)
    memory_cues = pair.memory.cues("CONDITIONAL")
    if not memory_cues:
        evidence = pair.cue_evidence(source_cues, "source")
        asserted = _asserted(pair)
        if asserted is not None:
            return [pair.change("changed_condition", f"the source holds this only under a condition "
                                f"({quoted(source_cues)}); the memory states the condition as a fact "
                                f"({asserted.text!r})", evidence)]
        return [pair.change("dropped_condition", f"the source holds this only under a condition "
                            f"({quoted(source_cues)}); the memory drops it", evidence)]
    source_kinds = {_reading(pair.source, c) for c in source_cues}
    memory_kinds = {_reading(pair.memory, c) for c in memory_cues}
    if not source_kinds & memory_kinds:
        return [pair.change("changed_condition", f"the source sets the condition with {quoted(source_cues)}; the "
                            f"memory with {quoted(memory_cues)}", pair.both_cue_evidence(source_cues, memory_cues))]
    return _compare_clauses(pair, source_cues, memory_cues)


def _asserted(pair: Pair) -> Optional[Claim]:
    """A memory claim, not itself a condition, that aligned to one of the source claim's conditions."""
    for condition in pair.source.conditions:
        for claim in pair.aligned_to.get(condition.index, []):
            if claim.kind == "claim":
                return claim
    return None


def _compare_clauses(pair: Pair, source_cues, memory_cues) -> List[Change]:
    """A memory condition that aligned to another thing the source says than the source claim's conditions, or
    to one of them but reversed ("if the audit passes" -> "if the audit fails")."""
    for cue in memory_cues:
        memory = _opened(pair.memory, cue)
        if memory is None:
            continue
        aligned = list(pair.aligned_from.get(memory.index, ()))
        own = [c for c in aligned if c in pair.source.conditions]
        if aligned and not own:
            return [pair.change("changed_condition", f"the memory's condition ({memory.text!r}) is another thing "
                                f"the source says ({aligned[0].text!r}), not the source's condition",
                                pair.both_cue_evidence(source_cues, memory_cues))]
        for condition in own:
            source_cue = next(c for c in source_cues if condition.clause.start <= c.start < condition.clause.end)
            if _reading(pair.source, source_cue) != _reading(pair.memory, cue):
                return [pair.change("changed_condition", f"the memory reverses the condition {condition.text!r} "
                                    f"({memory.text!r})", pair.both_cue_evidence(source_cues, memory_cues))]
    return []


KEPT_SHARE = 0.5  # of a condition's content words the memory sentence must keep for the condition to count as kept


def _unmarked(pair: Pair) -> List[Change]:
    """dropped_condition for a condition no conditional cue sets ("as long as", "when", "once": the record's
    condition parts) whose content the memory's sentence keeps less than half of."""
    source, _ = pair.records()
    sentence = pair.memory_claims.sentence_keys(pair.memory.clause.sentence)
    lost = [p for p in source.of("condition") if len(p.bears_on & sentence) < KEPT_SHARE * len(p.bears_on)]
    if not lost:
        return []
    return [pair.change("dropped_condition", f"the source holds this claim only under a condition "
                        f"({', '.join(p.text for p in lost)}); the memory drops it", pair.part_evidence(lost, "source"),
                        check="conditions")]
