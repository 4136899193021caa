"""The gate on FRANK summaries: the README's figures are the measurement, and the guard fires."""

from pathlib import Path

import pytest
from conftest import page_text, readme_drift

from factwash_dev.evaluation.frank import markdown_table, read_pairs
from factwash_dev.evaluation.readme import FRANK, extract_table, replace_table, table_drift
from spacy_factwash import default_pipeline

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def measured(frank_result):
    return markdown_table(frank_result, default_pipeline().get_pipe("factwash_cues").lexicon_version)


def test_only_the_test_split_is_read_and_groups_follow_the_labels(corpora):
    pairs = list(read_pairs(corpora / "frank" / "raw"))
    assert pairs and {group for group, _, _ in pairs} == {"clean", "circumstance_error"}
    assert all(article and summary for _, article, summary in pairs)


def test_readme_frank_table_is_the_measured_table(measured):
    drift = readme_drift(FRANK, measured)
    assert drift == [], "README FRANK table drifted from the measurement:\n" + "\n".join(drift)


def test_frank_guard_names_a_perturbed_caption(measured):
    caption = measured.splitlines()[0]
    perturbed = measured.replace(caption, caption.replace("Lift", "Lyft"), 1)
    readme = replace_table(page_text(FRANK), perturbed, FRANK)
    drift = table_drift(extract_table(readme, FRANK), measured)
    assert len(drift) == 1 and drift[0].startswith("caption differs")
