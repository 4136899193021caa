"""The gate on the written pair sets: the README's gate table is the measurement, and its guard fires."""

from pathlib import Path

import pytest
from conftest import perturbed_drift, readme_drift

from factwash_dev.evaluation.claim_records import read_records
from factwash_dev.evaluation.gate_sets import markdown_table, read_set, set_names
from factwash_dev.evaluation.readme import GATE

ROOT = Path(__file__).resolve().parent.parent
SETS_DIR = ROOT / "training" / "gate_sets"


@pytest.fixture(scope="module")
def measured(gate_sets_result):
    return gate_sets_result


def test_sets_are_as_large_as_promised_and_cover_every_change_type():
    """The gate sets are as large as promised; with the claim-record sets (the parts of a claim the gate sets
    predate: mood, roles, tense, comparison, weakened), the written pairs expect every change type."""
    pairs = [pair for name in set_names(SETS_DIR) for pair in read_set(SETS_DIR / f"{name}.jsonl")]
    assert sum(not pair["expect"] for pair in pairs) >= 200 and sum(bool(pair["expect"]) for pair in pairs) >= 200
    from spacy_factwash.pipes.gate.report import CHANGE_TYPES

    written = pairs + read_records(ROOT / "training" / "claim_records")
    assert set(CHANGE_TYPES) <= {t for pair in written for t in pair["expect"]}


def test_readme_gate_table_is_the_measured_table(measured):
    drift = readme_drift(GATE, markdown_table(measured))
    assert drift == [], "README gate table drifted from the measurement:\n" + "\n".join(drift)


def test_gate_table_guard_names_a_perturbed_figure(measured):
    drift = perturbed_drift(GATE, markdown_table(measured), "| changed_value |", 2, "999")  # the TP column
    assert len(drift) == 1 and drift[0].startswith("changed_value / TP: README says 999, measured")


def test_a_malformed_set_line_is_named(tmp_path):
    (tmp_path / "should_pass.jsonl").write_text('{"id": "x", "source": "a", "memory": "b", "expect": ["nope"]}\n')
    with pytest.raises(ValueError, match=r"should_pass\.jsonl:1"):
        read_set(tmp_path / "should_pass.jsonl")
    assert set_names(tmp_path) == ["should_pass"]
