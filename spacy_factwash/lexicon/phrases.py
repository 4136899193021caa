"""The words of a lexicon's phrases as a pipeline's tokenizer splits them: each distinct phrase tokenized once.

A phrase entry is matched on LOWER by spaCy's PhraseMatcher, which keeps a pattern as the LOWER values of its
tokens (what it makes of a pattern Doc, and what its pickles carry). So compiling a lexicon needs of each phrase
only the lower-case texts of its tokens: ``PhraseWords`` asks the tokenizer once per distinct phrase text (the gate's
word lists name one word under several kinds, and the shouted-text forms, ``syntax/normalise.case_forms``, read the
same phrases again) and keeps the answer, instead of a Doc per phrase per reader. The tokenizer is called as before,
so the lexemes it makes and its own splitting rules are the same; one ``PhraseWords`` serves one compile, so a rule
added to the tokenizer afterwards is read at the next.

A phrase is tokenized without a place in the tokenizer's cache (``uncached``): spaCy's tokenizer keeps at most
``max_cache_size`` (10,000) chunks, and the gate's word lists alone spell about 3,900, so a pipeline that compiled
them left its tokenizer room for fewer than two thirds of the words of the text it then read.
"""

import os
import threading
from typing import Dict, Tuple

from spacy.tokens import Doc

_UNCACHED = threading.RLock()  # reentrant: a tokenizer may compile a lexicon of its own while it runs


def _unlocked_in_a_child() -> None:
    """A process forked while another thread held the lock starts with a lock of its own."""
    global _UNCACHED
    _UNCACHED = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_unlocked_in_a_child)


def uncached(tokenizer, text: str) -> Doc:
    """``tokenizer(text)``, the same tokens, with nothing added to the tokenizer's cache (spaCy's ``Tokenizer``:
    its ``max_cache_size`` set to 0 for the call, under a reentrant lock, so calls from several threads each give
    it back as it was); a tokenizer without a cache size is called as it is."""
    if not hasattr(tokenizer, "max_cache_size"):
        return tokenizer(text)
    with _UNCACHED:
        size = tokenizer.max_cache_size
        tokenizer.max_cache_size = 0
        try:
            return tokenizer(text)
        finally:
            tokenizer.max_cache_size = size


class PhraseWords:
    """The lower-case token texts of phrases as ``tokenizer`` splits them, each distinct phrase tokenized once."""

    def __init__(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        self._split: Dict[str, Tuple[str, ...]] = {}

    @classmethod
    def over(cls, tokenizer) -> "PhraseWords":
        """``tokenizer`` itself when it is a ``PhraseWords``, else one over it (a caller that passes a tokenizer)."""
        return tokenizer if isinstance(tokenizer, cls) else cls(tokenizer)

    def __call__(self, phrase: str) -> Tuple[str, ...]:
        """The LOWER texts of the tokens ``tokenizer(phrase)`` holds."""
        words = self._split.get(phrase)
        if words is None:
            words = self._split[phrase] = tuple(token.lower_ for token in uncached(self.tokenizer, phrase))
        return words
