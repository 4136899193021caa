"""The factwash components annotate a stream a batch at a time (``LexiconPipe.pipe``), as spaCy's trainable
components do, with the same annotations as one Doc at a time and a failing Doc handed to the error handler alone."""

import pytest
from spacy.language import Language
from spacy.tokens import Doc

import spacy_factwash
from spacy_factwash.pipes.base import BATCH_DOCS, LexiconPipe

TEXTS = [
    "Alice said the deploy may have failed on Monday.",
    "HIV did NOT bind in CD4 T cells, the authors reported.",
    "If it rains, the canteen opens at noon.",
    "Smoking causes cancer.",
    "The results suggest that p53 is not involved.",
    "",
    "Bob was promoted.",
] * 3


def annotations(doc: Doc) -> dict:
    """What the components wrote: every span group with labels and entry ids, the lemmas, the user data."""
    groups = {key: [(s.start, s.end, s.label_, s.id_, s.kb_id_) for s in group] for key, group in doc.spans.items()}
    return {"spans": groups, "lemmas": [t.lemma_ for t in doc], "user_data": dict(doc.user_data)}


@pytest.fixture(scope="module")
def nlp():
    return spacy_factwash.load()


@pytest.mark.parametrize("batch_size", [-3, 0, 1, 2, 5, 1000])
def test_a_stream_gets_what_each_doc_gets_alone(nlp, batch_size):
    alone = [annotations(nlp(text)) for text in TEXTS]
    assert [annotations(doc) for doc in nlp.pipe(TEXTS, batch_size=batch_size)] == alone


def test_a_batch_goes_through_one_component_before_the_next_sees_it(nlp):
    # the Docs of a batch are all annotated by factwash_strength before the component after it sees the first
    docs = [nlp.make_doc(text) for text in TEXTS]
    seen = []

    def probe(doc: Doc) -> Doc:
        seen.append(sum("factwash_strength" in d.spans for d in docs))
        return doc

    name = "test_batch_probe"
    Language.component(name, func=probe)
    nlp.add_pipe(name, after="factwash_strength")
    try:
        list(nlp.pipe(docs, batch_size=5))
        assert seen[0] == 5 and seen[5] == 10 and seen[-1] == len(docs)
        # a batch holds at most BATCH_DOCS Docs, whatever the caller asks for
        docs, seen[:] = [nlp.make_doc(text) for text in TEXTS], []
        list(nlp.pipe(docs, batch_size=1000))
        assert BATCH_DOCS < len(docs) and seen[0] == BATCH_DOCS and seen[-1] == len(docs)
    finally:
        nlp.remove_pipe(name)


class Fussy(LexiconPipe):
    """A component with no sets that fails on a Doc reading "fail" (the base class's stream is what is tested)."""

    def __call__(self, doc: Doc) -> Doc:
        if doc.text == "fail":
            raise ValueError("this Doc fails")
        doc.user_data["fussy"] = True
        return doc


def test_a_failing_doc_goes_to_the_error_handler_alone_and_the_rest_of_its_batch_goes_on():
    nlp = spacy_factwash.load()
    fussy = Fussy(nlp, "fussy")
    handled = []
    fussy.set_error_handler(lambda name, component, docs, error: handled.append((name, [d.text for d in docs],
                                                                                 str(error))))
    docs = [nlp.make_doc(text) for text in ["one", "fail", "three", "four"]]
    out = list(fussy.pipe(docs, batch_size=4))
    assert [d.text for d in out] == ["one", "three", "four"] and all(d.user_data["fussy"] for d in out)
    assert handled == [("fussy", ["fail"], "this Doc fails")]
    with pytest.raises(ValueError, match="this Doc fails"):  # spaCy's default handler raises
        list(Fussy(nlp, "strict").pipe(docs, batch_size=4))
