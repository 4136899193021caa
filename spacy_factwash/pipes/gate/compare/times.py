"""Times: the value of a time, how the claim relates to it, and whether it held before, now or later.

- ``changed_time``: a memory time whose value disagrees with every source
  time that says the same kind of thing ("Monday" -> "Tuesday", "5 pm" ->
  "6 pm", "7 June" -> "8 June"; "5 pm" -> "17:00" and "7 June 2020" ->
  "June 7, 2020" agree); a relation turned ("until Friday" -> "since
  Friday", "before" -> "after"); an era turned ("former CEO" -> "current
  CEO").
- ``introduced_time`` (a note): a date or clock time in the memory claim
  where the source claim had none, saying whether a relative expression
  such as "this morning" was resolved.

A time the memory drops altogether is ``dropped_temporal_scope``
(``qualifiers.py``).
"""

from typing import List

from spacy.tokens import Span

from ..report import Change
from ..values.timex import TimeValue, time_value
from .base import Pair, quoted
from .tense import says_past_state
from .values import time_cues


def _absolute(cue: Span) -> bool:
    """A date or clock time rather than a relative expression ("this morning", "currently")."""
    return any(token.like_num for token in cue) or cue.id_ in {"temporal:month", "temporal:weekday"}


def check_times(pair: Pair) -> List[Change]:
    """changed_time, and introduced_time as a note."""
    changes = _values(pair) + _kinds(pair, "RELATION", "relates the claim to its time")
    changes += _kinds(pair, "ERA", "places the claim in time")
    changes += _introduced(pair)
    return changes


def _comparable(a: TimeValue, b: TimeValue) -> bool:
    """Whether two time values fill a field in common (a weekday and a date are not compared)."""
    return any(getattr(a, f) is not None and getattr(b, f) is not None for f in a.__dataclass_fields__)


def _values(pair: Pair) -> List[Change]:
    """A memory time that disagrees with every comparable source time, while one of those is kept by no memory
    time (a memory that keeps "last year" and adds "this year" has added a time, not changed one)."""
    def read(claims, claim):
        found = [(cue, time_value(cue)) for cue in time_cues(claims, claim)]
        return [(cue, value) for cue, value in found if not value.empty()]

    source = read(pair.source_claims, pair.source)
    if not source:  # no source time to disagree with
        return []
    memory = read(pair.memory_claims, pair.memory)
    kept = {n for n, (_, s) in enumerate(source) if any(_comparable(s, m) and not s.conflicts(m) for _, m in memory)}
    changes = []
    for cue, value in memory:
        comparable = [(n, c, s) for n, (c, s) in enumerate(source) if _comparable(s, value)]
        if not comparable or any(not s.conflicts(value) for _, _, s in comparable):
            continue
        lost = [c for n, c, _ in comparable if n not in kept]
        if lost:
            changes.append(pair.change(
                "changed_time", f"the memory says {cue.text!r} where the source says {quoted(lost)}",
                pair.cue_evidence(lost, "source") + pair.cue_evidence([cue], "memory")))
    return changes


def _kinds(pair: Pair, label: str, what: str) -> List[Change]:
    """A relation (until, since) or era (former, current) the memory turns, or drops while keeping the time it
    relates to ("until Friday" -> "on Friday"); an era the memory drops ("ex-CEO" -> "CEO") is a dropped scope."""
    source = _relating(pair.source, label)
    if not source:
        return []
    memory = _relating(pair.memory, label)
    source_kinds, memory_kinds = {w.entry.value for w in source}, {w.entry.value for w in memory}
    if source_kinds & memory_kinds:
        return []
    evidence = pair.word_evidence(source, "source") + pair.word_evidence(memory, "memory")
    said = ", ".join(repr(w.span.text) for w in source)
    if memory_kinds:
        return [pair.change("changed_time", f"the source {what} as {'/'.join(sorted(source_kinds))} ({said}); the "
                            f"memory as {'/'.join(sorted(memory_kinds))} "
                            f"({', '.join(repr(w.span.text) for w in memory)})", evidence)]
    if label == "ERA" and source_kinds == {"former"} and says_past_state(pair, "memory"):
        return []  # "Lin is a former rower" -> "Lin used to row": the past state kept by the tense
    if label == "ERA" and not time_cues(pair.memory_claims, pair.memory):
        return [pair.change("dropped_temporal_scope", f"the source {what} as {'/'.join(sorted(source_kinds))} "
                            f"({said}); the memory drops it", evidence)]
    if label == "RELATION" and time_cues(pair.memory_claims, pair.memory):
        return [pair.change("changed_time", f"the source {what} as {'/'.join(sorted(source_kinds))} ({said}); the "
                            "memory keeps the time but not how the claim relates to it", evidence)]
    return []


AGENTIVE = frozenset({"by"})  # "by" relates a claim to a time only before one ("by Friday"), not "by police"


def _relating(claim, label: str) -> list:
    """A claim's words of one kind; a relation word that also marks an agent counts only when a time follows it."""
    words = claim.words_of(label)
    if label != "RELATION":
        return words
    starts = {cue.start for cue in claim.cues("TEMPORAL")}
    doc = claim.doc
    return [w for w in words if w.span.text.lower() not in AGENTIVE
            or any(i in starts for i in range(w.span.end, w.span.end + 3))
            or (w.span.end < len(doc) and (doc[w.span.end].like_num or doc[w.span.end].lower_ == "then"))]


def _introduced(pair: Pair) -> List[Change]:
    """A date the memory gives that the source claim never had: resolved from a relative expression, or new."""
    dates = [c for c in time_cues(pair.memory_claims, pair.memory) if _absolute(c)]
    if not dates:
        return []
    source = time_cues(pair.source_claims, pair.source)
    if any(_absolute(c) for c in source):
        return []
    how = (f"resolved from the relative {quoted(source)}, which the source does not anchor" if source
           else "which the source never gives")
    return [pair.change("introduced_time", f"the memory gives the date {quoted(dates)}, {how}",
                        pair.cue_evidence(dates, "memory"), values={"resolved_relative": bool(source)},
                        check="dropped_temporal_scope")]
