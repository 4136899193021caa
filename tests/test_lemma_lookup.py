"""factwash_lemmas on hostile text: the lemmas of spaCy's lookup lemmatizer, lemmas already set kept (or
overwritten when asked), for odd casing, unicode, whitespace tokens, very long tokens and empty Docs."""

import functools

import pytest
import spacy
from hypothesis import given, strategies as st
from properties import properties
from spacy.lookups import load_lookups
from spacy.tokens import Doc

from spacy_factwash.pipes.lemmas.component import lookup_table

WORDS = ["was", "WAS", "Was", "were", "running", "Running", "RUNNING", "mice", "Mice", "cats", "cats'", "ran", "be",
         "did", "n't", "'s", "better", "é", "naïve", "ﬁles", "\u00a0", "\n", "  ", "\u200b", "x" * 500, "1,000", "",
         "doesn't", "Aspirin", "reduces", "pain", ".", "-"]


@functools.lru_cache(maxsize=1)
def pipelines():
    """spaCy's lookup lemmatizer, and ours (keeping lemmas already set, and overwriting them), each on blank
    English."""
    reference = spacy.blank("en")
    reference.add_pipe("lemmatizer", config={"mode": "lookup"})
    reference.initialize()
    ours = spacy.blank("en")
    ours.add_pipe("factwash_lemmas")
    overwriting = spacy.blank("en")
    overwriting.add_pipe("factwash_lemmas", config={"overwrite": True})
    return reference, ours, overwriting


TEXTS = st.lists(st.sampled_from(WORDS), max_size=20).map(" ".join) | st.text(
    alphabet="aAeErRsSwW'’ \u00a0\u200b\n\t.é-ﬁ", max_size=40)


@properties(200)
@given(TEXTS)
def test_lemmas_are_spacys_lookup_lemmas(text):
    reference, ours, overwriting = pipelines()
    expected = [t.lemma_ for t in reference(text)]
    assert [t.lemma_ for t in ours(text)] == expected
    assert [t.lemma_ for t in overwriting(text)] == expected


@properties(100)
@given(st.lists(st.tuples(st.sampled_from([w for w in WORDS if w]), st.sampled_from(["", "KEPT", "Be"])),
                min_size=1, max_size=12))
def test_lemmas_already_set_stay_unless_overwritten(pairs):
    reference, ours, overwriting = pipelines()
    words, lemmas = [w for w, _ in pairs], [lemma for _, lemma in pairs]
    looked_up = [t.lemma_ for t in reference(Doc(reference.vocab, words=words))]
    kept = ours.get_pipe("factwash_lemmas")(Doc(ours.vocab, words=words, lemmas=lemmas))
    assert [t.lemma_ for t in kept] == [old or new for old, new in zip(lemmas, looked_up)]
    replaced = overwriting.get_pipe("factwash_lemmas")(Doc(overwriting.vocab, words=words, lemmas=lemmas))
    assert [t.lemma_ for t in replaced] == looked_up


def test_the_table_read_for_a_pipeline_is_spacys_lookup_table_word_for_word_in_its_order():
    """``lookup_table`` reads spacy-lookups-data without spaCy's ``Table``: the same keys (symbols among them), the
    same lemmas, in the same order, so the saved table's bytes and sha256 are the ones ``load_lookups`` gives."""
    reference = load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")
    read = lookup_table("en")
    assert list(read.items()) == list(reference.items()) and len(read) > 40_000


def test_a_language_without_a_lookup_table_is_refused_as_spacy_refuses_it():
    """A language spacy-lookups-data has no table for: ``load_lookups``'s own error (E955)."""
    with pytest.raises(ValueError, match="E955"):
        lookup_table("xx")


def test_every_pipeline_of_a_process_reads_the_lookup_table_once(monkeypatch):
    from spacy_factwash.pipes.lemmas import component

    reads = []
    read = component.lookup_table
    monkeypatch.setattr(component, "lookup_table", lambda *args: reads.append(args) or read(*args))
    component.lookup_table_set.cache_clear()
    first, second = spacy.blank("en"), spacy.blank("en")
    for nlp in (first, second):
        nlp.add_pipe("factwash_lemmas")
    assert [t.lemma_ for t in first("The mice were running")] == ["The", "mouse", "be", "run"]
    assert [t.lemma_ for t in second("The mice were running")] == ["The", "mouse", "be", "run"]
    assert reads == [("en",)]
