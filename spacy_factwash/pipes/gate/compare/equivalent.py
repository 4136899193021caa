"""A qualifier kept in other words: the memory word that does the job of a source cue.

Two equivalence lists of the gate's word lists, mined from Open English
WordNet under training/MINING.md's rule (each entry carries the synset ids
it came from):

- ``SYNONYM``: groups of words that stand for one another in the sense a
  cue is used ("indicating" / "showing" / "denoting", "current" / "present",
  "potential" / "prospective"); a memory word of a group the source cue's
  word belongs to, bearing on the same content, keeps the cue;
- ``FRAME``: communication and cognition verbs by stance (say, ask,
  propose, claim, deny, confirm, believe, inform); a memory claim framed by
  one ("clarifies that", "elaborated on", "inquires whether") keeps the
  source's attribution, when it keeps the speaker too.
"""

from typing import FrozenSet, List, Sequence

from spacy.tokens import Span

from ..claims import Claim
from ..words import Word
from .base import Pair


def groups(claim: Claim, spans: Sequence[Span]) -> FrozenSet[str]:
    """The synonym groups (WordNet senses) the words of some cue spans of the claim belong to."""
    return frozenset(group for w in claim.words_of("SYNONYM")
                     if any(s.start <= w.span.start < s.end or w.span.start <= s.start < w.span.end for s in spans)
                     for group in w.entry.value.split(","))


def synonyms(pair: Pair, spans: Sequence[Span], keys: FrozenSet[int]) -> List[Word]:
    """The memory claim's words of a synonym group of the source cue spans, bearing on ``keys`` (or on the whole
    claim)."""
    wanted = groups(pair.source, spans)
    if not wanted:
        return []
    return [w for w in pair.memory.words_of("SYNONYM") if wanted & set(w.entry.value.split(","))
            and (not keys or pair.memory.bears_on(w.span, keys))]


def frames(pair: Pair, keys: FrozenSet[int], stances: FrozenSet[str] = frozenset()) -> List[Word]:
    """The memory claim's communication and cognition verbs bearing on ``keys``, of one of ``stances`` when given
    (a denial is kept only by a denial)."""
    return [w for w in pair.memory.words_of("FRAME") if pair.memory.bears_on(w.span, keys)
            and (not stances or stances & set(w.entry.value.split(",")))]


def same_frame(pair: Pair, spans: Sequence[Span], keys: FrozenSet[int]) -> List[Word]:
    """For a cue that is itself a communication or cognition verb ("suggests", "indicating"), the memory claim's
    verbs of the same stance bearing on ``keys`` ("recommends", "denoting")."""
    stances = frozenset(value for w in pair.source.words_of("FRAME")
                        if any(s.start <= w.span.start < s.end for s in spans) for value in w.entry.value.split(","))
    if not stances:
        return []
    return [w for w in pair.memory.words_of("FRAME") if pair.memory.bears_on(w.span, keys)
            and stances & set(w.entry.value.split(","))]
