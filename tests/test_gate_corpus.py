"""The gate on pairs built from the corpora: how pairs are made, and the README table's guard."""

from pathlib import Path

import pytest
from conftest import perturbed_drift, readme_drift

from factwash_dev.evaluation.evaluate import evaluation_pipeline
from factwash_dev.evaluation.gate_pairs import markdown_table, removal_pairs
from factwash_dev.evaluation.gold import GoldSpan, GoldText, to_doc
from factwash_dev.evaluation.readme import GATE_CORPUS
from spacy_factwash import default_pipeline

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def measured_table(gate_corpus_result):
    return markdown_table(gate_corpus_result, default_pipeline().get_pipe("factwash_cues").lexicon_version)


def test_drop_removes_the_gold_cue_and_control_spares_every_cue():
    nlp = evaluation_pipeline()
    text = "These genes may play a role in 3 cell lines, but not in others."
    item = GoldText("bioscope", "abstracts", "d", "u", text, [GoldSpan(12, 15, "HEDGE")])
    doc = next(nlp.pipe([to_doc(nlp, item)]))
    drop, control = list(removal_pairs(doc, "bioscope", "HEDGE"))
    assert drop.memory == "These genes play a role in 3 cell lines, but not in others."
    assert control.kind == "control"
    assert control.memory == "These genes may play a role in 3 cell lines, but not in ."  # one word, no cue, no number


def test_readme_gate_corpus_table_is_the_measured_table(measured_table):
    drift = readme_drift(GATE_CORPUS, measured_table)
    assert drift == [], "README gate corpus table drifted from the measurement:\n" + "\n".join(drift)


def test_gate_corpus_guard_names_a_perturbed_figure(measured_table):
    drift = perturbed_drift(GATE_CORPUS, measured_table, "| CD-SCO |", 5, "0.01")  # recall
    assert len(drift) == 1 and drift[0].startswith("CD-SCO / changed_condition / reversed_polarity / recall: README says 0.01")
