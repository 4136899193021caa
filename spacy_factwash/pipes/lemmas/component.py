"""factwash_lemmas: spaCy's lookup lemmas (spacy-lookups-data) set as one array per Doc.

It gives exactly what ``nlp.add_pipe("lemmatizer", config={"mode": "lookup"})``
gives (the lookup table's lemma for a token's text, else the text itself) but
maps orth ids to lemma ids with one dict look-up per token and writes them
with ``Doc.from_array``, instead of creating a Token object and a Python
string per token. The table is read once, when the component is built.
"""

from typing import Dict

import numpy
from spacy.attrs import LEMMA, ORTH
from spacy.language import Language
from spacy.lookups import load_lookups
from spacy.tokens import Doc

TABLE = "lemma_lookup"


class LookupLemmas:
    """Set ``token.lemma`` from the English lookup table of spacy-lookups-data."""

    def __init__(self, nlp: Language, name: str, overwrite: bool) -> None:
        self.name = name
        self.overwrite = overwrite
        self.vocab = nlp.vocab
        table = load_lookups(nlp.lang, [TABLE]).get_table(TABLE)
        self.lemma_ids: Dict[int, int] = {orth: nlp.vocab.strings.add(lemma) for orth, lemma in table.items()}
        self.lemma_text: Dict[int, str] = {self.lemma_ids[orth]: lemma for orth, lemma in table.items()}

    def lemma_of(self, text: str) -> str:
        """The lookup lemma of a word, lower-cased first ("Passwords" -> "password"), else the word."""
        lower = text.lower()
        lemma = self.lemma_ids.get(self.vocab.strings[lower]) if lower in self.vocab.strings else None
        return self.lemma_text[lemma] if lemma is not None else lower

    def __call__(self, doc: Doc) -> Doc:
        """Write every token's lemma in one array operation; lemmas already set stay unless ``overwrite``."""
        if not len(doc):
            return doc
        get = self.lemma_ids.get
        orths = doc.to_array(ORTH).tolist()
        if self.overwrite or not doc.has_annotation("LEMMA"):
            lemmas = [get(orth, orth) for orth in orths]
        else:
            lemmas = [old or get(orth, orth) for orth, old in zip(orths, doc.to_array(LEMMA).tolist())]
        if doc.vocab is not self.vocab:
            for lemma in set(lemmas) & self.lemma_text.keys():
                doc.vocab.strings.add(self.lemma_text[lemma])
        doc.from_array([LEMMA], numpy.asarray(lemmas, dtype=numpy.uint64).reshape(-1, 1))
        return doc


@Language.factory("factwash_lemmas", default_config={"overwrite": False}, assigns=["token.lemma"])
def make_lemmas(nlp: Language, name: str, overwrite: bool) -> LookupLemmas:
    """Lookup lemmas from spacy-lookups-data, fast."""
    return LookupLemmas(nlp, name, overwrite)
