"""factwash_lemmas: spaCy's lookup lemmas (spacy-lookups-data) set in one pass over each Doc's tokens.

It gives exactly what ``nlp.add_pipe("lemmatizer", config={"mode": "lookup"})``
gives (the lookup table's lemma for a token's text, else the text itself) but
maps orth ids to lemma ids in a table of its own and writes them onto the
tokens in a loop in C (``table.pyx``), instead of creating a Token object and a
Python string per token.

It lives as spaCy's Lemmatizer does (``pipes/base.py``): built empty, its
table read from spacy-lookups-data by ``initialize`` (or at its first
document), and saved with the pipeline (``lemmas/lemma_lookup.msgpack`` under
a manifest with its sha256), so a saved pipeline loads its table from its own
folder, verified, and never reads spacy-lookups-data again.
"""

import functools
import json
from importlib.metadata import version
from typing import Callable, Dict, Iterable, Mapping, Optional

import srsly
from spacy.attrs import LEMMA
from spacy.language import Language
from spacy.lookups import load_lookups
from spacy.pipeline.lemmatizer import lemmatizer_score
from spacy.strings import get_string_id
from spacy.tokens import Doc
from spacy.util import load_language_data, registry

from ...lexicon.frozen import LexiconSet, sha256
from ...lexicon.sets import LEMMA_FILE, LEMMAS
from ..base import LexiconPipe
from .table import LemmaTable

TABLE = "lemma_lookup"


class LookupLemmas(LexiconPipe):
    """Set ``token.lemma`` from the English lookup table of spacy-lookups-data."""

    holds = {"lemmas": LEMMAS}

    def __init__(self, nlp: Language, name: str, overwrite: bool,
                 scorer: Optional[Callable] = lemmatizer_score) -> None:
        super().__init__(nlp, name)
        self.lang = nlp.lang
        self.overwrite = overwrite
        self.scorer = scorer

    def initialize(self, get_examples: Optional[Callable] = None, *, nlp: Optional[Language] = None) -> None:
        """Read the lookup table from spacy-lookups-data (``nlp.initialize()``, ``spacy assemble``)."""
        self.load_sets()

    def read_set(self, key: str, folder: Optional[str] = None) -> LexiconSet:
        """The lemma table from ``folder`` (a saved pipeline's), else from spacy-lookups-data."""
        return super().read_set(key, folder) if folder is not None else lookup_table_set(self.lang)

    def compile(self, sets: Mapping[str, LexiconSet]) -> None:
        """Map each word's orth id to its lemma's id (the lemma strings added to the vocab); once per load."""
        table = srsly.msgpack_loads(sets["lemmas"].files[LEMMA_FILE])
        strings = self.vocab.strings
        # each lemma added once (26,007 lemmas for 41,582 English words), in the order the table first names it
        ids = {lemma: strings.add(lemma) for lemma in dict.fromkeys(table.values())}
        self._lemma_ids: Dict[int, int] = {orth: ids[lemma] for orth, lemma in table.items()}
        self._lemma_text: Dict[int, str] = {lemma_id: lemma for lemma, lemma_id in ids.items()}
        self._table = LemmaTable(self._lemma_ids)

    @property
    def lemma_ids(self) -> Dict[int, int]:
        """Orth id of a word -> id of its lookup lemma (the table read first when it was not)."""
        self.sets
        return self._lemma_ids

    @property
    def lemmas(self) -> Iterable[str]:
        """Every lemma the table names, once each (the table read first when it was not)."""
        self.sets
        return self._lemma_text.values()

    def lemma_of(self, text: str) -> str:
        """The lookup lemma of a word, lower-cased first ("Passwords" -> "password"), else the word."""
        lower = text.lower()
        lemma = self.lemma_ids.get(self.vocab.strings[lower]) if lower in self.vocab.strings else None
        return self._lemma_text[lemma] if lemma is not None else lower

    def __call__(self, doc: Doc) -> Doc:
        """Write every token's lemma in one pass over its tokens; lemmas already set stay unless ``overwrite``."""
        self.lemma_ids  # the table read here at the first document, empty or not, when it was not
        self._table.write(doc, self.overwrite)
        if doc.vocab is not self.vocab:  # the lemmas' strings, which this pipeline's vocab holds, into the Doc's
            for lemma in set(doc.to_array(LEMMA).tolist()) & self._lemma_text.keys():
                doc.vocab.strings.add(self._lemma_text[lemma])
        return doc

def lookup_table(lang: str) -> Dict[int, str]:
    """The lookup lemma table of spacy-lookups-data for ``lang`` as a dict, orth id -> lemma, in the table's order:
    what ``load_lookups(lang, [TABLE]).get_table(TABLE)`` holds, read without building spaCy's ``Table`` (an
    ordered dict with a Bloom filter, filled one Python call per word: most of the first document's cost of this
    component). Its keys are the ones ``Table`` makes, ``get_string_id`` of each word; a language or a table
    spacy-lookups-data does not have is left to ``load_lookups``, which says so."""
    found = registry.lookups.get(lang) if lang in registry.lookups else {}
    if TABLE not in found:
        return dict(load_lookups(lang, [TABLE]).get_table(TABLE).items())
    return {get_string_id(word): lemma for word, lemma in load_language_data(found[TABLE]).items()}


@functools.lru_cache(maxsize=None)
def lookup_table_set(lang: str) -> LexiconSet:
    """The lookup lemma table of spacy-lookups-data for ``lang``, as a set to save with a pipeline: one msgpack
    file (orth id -> lemma) under a manifest naming the spacy-lookups-data version and the file's sha256. Read
    once per process and language (a frozen set; the installed data does not change under a running process):
    every pipeline built after the first skips reading and digesting it again."""
    data = srsly.msgpack_dumps(lookup_table(lang))
    source = f"spacy-lookups-data {version('spacy-lookups-data')}"
    manifest = {"version": f"{source} {lang} {TABLE}", "files": {LEMMA_FILE: sha256(data)}}
    return LexiconSet(manifest["version"], (), {LEMMA_FILE: data},
                      (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf8"), origin=source)


@Language.factory("factwash_lemmas", default_config={"overwrite": False,
                                                     "scorer": {"@scorers": "spacy.lemmatizer_scorer.v1"}},
                  assigns=["token.lemma"], default_score_weights={"lemma_acc": 1.0})
def make_lemmas(nlp: Language, name: str, overwrite: bool, scorer: Optional[Callable]) -> LookupLemmas:
    """Lookup lemmas from spacy-lookups-data, fast."""
    return LookupLemmas(nlp, name, overwrite, scorer)
