# cython: language_level=3, boundscheck=False, wraparound=False
"""A lookup lemma table written onto a Doc's tokens in one pass in C.

``factwash_lemmas`` maps each word's orth id to its lemma's id (``component.py``); ``LemmaTable`` holds that map in a
hash table of its own and sets every token's lemma from it in a loop over the Doc's tokens, with no Token object,
Python string or array made per Doc. It is built from the map and pickled as the map (a worker process builds its
own table), and read while holding the GIL, as spaCy's own tables are.
"""

from libc.stdint cimport uint64_t
from preshed.maps cimport PreshMap
from spacy.tokens.doc cimport Doc

if sizeof(void*) < 8:  # the table keeps a 64-bit lemma id in each of its pointer-sized slots
    raise ImportError("spacy_factwash needs a 64-bit Python: its lemma table keeps 64-bit ids")


cdef class LemmaTable:
    """Orth id of a word -> id of its lookup lemma, written onto Docs."""

    cdef PreshMap _lemmas
    cdef readonly object lemma_ids

    def __cinit__(self, *args, **kwargs):
        self._lemmas = PreshMap()  # made before ``__init__``: an instance that skips it writes each word as its lemma
        self.lemma_ids = {}

    def __init__(self, lemma_ids):
        self.lemma_ids = lemma_ids
        self._lemmas = PreshMap(initial_size=max(8, 2 * len(lemma_ids)))
        for orth, lemma in lemma_ids.items():
            if not lemma:  # the table reads 0 as missing: such a lemma could not be told from none
                raise ValueError(f"LemmaTable: the word with orth id {orth} has no lemma id")
            self._lemmas.set(orth, <void*><uint64_t>lemma)

    def __reduce__(self):
        """Pickled as its map: the process that unpickles it builds its own table."""
        return (LemmaTable, (self.lemma_ids,))

    def write(self, Doc doc, bint overwrite=False):
        """Set each token's lemma to its word's lookup lemma, or to the word itself when the table lacks it; a
        lemma a token already has stays unless ``overwrite``."""
        cdef int i
        cdef uint64_t lemma
        for i in range(doc.length):
            if not overwrite and doc.c[i].lemma != 0:
                continue
            lemma = <uint64_t>self._lemmas.get(doc.c[i].lex.orth)
            doc.c[i].lemma = lemma if lemma != 0 else doc.c[i].lex.orth
