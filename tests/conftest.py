"""Shared fixtures: pipelines built once per session, and the corpora folder.

The corpora are found through $FACTWASH_CORPORA. Outside CI a test that
needs them is skipped with the reason; in CI (CI=true) a missing corpus is a
failure, so a green CI run always means the corpus tests ran.
"""

import fcntl
import os
import pickle
import subprocess
from pathlib import Path

import properties  # noqa: F401  (loads the suite's hypothesis profile)
import pytest
import spacy

import spacy_factwash
from spacy_factwash.pipes.gate.gate import Gate


@pytest.fixture(scope="session")
def nlp():
    """A blank English pipeline with nothing but factwash_cues."""
    pipeline = spacy.blank("en")
    pipeline.add_pipe("factwash_cues")
    return pipeline


@pytest.fixture(scope="session")
def default_nlp():
    """The embedded default pipeline."""
    return spacy_factwash.load()


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def corpora() -> Path:
    """The corpora folder as an absolute path (a relative $FACTWASH_CORPORA read against the folder it was given in,
    and put back absolute for the processes the tests start); skips outside CI and fails in CI when it is missing."""
    from factwash_dev.corpora_folder import CORPORA_ENV, from_environment, problem

    root = from_environment()
    found = f"${CORPORA_ENV} is not set (point it at the shared corpora folder)" if root is None else problem(root)
    if found:
        if in_ci():
            pytest.fail(f"corpus missing in CI: {found}")
        pytest.skip(found)
    os.environ[CORPORA_ENV] = str(root)
    return root


# -- the gate's measurements, each made once per session: several README tables read the same one -----------

ROOT = Path(__file__).resolve().parent.parent


# the fixtures of the measured tables (here and in the test modules)
MEASUREMENTS = frozenset({"test_half_measured", "gate_corpus_result", "frank_reports", "summedits_result",
                          "gate_sets_result", "work_growth_result", "measured", "measured_table", "cost_measured",
                          "measured_scope_table", "parser_table"})


def pytest_collection_modifyitems(config, items):
    """The tests that read a measured table run first (the order is otherwise kept). In worker processes a worker
    starts on the first tests of its share and an idle worker takes tests from the end of a busy one's share: the
    long measurements start at once and the short tests fill in around them, instead of one worker ending the run
    alone on a measurement."""
    items.sort(key=lambda item: MEASUREMENTS.isdisjoint(item.fixturenames))


def made_once(tmp_path_factory, name: str, measure):
    """A session measurement made once for the whole run. The suite runs in worker processes (setup.cfg), where a
    session fixture is made once per worker: the first worker to ask makes it, under a lock, and leaves it pickled in
    the run's temporary folder; a worker that asks later (or meanwhile, waiting on the lock) reads it."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return measure()
    path = tmp_path_factory.getbasetemp().parent / f"{name}.pickle"  # the folder all workers of this run share
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.is_file():
            return pickle.loads(path.read_bytes())
        result = measure()
        path.write_bytes(pickle.dumps(result))
        return result


@pytest.fixture(scope="session")
def test_half_measured(corpora, tmp_path_factory):
    """Every corpus's test half annotated once with the packaged lexicons: scored (evaluation/evaluate.py), and the
    gate's drop/control pairs built from the same Docs (evaluation/gate_pairs.py)."""
    from factwash_dev.evaluation.evaluate import evaluate, evaluation_pipeline
    from factwash_dev.evaluation.gate_pairs import build_pairs

    def measure():
        nlp, splits, docs = evaluation_pipeline(), ROOT / "training" / "splits", {}
        result = evaluate(corpora, "test", splits, nlp=nlp, keep=docs)
        return {"result": result, "pairs": build_pairs(corpora, splits, nlp, docs=docs)}

    return made_once(tmp_path_factory, "test_half", measure)


@pytest.fixture(scope="session")
def test_half_result(test_half_measured):
    """The packaged lexicons scored on every corpus's test half (evaluation/evaluate.py)."""
    return test_half_measured["result"]


@pytest.fixture(scope="session")
def gate_corpus_result(test_half_measured, tmp_path_factory):
    """The gate on the corpus drop/control pairs of the test halves (evaluation/gate_pairs.py)."""
    from factwash_dev.evaluation.gate_pairs import score_pairs

    return made_once(tmp_path_factory, "gate_corpus", lambda: score_pairs(
        test_half_measured["pairs"], Gate(spacy_factwash.default_pipeline())))


@pytest.fixture(scope="session")
def frank_reports(corpora, tmp_path_factory):
    """The gate's reports on FRANK's test pairs (evaluation/frank.py): the FRANK table and the model-cost table
    read the same reports, so the gate runs over FRANK once."""
    from factwash_dev.evaluation.frank import gate_reports

    return made_once(tmp_path_factory, "frank_reports", lambda: gate_reports(
        corpora / "frank" / "raw", Gate(spacy_factwash.default_pipeline())))


@pytest.fixture(scope="session")
def frank_result(corpora, frank_reports):
    """The gate on FRANK's test split (evaluation/frank.py)."""
    from factwash_dev.evaluation.frank import score_reports

    return score_reports(corpora / "frank" / "raw", frank_reports)


@pytest.fixture(scope="session")
def summedits_result(corpora, tmp_path_factory):
    """The gate on SummEdits, without and with the parse (evaluation/summedits.py)."""
    from factwash_dev.evaluation.summedits import measure

    return made_once(tmp_path_factory, "summedits", lambda: measure(corpora))


@pytest.fixture(scope="session")
def gate_sets_result(tmp_path_factory):
    """The gate on the written pair sets (evaluation/gate_sets.py)."""
    from factwash_dev.evaluation.gate_sets import score_sets

    return made_once(tmp_path_factory, "gate_sets", lambda: score_sets(
        ROOT / "training" / "gate_sets", Gate(spacy_factwash.default_pipeline())))


@pytest.fixture(scope="session")
def work_growth_result(tmp_path_factory):
    """The gate's calls as its texts double (evaluation/work.py), counted in fresh interpreters."""
    from factwash_dev.evaluation.work import work_growth

    return made_once(tmp_path_factory, "work_growth", work_growth)


def cues_of(doc, label=None):
    """(label, text, entry id) of every resolved cue, optionally of one class."""
    return [(s.label_, s.text, s.id_) for s in doc.spans["factwash_cues"] if label is None or s.label_ == label]


README = Path(__file__).resolve().parent.parent / "README.md"


def page_text(name: str) -> str:
    """The documentation page that holds table ``name`` (``evaluation.readme.PAGES``)."""
    from factwash_dev.evaluation.readme import PAGES

    return (ROOT / PAGES[name]).read_text(encoding="utf8")


def readme_drift(name: str, measured: str):
    """How the README's table ``name`` differs from a measured table (empty when they agree)."""
    from factwash_dev.evaluation.readme import extract_table, table_drift

    return table_drift(extract_table(page_text(name), name), measured)


def perturbed_drift(name: str, measured: str, row_start: str, cell: int, value: str):
    """The drift the guard reports for a README whose table ``name`` has one cell of one row changed."""
    from factwash_dev.evaluation.readme import extract_table, replace_table, table_drift

    row = next(line for line in measured.splitlines() if line.startswith(row_start))
    cells = row.split("|")
    cells[cell] = f" {value} "
    readme = replace_table(page_text(name), measured.replace(row, "|".join(cells)), name)
    return table_drift(extract_table(readme, name), measured)


def cli_in_process(*args, env=None) -> subprocess.CompletedProcess:
    """The user command line run in this process by typer's runner, ``env`` the whole environment while it runs (as
    a subprocess's): its exit status and what it printed, as a subprocess run gives them, and an uncaught exception
    raised. For a test that reads what a command prints, writes and exits with, where a fresh interpreter is not
    what it tests (starting one costs seconds)."""
    from typer.testing import CliRunner

    from spacy_factwash.cli import app

    overrides = None if env is None else {**{name: None for name in os.environ if name not in env}, **env}
    result = CliRunner(env=overrides).invoke(app, [str(arg) for arg in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback, where a fresh process would have printed one
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a disk a test can fill (tests/disk.py: a tmpfs, or a file-size limit in child processes)."""
    from disk import SmallDisk

    disk = SmallDisk(tmp_path)
    yield disk
    disk.close()
