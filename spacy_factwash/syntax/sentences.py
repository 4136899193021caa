"""A Doc's sentences, read from its sentence-start array.

``Doc.sents`` builds a Token object for every token of the Doc each time it
is read; the gate and the evaluation read sentences of every Doc several
times, so this reads the starts as one array instead (same spans; a
``sents`` user hook, when a pipeline set one, is honoured).
"""

from typing import List, Sequence

import numpy
from spacy.attrs import SENT_START
from spacy.language import Language
from spacy.tokens import Doc, Span


def sentencizer_only(nlp: Language):
    """``nlp.select_pipes`` leaving only the pipeline's sentencizer on: for callers that need a Doc's tokens and
    sentence starts and nothing else (a context manager)."""
    return nlp.select_pipes(enable=[name for name in nlp.pipe_names if name == "sentencizer"])


def sentences(doc: Doc) -> List[Span]:
    """A Doc's sentences, or the whole Doc as one when no component set boundaries."""
    length = len(doc)
    if not length:
        return []
    if "sents" in doc.user_hooks:
        return list(doc.sents)
    # a Doc with no start set past its first token (no boundaries) gives the one span the whole Doc is; the flags
    # as a list: a Doc is mostly a few tokens, where numpy's steps cost more than the loop
    flags = doc.to_array(SENT_START).tolist()
    starts = [0] + [i for i in range(1, length) if flags[i] == 1]
    return [Span(doc, start, end) for start, end in zip(starts, starts[1:] + [length])]


def set_sentence_starts(doc: Doc, starts: Sequence[bool]) -> None:
    """Mark each token of a Doc without a parse as starting a sentence (True) or not (False), in one array write:
    each ``Token.is_sent_start`` write reads the whole Doc's annotation, so setting them token by token is
    quadratic in the Doc's length."""
    if len(starts) != len(doc):
        raise ValueError(f"set_sentence_starts: {len(starts)} flags for a Doc of {len(doc)} tokens")
    if starts:
        flags = numpy.array([1 if start else -1 for start in starts], dtype="int64").astype("uint64")
        doc.from_array([SENT_START], flags.reshape(-1, 1))
