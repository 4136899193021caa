"""Each note and change points at text that says what it claims: one test per explanation that misled."""

import pytest
import spacy

import spacy_factwash
from spacy_factwash.pipes.gate.values.quantities import quantities


def explained(source: str, memory: str):
    """(type, message, values) of every change and note of the report."""
    report = spacy_factwash.inspect(source, memory)
    return [(c.type, c.message, c.values) for c in [*report.changes, *report.notes]]


def test_a_value_the_source_gives_in_another_sentence_is_noted_as_moved_not_introduced():
    source = "The budget is $5 million. It was approved by the board."
    [(kind, message, values)] = [f for f in explained(source, "The board approved the $5 million budget.")
                                 if f[0].endswith("_value")]
    assert (kind, message) == ("moved_value", "the memory gives '$5 million' here; the source gives it in another "
                                              "sentence, not in the one this claim aligns to")
    [given] = values["source"]
    assert source[given["start_char"]:given["end_char"]] == "$5 million"
    # a value no claim of the source gives is introduced
    found = explained("The budget is large. It was approved by the board.", "The board approved the $5 million budget.")
    assert [f[1] for f in found if f[0] == "introduced_value"] == [
        "the memory gives '$5 million', which no claim of the source gives"]


def test_a_changed_value_names_the_sentence_it_compared_and_a_source_sentence_that_has_the_value():
    found = explained("The budget is $5 million. The team of 12 approved it.",
                      "The team of 12 approved the $5 million budget.")
    assert [(f[0], f[1]) for f in found] == [
        ("changed_value", "the memory says '$5 million'; the aligned source sentence says '12' (the source gives "
                          "'$5 million' in another sentence)")]


@pytest.mark.parametrize("heading", ["## Notes from Alice", "# Alice said", "   ### Reported issues"])
def test_a_markdown_heading_is_not_read_as_an_attribution(default_nlp, heading):
    source = f"{heading}\nRevenue rose in the third quarter."
    doc = default_nlp(source)
    assert not [c for c in doc.spans["factwash_cues"] if c.label_ == "ATTRIBUTION"]
    assert [f[0] for f in explained(source, "Revenue rose in the third quarter.")] == []
    # the same words in running text still attribute
    assert [f[0] for f in explained("Alice said revenue rose.", "Revenue rose.")] == ["dropped_attribution"]


@pytest.mark.parametrize("text,values", [
    ("In the fourth quarter, profit fell 2%.", [("2%", 2.0)]),
    ("Q3 revenue rose in the quarter to 5 million.", [("5 million", 5e6)]),
    ("Revenue rose 2 quarters in a row.", [("2", 2.0)]),
])
def test_a_quarter_of_the_year_is_never_read_as_a_value(default_nlp, text, values):
    doc = default_nlp(text)
    assert [(q.surface, q.value) for q in quantities(doc[:])] == values


def test_a_fraction_quarter_and_a_count_of_quarters_are_still_values(default_nlp):
    doc = default_nlp("One quarter of the 40 servers failed, 3 quarters in a row.")
    assert [(q.surface, q.value) for q in quantities(doc[:])] == [("One quarter", 0.25), ("40", 40.0), ("3", 3.0)]


@pytest.mark.parametrize("text,speaker", [
    ("Thanks 🙏 Alice said the server is down.", "Alice"),
    ("Great news 🎉 Bob said the deal closed.", "Bob"),
    ("Update → Carol said the build passed.", "Carol"),
    ("Alice's manager said the server is down.", "Alice's manager"),
    ("AT&T said the line is down.", "AT&T"),
])
def test_speaker_spans_stop_at_symbols_and_punctuation(default_nlp, text, speaker):
    doc = default_nlp(text)
    assert [s.text for s in doc.spans["factwash_sources"]] == [speaker]


@pytest.mark.parametrize("text", ["", "The build passed.", "Reportedly the build passed."])
def test_the_sources_group_is_always_there(text):
    for nlp in (spacy_factwash.load(), _single("factwash_attribution"), _single("factwash_hedge")):
        doc = nlp(text)
        assert list(doc.spans["factwash_sources"]) == []


def _single(factory: str):
    nlp = spacy.blank("en")
    nlp.add_pipe(factory)
    return nlp
