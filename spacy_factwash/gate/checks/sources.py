"""Sources: the speaker or the stance of an attribution changed.

Both claims are attributed (the cue's class is kept), but

- the speakers share no content word ("Alice said" -> "Bob said"; a
  pronoun or no speaker on either side is not compared);
- or the stance turned: a denial on one side only ("denied" -> "said"), or
  a claim ("claimed", "alleged", "reportedly") become a confirmation
  ("confirmed", "showed"): a claimant made an authority.
"""

from typing import FrozenSet, List, Sequence, Set

from spacy.tokens import Span

from ..claims import DocClaims
from ..report import Change
from .base import Pair, quoted

WEAK, STRONG, DENIAL = frozenset({"claim"}), frozenset({"confirm"}), "deny"


def _speakers(claims: DocClaims, cues: Sequence[Span]) -> List[Span]:
    """The speaker spans linked to attribution cues."""
    return [speaker for cue in cues for speaker in claims.speakers_of(cue)]


def _speaker_keys(claims: DocClaims, speakers: Sequence[Span]) -> FrozenSet[int]:
    return frozenset(claims.key(t) for s in speakers for t in s if t.is_alpha and not t.is_stop)


def _stances(claims: DocClaims, cues: Sequence[Span]) -> Set[str]:
    return {w.entry.value for cue in cues for w in claims.words_at(cue, "STANCE")}


def check_sources(pair: Pair) -> List[Change]:
    """changed_source: another speaker, or another stance, for an attribution both claims keep."""
    source_cues, memory_cues = pair.source.cues("ATTRIBUTION"), pair.memory.cues("ATTRIBUTION")
    if not source_cues or not memory_cues:
        return []
    evidence = pair.cue_evidence(source_cues, "source") + pair.cue_evidence(memory_cues, "memory")
    source_speakers = _speakers(pair.source_claims, source_cues)
    memory_speakers = _speakers(pair.memory_claims, memory_cues)
    source_keys = _speaker_keys(pair.source_claims, source_speakers)
    memory_keys = _speaker_keys(pair.memory_claims, memory_speakers)
    if source_keys and memory_keys and not source_keys & memory_keys:
        return [pair.change("changed_source", f"the source attributes this claim to {quoted(source_speakers)}; the "
                            f"memory to {quoted(memory_speakers)}", evidence)]
    source_stances = _stances(pair.source_claims, source_cues)
    memory_stances = _stances(pair.memory_claims, memory_cues)
    denied = (DENIAL in source_stances) != (DENIAL in memory_stances)
    promoted = source_stances and source_stances <= WEAK and memory_stances & STRONG
    if source_stances and memory_stances and (denied or promoted):
        return [pair.change("changed_source", f"the source's speaker {_verb(source_stances)} ({quoted(source_cues)}); "
                            f"the memory's {_verb(memory_stances)} ({quoted(memory_cues)})", evidence)]
    return []


def _verb(stances: Set[str]) -> str:
    return "/".join(sorted(stances)) + ("s" if len(stances) == 1 else "")

