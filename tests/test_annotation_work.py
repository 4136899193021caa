"""The cue layer's work, counted in Python calls (the same on every run, unlike seconds on a shared machine): it
grows linearly with the corpus and with the document, no clause is segmented until a scope is read, and a Doc is
joined into its text only when it could need a shadow."""

import re
from functools import lru_cache

import pytest
from factwash_dev.evaluation.work import annotation_growth, count_annotation_calls, counted, cue_pipeline, cue_sentences
from hypothesis import given
from hypothesis import strategies as st

from properties import properties
from spacy_factwash.syntax.normalise import NON_ASCII_RUN, SHOUTED, normalise, plain

CLAUSES = "syntax/clauses.py"


@lru_cache(maxsize=1)
def compiled_cue_pipeline():
    nlp = cue_pipeline()
    nlp.get_pipe("factwash_cues").lexicons  # read and compiled: its case forms are ready
    return nlp


@pytest.fixture(scope="module")
def growth():
    return annotation_growth()


@pytest.mark.parametrize("what", ["corpus", "document"])
def test_annotating_cues_is_linear_in_the_corpus_and_the_document(growth, what):
    assert growth[what]["growth"] < 2.3, growth[what]


def test_cues_alone_segment_no_clause_until_a_scope_is_read():
    texts = cue_sentences(50)
    assert count_annotation_calls(texts, CLAUSES) == 0
    nlp = cue_pipeline()
    docs = list(nlp.pipe(texts))
    def read_flags():
        return [doc[i:i + 1]._.factwash_hedged for doc in docs for i in range(len(doc))]

    assert counted(read_flags, CLAUSES) > 0
    assert "factwash_scopes" in docs[0].spans  # the first read wrote the group
    assert counted(read_flags, CLAUSES) == 0  # worked out once per Doc, with scopes or without


@given(st.text(alphabet="aAbBnNoOtTsidMmYyHhVv'’ .,-\u00a0\u200b<>/&#;*~\x00\x1b\x7f", max_size=30))
@properties(300)
def test_a_doc_read_as_plain_needs_no_shadow(text):
    # the cue component skips joining a plain Doc's text: that is only right when the text needs no shadow (markup
    # and control characters hide words too: a token holding one is never plain)
    nlp = compiled_cue_pipeline()
    cues = nlp.get_pipe("factwash_cues")
    if plain(nlp.make_doc(text), cues.case_forms):
        assert normalise(text, cues.case_forms) is None


# the shouted-word pattern as first written: each form behind its own look-behind
SHOUTED_AS_WRITTEN = re.compile(r"(?<![\w'’])[A-Z]{2,}(?:['’][A-Z]+)?(?![\w'’])|(?<![\w'’])[A-Z]+['’][A-Z]+(?![\w'’])")


@given(st.text(alphabet="ABNOTaot19_'’ .-\u00e9\u00c9\u03a3\u0301\u00a0\u200b", max_size=40))
@properties(500)
def test_the_shouted_word_pattern_finds_what_it_found_as_first_written(text):
    # the one-pass pattern (a word boundary, then either form) finds the same words, at the same places, as the two
    # forms each behind its own look-behind: capitals, digits, "_", both apostrophes, letters outside ASCII (a word
    # character [A-Z] does not take) and a combining mark (no word character)
    assert [m.span() for m in SHOUTED.finditer(text)] == [m.span() for m in SHOUTED_AS_WRITTEN.finditer(text)]


# the non-ASCII run pattern as first written: tried at every character
NON_ASCII_RUN_AS_WRITTEN = re.compile(r"\S*[^\x00-\x7f]\S*")


@given(st.text(alphabet="ab \t\n\u00a0\u2003\u00e9\u200b\U0001d41a-", max_size=60))
@properties(500)
def test_the_non_ascii_run_pattern_finds_what_it_found_as_first_written(text):
    # tried only where a run of non-space characters starts, it finds the same runs (whole runs, Unicode's spaces
    # among the separators) in one pass over each
    assert [m.span() for m in NON_ASCII_RUN.finditer(text)] == [
        m.span() for m in NON_ASCII_RUN_AS_WRITTEN.finditer(text)]


def test_the_shouted_word_pattern_reads_the_forms_it_names():
    found = [m.group() for m in SHOUTED.finditer("NOT O'NEIL DON'T HIV-1 xNOT NOT_ A'B'C É NOTÉ 'NO NO’T")]
    assert found == ["NOT", "O'NEIL", "DON'T", "HIV", "NO’T"]


WORDS = ["NOT", "not", "HIV", "NF", "kappaB", "MAY", "May", "SAID", "said", "DON", "T", "'", "’", "N'T", "IL-2",
         "MONDAY", "A", "ALLEGEDLY", "CD4", "p53", "If", "IF"]


@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(["", " ", "-", "'", "/", "  "])), max_size=8))
@properties(300)
def test_a_doc_of_acronyms_and_shouted_words_is_plain_only_when_it_needs_no_shadow(parts):
    # acronyms the lexicon does not know ("HIV", "NF-kappaB") read as written, so a Doc full of them is not joined
    # into its text; a shouted word the lexicon knows ("NOT", "DON'T"), alone or run across tokens, is folded
    text = "".join(word + gap for word, gap in parts)
    nlp = compiled_cue_pipeline()
    cues = nlp.get_pipe("factwash_cues")
    if plain(nlp.make_doc(text), cues.case_forms):
        assert normalise(text, cues.case_forms) is None


def test_acronyms_the_lexicon_does_not_know_leave_a_doc_plain():
    nlp = compiled_cue_pipeline()
    forms = nlp.get_pipe("factwash_cues").case_forms
    assert plain(nlp.make_doc("HIV-1 and NF-kappaB bind IL-2 in CD4 T cells."), forms)
    assert not plain(nlp.make_doc("HIV did NOT bind."), forms)
    assert not plain(nlp.make_doc("It DOESN'T bind."), forms)