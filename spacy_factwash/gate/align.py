"""Aligning each memory sentence to the source sentence that contains most of its content words.

Content words are tokens that are not stop words, punctuation, spaces or
numbers, compared as lemma ids (the lookup lemma where the pipeline has one,
else the lower-cased form). The score is containment: the share of the
memory sentence's content words found in the source sentence. Sets of ints,
so aligning is linear in the number of sentence pairs' content words.
"""

from dataclasses import dataclass
from typing import FrozenSet, List, Optional, Sequence

from spacy.tokens import Doc, Span


def content_ids(span: Span) -> FrozenSet[int]:
    """The lemma ids of a span's content words."""
    return frozenset(
        (token.lemma if token.lemma else token.lower)
        for token in span
        if not (token.is_stop or token.is_punct or token.is_space or token.like_num)
    )


@dataclass(frozen=True)
class Alignment:
    """A memory sentence, its best source sentence (index into the source's sentences) and the score."""

    memory: Span
    source_index: Optional[int]
    score: float


def sentences(doc: Doc) -> List[Span]:
    """A Doc's sentences, or the whole Doc as one when no component set boundaries."""
    if not len(doc):
        return []
    return list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]


def align(source_sents: Sequence[Span], memory_sents: Sequence[Span], threshold: float) -> List[Alignment]:
    """Each memory sentence with its best source sentence, or None under the threshold."""
    source_sets = [content_ids(sent) for sent in source_sents]
    alignments = []
    for memory in memory_sents:
        words = content_ids(memory)
        best, best_score = None, 0.0
        if words:
            for index, candidate in enumerate(source_sets):
                score = len(words & candidate) / len(words)
                if score > best_score:
                    best, best_score = index, score
        if best_score < threshold:
            best = None
        alignments.append(Alignment(memory, best, best_score))
    return alignments
