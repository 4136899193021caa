"""A Doc's text, joined once per Doc, and what else is read once per Doc and kept beside it.

spaCy's ``Doc.text`` joins every token's text on each access (a Token object
per token). The cue component, the gate's claims and its language check each
read the text of the same Doc, so it is joined once here and kept, beside the
Doc and never in it (nothing is added to ``user_data`` or carried through a
``DocBin``), for as long as the Doc lives. ``Beside`` keeps, the same way but
for a bounded number of recent Docs, what a component read from a Doc's
tokens for the components after it (``normalise.doc_orths``).
"""

import threading
from typing import Any, Callable, Dict, List, Optional, Tuple
from weakref import WeakKeyDictionary, ref

from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

_TEXTS: "WeakKeyDictionary[Doc, tuple]" = WeakKeyDictionary()
RECENT_DOCS = 4096  # Docs a ``Beside`` keeps values for (more than a batch of ``nlp.pipe``'s default sizes)


def doc_text(doc: Doc) -> str:
    """``doc.text``, joined at the first read of this Doc (again if its tokens were merged or split since)."""
    known = _TEXTS.get(doc)
    if known is None or known[0] != len(doc):
        known = _TEXTS[doc] = (len(doc), doc.text)
    return known[1]


def made_from(doc: Doc, text: str, tokenizer) -> Doc:
    """A Doc ``tokenizer`` has just made from ``text``: spaCy's own tokenizer keeps every character, so ``text`` is
    the Doc's text and is kept for ``doc_text`` (nothing is joined when it is read); a Doc of any other tokenizer is
    joined when first read, as ever."""
    if type(tokenizer) is Tokenizer:
        _TEXTS[doc] = (len(doc), text)
    return doc


class Beside:
    """Values worked out from the most recent Docs' tokens, one per Doc, kept beside the Docs: by the Doc's id,
    with a weak reference that says whether the entry is still that Doc's (an id is reused once its Doc is gone).
    Unlike a WeakKeyDictionary, nothing runs when a Doc is freed; the entry kept ``limit`` Docs ago goes when a
    new one is kept (a ring of ids), so a Doc asked for again after that is worked out again, the same."""

    def __init__(self, limit: int = RECENT_DOCS) -> None:
        self._entries: Dict[int, Tuple[ref, int, Any]] = {}
        self._ring: List[Optional[int]] = [None] * limit
        self._next = 0
        self._lock = threading.Lock()

    def get(self, doc: Doc) -> Optional[Any]:
        """The value kept for this Doc while its length is the one it was kept at, else None."""
        entry: Optional[Tuple[ref, int, Any]] = self._entries.get(id(doc))
        if entry is not None and entry[1] == len(doc) and entry[0]() is doc:
            return entry[2]
        return None

    def keep(self, doc: Doc, value: Any) -> Any:
        """Keep ``value`` for this Doc at its present length (dropping the entry kept ``limit`` Docs ago) and give
        it back."""
        key = id(doc)
        with self._lock:  # threads keeping at once must not take one slot (an entry no slot would ever drop)
            at = self._next
            old = self._ring[at]
            if old is not None and old != key:
                self._entries.pop(old, None)
            self._ring[at] = key
            self._next = (at + 1) % len(self._ring)
            self._entries[key] = (ref(doc), len(doc), value)
        return value
