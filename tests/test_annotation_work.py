"""The cue layer's work, counted in Python calls (the same on every run, unlike seconds on a shared machine): it
grows linearly with the corpus and with the document, and no clause is segmented until a scope is read."""

import pytest
from factwash_dev.evaluation.work import annotation_growth, count_annotation_calls, counted, cue_pipeline, cue_sentences

CLAUSES = "syntax/clauses.py"


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
