"""The strength component's cues are those of its plain route (every entry's raw matches, each class resolved, carried
to the original tokens), and its token patterns run no spaCy Matcher: each is checked in C where its anchor word
places it (counted calls, not seconds). That its matches are spaCy's Matcher's is tests/test_anchored.py's."""

import functools

import pytest
from factwash_dev.evaluation.work import counted
from hypothesis import given, strategies as st
from properties import properties
from spacy.matcher import Matcher
from spacy.tokens import Span

import spacy_factwash
from spacy_factwash.lexicon.matcher import AnchoredMatcher, by_class
from spacy_factwash.syntax.normalise import carry, reading

PATTERN_WORDS = ["to", "by", "reduce", "reduces", "reduced", "increase", "rose", "fell", "cut", "shown", "found",
                 "used", "helps", "able", "with", "among", "may", "could", "Reduce", "REDUCES", "BY", "To", "5",
                 "five", "10%", "1,000", "٣", "half", ".", "-", "associated", "in", "order", "reducing", "thereby",
                 "lower", "risk", "the", "x" * 300, "\u00a0", "  ", "ｂｙ", "rеduce"]


@functools.lru_cache(maxsize=1)
def pipeline():
    """``load()``'s pipeline, its strength lexicon compiled, and a reference anchored matcher of its own holding every
    strength entry."""
    nlp = spacy_factwash.load()
    strength = nlp.get_pipe("factwash_strength")
    reference, entries = AnchoredMatcher(strength.vocab), {}
    for entry in strength.lexicons.entries:
        entries[reference.add_entry(entry, strength.tokenizer)] = (entry.label, entry.role == "exclusion")
    return nlp, strength, reference, entries


def reference_spans(doc):
    """The strength cues of a Doc through the plain route: every raw match of the reference matcher, each class's
    candidates resolved, carried to the original tokens, sorted as the component sorts them."""
    nlp, strength, reference, entries = pipeline()
    read, shadow = reading(doc, strength.case_forms, strength.tokenizer)
    spans = []
    for label, (candidates, exclusions) in by_class(reference(read), entries.__getitem__).items():
        for start, end, key in strength.classes[label].resolve(read, candidates, exclusions) if candidates else ():
            if shadow is not None:
                carried = carry(doc, shadow, read[start:end])
                start, end = carried.start, carried.end
            spans.append(Span(doc, start, end, label=label, span_id=key))
    return sorted((s.start, s.end, s.label_, s.id_) for s in spans)


def written_spans(text):
    """The Doc ``load()`` makes of a text (its strength cues written) and those cues as tuples."""
    nlp = pipeline()[0]
    with nlp.select_pipes(disable=["factwash_compare"]):
        doc = nlp(text)
    return doc, [(s.start, s.end, s.label_, s.id_) for s in doc.spans["factwash_strength"]]


@properties(150)
@given(st.lists(st.sampled_from(PATTERN_WORDS), min_size=0, max_size=16).map(" ".join)
       | st.text(alphabet="rRedDuUcCeEsSbByYtToO5 .,\u00a0\u200b<>&#;\u0336", max_size=40))
def test_written_cues_are_the_plain_routes(text):
    doc, written = written_spans(text)
    assert written == reference_spans(doc)
    assert written == sorted(written)


@pytest.mark.parametrize("text", [
    "Costs rose by 5 percent in 2019.",
    "The drug was given to reduce pain, as shown to reduce it.",
    "REDUCED BY 5 and reduced by five.",
    "By 2020 the rate increased by half, and fell by 10%.",
    "to reduce",
    "",
])
def test_written_cues_on_hand_made_sentences(text):
    doc, written = written_spans(text)
    assert written == reference_spans(doc)


def test_the_strength_patterns_run_no_matcher():
    nlp, strength, _, _ = pipeline()
    with nlp.select_pipes(disable=["factwash_strength", "factwash_compare"]):
        docs = [nlp(t) for t in ["Aspirin reduces pain.", "Levels rose sharply and fell.", "We aimed to assess it.",
                                 "Costs rose by 5 percent.", "We saw it."]]
    assert counted(lambda: [strength(doc) for doc in docs], "matcher/matcher.pyx", "__call__") == 0
    reference = Matcher(nlp.vocab)
    reference.add("word", [[{"LOWER": "it"}]])
    assert counted(lambda: [reference(doc) for doc in docs], "matcher/matcher.pyx", "__call__") == 5  # seen when run
    assert not strength.matcher.matchers and len(strength.matcher.fixed)  # every pattern is checked in place
    assert [s.id_ for s in docs[3].spans["factwash_strength"]] == ["comparison:change_by_amount"]
