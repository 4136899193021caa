"""A value made vague, and a present state put in the past (issue 21: "value vague", "tense changed").

The attacker's side: "1,240 patients" -> "a large number of patients" (the number gone, a quantity word in its
place) and "Nadia runs the bakery" -> "Nadia used to run the bakery" never pass. The rewriter's side: a past
state kept in other words ("previously worked" -> "used to work", "a former rower" -> "used to row") and "is used
to address" (no habit at all) pass.
"""

import pytest
from hypothesis import given, strategies as st

from spacy_factwash import check, inspect
from properties import properties

FLAGGED = ("rewrite", "reject", "uncheckable")
VAGUE = ["many", "a few", "dozens of", "plenty of", "a large number of", "several", "hundreds of", "lots of"]
COUNTED = ["patients", "volunteers", "tickets", "servers", "orders", "hours", "days", "members"]
NAMES = ["Nadia", "Omar", "Priya", "Gustavo", "Lena", "Marco"]
HABITS = [("runs", "run", "ran"), ("manages", "manage", "managed"), ("owns", "own", "owned"),
          ("leads", "lead", "led"), ("coaches", "coach", "coached")]
THINGS = ["the bakery on Elm Street", "the night shift", "the tenants' association", "the youth team"]


@properties(60)
@given(st.integers(min_value=2, max_value=5000), st.sampled_from(COUNTED), st.sampled_from(VAGUE))
def test_a_value_made_vague_never_passes(number, noun, vague):
    report = inspect(f"The clinic logged {number:,} {noun} in March.", f"The clinic logged {vague} {noun} in March.")
    assert report.verdict in FLAGGED, report
    assert "dropped_values" in {c.type for c in report.changes}, report


@properties(40)
@given(st.integers(min_value=2, max_value=5000), st.sampled_from(COUNTED), st.sampled_from(VAGUE))
def test_a_quantity_word_beside_the_number_keeps_it(number, noun, vague):
    """ "many of the 12 servers" still gives the number: nothing was made vague."""
    source = f"The clinic logged {number:,} {noun} in March."
    assert "dropped_values" not in {c.type for c in inspect(source, source).changes}


@properties(60)
@given(st.sampled_from(NAMES), st.sampled_from(HABITS), st.sampled_from(THINGS),
       st.sampled_from(["used to {base}", "formerly {past}", "previously {past}"]))
def test_a_present_state_put_in_the_past_never_passes(name, habit, thing, past_form):
    present, base, past = habit
    report = inspect(f"{name} {present} {thing}.", f"{name} {past_form.format(base=base, past=past)} {thing}.")
    assert report.verdict in FLAGGED, report


@properties(40)
@given(st.sampled_from(NAMES), st.sampled_from(HABITS), st.sampled_from(THINGS),
       st.sampled_from([("previously {past}", "used to {base}"), ("formerly {past}", "used to {base}"),
                        ("used to {base}", "formerly {past}")]))
def test_a_past_state_kept_in_other_words_passes(name, habit, thing, forms):
    _, base, past = habit
    source, memory = (f"{name} {form.format(base=base, past=past)} {thing}." for form in forms)
    assert check(source, memory) == "pass", inspect(source, memory)


@pytest.mark.parametrize("source, memory", [
    ("Lin is a former Olympic rower.", "Lin used to row at Olympic level."),
    ("The algorithm is applied to the steering problem.", "The algorithm is used to address the steering problem."),
])
def test_a_past_state_in_an_adjective_or_a_passive_used_to(source, memory):
    assert check(source, memory) == "pass"
