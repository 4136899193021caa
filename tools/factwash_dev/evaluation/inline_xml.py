"""Flattening inline-annotated XML (BioScope, Szeged, TimeML) into text and character spans."""

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Dict, List, Tuple


@dataclass(frozen=True)
class Tagged:
    """One annotated element: its tag, attributes and character offsets in the flattened text."""

    tag: str
    attrs: Dict[str, str]
    start: int
    end: int


def flatten(element: ET.Element) -> Tuple[str, List[Tagged]]:
    """The element's text with every descendant element recorded as a character span."""
    parts: List[str] = []
    tagged: List[Tagged] = []
    length = 0

    def walk(node: ET.Element) -> None:
        nonlocal length
        if node.text:
            parts.append(node.text)
            length += len(node.text)
        for child in node:
            start = length
            walk(child)
            tagged.append(Tagged(child.tag, dict(child.attrib), start, length))
            if child.tail:
                parts.append(child.tail)
                length += len(child.tail)

    walk(element)
    return "".join(parts), tagged
