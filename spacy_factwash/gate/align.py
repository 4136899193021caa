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

Candidates come from an inverted index of the source's keys: a key that
more than ``COMMON`` source claims share is used to score candidates but not
to find them (unless the memory claim has no rarer key), so aligning is
linear in the length of both texts.
"""

from collections import Counter
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

from .claims import Claim

COMMON = 2000
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


def _words(claim: Claim) -> str:
    return " ".join(token.lower_ for token in claim.tokens() if not (token.is_punct or token.is_space))


def align(source: Sequence[Claim], memory: Sequence[Claim], threshold: float) -> List[Alignment]:
    """Each memory claim with its best source claims, or none under the threshold."""
    index: Dict[int, List[int]] = {}
    for n, claim in enumerate(source):
        for key in claim.keys:
            index.setdefault(key, []).append(n)
    alignments = []
    by_words: Dict[str, List[Claim]] = {}
    for claim in memory:
        keys = claim.keys
        if not keys:  # a claim with no content word ("unless it does") aligns only to a copy of itself
            if not by_words and source:
                for candidate in source:
                    by_words.setdefault(_words(candidate), []).append(candidate)
            copies = tuple(by_words.get(_words(claim), ()))
            alignments.append(Alignment(claim, copies, 1.0 if copies else 0.0, bool(copies)))
            continue
        rare = [key for key in keys if 0 < len(index.get(key, ())) <= COMMON]
        if not rare:
            known = [key for key in keys if key in index]
            rare = [min(known, key=lambda k: len(index[k]))] if known else []
        found: Counter = Counter()
        for key in rare:
            found.update(index[key])
        best: List[Tuple[Tuple[float, int, float], int]] = []
        words = None
        for n in found:
            shared = len(keys & source[n].keys)
            score = shared / len(keys)
            if score < threshold:
                continue
            if words is None:
                words = _words(claim)
            exact = int(_words(source[n]) == words)
            rank = (score, exact, shared / len(keys | source[n].keys))
            best.append((rank, n))
        if not best:
            alignments.append(Alignment(claim, (), max((len(keys & source[n].keys) / len(keys) for n in found),
                                                        default=0.0)))
            continue
        top = max(rank for rank, _ in best)
        tied = [n for rank, n in sorted(best, key=lambda item: item[1]) if rank == top]
        covered = frozenset().union(*(source[n].keys for n in tied)) & keys
        merged = [n for rank, n in best if n not in tied
                  and len((keys & source[n].keys) - covered) >= max(MERGED, threshold * len(keys))]
        candidates = tuple(source[n] for n in sorted(tied + merged))
        alignments.append(Alignment(claim, candidates, top[0], bool(top[1]) and not merged))
    return alignments
