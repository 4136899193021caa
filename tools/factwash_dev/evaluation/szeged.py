"""Szeged Uncertainty Corpus (Szarvas et al. 2012): typed uncertainty cues, no scopes.

``speculation_modal_*`` and ``speculation_hypo_doxastic`` cues are gold
HEDGE, ``speculation_hypo_condition`` gold CONDITIONAL. Investigation cues
("we examined whether X") are research framing: they are not gold, and a
sentence holding one is left out of HEDGE and CONDITIONAL scoring (the
report counts those sentences). The type strings carry a literal space or
underscore as distributed ("speculation_hypo_doxastic _"), so they are
matched after stripping both.
"""

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator, Optional

from .gold import GoldSpan, GoldText
from .inline_xml import flatten
from .split import document_key

FILES = ("bio_bmc", "bio_fly", "bio_hbc", "factbank", "wiki")
INVESTIGATION = "speculation_hypo_investigation"
SKIP_WHEN_INVESTIGATION = ("HEDGE", "CONDITIONAL")


def label_of(cue_type: str) -> Optional[str]:
    """The factwash label of a Szeged cue type, or None for types that are not gold."""
    kind = cue_type.strip().rstrip("_ ").strip()
    if kind.startswith("speculation_modal") or kind == "speculation_hypo_doxastic":
        return "HEDGE"
    if kind == "speculation_hypo_condition":
        return "CONDITIONAL"
    return None


def is_investigation(cue_type: str) -> bool:
    return cue_type.strip().rstrip("_ ").strip() == INVESTIGATION


def read(root: Path) -> Iterator[GoldText]:
    """Gold sentences of every Szeged file under ``root`` (the corpus's ``raw`` folder)."""
    for subset in FILES:
        for document in ET.parse(root / f"{subset}.xml").getroot().iter("Document"):
            doc_id = document.findtext("DocID", "").strip()
            sentences = list(document.iter("Sentence"))
            key = document_key("".join(sentences[0].itertext())) if sentences else doc_id
            for sentence in sentences:
                text, tagged = flatten(sentence)
                cues = [t for t in tagged if t.tag == "ccue"]
                spans = [
                    GoldSpan(t.start, t.end, label_of(t.attrs.get("type", "")))
                    for t in cues
                    if label_of(t.attrs.get("type", ""))
                ]
                skip = SKIP_WHEN_INVESTIGATION if any(is_investigation(t.attrs.get("type", "")) for t in cues) else ()
                yield GoldText("szeged", subset, doc_id, sentence.get("id", ""), text, spans,
                               skip_labels=skip, split_key=key)
