"""The README's before/after of the claim-level gate: "after" is the measurement, "before" the recorded one."""

import pytest
from conftest import ROOT, perturbed_drift, readme_drift

from factwash_dev.evaluation.claim_gate import BEFORE, markdown_table, read_before
from factwash_dev.evaluation.readme import CLAIM_GATE
from spacy_factwash import default_pipeline


@pytest.fixture(scope="module")
def measured(gate_sets_result, gate_corpus_result, frank_result, summedits_result, work_growth_result):
    after = {"lexicon_version": default_pipeline().get_pipe("factwash_cues").lexicon_version,
             "sets": gate_sets_result["sets"], "corpus": gate_corpus_result, "frank": frank_result,
             "summedits": summedits_result["default"], "work": work_growth_result}
    return markdown_table(read_before(ROOT / BEFORE), after)


def test_the_recorded_before_names_the_commit_and_the_sets_it_measured():
    before = read_before(ROOT / BEFORE)
    assert before["commit"] == "dfa0e77" and {"should_pass", "flagging", "claims", "adversarial"} <= set(before["sets"])


def test_readme_before_after_is_the_measurement(measured):
    drift = readme_drift(CLAIM_GATE, measured)
    assert drift == [], "README claim-gate before/after drifted:\n" + "\n".join(drift)


def test_before_after_guard_names_a_perturbed_figure(measured):
    drift = perturbed_drift(CLAIM_GATE, measured, "| CD-SCO |", 3, "0.99 → 0.01")
    assert len(drift) == 1 and drift[0].startswith("CD-SCO / changed_condition / reversed_polarity / recall (before → after)")
