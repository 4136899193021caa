"""Polarity per claim: is the memory claim saying the opposite of the source claim?

Each claim's negations are counted: the NEGATION cues bound to it (a "not"
inside a hedge such as "not sure" belongs to the hedge) and the gate's
NEGATIVE words inside it ("lacks", "unlikely", "without", "failed"). An
antonym the memory uses where the source has its opposite ("lost" for
"won") counts as one more on the memory's side. The claims disagree when
the counts differ in parity, so "has no car" / "lacks a car", "not likely"
/ "unlikely", "never loses" / "always wins" and a double negation keep the
claim, while a dropped or moved negation, "no longer", "refused" for
"allowed" and "unverified" for "verified" reverse it.

A negation counts only when what it negates is in the other claim too (the
first few content words after it in its claim, or before it when none
follow), so "Alice left without delay" -> "Alice left" drops a detail, not
the claim.
"""

from typing import Dict, List, Optional, Sequence, Tuple

from spacy.tokens import Span

from ..claims import Claim
from ..report import Change, Cue
from ..words import Word
from .base import Pair, quoted

Marker = Tuple[Span, str, Optional[Word]]  # a negation, the entry that made it, its gate word (if one)


def _in_hedge(cue: Span, claim: Claim) -> bool:
    """Whether a negation cue is part of a hedge bound to the same claim ("not sure", "don't know")."""
    return any(h.start <= cue.start and cue.end <= h.end for h in claim.cues("HEDGE"))


CORRELATIVE = frozenset({"nor", "neither"})  # "not X nor Y": one negation for each conjunct, not two for one


def negation_marks(claim: Claim) -> List[Tuple[Span, Optional[Word]]]:
    """The negations of a claim: negation cues (a "not" inside a hedge is the hedge's; a "nor" after another
    negation is its correlative), and negative words (with their gate word)."""
    found: List[Tuple[Span, Optional[Word]]] = []
    for cue in claim.cues("NEGATION"):
        correlative = cue.text.lower() in CORRELATIVE and any(other.start < cue.start for other, _ in found)
        if not _in_hedge(cue, claim) and not correlative:
            found.append((cue, None))
    for word in claim.words_of("NEGATIVE") + [w for w in claim.words_of("STANCE") if w.entry.value == "deny"]:
        if not any(cue.start <= word.span.start < cue.end for cue in claim.cues("NEGATION")) and \
                not any(other.start == word.span.start for other, _ in found):
            found.append((word.span, word))
    return found


def markers(claim: Claim) -> List[Marker]:
    """A claim's negations, each with the entry that made it (the cue's or the gate word's) and its gate word."""
    return [(span, span.id_ if word is None else word.entry.id, word) for span, word in negation_marks(claim)]


def _evidence(pair: Pair, marker: Marker, side: str) -> Cue:
    """A negation as evidence, with its entry and version."""
    span, _, word = marker
    return pair.cue_evidence([span], side)[0] if word is None else pair.word_evidence([word], side)[0]


def _unmatched(mine: Sequence[Marker], theirs: Sequence[Marker]) -> List[Marker]:
    """The markers of one side that the other side does not repeat (the same lexicon entry, one for one)."""
    left: Dict[str, int] = {}
    for _, entry, _ in theirs:
        left[entry] = left.get(entry, 0) + 1
    kept = []
    for marker in mine:
        if left.get(marker[1]):
            left[marker[1]] -= 1
        else:
            kept.append(marker)
    return kept


def antonym_flips(pair: Pair) -> List[Tuple[Cue, Cue]]:
    """The memory's antonyms of source words the memory does not use itself ("lost" where the source says
    "won"), as (source word, memory word) evidence."""
    source_words = {w.entry.id: w for w in pair.source.words_of("ANTONYM")}
    memory_words = {w.entry.id: w for w in pair.memory.words_of("ANTONYM")}
    flips = []
    for entry_id, word in memory_words.items():
        opposite = word.entry.value
        if opposite in source_words and entry_id not in source_words and opposite not in memory_words:
            flips.append((pair.word_evidence([source_words[opposite]], "source")[0],
                          pair.word_evidence([word], "memory")[0]))
    return flips


def check_polarity(pair: Pair) -> List[Change]:
    """reversed_polarity when the two claims' negation counts differ in parity. (Two condition clauses are left to
    ``conditions.py``, which reports a reversed condition as a changed one.)"""
    if pair.source.kind == pair.memory.kind == "condition":
        return []
    flips = antonym_flips(pair)
    key = pair.source_claims.key
    # an antonym stands for its opposite: "never loses" negates what "always wins" asserts
    swapped_source = frozenset(key(w.span[0]) for w in pair.source.words_of("ANTONYM")
                               if any(w.span.start_char == a.start_char for a, _ in flips))
    swapped_memory = frozenset(key(w.span[0]) for w in pair.memory.words_of("ANTONYM")
                               if any(w.span.start_char == b.start_char for _, b in flips))
    source_all, memory_all = markers(pair.source), markers(pair.memory)
    # a negation both claims keep cancels out; one only a side has counts when what it negates is in the other
    source_markers = [m for m in _unmatched(source_all, memory_all)
                      if pair.source.bears_on(m[0], pair.memory.keys | swapped_source)]
    memory_markers = [m for m in _unmatched(memory_all, source_all)
                      if pair.memory.bears_on(m[0], pair.source.keys | swapped_memory)]
    if (len(source_markers) - len(memory_markers) - len(flips)) % 2 == 0:
        return []
    evidence = [_evidence(pair, m, "source") for m in source_markers] + [_evidence(pair, m, "memory")
                                                                          for m in memory_markers]
    evidence += [cue for flip in flips for cue in flip]
    return [pair.change("reversed_polarity", _message(source_markers, memory_markers, flips), evidence)]


def _message(source: Sequence[Marker], memory: Sequence[Marker], flips: Sequence[Tuple[Cue, Cue]]) -> str:
    if flips:
        pairs = ", ".join(f"{a.text!r} -> {b.text!r}" for a, b in flips)
        return f"the memory uses the opposite word ({pairs}): it reverses the claim"
    if len(source) > len(memory):
        return f"the source negates this claim ({quoted([s for s, _, _ in source])}); the memory asserts it"
    return f"the memory negates a claim the source asserts ({quoted([s for s, _, _ in memory])})"


def negations(claim: Claim) -> int:
    """How many negations a claim holds, for checks that compare conditions."""
    return len(negation_marks(claim))
