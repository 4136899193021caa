"""Doc and Span extensions: sentence-level flags, cue lists, sources, prefixes, no clobbering."""

import pytest
import spacy
from spacy import displacy
from spacy.tokens import Doc

from spacy_factwash import register_extensions


def test_sentence_level_flags_follow_the_cues_and_their_scopes(default_nlp):
    doc = default_nlp("Alice has admin. Not sure though. Bob said it failed if the audit ran until May 2020.")
    first, second, third = doc.sents
    # "Not sure though." comments on the sentence before it: that sentence lies in the hedge's scope; the "Not" is
    # the hedge's own ("not sure"), so nothing is negated
    assert first._.factwash_hedged and not first._.factwash_negated
    assert second._.factwash_hedged and second._.factwash_negated
    assert third._.factwash_attributed and third._.factwash_conditional and third._.factwash_temporal
    assert doc._.factwash_hedged and doc._.factwash_attributed
    assert [(c.label_, c.text) for c in second._.factwash_cues] == [("NEGATION", "Not"), ("HEDGE", "Not sure")]
    assert [c.label_ for c in doc._.factwash_cues] == [s.label_ for s in doc.spans["factwash_cues"]]


@pytest.mark.parametrize("text, inside, label, expected", [
    ("The budget was approved, not the hire.", "the hire", "negated", True),
    ("The budget was approved, not the hire.", "The budget", "negated", False),  # the negation is the other clause's
    ("Alice was promoted, and the weather may turn.", "Alice was promoted", "hedged", False),
    ("Alice was promoted, and the weather may turn.", "the weather", "hedged", True),
    ("Someone said Alice was promoted.", "Alice was promoted", "attributed", True),
    ("If the audit fails, access is revoked.", "access is revoked", "conditional", True),
    ("The budget, Bob said, was cut.", "was cut", "attributed", True),
])
def test_a_span_inside_a_cue_scope_reads_true_like_negspacy(default_nlp, text, inside, label, expected):
    doc = default_nlp(text)
    start = text.index(inside)
    span = doc.char_span(start, start + len(inside))
    assert getattr(span._, f"factwash_{label}") is expected


def test_each_cue_links_to_the_clauses_it_scopes_and_the_link_survives_a_docbin(default_nlp):
    from spacy.tokens import DocBin

    doc = default_nlp("Someone said Alice was promoted, and the weather may turn.")
    said, may = [c for c in doc.spans["factwash_cues"] if c.text in ("said", "may")]
    assert [s.text for s in said._.factwash_scope] == ["Someone said Alice was promoted"]
    assert [s.text for s in may._.factwash_scope] == ["and the weather may turn."]
    restored = list(DocBin(docs=[doc], store_user_data=True).get_docs(default_nlp.vocab))[0]
    assert [(s.text, s.kb_id_, s.label_) for s in restored.spans["factwash_scopes"]] == [
        (s.text, s.kb_id_, s.label_) for s in doc.spans["factwash_scopes"]]


def test_flags_are_false_on_a_doc_never_annotated():
    register_extensions()
    doc = spacy.blank("en")("Alice might come.")
    assert doc._.factwash_hedged is False and doc._.factwash_cues == []


def test_a_custom_prefix_gets_its_own_extensions():
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues", config={"extension_prefix": "fwtest", "spans_key": "fwtest_cues"})
    doc = nlp("Alice might come.")
    assert Doc.has_extension("fwtest_hedged") and doc._.fwtest_hedged
    assert [s.text for s in doc.spans["fwtest_cues"]] == ["might"]


def test_another_packages_extension_is_never_clobbered():
    Doc.set_extension("othertool_hedged", default="theirs")
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match=r"'othertool_hedged' is already registered \(by another package\)"):
        nlp.add_pipe("factwash_cues", config={"extension_prefix": "othertool"})
    assert Doc.get_extension("othertool_hedged")[0] == "theirs"


def test_same_prefix_for_another_spans_key_is_refused():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match=r"choose another extension_prefix"):
        nlp.add_pipe("factwash_cues", config={"spans_key": "elsewhere"})


def test_user_data_holds_only_plain_settings_of_the_annotation(default_nlp):
    doc = default_nlp("Someone said Alice might not get admin access if the audit fails, as of Monday.")
    assert set(doc.user_data) == {"factwash_lexicon_version", "factwash_lexicon_digest", "factwash_strength_lexicon_version",
                                  "factwash_strength_modal_reach"}
    assert all(isinstance(k, str) and isinstance(v, (str, int)) for k, v in doc.user_data.items())


def test_displacy_renders_the_cue_group(default_nlp):
    doc = default_nlp("Someone said Alice might not get admin access.")
    html = displacy.render(doc, style="span", options={"spans_key": "factwash_cues"})
    for label in ["ATTRIBUTION", "HEDGE", "NEGATION"]:
        assert label in html
    assert "#fde68a" in html  # the HEDGE colour, registered for displaCy
