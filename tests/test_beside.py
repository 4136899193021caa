"""What is read once from a Doc's tokens and kept beside it (``syntax/text.Beside``, ``normalise.doc_orths``): a
value kept for one Doc is never another Doc's, nor the same Doc's once its tokens were merged or split."""

import spacy
from hypothesis import given
from hypothesis import strategies as st

from properties import properties
from spacy_factwash.syntax.normalise import doc_orths, may_hold_hash, plain
from spacy_factwash.syntax.text import Beside


def test_a_value_is_kept_for_its_doc_only_and_while_its_length_holds():
    nlp = spacy.blank("en")
    kept = Beside(limit=4)
    doc, other = nlp("Alice said so."), nlp("Bob did.")
    assert kept.keep(doc, "alice") == "alice" and kept.get(doc) == "alice"
    assert kept.get(other) is None
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[0:2])
    assert kept.get(doc) is None  # its tokens changed: worked out again


def test_the_oldest_value_goes_once_the_limit_is_kept():
    nlp = spacy.blank("en")
    kept = Beside(limit=2)
    docs = [nlp(text) for text in ("one", "two", "three")]
    for n, doc in enumerate(docs):
        kept.keep(doc, n)
    assert [kept.get(doc) for doc in docs] == [None, 1, 2]


def test_a_freed_docs_value_is_not_read_for_a_doc_that_reuses_its_id():
    nlp = spacy.blank("en")
    kept = Beside()
    ids = set()
    for n in range(50):  # CPython reuses a freed Doc's memory, and so its id, for the next one
        doc = nlp(f"text number {n}")
        assert kept.get(doc) is None
        kept.keep(doc, n)
        ids.add(id(doc))
        del doc
    assert len(ids) < 50  # an id was reused, and its value was not read for the new Doc


def test_orths_kept_by_the_lemmas_are_the_docs_and_are_read_again_after_a_merge():
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_lemmas")
    cues = nlp.add_pipe("factwash_cues")
    doc = nlp("It did NOT bind, the authors said.")
    assert doc_orths(doc) == [token.orth for token in doc]
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[1:3])
    assert doc_orths(doc) == [token.orth for token in doc]
    assert not plain(doc, cues.case_forms)  # "did NOT" merged still holds a shouted word the lexicon knows


BLANK = spacy.blank("en")


@given(st.text(alphabet="ab# \t\n#-.", max_size=20))
@properties(200)
def test_a_doc_may_hold_a_hash_exactly_when_its_text_does(text):
    # the attribution detector joins a Doc's text to look for a markdown heading only when this says it may hold one
    assert may_hold_hash(BLANK(text)) == ("#" in text)
