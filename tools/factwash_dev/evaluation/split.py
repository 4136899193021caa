"""Document-level dev/test halves for corpora without an official split.

A document's half is fixed by a stable hash of its normalised first
sentence (its title), not of its id: BioScope and the Szeged corpus share
most abstracts and papers under different ids, and the same document must
fall in the same half in both, or mining on one corpus's dev half would read
the other's test half. The resulting id lists are committed under
``training/splits/`` and are what evaluation reads: changing a split is a
visible diff.
"""

import hashlib
import json
import re
from pathlib import Path
from typing import Dict, Iterable, Iterator, List

from spacy_factwash.io.outputs import write_text

HALVES = ("dev", "test")


class SplitError(ValueError):
    """A document is missing from the committed split files."""


def document_key(first_sentence: str) -> str:
    """A document's split key: its first sentence, lower-cased, letters and digits only."""
    return re.sub(r"[\W_]+", "", first_sentence.lower())


def half_of(key: str) -> str:
    """``dev`` or ``test``, from the sha256 of the split key."""
    return HALVES[hashlib.sha256(key.encode("utf8")).digest()[0] % 2]


def make_split(items: Iterable) -> Dict[str, Dict[str, List[str]]]:
    """Per subset, the sorted document ids of each half, from items with ``subset``, ``doc_id`` and ``split_key``."""
    halves: Dict[str, Dict[str, set]] = {}
    for item in items:
        subset = halves.setdefault(item.subset, {half: set() for half in HALVES})
        subset[half_of(item.split_key)].add(item.doc_id)
    return {subset: {half: sorted(ids) for half, ids in parts.items()} for subset, parts in sorted(halves.items())}


def write_split(path: Path, split: Dict[str, Dict[str, List[str]]]) -> None:
    """Write a split file (one JSON object, stable formatting)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(split, indent=1, sort_keys=True) + "\n")


def read_split(path: Path) -> Dict[str, Dict[str, List[str]]]:
    """Read a committed split file."""
    return json.loads(path.read_text(encoding="utf8"))


def select_half(items: Iterable, split: Dict[str, Dict[str, List[str]]], half: str, name: str) -> Iterator:
    """The items (with ``subset`` and ``doc_id``) the committed split puts in ``half``.

    An item the split file does not list at all is an error, never silently
    dropped: the corpus has changed since the split was frozen.
    """
    members = {subset: set(halves[half]) for subset, halves in split.items()}
    known = {subset: set(halves["dev"]) | set(halves["test"]) for subset, halves in split.items()}
    for item in items:
        if item.doc_id not in known.get(item.subset, ()):
            raise SplitError(f"{name}/{item.subset}: document {item.doc_id!r} is in no committed split file")
        if item.doc_id in members[item.subset]:
            yield item
