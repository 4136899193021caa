"""Aligning each memory claim to the source claims that contain most of its content.

The score is containment: the share of the memory claim's content keys
(case-insensitive lookup lemmas, ``claims.py``) found in a source claim.
Under the threshold a memory claim is uncheckable. Among source claims with
the best score, an exact copy of the memory claim's words wins, then the one
closest in content (Jaccard of the key sets); claims still tied are all
kept (``candidates``), and so is any other source claim that gives the
memory claim at least ``MERGED`` content keys (and the threshold's share)
that the best ones do not: a memory claim that merged two source claims
answers to both. Nothing depends on the order of the source.

Candidates come from an inverted index of the source's keys and of the
numbers its claims hold, rarest first, until about ``CANDIDATES`` source
claims are in hand, so aligning is linear in the length of both texts. A
number the memory claim gives finds the source claims that give it however
common its words are ("Alice paid 599 euros" among 600 "Alice paid N euros"
is found in any order of the source). A lookup longer than the cap (a
memory claim whose every key is common and that holds no number, a source
that repeats one sentence a thousand times) gives one source claim of each
wording, the first ``CANDIDATES`` wordings in alphabetical order, worked out
once per lookup: which source claims are scored never depends on where they
stand. Every exact copy of the memory claim's words is scored too (a copy is
never rejected for standing past the cap).
"""

from dataclasses import dataclass
from typing import Dict, List, Sequence, Set, Tuple

from .claims import Claim

CANDIDATES = 256
MERGED = 2  # content keys a second source claim must add, beyond the best one's, to count as merged in


@dataclass(frozen=True)
class Alignment:
    """A memory claim, its best source claims (tied, in source order), the containment score, and whether
    they are exact copies of the memory claim's words."""

    memory: Claim
    candidates: Tuple[Claim, ...]
    score: float
    exact: bool = False

    @property
    def source(self):
        """The first of the best source claims, or None when the memory claim aligns to nothing."""
        return self.candidates[0] if self.candidates else None


def align(source: Sequence[Claim], memory: Sequence[Claim], threshold: float) -> List[Alignment]:
    """Each memory claim with its best source claims, or none under the threshold."""
    index: Dict[int, List[int]] = {}
    by_number: Dict[int, List[int]] = {}  # a number is a lookup, never a scored key
    for n, claim in enumerate(source):
        for key in claim.keys:
            index.setdefault(key, []).append(n)
        for number in claim.numbers:
            by_number.setdefault(number, []).append(n)
    alignments = []
    by_words: Dict[str, List[int]] = {}  # the source claims by wording, made at the first claim that needs it
    spread: Dict[int, List[int]] = {}  # a lookup longer than the cap, one claim per wording (by the list's id)
    sentence_texts: Dict[Tuple[int, int], str] = {}  # each sentence's text, joined once

    def sentence_text(claim: Claim) -> str:
        bounds = (claim.sentence.start, claim.sentence.end)
        if bounds not in sentence_texts:
            sentence_texts[bounds] = claim.sentence.text
        return sentence_texts[bounds]

    def distinct(listed: List[int]) -> List[int]:
        """A lookup longer than the cap as one source claim of each of its first ``CANDIDATES`` wordings in
        alphabetical order (of claims with one wording, the one in the first sentence by its text; each sentence
        is joined once, so a source of one long sentence stays linear)."""
        known = spread.get(id(listed))
        if known is None:
            first: Dict[str, int] = {}
            for n in listed:
                held = first.setdefault(source[n].wording, n)
                if held != n and sentence_text(source[n]) < sentence_text(source[held]):
                    first[source[n].wording] = n
            known = spread[id(listed)] = [first[wording] for wording in sorted(first)[:CANDIDATES]]
        return known

    def copies_of(claim: Claim) -> List[int]:
        if not by_words and source:
            for n, candidate in enumerate(source):
                by_words.setdefault(candidate.wording, []).append(n)
        return by_words.get(claim.wording, [])

    for claim in memory:
        keys = claim.keys
        if not keys:  # a claim with no content word ("unless it does") aligns only to a copy of itself
            copies = tuple(source[n] for n in copies_of(claim))
            alignments.append(Alignment(claim, copies, 1.0 if copies else 0.0, bool(copies)))
            continue
        found: Set[int] = set()
        lookups = [index[k] for k in keys if k in index] + [by_number[v] for v in claim.numbers if v in by_number]
        capped = False
        for listed in sorted(lookups, key=len):  # rarest first: "599" of "Alice paid 599 euros" before "Alice"
            if found and len(found) + len(listed) > CANDIDATES:
                capped = True
                break
            if len(listed) > CANDIDATES:
                capped = True
                listed = distinct(listed)
            found.update(listed)
        if capped:  # an exact copy is always among the candidates, wherever the source holds it
            found.update(copies_of(claim)[:CANDIDATES])
        said = (keys - claim.names) or keys  # what the claim says of its names ("Alice [was promoted]") must align
        best = [(score, n) for n in found if (score := len(said & source[n].keys) / len(said)) >= threshold]
        if not best:
            alignments.append(Alignment(claim, (), max((len(keys & source[n].keys) / len(keys) for n in found),
                                                        default=0.0)))
            continue
        # the best score first; exact copy and closeness are read for the claims that have it
        top_score = max(score for score, _ in best)
        ranked = [((score, int(source[n].wording == claim.wording),
                    len(keys & source[n].keys) / len(keys | source[n].keys)), n)
                  for score, n in best if score == top_score]
        top = max(rank for rank, _ in ranked)
        tied = {n for rank, n in ranked if rank == top}
        covered = frozenset().union(*(source[n].keys for n in tied)) & keys
        merged = {n for _, n in best if n not in tied
                  and len((keys & source[n].keys) - covered) >= max(MERGED, threshold * len(keys))}
        candidates = tuple(source[n] for n in sorted(tied | merged))
        alignments.append(Alignment(claim, candidates, top[0], bool(top[1]) and not merged))
    return alignments
