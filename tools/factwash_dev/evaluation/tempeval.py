"""TempEval-3 TimeML (UzZaman et al. 2013): temporal expressions, plus secondary gold.

TIMEX3 inside ``<TEXT>`` is gold TEMPORAL (the document creation time sits
in ``<DCT>``, outside, and is not read). Secondary gold, in its own group
``factwash_gold_secondary`` and reported as such: EVENTs of class REPORTING
and the main event of an EVIDENTIAL SLINK as ATTRIBUTION, of a MODAL SLINK as
HEDGE, of a CONDITIONAL SLINK as CONDITIONAL. Official split: TBAQ-cleaned
(TimeBank + AQUAINT) is train, te3-platinum is test.
"""

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator

from .gold import GoldSpan, GoldText
from .inline_xml import flatten

SECONDARY_KEY = "factwash_gold_secondary"
FOLDERS = {"train": ["TBAQ-cleaned/TimeBank", "TBAQ-cleaned/AQUAINT"], "test": ["te3-platinum"]}
SLINK_LABELS = {"EVIDENTIAL": "ATTRIBUTION", "MODAL": "HEDGE", "CONDITIONAL": "CONDITIONAL"}


def read_file(path: Path, subset: str) -> GoldText:
    """One TimeML document as a gold article."""
    root = ET.parse(path).getroot()
    text_element = root.find("TEXT")
    text, tagged = flatten(text_element) if text_element is not None else ("", [])
    events = {t.attrs.get("eid"): t for t in tagged if t.tag == "EVENT"}
    instance_event = {m.get("eiid"): m.get("eventID") for m in root.iter("MAKEINSTANCE")}
    spans = [
        GoldSpan(t.start, t.end, "TEMPORAL")
        for t in tagged
        if t.tag == "TIMEX3" and t.attrs.get("functionInDocument") != "CREATION_TIME"
    ]
    spans += [GoldSpan(t.start, t.end, "ATTRIBUTION", SECONDARY_KEY)
              for t in events.values() if t.attrs.get("class") == "REPORTING"]
    for slink in root.iter("SLINK"):
        label = SLINK_LABELS.get(slink.get("relType", ""))
        event = events.get(instance_event.get(slink.get("eventInstanceID")))
        if label and event is not None:
            spans.append(GoldSpan(event.start, event.end, label, SECONDARY_KEY))
    doc_id = (root.findtext("DOCID") or path.stem).strip()
    return GoldText("tempeval", subset, doc_id, doc_id, text, sorted(set(spans), key=lambda s: (s.start, s.end)),
                    is_sentence=False)


def read(root: Path) -> Iterator[GoldText]:
    """Gold documents of TBAQ-cleaned (train) and te3-platinum (test) under ``root``."""
    for subset, folders in FOLDERS.items():
        for folder in folders:
            for path in sorted((root / folder).glob("*.tml")):
                yield read_file(path, subset)
