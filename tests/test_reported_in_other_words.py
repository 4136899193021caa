"""A value range, a bound, a speaker and a reporting verb kept in other words, and the rewrites that only look so.

The rewriter's side: "between X and Y" and "X to Y" are one range; "a minimum purchase amount of $3,000" bounds
the value as "a minimum purchase of $3,000" does; "The company reported" is kept by "The company published"
(a spoken frame, ``spoken.jsonl``) and "was deemed" by "was seen as". The attacker's side: one end of a range
stated alone, a spoken frame given another subject or no frame at all, and one pronoun speaker put for another.
"""

import pytest
from hypothesis import given, strategies as st

from spacy_factwash import check, inspect
from spacy_factwash.pipes.gate.words import load_gate_words
from properties import properties

FLAGGED = ("rewrite", "reject", "uncheckable")
AMOUNTS = st.integers(min_value=2, max_value=900)
UNITS = ["${} million", "{} km", "{} GB", "€{}", "{}%", "£{}bn"]
RANGES = ["between {a} and {b}", "between the range of {a} and {b}", "in the range of {a} and {b}", "{a} to {b}",
          "from {a} to {b}"]
SPEAKERS = ["Capital One", "The company", "Acme", "The ministry", "Airservices Australia", "The agency"]
OTHERS = ["Analysts", "A rival", "Reuters", "The regulator"]
REPORTED = ["earnings of $6.86 per share", "a fourth quarter decline in vaccine sales", "strong results for Q3",
            "a net loss of $8.2m", "record revenue in the quarter"]


def spoken_verbs():
    """The spoken frames the gate lists, each as its past tense (the lists give every form)."""
    verbs = []
    for entry in load_gate_words().for_label("SPOKEN"):
        verbs.append(next((form for form in entry.phrases if form.endswith("ed") and " " not in form),
                          entry.phrases[0]))
    return sorted(verbs)


@properties(60)
@given(AMOUNTS, AMOUNTS, st.sampled_from(UNITS), st.sampled_from(RANGES), st.sampled_from(RANGES))
def test_a_range_in_other_words_passes(low, step, unit, source_form, memory_form):
    a, b = unit.format(low), unit.format(low + step)
    source = f"The plan expects costs {source_form.format(a=a, b=b)} next year."
    memory = f"The plan expects costs {memory_form.format(a=a, b=b)} next year."
    assert inspect(source, memory).verdict == "pass"


@properties(60)
@given(AMOUNTS, AMOUNTS, st.sampled_from(UNITS), st.sampled_from(RANGES[:3]), st.booleans())
def test_one_end_of_a_between_range_stated_alone_never_passes(low, step, unit, source_form, high_end):
    a, b = unit.format(low), unit.format(low + step)
    source = f"The plan expects costs {source_form.format(a=a, b=b)} next year."
    report = inspect(source, f"The plan expects costs of {b if high_end else a} next year.")
    assert report.verdict in FLAGGED, report


def test_two_values_joined_by_and_are_no_range_without_between():
    """ "2 servers and 3 disks" are two counts, and a "between" past a comma opens nothing of them."""
    assert check("Between tests, 2 servers and 3 disks failed.", "2 servers and 3 disks failed.") == "pass"
    assert check("2 servers and 3 disks failed.", "3 disks failed.") == "pass"


@pytest.mark.parametrize("source, memory", [
    ("He offers a discount with a minimum purchase of $3,000.", "He offers a discount with a minimum purchase amount of $3,000."),
    ("Over 3 servers and 5 disks failed.", "Over 3 servers and 5 disks failed."),
])
def test_a_bound_reaching_across_a_noun_is_kept(source, memory):
    assert check(source, memory) == "pass"


@pytest.mark.parametrize("source, memory", [
    ("He offers a discount with a minimum purchase of $3,000.", "He offers a discount with a purchase amount of $3,000."),
    ("He offers a discount with a minimum purchase amount of $3,000.", "He offers a discount with a purchase of $3,000."),
])
def test_a_bound_dropped_across_a_noun_is_flagged(source, memory):
    assert inspect(source, memory).verdict in FLAGGED


def test_the_spoken_frames_are_few_and_each_carries_its_synsets():
    """Only the spoken frames that earned their place on dev data are listed (training/MINING.md, revision 5)."""
    entries = load_gate_words().for_label("SPOKEN")
    assert 0 < len(entries) < 40
    assert all(e.provenance["synsets"] and "revision 5" in e.provenance["rule"] for e in entries)
    assert {"publish", "release"} <= {e.id.split(":", 1)[1] for e in entries}


@properties(60)
@given(st.sampled_from(SPEAKERS), st.sampled_from(REPORTED), st.data())
def test_a_spoken_frame_with_the_speaker_as_subject_keeps_the_attribution(speaker, what, data):
    verb = data.draw(st.sampled_from(spoken_verbs()))
    report = inspect(f"{speaker} reported {what}.", f"{speaker} {verb} {what}.")
    assert "dropped_attribution" not in {c.type for c in report.changes}, report


@properties(60)
@given(st.sampled_from(SPEAKERS), st.sampled_from(OTHERS), st.sampled_from(REPORTED), st.data())
def test_a_spoken_frame_given_another_subject_never_passes(speaker, other, what, data):
    verb = data.draw(st.sampled_from(spoken_verbs()))
    report = inspect(f"{speaker} reported {what}.", f"{other} {verb} {what}.")
    assert report.verdict in FLAGGED, report


@properties(40)
@given(st.sampled_from(SPEAKERS), st.sampled_from(REPORTED))
def test_a_report_stated_with_no_frame_never_passes(speaker, what):
    report = inspect(f"{speaker} reported {what}.", f"There was {what}.")
    assert report.verdict in FLAGGED, report


@pytest.mark.parametrize("source, memory, verdict", [
    ("Bird flu was not deemed to be a threat to humans.", "Bird flu was not seen as a threat to humans.", "pass"),
    ("Bird flu was not deemed to be a threat to humans.", "Bird flu was not a threat to humans.", "rewrite"),
    ("The new images reveal structures inside galaxies.", "The new images uncover structures inside galaxies.",
     "pass"),
    ("The company reported a loss.", "The company made a loss.", "rewrite"),
    ("The company reported a loss.", "The company took a loss.", "rewrite"),
])
def test_a_passive_judgement_and_a_light_verb(source, memory, verdict):
    assert check(source, memory) == verdict


PRONOUN_PAIRS = [("He", "She"), ("She", "He"), ("I", "He"), ("We", "She"), ("He", "I")]


@properties(40)
@given(st.sampled_from(PRONOUN_PAIRS), st.sampled_from(["said", "explained that", "claimed", "told us"]),
       st.sampled_from(["Alice was promoted", "the server was down", "the invoices were paid late"]))
def test_one_pronoun_speaker_put_for_another_never_passes(pronouns, verb, claim):
    first, second = pronouns
    report = inspect(f"{first} {verb} {claim}.", f"{second} {verb} {claim}.")
    assert report.verdict in FLAGGED, report


@pytest.mark.parametrize("source, memory", [
    ("He said Alice was promoted.", "He said Alice was promoted."),
    ("He said Alice was promoted.", "They said Alice was promoted."),  # a singular they
    ("Bob said Alice was promoted.", "He said Alice was promoted."),  # a pronoun for a name is not compared
    ("She said Alice was promoted.", "Alice was promoted, she said."),
    ("He explained that the server was down.", "He clarified that the server was down."),
])
def test_the_same_pronoun_speaker_or_a_third_person_they_passes(source, memory):
    assert check(source, memory) == "pass"
