"""Reading mem0's fact-extraction reply exactly as the installed mem0 (2.x) reads it.

mem0 strips an enclosing code fence and any ``<think>`` block
(``mem0.memory.utils.remove_code_blocks``), parses the rest as JSON
(``strict=False``), and when that fails parses what ``extract_json`` finds:
the inside of a ```json fence anywhere, else the text from the first ``{``
to the last ``}``. Whatever parses, its ``"memory"`` list is what mem0 would
store. This module runs mem0's own helpers in mem0's own order, so every
fact mem0 could read is read here, and gated; a reply it could not read
stores nothing either way.
"""

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass
class Extraction:
    """The facts an extraction reply holds (``{"text": ...}`` objects with a non-empty string text), the items
    of its list that are not such facts, and why nothing could be read (None when the reply was read)."""

    facts: List[Dict[str, Any]] = field(default_factory=list)
    unreadable: List[Any] = field(default_factory=list)
    error: Optional[str] = None


def read_extraction(reply: Any) -> Extraction:
    """The reply read the way mem0 2.x reads it (``Memory._add_to_vector_store``)."""
    from mem0.memory.utils import extract_json, remove_code_blocks

    try:
        text = remove_code_blocks(reply)
        if not text or not text.strip():
            return Extraction()
        try:
            listed = json.loads(text, strict=False).get("memory", [])
        except json.JSONDecodeError:
            listed = json.loads(extract_json(text), strict=False).get("memory", [])
    except Exception as err:  # mem0 catches every error here too, and reads no fact
        return Extraction(error=f"{type(err).__name__}: {err}")
    if not listed:
        return Extraction()
    if not isinstance(listed, list):
        return Extraction(error=f"'memory' is {type(listed).__name__}, not a list")
    extraction = Extraction()
    for item in listed:
        text = item.get("text") if isinstance(item, dict) else None
        if isinstance(text, str) and text:
            extraction.facts.append(item)
        else:
            extraction.unreadable.append(item)
    return extraction
