"""The docs' before/after of claim records: "after" is the measurement, "before" the recorded one."""

import pytest
from conftest import ROOT, perturbed_drift, readme_drift

from factwash_dev.evaluation.claim_records import BEFORE, FOLDER, kinds_of, markdown_table, read_before
from factwash_dev.evaluation.readme import CLAIM_RECORDS
from spacy_factwash.api import default_gate


@pytest.fixture(scope="module")
def measured(summedits_result):
    after = {"kinds": kinds_of(ROOT / FOLDER, default_gate()), "summedits": summedits_result["default"]}
    return markdown_table(read_before(ROOT / BEFORE), after)


def test_the_recorded_before_names_its_commit_and_every_kind_of_the_sets():
    before = read_before(ROOT / BEFORE)
    after = kinds_of(ROOT / FOLDER, default_gate())
    assert before["commit"] == "6241dc0" and set(before["kinds"]) == set(after)


def test_docs_before_after_is_the_measurement(measured):
    drift = readme_drift(CLAIM_RECORDS, measured)
    assert drift == [], "docs claim-records before/after drifted:\n" + "\n".join(drift)


def test_before_after_guard_names_a_perturbed_figure(measured):
    drift = perturbed_drift(CLAIM_RECORDS, measured, "| roles swapped |", 4, "0 → 13")
    assert len(drift) == 1 and drift[0].startswith("roles swapped / right, before → after")
