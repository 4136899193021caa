# cython: language_level=3, boundscheck=False, wraparound=False
"""Passes over a Doc's tokens in C: what each token text holds, the clause segmenter's columns, the Doc's text.

``TokenFacts``: what each token text of a Doc holds, worked out once per text and read over a whole Doc in one pass.
``token_columns``: the columns the clause segmenter reads of every token (``clauses.TokenView``). ``joined_text``:
the Doc's text, as ``Doc.text`` joins it, without a Token object per token (``text.doc_text``).

Several components ask the same kind of question of every Doc before they do anything costly: does a token need
the text read as a person sees it (``normalise.plain``), which of the matcher's passes can find something
(``lexicon/matcher.py``), may a token hold a "#" (``cues/attribution.py``)? The answer for a Doc is the or of what
each of its token texts holds. ``TokenFacts`` keeps what a function (``look``) says of each token text by the
text's orth id, in a hash table of its own, so that a Doc of texts seen before is read in a loop over its tokens in
C with one table look-up each; a text not seen yet is given to ``look`` once. One question is about neighbours:
whether a token with one fact is joined, without a space, to a next token with another (a shouted word could run
across them); ``over`` answers it in the same pass.

The table is this process's: pickling keeps ``look`` and the limit, not the facts (a worker works them out again
as it meets each text), and past ``limit`` texts it starts again. It is read and written while holding the GIL
(``look`` may let another thread run, but no pointer into the table is held across that call), as spaCy's own
tables are.
"""

import operator

from libc.stdint cimport uint64_t
from preshed.maps cimport PreshMap
from spacy.attrs cimport IS_ALPHA, IS_CURRENCY, IS_PUNCT, IS_SPACE, IS_TITLE, LIKE_NUM
from spacy.lexeme cimport Lexeme
from spacy.structs cimport LexemeC
from spacy.tokens.doc cimport Doc

SEEN_LIMIT = 200_000  # token texts kept before the table starts again

if sizeof(void*) < 8:  # the table keeps a 64-bit value in each of its pointer-sized slots
    raise ImportError("spacy_factwash needs a 64-bit Python: its token tables keep 64-bit values")


cdef class TokenFacts:
    """What ``look(text)`` (a whole number from 0 to 2**62) says of each token text, kept by orth id."""

    cdef PreshMap _known
    cdef readonly object look
    cdef readonly Py_ssize_t limit
    cdef Py_ssize_t _size

    def __cinit__(self, *args, **kwargs):
        self._known = PreshMap()  # made before ``__init__``: an instance that skips it reads an empty table
        self._size = 0
        self.limit = SEEN_LIMIT

    def __init__(self, look, Py_ssize_t limit=SEEN_LIMIT):
        if not callable(look):
            raise TypeError(f"TokenFacts needs a callable that says a token text's facts, got {type(look).__name__}")
        if limit < 1:
            raise ValueError(f"TokenFacts keeps at least one text, got a limit of {limit}")
        self.look = look
        self.limit = limit

    def __len__(self):
        """The number of token texts whose facts are kept now."""
        return self._size

    def __reduce__(self):
        """Pickled as ``look`` and the limit: the process that unpickles it works its facts out again."""
        return (TokenFacts, (self.look, self.limit))

    def over(self, Doc doc, uint64_t left=0, uint64_t right=0, uint64_t joined=0):
        """The or of the facts of every token text of ``doc``, and ``joined`` besides when a token with any of the
        facts ``left`` is followed, with no space between them, by a token with any of the facts ``right``."""
        cdef int i
        cdef uint64_t found = 0, previous = 0, value
        cdef object strings = None
        for i in range(doc.length):
            value = <uint64_t>self._known.get(doc.c[i].lex.orth)
            if value == 0:
                if strings is None:
                    strings = doc.vocab.strings
                value = self._fact(strings[doc.c[i].lex.orth], doc.c[i].lex.orth)
            else:
                value -= 1
            found |= value
            if i and (previous & left) and (value & right) and not doc.c[i - 1].spacy:
                found |= joined
            previous = value
        return found

    cdef uint64_t _fact(self, str text, uint64_t orth) except? 0xFFFFFFFFFFFFFFFF:
        """What ``look`` says of ``text``, kept under ``orth`` (as value + 1: the table reads 0 as missing)."""
        cdef object said = self.look(text)
        try:
            said = operator.index(said)  # a whole number: a float or a fraction is not one
        except TypeError:
            raise ValueError(f"TokenFacts: look({text!r}) gave {said!r}, not a whole number from 0 to 2**62") from None
        if not 0 <= said < 2 ** 62:
            raise ValueError(f"TokenFacts: look({text!r}) gave {said!r}, not a whole number from 0 to 2**62")
        cdef uint64_t value = said
        if self._size >= self.limit:
            self._known = PreshMap()
            self._size = 0
        self._known.set(orth, <void*>(value + 1))
        self._size += 1
        return value



def token_columns(Doc doc, function):
    """The columns ``clauses.TokenView`` reads of a Doc's tokens, one list each, in one pass: the orth and lower ids,
    and whether each token is punctuation, can be a content word (not punctuation, a number, a space or one of the
    ``function`` words' lower ids), is number-like, title-cased, a space, alphabetic, a currency sign (the lexeme
    flags ``Doc.to_array`` reads)."""
    cdef int i
    cdef const LexemeC* lex
    cdef bint punct, number, space
    orth, lower, punct_, plain, number_, title, space_, alpha, currency = [], [], [], [], [], [], [], [], []
    for i in range(doc.length):
        lex = doc.c[i].lex
        punct = Lexeme.c_check_flag(lex, IS_PUNCT)
        number = Lexeme.c_check_flag(lex, LIKE_NUM)
        space = Lexeme.c_check_flag(lex, IS_SPACE)
        word = lex.lower
        orth.append(lex.orth)
        lower.append(word)
        punct_.append(punct)
        plain.append(not (punct or number or space or word in function))
        number_.append(number)
        title.append(Lexeme.c_check_flag(lex, IS_TITLE))
        space_.append(space)
        alpha.append(Lexeme.c_check_flag(lex, IS_ALPHA))
        currency.append(Lexeme.c_check_flag(lex, IS_CURRENCY))
    return orth, lower, punct_, plain, number_, title, space_, alpha, currency


def joined_text(Doc doc):
    """The Doc's text as ``Doc.text`` gives it (each token's text, and a space after those followed by one), joined
    from the tokens' lexemes without a Token object per token."""
    cdef int i
    strings = doc.vocab.strings
    parts = []
    for i in range(doc.length):
        parts.append(strings[doc.c[i].lex.orth])
        if doc.c[i].spacy:
            parts.append(" ")
    return "".join(parts)
