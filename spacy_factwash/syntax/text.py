"""A Doc's text, joined once per Doc and kept beside it.

spaCy's ``Doc.text`` joins every token's text on each access (a Token object
per token). The cue component, the gate's claims and its language check each
read the text of the same Doc, so it is joined once here (from the tokens'
lexemes, in C: ``token_passes.joined_text``) and kept, beside the Doc and
never in it (nothing is added to ``user_data`` or carried through a
``DocBin``), for as long as the Doc lives.
"""

from weakref import WeakKeyDictionary

from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

from .token_passes import joined_text

_TEXTS: "WeakKeyDictionary[Doc, tuple]" = WeakKeyDictionary()


def doc_text(doc: Doc) -> str:
    """``doc.text``, joined at the first read of this Doc (again if its tokens were merged or split since)."""
    known = _TEXTS.get(doc)
    if known is None or known[0] != len(doc):
        known = _TEXTS[doc] = (len(doc), joined_text(doc))
    return known[1]


def made_from(doc: Doc, text: str, tokenizer) -> Doc:
    """A Doc ``tokenizer`` has just made from ``text``: spaCy's own tokenizer keeps every character, so ``text`` is
    the Doc's text and is kept for ``doc_text`` (nothing is joined when it is read); a Doc of any other tokenizer is
    joined when first read, as ever."""
    if type(tokenizer) is Tokenizer:
        _TEXTS[doc] = (len(doc), text)
    return doc

