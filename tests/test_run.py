"""The run layer (spacy_factwash/run/): given an executor, or finding one by name, it never imports the Dask backend;
one walk gates pairs for both ``gate`` and ``report``; one line counter agrees with every reader."""

import ast
import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from properties import properties

import spacy_factwash
from spacy_factwash.executors import ExecutorMissing, executor_for
from spacy_factwash.io.inputs import read_inputs, read_pairs
from spacy_factwash.io.textfile import line_count
from spacy_factwash.pipes.gate.policy import EXIT_STATUS, RANKING, verdict, worst
from spacy_factwash.run.annotate import annotate_file
from spacy_factwash.run.gate import GateSummary, gate_file, gated_pairs, report_file
from spacy_factwash.run.local import LocalExecutor, executor_of

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "spacy_factwash" / "run"
PAIRS = [("Someone said Alice was promoted.", "Alice was promoted."),
         ("The cluster has 4,500 nodes.", "The cluster has 5,400 nodes."),
         ("Alice leads the team.", "Alice leads the team.")]


class Recording(LocalExecutor):
    """The one-process executor, remembering what it was asked to run."""

    def __init__(self):
        self.calls = []

    def gate(self, nlp, items, *, batch_size, n_workers=1, name):
        self.calls.append(("gate", batch_size, n_workers, name))
        return super().gate(nlp, items, batch_size=batch_size, n_workers=n_workers, name=name)

    def annotate(self, build, items, *, batch_size, n_workers=1):
        self.calls.append(("annotate", batch_size, n_workers))
        return super().annotate(build, items, batch_size=batch_size, n_workers=n_workers)


def _imports(path: Path):
    """The modules a file imports, as absolute names inside the package (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            yield ".".join(part for part in (base, node.module) if part)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def test_the_run_layer_never_imports_the_dask_backend_and_the_backend_never_imports_back():
    layer = [p for p in RUN.glob("*.py")]
    assert layer and not [(p.name, m) for p in layer for m in _imports(p)
                          if m.startswith("spacy_factwash.run.dask") or m.split(".")[0] in {"dask", "distributed"}]
    importers = {f"spacy_factwash.run.{p.stem}" for p in layer if any("run.dask" in m for m in _imports(p))}
    backend = [(p.name, m) for p in (RUN / "dask").glob("*.py") for m in _imports(p) if m in importers]
    assert backend == []


def test_scale_error_does_not_reach_the_one_process_path():
    for path in RUN.glob("*.py"):
        assert "ScaleError" not in path.read_text(encoding="utf8"), path.name


def test_an_executor_given_or_named_runs_the_batches(tmp_path):
    texts = tmp_path / "texts.txt"
    texts.write_text("Alice might come.\n\nBob said no.\n", encoding="utf8")
    recording = Recording()
    annotate_file(texts, tmp_path / "given.jsonl", max_length=10_000, batch_size=2, executor=recording)
    annotate_file(texts, tmp_path / "named.jsonl", max_length=10_000, executor="local")
    annotate_file(texts, tmp_path / "default.jsonl", max_length=10_000)
    assert recording.calls == [("annotate", 2, 1)]
    assert (tmp_path / "given.jsonl").read_bytes() == (tmp_path / "named.jsonl").read_bytes() == \
        (tmp_path / "default.jsonl").read_bytes()
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": i, "source": s, "memory": m}) + "\n" for i, (s, m) in enumerate(PAIRS)))
    nlp = spacy_factwash.default_pipeline()
    gate_file(pairs, tmp_path / "given-reports.jsonl", nlp, batch_size=5, executor=recording)
    gate_file(pairs, tmp_path / "reports.jsonl", nlp)
    assert recording.calls[-1] == ("gate", 5, 1, "factwash_compare")
    assert (tmp_path / "given-reports.jsonl").read_bytes() == (tmp_path / "reports.jsonl").read_bytes()


def test_an_executor_is_found_by_name_and_a_missing_one_says_what_to_install():
    assert isinstance(executor_for("local"), LocalExecutor) and isinstance(executor_of(None, 1), LocalExecutor)
    assert type(executor_of(None, 2)).__name__ == "DaskExecutor"
    with pytest.raises(ExecutorMissing, match=r"\[E016\] no executor named 'nowhere'.*dask extra"):
        executor_of("nowhere", 1)


def test_gate_and_report_walk_the_pairs_alike(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    lines = [json.dumps({"id": i, "source": s, "memory": m}) for i, (s, m) in enumerate(PAIRS)]
    pairs.write_text("\n".join(lines[:1] + ['{"id": "bad"'] + lines[1:]) + "\n", encoding="utf8")
    nlp = spacy_factwash.default_pipeline()
    batched, with_docs = GateSummary(), GateSummary()
    reports = [g.report.to_dict() for g in gated_pairs(read_pairs(pairs), nlp, batched, pairs, skip_bad_lines=True)]
    walked = list(gated_pairs(read_pairs(pairs), nlp, with_docs, pairs, skip_bad_lines=True, docs=True))
    assert [g.report.to_dict() for g in walked] == reports and batched == with_docs
    assert [g.source.text for g in walked] == [s for s, _ in PAIRS] and batched.bad == 1
    stopped = GateSummary()
    assert len(list(gated_pairs(read_pairs(pairs), nlp, stopped, pairs))) == 1
    assert stopped.stop == f"{pairs}:2: malformed JSON (Expecting ',' delimiter at column 13) (use --skip-bad-lines " \
                           "to skip it)" and stopped.exit_code == 1
    page = tmp_path / "page.html"
    assert report_file(pairs, page, nlp).stop == stopped.stop and not page.exists()  # a stopped page is not written
    assert report_file(pairs, page, nlp, skip_bad_lines=True).verdicts == batched.verdicts and page.is_file()


def test_one_ranking_of_the_verdicts_gives_every_exit_status():
    assert RANKING[-1] == verdict(["changed_value", "dropped_attribution"], ["x"])
    assert worst(["pass", "reject", "uncheckable"]) == "reject" and worst([]) == "pass"
    assert EXIT_STATUS == {"pass": 0, "uncheckable": 3, "rewrite": 4, "reject": 5}
    summary = GateSummary(verdicts={"pass": 2, "rewrite": 1, "reject": 0})
    assert [summary.status(bar) for bar in (None, "uncheckable", "rewrite", "reject")] == [0, 4, 4, 0]


@given(st.lists(st.sampled_from(["Alice came.", "", "   ", "\t", "b\xe9", "\ufeffx", "\u00a0"]), max_size=8),
       st.booleans())
@properties(60)
def test_the_line_counter_counts_the_lines_every_reader_reads(tmp_path_factory, lines, bom):
    path = tmp_path_factory.mktemp("count") / "in.txt"
    path.write_bytes(("\ufeff" if bom else "").encode() + "\n".join(lines).encode("utf8")
                     + (b"\n\xff\n" if len(lines) % 3 == 1 else b""))
    assert line_count(path) == len(list(read_inputs(path))) == len(list(read_pairs(path)))
