"""Reading BioScope's inline XML: documents, sentences and their text."""

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator, List


def iter_sentence_elements(path: Path) -> Iterator[ET.Element]:
    """Every ``<sentence>`` element of a BioScope file, in document order."""
    tree = ET.parse(path)
    yield from tree.getroot().iter("sentence")


def read_sentences(path: Path) -> List[str]:
    """The plain text of every sentence in a BioScope file (cue and scope tags removed)."""
    return ["".join(element.itertext()) for element in iter_sentence_elements(path)]
