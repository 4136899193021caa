"""The DocBin a corpus run writes (run/docbins.py): the bytes spaCy's DocBin makes, a plain DocBin file read back by
``DocBin().from_disk`` with the same Docs, user data and extension values."""

import pytest
from hypothesis import given, strategies as st
from spacy.tokens import Doc, DocBin, Span
from spacy.vocab import Vocab

from properties import properties
from spacy_factwash.run.docbins import PackedDocBin

TEXTS = ["Someone said Alice might not get admin access if the audit fails, as of Monday.",
         "According to the audit team, the budget was probably cut back in 2019.", "The build passed.", "", "   ",
         "Bob no longer works here, Alice said, though I think he left last week.",
         "If it rains, the match is reportedly off until Friday.", "Revenue rose 12% in 2023, the report claims."]
NOTE = "docbins_test_note"  # a Doc extension with a value of its own, kept in user_data


def spans(group):
    return [(s.start, s.end, s.label_, s.kb_id_, s.id_) for s in group]


def plain(value):
    """An extension value comparable across Docs: spans as their offsets and labels."""
    if isinstance(value, Span):
        return spans([value])
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def extension_values(target, names):
    return {name: plain(getattr(target._, name)) for name in names}


def view(doc):
    """Everything a Doc carries: text, token attributes, span groups, user data, and (when the pipeline annotated
    it) every factwash extension on the Doc, on each sentence and on each span of each group."""
    from spacy.tokens.underscore import Underscore

    doc_names = [name for name in Underscore.doc_extensions if name.startswith("factwash_")]
    span_names = [name for name in Underscore.span_extensions if name.startswith("factwash_")]
    spans_read = list(doc.sents) + [span for group in doc.spans.values() for span in group] if doc.spans else []
    return {
        "text": doc.text, "tokens": doc.to_array(["ORTH", "LEMMA", "NORM", "SENT_START", "SPACY"]).tolist(),
        "groups": {key: spans(group) for key, group in doc.spans.items()}, "user_data": dict(doc.user_data),
        "doc": extension_values(doc, doc_names) if doc.spans else None,
        "spans": [extension_values(span, span_names) for span in spans_read],
    }


@pytest.fixture
def annotated(default_nlp):
    """Docs of the default pipeline, half with their scopes read (the factwash_scopes group written), one with a
    value of a user's extension in its user data; and a Doc no component ran on."""
    Doc.set_extension(NOTE, default=None, force=True)
    docs = list(default_nlp.pipe(TEXTS))
    for doc in docs[::2]:
        [span._.factwash_scope for span in doc.spans["factwash_cues"]]
    docs[1]._.set(NOTE, ("kept", 3))
    assert any("factwash_scopes" in doc.spans for doc in docs) and len(docs[0].spans) >= 3
    docs.append(default_nlp.make_doc("No component ran on this one."))  # no span group at all
    yield docs
    Doc.remove_extension(NOTE)


def test_the_packed_docbin_is_the_bytes_spacys_docbin_makes(annotated):
    assert PackedDocBin(store_user_data=True, docs=annotated).to_bytes() == \
        DocBin(store_user_data=True, docs=annotated).to_bytes()
    assert PackedDocBin(docs=annotated).to_bytes() == DocBin(docs=annotated).to_bytes()


def test_a_plain_docbin_reads_the_file_back_with_the_same_docs_user_data_and_extensions(annotated, default_nlp,
                                                                                        tmp_path):
    packed = PackedDocBin(store_user_data=True)
    for doc in annotated:
        packed.add(doc)
    packed.to_disk(tmp_path / "part.spacy")
    restored = list(DocBin().from_disk(tmp_path / "part.spacy").get_docs(default_nlp.vocab))
    assert [view(doc) for doc in restored] == [view(doc) for doc in annotated]
    assert restored[1]._.get(NOTE) == ("kept", 3) and restored[0].user_data["factwash_lexicon_version"]
    assert restored[0].spans["factwash_cues"][0]._.factwash_source.text == "Someone"


WORDS = st.text(alphabet="ab ", min_size=1, max_size=3).filter(lambda w: w.strip() == w and w)
TOKEN = st.tuples(WORDS, st.sampled_from(["", "NN", "VB"]), st.sampled_from(["", "a", "b"]),
                  st.sampled_from(["", "Number=Sing", "Tense=Past|VerbForm=Fin"]), st.sampled_from(["", "dep", "nsubj"]))


@given(st.lists(st.lists(TOKEN, min_size=1, max_size=6), min_size=1, max_size=4), st.data())
@properties(60)
def test_the_packed_docbin_keeps_each_tokens_strings_as_spacys_does_on_any_tokens(docs_tokens, data):
    # words, tags, lemmas, morphs, dependency labels and entities drawn, so every string a token has is read
    vocab = Vocab()
    docs = []
    for tokens in docs_tokens:
        words, tags, lemmas, morphs, deps = map(list, zip(*tokens))
        doc = Doc(vocab, words=words, tags=tags, lemmas=lemmas, morphs=morphs)
        for token, dep in zip(doc, deps):
            token.dep_ = dep
        if data.draw(st.booleans()):
            doc.ents = [Span(doc, 0, 1, label=data.draw(st.sampled_from(["ORG", "PER"])), kb_id="Q1")]
        docs.append(doc)
    assert PackedDocBin(docs=docs).to_bytes() == DocBin(docs=docs).to_bytes()


def test_a_packed_docbin_read_from_bytes_then_added_to_keeps_the_strings_spacys_docbin_keeps(annotated):
    # the strings of tokens it met before the read are forgotten with the strings set the read replaced
    first, later = annotated[:3], annotated[:2] + annotated[3:]
    packed, spacys = PackedDocBin(store_user_data=True, docs=first), DocBin(store_user_data=True, docs=first)
    written = DocBin(store_user_data=True, docs=annotated[5:6]).to_bytes()
    packed.from_bytes(written), spacys.from_bytes(written)
    for doc in later:
        packed.add(doc), spacys.add(doc)
    assert packed.to_bytes() == spacys.to_bytes()
