"""BioScope (Vincze et al. 2008): speculation and negation cues in biomedical abstracts and papers.

``speculation`` cues are gold HEDGE, ``negation`` cues gold NEGATION. The
clinical sub-corpus is redacted (every word is ``*``) and is not read.

Each cue (its ``<cue>`` elements share a ``ref``; "either ... or" has two)
comes with its scope, the ``<xcope>`` whose ``id`` the ``ref`` names. Scopes
nest, and by the corpus's convention the cue lies inside its own scope (13
cues in the two files do not: their ``ref`` names a neighbouring scope; they
are kept as annotated). A scope no cue refers to is not read.
"""

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

from .gold import GoldScope, GoldSpan, GoldText
from .inline_xml import Tagged, flatten
from .split import document_key

CUE_LABELS = {"speculation": "HEDGE", "negation": "NEGATION"}
FILES = {"abstracts": "abstracts.xml", "full_papers": "full_papers.xml"}
SKIPPED = {"clinical": "clinical_merger/clinical_records_anon.xml: redacted, every word is '*'"}


def iter_sentence_elements(path: Path) -> Iterator[ET.Element]:
    """Every ``<sentence>`` element of a BioScope file, in document order."""
    tree = ET.parse(path)
    yield from tree.getroot().iter("sentence")


def read_sentences(path: Path) -> List[str]:
    """The plain text of every sentence in a BioScope file (cue and scope tags removed)."""
    return ["".join(element.itertext()) for element in iter_sentence_elements(path)]


def scopes_of(tagged: List[Tagged]) -> Tuple[GoldScope, ...]:
    """Every cue of a flattened sentence with the scope its ``ref`` names, in text order."""
    scopes = {t.attrs.get("id"): t for t in tagged if t.tag == "xcope"}
    cues: Dict[str, List[Tagged]] = {}
    for t in tagged:
        if t.tag == "cue" and t.attrs.get("type") in CUE_LABELS:
            cues.setdefault(t.attrs.get("ref", ""), []).append(t)
    found = []
    for ref, parts in cues.items():
        parts.sort(key=lambda t: t.start)
        scope = scopes.get(ref)
        found.append(GoldScope(CUE_LABELS[parts[0].attrs["type"]], tuple((t.start, t.end) for t in parts),
                               ((scope.start, scope.end),) if scope is not None else ()))
    return tuple(sorted(found, key=lambda g: g.cue))


def read(root: Path) -> Iterator[GoldText]:
    """Gold sentences of the abstracts and full papers under ``root`` (the corpus's ``raw`` folder)."""
    for subset, name in FILES.items():
        for document in ET.parse(root / name).getroot().iter("Document"):
            doc_id = document.findtext("DocID", "").strip()
            sentences = list(document.iter("sentence"))
            key = document_key("".join(sentences[0].itertext())) if sentences else doc_id
            for sentence in sentences:
                text, tagged = flatten(sentence)
                spans = [
                    GoldSpan(t.start, t.end, CUE_LABELS[t.attrs.get("type", "")])
                    for t in tagged
                    if t.tag == "cue" and t.attrs.get("type") in CUE_LABELS
                ]
                yield GoldText("bioscope", subset, doc_id, sentence.get("id", ""), text, spans, split_key=key,
                               scopes=scopes_of(tagged))
