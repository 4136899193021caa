"""The cue component's shortcuts from facts kept per token text: one pass over a Doc's tokens tells whether it is
plain and which of the matcher's passes can find something in it. A shortcut must never change what is found: the
matches with the passes a Doc's lexemes name are the matches of every pass, and ``plain`` reads the same with the
matcher's facts kept beside the marks as without them, on hostile text too (odd casing, unicode, whitespace
tokens, very long tokens, empty Docs)."""

from functools import lru_cache

import spacy
from hypothesis import given
from hypothesis import strategies as st

from properties import properties
from spacy_factwash.lexicon.matcher import LOWER_PASS, SHAPE_PASS
from spacy_factwash.syntax.normalise import passes_needed
from spacy_factwash.syntax.normalise import case_forms, doc_facts, plain, reading

WORDS = ["not", "NOT", "Not", "may", "May", "MAY", "said", "SAID", "no", "No", "NO", "3", "2019", "12:30", "1999-05-01",
         "per", "Per", "week", "weeks", "Monday", "MONDAY", "Were", "were", "Should", "if", "IF", "whether", "since",
         "AT", "at", "least", "allegedly", "suggest", "suggests", "the", "cells", "HIV", "ﬁve", "nоt", "n\u200bot",
         "ｍight", "Q3", "'90s", "1990s", "according", "to", "could", "never", "\u00a0", "x" * 300, "α", "Ǹot"]
GAPS = ["", " ", "  ", "\n", "-", "'", "’", ".", ",", "/", "\t"]


@lru_cache(maxsize=1)
def cue_pipeline():
    """Blank English with the sentencizer and factwash_cues, compiled."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("factwash_cues")
    nlp.get_pipe("factwash_cues").lexicons  # read and compiled: its case forms are ready
    return nlp


texts = st.one_of(
    st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(GAPS)), max_size=10).map(
        lambda parts: "".join(word + gap for word, gap in parts)),
    st.text(max_size=40),
)


@given(texts)
@properties(200)
def test_the_passes_a_docs_lexemes_name_find_what_every_pass_finds(text):
    nlp = cue_pipeline()
    cues = nlp.get_pipe("factwash_cues")
    doc = nlp(text)
    facts = doc_facts(doc, cues.case_forms)
    read, _ = reading(doc, cues.case_forms, cues.tokenizer, facts)
    if read is doc:
        assert sorted(cues.matcher(doc, passes_needed(facts))) == sorted(cues.matcher(doc))


@given(texts)
@properties(200)
def test_plain_reads_the_same_with_the_matchers_facts_kept_beside_the_marks(text):
    nlp = cue_pipeline()
    cues = nlp.get_pipe("factwash_cues")
    alone = case_forms(cues.lexicons.entries, cues.tokenizer)
    doc = nlp.make_doc(text)
    assert plain(doc, cues.case_forms, doc_facts(doc, cues.case_forms)) == plain(doc, alone) == plain(
        doc, cues.case_forms)


def test_a_doc_with_no_word_an_entry_needs_runs_no_pass_and_one_with_a_cue_runs_the_pass_it_needs():
    nlp = cue_pipeline()
    cues = nlp.get_pipe("factwash_cues")
    for text, needs in [("The cells grew in culture.", 0), ("The cells might grow.", LOWER_PASS),
                        ("In 2019 the cells grew.", SHAPE_PASS), ("In 2019 the cells might grow.", LOWER_PASS | SHAPE_PASS)]:
        doc = nlp(text)
        assert passes_needed(doc_facts(doc, cues.case_forms)) == needs, text
    for text, cue in [("The cells might grow.", "might"), ("In 2019 the cells grew.", "In 2019")]:
        doc = nlp(text)
        assert [span.text for span in doc.spans["factwash_cues"]] == [cue]


def test_a_word_added_after_docs_were_read_is_a_needed_word_from_then_on():
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues")
    before = nlp("The cells zorblaxed.")
    assert list(before.spans["factwash_cues"]) == []  # its facts kept: no entry needs it
    nlp.get_pipe("factwash_cues").add_entries([{"id": "hedge:zorblaxed", "label": "HEDGE", "pattern": "zorblaxed"}])
    after = nlp("The cells zorblaxed.")
    assert [span.text for span in after.spans["factwash_cues"]] == ["zorblaxed"]


def test_the_facts_of_a_text_the_vocab_has_no_lexeme_of_name_every_pass_and_make_no_lexeme():
    cues = cue_pipeline().get_pipe("factwash_cues")
    size = len(cues.vocab)
    assert cues.matcher.text_facts("qwertyuiop-never-seen") == LOWER_PASS | SHAPE_PASS
    assert len(cues.vocab) == size


def test_a_doc_of_another_vocab_is_matched_by_every_pass():
    nlp = cue_pipeline()
    cues = nlp.get_pipe("factwash_cues")
    other = spacy.blank("en")("The cells might grow.")
    assert sorted(cues.matcher(other, 0)) == sorted(cues.matcher(other)) != []
