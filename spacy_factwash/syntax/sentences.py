"""A Doc's sentences, the whole Doc as one when no component set boundaries, and sentence starts set in one write.

``Doc.sents`` raises E030 on a Doc no component set sentence starts on (a
Doc made by a tokenizer alone); the gate reads such a Doc as one sentence.
(Read through ``Doc.sents``, in C: a Python loop over the sentence-start
array, as this module read them before, measured 2.5-3x slower on short and
long Docs alike.)
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
    """A Doc's sentences (``Doc.sents``, a ``sents`` user hook honoured), or the whole Doc as one when no
    component set boundaries."""
    if not len(doc):
        return []
    try:
        return list(doc.sents)
    except ValueError:  # E030, unless a hook raised it or the starts are set and something else went wrong
        if "sents" in doc.user_hooks or doc.has_annotation("SENT_START"):
            raise
        return [doc[:]]


def set_sentence_starts(doc: Doc, starts: Sequence[bool]) -> None:
    """Mark each token of a Doc without a parse as starting a sentence (True) or not (False), in one array write:
    each ``Token.is_sent_start`` write reads the whole Doc's annotation, so setting them token by token is
    quadratic in the Doc's length."""
    if len(starts) != len(doc):
        raise ValueError(f"set_sentence_starts: {len(starts)} flags for a Doc of {len(doc)} tokens")
    if starts:
        flags = numpy.array([1 if start else -1 for start in starts], dtype="int64").astype("uint64")
        doc.from_array([SENT_START], flags.reshape(-1, 1))
