"""Sources: the speaker or the stance of an attribution changed.

Both claims are attributed (the cue's class is kept), but

- the speakers differ: their heads differ ("Alice said" -> "Bob said",
  "Alice's lawyer said" -> "Alice said", "a critic of the mayor said" ->
  "the mayor said"), unless one speaker is the other's name in full
  ("Alice" -> "Alice Smith"); a pronoun is compared only with a pronoun
  ("He said" -> "She said"; "they" stands for any third person), no
  speaker on either side not at all;
- or the stance turned: a denial on one side only ("denied" -> "said"), or
  a claim ("claimed", "alleged", "reportedly") become a confirmation
  ("confirmed", "showed"): a claimant made an authority.
"""

from dataclasses import dataclass
from typing import FrozenSet, List, Optional, Sequence, Set

from spacy.tokens import Span

from ..claims import DocClaims
from ..records import PRONOUNS
from ..report import Change
from .base import Pair, quoted
from .equivalent import pronoun_clash
from .polarity import negations

WEAK, STRONG, DENIAL = frozenset({"claim"}), frozenset({"confirm"}), "deny"


def _speakers(claims: DocClaims, cues: Sequence[Span]) -> List[Span]:
    """The speaker spans linked to attribution cues."""
    return [speaker for cue in cues for speaker in claims.speakers_of(cue)]


def _pronouns(claims: DocClaims, cues: Sequence[Span]) -> List[Span]:
    """The speakers of attribution cues that are one personal pronoun ("He said")."""
    return [s for s in _speakers(claims, cues) if len(s) == 1 and s[0].lower_ in PRONOUNS]


@dataclass(frozen=True)
class Speaker:
    """A speaker phrase read for comparison: the content keys, the head (the last content word, before any
    "of": "critic" of "a critic of the mayor") and whether the head is a name."""

    span: Span
    keys: FrozenSet[int]
    head: int
    named: bool


def _speaker(claims: DocClaims, span: Span) -> Optional[Speaker]:
    counted = {i for w in claims.words_at(span, "QUANTIFIER") for i in range(w.span.start, w.span.end)}
    words = [t for t in span if t.is_alpha and not t.is_stop and t.i not in counted]  # "a small number of residents"
    of = next((t.i for t in span if t.lower_ == "of"), None)
    before_of = [t for t in words if of is None or t.i < of]
    if not words:
        return None
    head = (before_of or words)[-1]
    return Speaker(span, frozenset(claims.key(t) for t in words), claims.key(head), head.is_title or head.is_upper)


def _same(a: Speaker, b: Speaker) -> bool:
    """Whether two speaker phrases name one speaker: the same head, or one the other's name in full."""
    if a.head == b.head:
        return True
    shorter, longer = sorted((a, b), key=lambda s: len(s.keys))
    return shorter.keys <= longer.keys and longer.named and shorter.named


def _stances(claims: DocClaims, cues: Sequence[Span]) -> Set[str]:
    return {w.entry.value for cue in cues for w in claims.words_at(cue, "STANCE")}


def check_sources(pair: Pair) -> List[Change]:
    """changed_source: another speaker, or another stance, for an attribution both claims keep."""
    source_cues, memory_cues = pair.source.cues("ATTRIBUTION"), pair.memory.cues("ATTRIBUTION")
    if not source_cues or not memory_cues:
        return []

    source_speakers = [s for s in (_speaker(pair.source_claims, span) for span in
                                   _speakers(pair.source_claims, source_cues)) if s is not None]
    memory_speakers = [s for s in (_speaker(pair.memory_claims, span) for span in
                                   _speakers(pair.memory_claims, memory_cues)) if s is not None]
    if source_speakers and memory_speakers and not any(_same(a, b) for a in source_speakers for b in memory_speakers):
        return [pair.change("changed_source", f"the source attributes this claim to "
                            f"{quoted([s.span for s in source_speakers])}; the memory to "
                            f"{quoted([s.span for s in memory_speakers])}",
                            pair.both_cue_evidence(source_cues, memory_cues))]
    said, told = _pronouns(pair.source_claims, source_cues), _pronouns(pair.memory_claims, memory_cues)
    if not source_speakers and not memory_speakers and said and told and all(
            pronoun_clash(a.text.lower(), b.text.lower()) for a in said for b in told):
        return [pair.change("changed_source", f"the source attributes this claim to {quoted(said)}; the memory "
                            f"to {quoted(told)}", pair.both_cue_evidence(source_cues, memory_cues))]
    raised = _raised(pair)
    if raised is not None:
        return [raised]
    source_stances = _stances(pair.source_claims, source_cues)
    memory_stances = _stances(pair.memory_claims, memory_cues)
    # "denied that X" and "said it was not true that X" take the same stance: a denial turned into a negation
    denied = (DENIAL in source_stances) != (DENIAL in memory_stances) and \
        negations(pair.source) % 2 != negations(pair.memory) % 2
    promoted = source_stances and source_stances <= WEAK and memory_stances & STRONG
    if source_stances and memory_stances and (denied or promoted):
        return [pair.change("changed_source", f"the source's speaker {_verb(source_stances)} ({quoted(source_cues)}); "
                            f"the memory's {_verb(memory_stances)} ({quoted(memory_cues)})",
                            pair.both_cue_evidence(source_cues, memory_cues))]
    return []


def _raised(pair: Pair) -> Optional[Change]:
    """changed_source when the memory's speaker stands higher than the source's on the scale unknown or hearsay <
    a named person < the claim's own subject < an authority or a record ("Someone said" -> "HR confirmed",
    "reportedly" -> "according to the official records"): a claim made more authoritative than it was."""
    source, memory = pair.records()
    heard, told = source.of("source"), memory.of("source")
    if not heard or not told:
        return None
    for told_part in sorted(told, key=lambda p: -p.rank):
        # word by word, the best source speaker behind it: "Someone said X, and the CEO confirmed Y" does not let
        # the CEO confirm X (a text read twice finds its own speakers behind every word: a copy is never raised)
        behind = [max((p for p in heard if key in p.bears_on), key=lambda p: p.rank, default=None)
                  for key in told_part.bears_on]
        best = min((p for p in behind if p is not None), key=lambda p: p.rank,
                   default=max(heard, key=lambda p: p.rank))
        if told_part.rank > best.rank:
            return pair.change("changed_source", f"the source's speaker stands as {best.value} ({best.text}); the "
                               f"memory's as {told_part.value} ({told_part.text}): the claim is made more "
                               f"authoritative than it was",
                               pair.part_evidence([best], "source") + pair.part_evidence([told_part], "memory"))
    return None


def _verb(stances: Set[str]) -> str:
    return "/".join(sorted(stances)) + ("s" if len(stances) == 1 else "")

