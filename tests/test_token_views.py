"""A Doc's sentences (``syntax/sentences.py``), token view (``syntax/clauses.py``: ``TokenView``) and value units
(``pipes/gate/claims.py``: ``_units``) are read from arrays, not Token by Token: on any Doc, whatever its sentence
starts (set, unset, -1) and words, they read what spaCy's Token objects say."""

import spacy
from hypothesis import given, strategies as st
from properties import properties
from spacy.tokens import Doc

from spacy_factwash.pipes.gate.claims import _units
from spacy_factwash.pipes.gate.values.quantities import unit_hashes
from spacy_factwash.syntax.clauses import TokenView, clause_words
from spacy_factwash.syntax.sentences import sentences

NLP = spacy.blank("en")
WORDS = st.sampled_from(["Alice", "said", "the", ",", ".", "42", "ten", " ", "\n", "IF", "not", "Bob", "?", "hire",
                         "$", "€", "%", "percent", "dollars", "x2", "3.5"])


@st.composite
def docs(draw) -> Doc:
    """A Doc of drawn words, with sentence starts left unset or drawn from -1, 0 and 1 per token."""
    words = draw(st.lists(WORDS, max_size=12))
    starts = draw(st.one_of(st.none(), st.lists(st.sampled_from([-1, 0, 1]), min_size=len(words),
                                                max_size=len(words))))
    doc = Doc(NLP.vocab, words=words)
    for token, start in zip(doc, starts or []):
        if start:
            token.is_sent_start = start == 1
    return doc


@properties(200)
@given(docs())
def test_sentences_are_those_spacy_reads(doc):
    expected = [] if not len(doc) else list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
    assert [(s.start, s.end) for s in sentences(doc)] == [(s.start, s.end) for s in expected]


@properties(200)
@given(docs())
def test_token_view_reads_what_tokens_say(doc):
    function = clause_words().function
    view = TokenView.of(doc)
    assert view.orth == [t.orth for t in doc] and view.lower == [t.lower for t in doc]
    assert view.punct == [t.is_punct for t in doc] and view.number == [t.like_num for t in doc]
    assert view.title == [t.is_title for t in doc] and view.space == [t.is_space for t in doc]
    assert view.alpha == [t.is_alpha for t in doc] and view.currency == [t.is_currency for t in doc]
    assert view.plain == [not (t.is_punct or t.like_num or t.is_space or t.lower in function) for t in doc]
    assert all(type(flag) is bool for flags in (view.punct, view.number, view.title, view.space, view.plain,
                                                view.alpha, view.currency) for flag in flags)
    for start in range(len(doc) + 1):
        for end in range(start, len(doc) + 1):
            assert view.any_word(start, end) == any(t.is_alpha or t.like_num for t in doc[start:end])


@properties(100)
@given(docs())
def test_value_units_are_read_from_the_view_as_from_tokens(doc):
    words = unit_hashes()
    expected = [t.is_currency or t.lower_ == "%" or (t.i > 0 and doc[t.i - 1].like_num and t.lower in words)
                for t in doc]
    assert _units(TokenView.of(doc)) == expected
