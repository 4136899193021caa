"""What is read of every token text of a Doc in one pass in C (``syntax/token_passes.pyx``, ``TokenFacts``), and the lemma
table written the same way (``pipes/lemmas/table.pyx``): the same as reading each token in Python, each token text
looked at once, and carried to a worker process by pickling."""

import pickle

import pytest
import spacy
from hypothesis import given
from hypothesis import strategies as st

from properties import properties
from spacy_factwash.lexicon.passes import PhrasePasses
from spacy_factwash.pipes.lemmas.table import LemmaTable
from spacy.tokens import Doc

from spacy_factwash.syntax.token_passes import TokenFacts, joined_text
from spacy_factwash.syntax.normalise import may_hold_hash, plain

BLANK = spacy.blank("en")
LEFT, RIGHT, JOINED = 1, 2, 64


def facts_of(text: str) -> int:
    """A token text's facts for these tests: 1 for a capital, 2 for an apostrophe, 4 for a digit, 8 past ASCII."""
    return (1 * (text.lower() != text) + 2 * ("'" in text) + 4 * any(c.isdigit() for c in text)
            + 8 * (not text.isascii()))


def read_in_python(doc) -> int:
    """What ``TokenFacts(facts_of).over(doc, LEFT, RIGHT, JOINED)`` gives, read token by token."""
    found = 0
    for token in doc:
        found |= facts_of(token.text)
        if token.i and facts_of(doc[token.i - 1].text) & LEFT and facts_of(token.text) & RIGHT and not doc[
                token.i - 1].whitespace_:
            found |= JOINED
    return found


texts = st.lists(st.sampled_from(["A", "DON'T", "it", "'s", "7", "é", "O'", "NEIL", "x", "B2"]) | st.text(max_size=6),
                 max_size=8).flatmap(lambda words: st.lists(st.sampled_from(["", " ", "  ", "\n"]), min_size=len(words),
                                                            max_size=len(words)).map(
    lambda gaps: "".join(w + g for w, g in zip(words, gaps))))


@given(texts)
@properties(200)
def test_a_docs_facts_are_what_its_tokens_say_read_one_by_one(text):
    facts = TokenFacts(facts_of)
    doc = BLANK(text)
    assert facts.over(doc, LEFT, RIGHT, JOINED) == read_in_python(doc)
    assert facts.over(doc, LEFT, RIGHT, JOINED) == read_in_python(doc)  # the same from the facts kept
    assert facts.over(doc) == read_in_python(doc) & ~JOINED  # no neighbours asked about


def test_each_token_text_is_looked_at_once_and_the_table_starts_again_past_its_limit():
    seen = []
    facts = TokenFacts(lambda text: seen.append(text) or 0, limit=3)
    doc = BLANK("a b a c a b")
    assert facts.over(doc) == 0 and seen == ["a", "b", "c"] and len(facts) == 3
    facts.over(BLANK("d"))  # past the limit: the table starts again with "d"
    assert len(facts) == 1
    assert facts.over(BLANK("a b")) == 0 and seen[4:] == ["a", "b"] and len(facts) == 3
    facts.over(BLANK("c b"))  # full again: started again at "c", so "b" is looked at afresh
    assert seen[6:] == ["c", "b"] and len(facts) == 2


def test_an_empty_doc_has_no_facts_and_bad_facts_or_settings_are_refused():
    assert TokenFacts(facts_of).over(BLANK("")) == 0
    for said in (-1, 1.5, "1", 2 ** 62):
        with pytest.raises(ValueError, match="not a whole number"):
            TokenFacts(lambda text, said=said: said).over(BLANK("a"))
    with pytest.raises(TypeError, match="callable"):
        TokenFacts(3)
    with pytest.raises(ValueError, match="at least one text"):
        TokenFacts(facts_of, limit=0)


def test_a_table_made_without_its_init_is_empty_not_a_crash():
    # an instance made by __new__ (or by a subclass that skips __init__) has its tables: it fails in Python, or
    # finds nothing, never reads memory it does not have
    with pytest.raises(TypeError):
        TokenFacts.__new__(TokenFacts).over(BLANK("a"))
    doc = BLANK("mice")
    LemmaTable.__new__(LemmaTable).write(doc)
    assert doc[0].lemma_ == "mice"
    found, hits = [], {}
    PhrasePasses.__new__(PhrasePasses).run(doc, (), found, hits)
    assert found == [] and hits == {}


def test_facts_pickle_as_their_function_and_are_worked_out_again_in_the_process_that_reads_them():
    facts = TokenFacts(facts_of, limit=10)
    doc = BLANK("It DON'T 7")
    facts.over(doc)
    copy = pickle.loads(pickle.dumps(facts))
    assert (copy.look, copy.limit, len(copy)) == (facts_of, 10, 0)
    assert copy.over(doc, LEFT, RIGHT, JOINED) == facts.over(doc, LEFT, RIGHT, JOINED)


def test_a_doc_merged_after_it_was_read_is_read_again_as_it_is_now():
    nlp = spacy.blank("en")
    cues = nlp.add_pipe("factwash_cues")
    doc = nlp("It did NOT bind, the authors said.")
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[1:3])
    assert not plain(doc, cues.case_forms)  # "did NOT" merged still holds a shouted word the lexicon knows


@given(st.text(alphabet="ab# \t\n#-.", max_size=20))
@properties(200)
def test_a_doc_may_hold_a_hash_exactly_when_its_text_does(text):
    # the attribution detector joins a Doc's text to look for a markdown heading only when this says it may hold one
    assert may_hold_hash(BLANK(text)) == ("#" in text)


@given(st.lists(st.tuples(st.text(min_size=1, max_size=5), st.booleans()), max_size=8), texts)
@properties(200)
def test_a_docs_joined_text_is_its_text(words, text):
    made = Doc(BLANK.vocab, words=[word for word, _ in words], spaces=[space for _, space in words])
    for doc in (made, BLANK(text)):
        assert joined_text(doc) == doc.text


def test_the_lemma_table_writes_each_words_lemma_or_the_word_and_keeps_set_lemmas_unless_told():
    strings = BLANK.vocab.strings
    table = LemmaTable({strings.add("mice"): strings.add("mouse"), strings.add("ran"): strings.add("run")})
    doc = BLANK("mice ran far")
    table.write(doc)
    assert [t.lemma_ for t in doc] == ["mouse", "run", "far"]
    doc[0].lemma_ = "rodent"
    table.write(doc)
    assert doc[0].lemma_ == "rodent"
    table.write(doc, overwrite=True)
    assert doc[0].lemma_ == "mouse"
    copy, again = pickle.loads(pickle.dumps(table)), BLANK("ran")
    copy.write(again)
    assert again[0].lemma_ == "run" and copy.lemma_ids == table.lemma_ids
    with pytest.raises(ValueError, match="no lemma id"):
        LemmaTable({strings.add("x"): 0})
