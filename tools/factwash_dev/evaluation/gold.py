"""Gold units from annotated corpora, and their spaCy Docs.

A reader yields ``GoldText`` items: one sentence (BioScope, Szeged, CD-SCO)
or one article (PolNeAR, TempEval-3) with gold spans as character offsets,
and, where the corpus annotates them, each cue with its gold scope
(``GoldScope``: BioScope, CD-SCO) and the corpus's own tokens and part-of-speech
tags (CD-SCO).
``to_doc`` turns an item into a tokenized Doc whose span groups hold the
gold (``factwash_gold`` and any secondary groups), whose user_data names the
corpus, subset, document and unit, and which counts the gold spans that
could not be mapped onto tokens instead of dropping them silently.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Tuple

Ranges = Tuple[Tuple[int, int], ...]

from spacy.language import Language
from spacy.tokens import Doc

from spacy_factwash.syntax.sentences import set_sentence_starts

GOLD_KEY = "factwash_gold"
META_KEY = "factwash_gold_meta"


@dataclass(frozen=True)
class GoldSpan:
    """A gold span: character offsets, label, and the span group it belongs in."""

    start: int
    end: int
    label: str
    group: str = GOLD_KEY


@dataclass(frozen=True)
class GoldScope:
    """A gold cue and its gold scope, as character ranges (both may be discontinuous: "neither ... nor").

    ``affixal`` marks a cue that is part of a word ("un" of "unconventional"): the rest of that word may lie in
    the scope. The scope is in the corpus's own convention (BioScope: it holds the cue; CD-SCO: it does not).
    """

    label: str
    cue: Ranges
    scope: Ranges
    affixal: bool = False


@dataclass
class GoldText:
    """One annotated unit of a corpus, before tokenization."""

    corpus: str
    subset: str
    doc_id: str
    unit_id: str
    text: str
    spans: List[GoldSpan] = field(default_factory=list)
    is_sentence: bool = True
    skip_labels: Tuple[str, ...] = ()
    split_key: str = ""
    scopes: Tuple[GoldScope, ...] = ()
    words: Tuple[str, ...] = ()  # the corpus's tokens, when it gives them (``text`` is then they joined by spaces)
    tags: Tuple[str, ...] = ()  # the corpus's part-of-speech tag of each of ``words``


def to_doc(nlp: Language, item: GoldText) -> Doc:
    """Tokenize an item and attach its gold span groups and metadata (all msgpack-safe)."""
    doc = nlp.make_doc(item.text)
    if item.is_sentence:
        set_sentence_starts(doc, [i == 0 for i in range(len(doc))])
    groups: Dict[str, list] = {GOLD_KEY: []}
    unaligned = 0
    for gold in item.spans:
        span = doc.char_span(gold.start, gold.end, label=gold.label, alignment_mode="expand")
        if span is None or not len(span):
            unaligned += 1
            continue
        groups.setdefault(gold.group, []).append(span)
    for key, spans in groups.items():
        doc.spans[key] = spans
    doc.user_data[META_KEY] = {
        "corpus": item.corpus,
        "subset": item.subset,
        "doc_id": item.doc_id,
        "unit_id": item.unit_id,
        "skip_labels": list(item.skip_labels),
        "unaligned": unaligned,
    }
    return doc
