"""``zones.run_pipeline``: ``inspect`` runs a Doc through the pipeline's components itself (the component list read
once per call), and does what ``nlp(doc)`` does: the same annotation, the same errors, the same error handlers."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spacy.language import Language
from spacy.tokens import DocBin

import spacy_factwash
from spacy_factwash import inspect
from spacy_factwash.zones import annotated, run_pipeline, zone

from properties import properties

HOSTILE = st.text(alphabet=st.sampled_from("ab ZÉé9.,%$-'\n\t\u200b\u05d0<>#NOT"), max_size=60)


def annotation(doc) -> bytes:
    """Everything a Doc holds (tokens, attributes, span groups, user data) as bytes."""
    return DocBin(store_user_data=True, docs=[doc]).to_bytes()


@given(HOSTILE)
@properties(40)
def test_run_pipeline_annotates_a_doc_as_nlp_does(text):
    """Any text (odd casing, unicode, whitespace tokens, empty): the Doc ``run_pipeline`` gives holds exactly what
    ``nlp(text)`` gives."""
    nlp = spacy_factwash.default_pipeline()
    with zone(nlp):  # the pipeline's zone (it is primed outside any zone first: ``zones.py``)
        assert annotation(run_pipeline(nlp, nlp.pipeline, nlp.make_doc(text))) == annotation(nlp(text))


@Language.component("run_pipeline_test_fails")
def _fails(doc):
    """A component that fails on a Doc holding "boom" with a ZeroDivisionError, and on "lost" with a KeyError."""
    if "boom" in doc.text:
        raise ZeroDivisionError("boom")
    if "lost" in doc.text:
        raise KeyError("lost")
    return None if "none" in doc.text else doc


def failing_pipeline() -> Language:
    """The default pipeline's parts with a failing component at the end (a pipeline of its own)."""
    nlp = spacy_factwash.load()
    nlp.add_pipe("run_pipeline_test_fails")
    return nlp


def errors_of(nlp: Language, text: str, call) -> tuple:
    """The type and message of the error ``call(nlp, text)`` raises."""
    with pytest.raises(Exception) as raised:
        call(nlp, text)
    return type(raised.value), str(raised.value)


def through_annotated(nlp: Language, text: str):
    """The text annotated as ``inspect`` annotates it."""
    with annotated(nlp, [text]) as docs:
        return docs


@pytest.mark.parametrize("text", ["a boom here", "a lost key", "none returned"])
def test_run_pipeline_raises_what_nlp_raises(text):
    """A component's error (spaCy's E109 for a KeyError, E005 for a component that returns no Doc, the error
    itself otherwise) is the one ``nlp(text)`` raises."""
    nlp = failing_pipeline()
    assert errors_of(nlp, text, through_annotated) == errors_of(nlp, text, lambda nlp, text: nlp(text))


def test_run_pipeline_calls_the_pipelines_error_handler():
    """A pipeline given an error handler (``nlp.set_error_handler``) has it called with what ``nlp(text)`` calls it
    with, and the Doc goes on to the next component."""
    nlp = failing_pipeline()
    seen = []
    nlp.set_error_handler(lambda name, proc, docs, error: seen.append((name, [d.text for d in docs], repr(error))))
    nlp("a boom here")
    by_nlp = list(seen)
    seen.clear()
    through_annotated(nlp, "a boom here")
    assert seen == by_nlp == [("run_pipeline_test_fails", ["a boom here"], "ZeroDivisionError('boom')")]


def test_inspect_reads_the_component_list_once_per_call(monkeypatch):
    """Counted work: ``inspect`` reads ``nlp.pipeline`` (a list spaCy builds at every read) once for its two Docs,
    not once per Doc as ``nlp(doc)`` does, and once more for the memory zone (``Language.memory_zone``); the gate's
    look-up of the cue component reads it only when the pipeline changed: two reads, four before."""
    inspect("Alice was promoted.", "Alice was promoted.")  # the default pipeline, its gate built (``default_gate``)
    reads = []
    pipeline = Language.pipeline

    def counted(self):
        reads.append(1)
        return pipeline.fget(self)

    monkeypatch.setattr(Language, "pipeline", property(counted))
    inspect("Someone said Alice was promoted. It may rain.", "Alice was promoted.")
    monkeypatch.undo()
    assert len(reads) <= 2
