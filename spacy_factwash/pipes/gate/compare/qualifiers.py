"""Qualifiers: a hedge, an attribution or a time scope bound to the source claim and to nothing in the memory claim.

Classes are compared as classes, so "said" -> "according to", "might" ->
"may" pass; a cue of the class that qualifies another claim of the memory
never satisfies this one, nor does a cue of the memory claim that bears on
words the source claim does not have ("Alice was promoted and may get a
raise" keeps no hedge of "Alice may be promoted"); a source cue bearing on
words the memory dropped was dropped with them. An attribution that names no speaker ("is
expected", "was deemed", "reportedly") marks the claim as not the writer's
own, as a hedge does, so the two stand for each other ("was deemed" ->
"was thought"). Conditions have their own check (``conditions.py``), since a
condition can also change or become a fact.
"""

from typing import FrozenSet, List

from spacy.tokens import Span

from ..records import CERTAINTY, PRONOUNS
from ..report import Change
from . import equivalent
from .base import Pair, quoted
from .tense import says_past_state
from .values import time_cues

PRESENCE = {
    "dropped_attribution": ("ATTRIBUTION", "the source attributes this claim ({cues}); the memory states it as fact"),
    "dropped_temporal_scope": ("TEMPORAL", "the source scopes this claim in time ({cues}); the memory drops it"),
}


def _speakerless(pair: Pair, claims, cues) -> bool:
    """Whether every attribution cue is an evidential that names no speaker ("is expected", "reportedly"):
    an entry with no speaker side in the cue lexicon, and no speaker found."""
    return all(cue.id_ in pair.evidentials and not claims.speakers_of(cue) for cue in cues)


def _bearing(pair: Pair, claim_side: str, label: str) -> List[Span]:
    """A claim's hedges or attributions that bear on what the two claims share ("..., and may get a raise"
    hedges the raise, not the promotion both claims state); time cues all count (the time word is the content)."""
    if claim_side == "source":
        claim, claims, other = pair.source, pair.source_claims, pair.memory.keys
    else:  # a memory claim that merged several source claims answers for them all
        claim, claims = pair.memory, pair.memory_claims
        other = frozenset().union(*(c.keys for c in (pair.candidates or [pair.source])))
    if label == "TEMPORAL":
        return time_cues(claims, claim)
    return [cue for cue in claim.cues(label) if claim.bears_on(cue, other)]


def _likely(pair: Pair) -> bool:
    """Whether the memory claim words its claim as less than certain with a word of the gate's certainty scale that
    is no hedge cue ("is projected to", "is forecast to"): an expectation, as a speakerless attribution is."""
    _, memory = pair.records()
    return any(p.rank is not None and p.rank < CERTAINTY["certain"] for p in memory.of("certainty"))


def _speaker_kept(pair: Pair, cues: List[Span]) -> bool:
    """Whether the memory's sentence names the speaker of the source's attribution cues (when they name one): its
    content words, or, for a pronoun, no other pronoun in its place ("He explained" -> "She clarified" is another
    speaker; "He explained" -> "Bob clarified" may be the same one)."""
    speakers = [s for cue in cues for s in pair.source_claims.speakers_of(cue)]
    if not speakers:
        return True
    keys = {pair.source_claims.key(t) for s in speakers for t in s if t.is_alpha and not t.is_stop}
    sentence = pair.memory.sentence
    if keys:
        return bool(keys & {pair.memory_claims.key(t) for t in sentence})
    said = {t.lower_ for s in speakers for t in s if t.lower_ in PRONOUNS}
    there = {t.lower_ for t in sentence if t.lower_ in PRONOUNS}
    return not said or bool(said & there) or not any(equivalent.pronoun_clash(a, b) for a in said for b in there)


def _speaker_keys(claims, speaker: Span) -> FrozenSet[int]:
    """What names a speaker: the keys of its content words, or of its words when it has none (a pronoun: "He
    suggests" is kept by "He recommends", not by "She recommends")."""
    words = [t for t in speaker if t.is_alpha]
    content = [t for t in words if not t.is_stop]
    return frozenset(claims.key(t) for t in (content or words))


def _in_other_words(pair: Pair, label: str) -> bool:
    """Whether the memory keeps the source's qualifier in other words: a synonym of the cue's word bearing on the
    same content, or, for an attribution, a communication or cognition verb of the same stance framing the claim
    with the same speaker ("explains that" -> "clarifies that")."""
    cues = _bearing(pair, "source", label)
    merged = frozenset().union(*(c.keys for c in (pair.candidates or [pair.source])))
    if equivalent.synonyms(pair, cues, frozenset() if label == "TEMPORAL" else merged):
        return True
    if label != "ATTRIBUTION":
        return False
    denial = frozenset({"deny"}) if any(w.entry.value == "deny" for c in cues
                                         for w in pair.source_claims.words_at(c, "STANCE")) else frozenset()
    speaker = frozenset(key for cue in cues for s in pair.source_claims.speakers_of(cue)
                        for key in _speaker_keys(pair.source_claims, s))
    return bool(equivalent.frames(pair, merged, denial, speaker)) and _speaker_kept(pair, cues)


def _same_times_in_sentence(pair: Pair) -> bool:
    """Whether the memory's sentence gives every time of the source claim in the same words, in another of its
    claims (a memory may cut a sentence into claims differently: "..., because of lower prices" after "for Q4
    2020")."""
    words = {cue.text.lower() for cue in pair.memory_claims.cues_in(pair.memory.sentence, "TEMPORAL")}
    return all(cue.text.lower() in words for cue in _bearing(pair, "source", "TEMPORAL"))


def _former_kept(pair: Pair) -> bool:
    """Whether every time cue of the source claim only marks a past state ("previously", "formerly") and the
    memory claim marks one too ("Omar previously worked" -> "Omar used to work")."""
    cues = _bearing(pair, "source", "TEMPORAL")
    former = [w.span for w in pair.source.words_of("ERA") if w.entry.value == "former"]
    return bool(cues) and all(any(f.start <= c.start < f.end or c.start <= f.start < c.end for f in former)
                              for c in cues) and says_past_state(pair, "memory")


def _kept(pair: Pair, label: str) -> bool:
    """Whether the memory claim keeps a qualifier of the class (or its stand-in: a hedge for a speakerless
    attribution, a speakerless attribution for a hedge), in the same words or in others."""
    if _bearing(pair, "memory", label) or _in_other_words(pair, label):
        return True
    if label == "TEMPORAL" and (_same_times_in_sentence(pair) or _former_kept(pair)):
        return True
    if label == "ATTRIBUTION":
        return _speakerless(pair, pair.source_claims, pair.source.cues(label)) and (
            bool(_bearing(pair, "memory", "HEDGE")) or _likely(pair))
    return False


def kept_by_speakerless(pair: Pair) -> bool:
    """Whether the memory claim keeps a hedge as an attribution that names no speaker ("is expected", "reportedly":
    the claim is not the writer's own, as a hedge says)."""
    attributions = _bearing(pair, "memory", "ATTRIBUTION")
    return bool(attributions) and _speakerless(pair, pair.memory_claims, attributions)


def _check(pair: Pair, change_type: str) -> List[Change]:
    """The change of one qualifier class the source claim has, bearing on what the two claims share, and the
    memory claim lacks (a time word that is part of a value, such as "hours" in "2 hours", is the value's)."""
    label, message = PRESENCE[change_type]
    source_cues = _bearing(pair, "source", label)
    if source_cues and not _kept(pair, label):
        return [pair.change(change_type, message.format(cues=quoted(source_cues)),
                            pair.cue_evidence(source_cues, "source"))]
    return []


def check_attribution(pair: Pair) -> List[Change]:
    """dropped_attribution: an attribution of the source claim the memory claim keeps in no words."""
    return _check(pair, "dropped_attribution")


def check_temporal_scope(pair: Pair) -> List[Change]:
    """dropped_temporal_scope: a time of the source claim the memory claim keeps nowhere in its sentence."""
    return _check(pair, "dropped_temporal_scope")
