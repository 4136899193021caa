"""Corpora on Dask (spacy_factwash/run/dask), on one LocalCluster of two worker processes bound to 127.0.0.1; and
the memory zone that keeps a long stream's memory flat."""

import json
from functools import partial
from unittest import mock

import pytest
from hypothesis import given, strategies as st
from scale_pipelines import MARK, failing_build, logged_build
from spacy.tokens import DocBin
from typer.testing import CliRunner

import spacy_factwash
from spacy_factwash.cli import app
from spacy_factwash.io.inputs import InputFile, InputLine
from spacy_factwash.run.annotate import DefaultPipeline, annotate_file, write_annotations
from spacy_factwash.run.gate import gate_file
from spacy_factwash.run.records import annotate_records, encoded

distributed = pytest.importorskip("distributed")
from properties import properties

from spacy_factwash.run.dask import annotate_corpus, gate_corpus  # noqa: E402
from spacy_factwash.run.dask import stream  # noqa: E402
from spacy_factwash.run.dask.corpus import records  # noqa: E402

TEXTS = ["Alice might come to the meeting.", "", "Bob said the build broke on Monday.", "Revenue rose 12% in 2023.",
         "If it rains, the match is off.", "Carol never replied.", "   ", "Reportedly, the plant closed.",
         "Dave will probably win.", "The team has 4,500 nodes.", "Eve denied that she left.",
         "Sales fell after March."]
PAIRS = [("Someone said Alice was promoted.", "Alice was promoted."),
         ("The cluster has 4,500 nodes.", "The cluster has 5,400 nodes."),
         ("Alice leads the team.", "Alice leads the team."),
         ("If it rains, the match is off.", "The match is off."),
         ("Bob may leave in May.", "Bob will leave."),
         ("Sales rose 3% last year, the report said.", "Sales rose 3%.")] * 2


@pytest.fixture(scope="module")
def scheduler():
    """The address of a two-worker LocalCluster (processes, one thread each) on 127.0.0.1, shared by the module."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines()]


@pytest.fixture
def texts_file(tmp_path):
    path = tmp_path / "texts.txt"
    path.write_text("\n".join(TEXTS) + "\n", encoding="utf8")
    return path


@pytest.fixture
def pairs_file(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"id": i, "source": s, "memory": m}) + "\n" for i, (s, m) in enumerate(PAIRS)),
                    encoding="utf8")
    return path


def test_annotating_on_the_cluster_writes_what_one_process_writes(scheduler, texts_file, tmp_path):
    annotate_file(texts_file, tmp_path / "one.jsonl", max_length=10_000)
    run = annotate_corpus([texts_file], tmp_path / "parts", scheduler=scheduler, lines_per_partition=5, batch_size=2)
    assert [e["status"] for e in run.partitions] == ["ok", "ok", "ok"] and not run.problems()
    assert [(e["first_line"], e["last_line"]) for e in run.partitions] == [(1, 5), (6, 10), (11, 12)]
    one = read_jsonl(tmp_path / "one.jsonl")
    assert list(records(run.manifest)) == one
    nlp = spacy_factwash.load()
    docs = [doc for entry in run.partitions
            for doc in DocBin().from_disk(tmp_path / "parts" / entry["files"]["docbin"]).get_docs(nlp.vocab)]
    assert [doc.text for doc in docs] == TEXTS
    assert [[(s.label_, s.text, s.id_) for s in doc.spans["factwash_cues"]] for doc in docs] == \
        [[(c["label"], c["text"], c["entry"]) for c in record["cues"]] for record in one]


def test_annotate_without_docbins_writes_the_same_records_and_a_manifest_naming_only_them(scheduler, texts_file,
                                                                                           tmp_path):
    with_docbins = annotate_corpus([texts_file], tmp_path / "both", scheduler=scheduler, lines_per_partition=5)
    result = CliRunner().invoke(app, ["annotate", str(texts_file), str(tmp_path / "jsonl"), "--scheduler", scheduler,
                                      "--partition-lines", "5", "--no-docbin"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "jsonl" / "manifest.json").read_text())
    assert [e["files"] for e in manifest["partitions"]] == [{"jsonl": f"part-0000{i}.jsonl"} for i in range(3)]
    assert sorted(p.name for p in (tmp_path / "jsonl").iterdir()) == ["manifest.json"] + [
        f"part-0000{i}.jsonl" for i in range(3)]
    assert [e["files"] for e in with_docbins.partitions] == [
        {"jsonl": f"part-0000{i}.jsonl", "docbin": f"part-0000{i}.spacy"} for i in range(3)]
    assert list(records(tmp_path / "jsonl" / "manifest.json")) == list(records(with_docbins.manifest))


def test_gating_on_the_cluster_writes_what_one_process_writes(scheduler, pairs_file, tmp_path):
    gate_file(pairs_file, tmp_path / "one.jsonl", spacy_factwash.default_pipeline())
    run = gate_corpus([pairs_file, pairs_file], tmp_path / "parts", scheduler=scheduler, lines_per_partition=4)
    assert len(run.partitions) == 6 and not run.problems()
    one = read_jsonl(tmp_path / "one.jsonl")
    assert list(records(run.manifest)) == one + one
    assert {v for e in run.partitions for v in e["verdicts"]} == {r["verdict"] for r in one}


def test_each_worker_builds_its_pipeline_once_for_every_partition_and_run(scheduler, texts_file, tmp_path):
    log = tmp_path / "builds.log"
    build = partial(logged_build, str(log))
    for out in ("first", "second"):
        run = annotate_corpus([texts_file], tmp_path / out, build=build, scheduler=scheduler, lines_per_partition=2)
        assert len(run.partitions) == 6 and not run.problems()
    builds = log.read_text().split()
    assert 1 <= len(builds) <= 2 and len(set(builds)) == len(builds)


def test_a_partition_that_fails_once_is_retried_and_its_attempts_recorded(scheduler, texts_file, tmp_path):
    marked = tmp_path / "marked.txt"
    marked.write_text("\n".join(TEXTS[:6] + [MARK] + TEXTS[7:]) + "\n", encoding="utf8")
    build = partial(failing_build, str(tmp_path / "failed-once"))
    run = annotate_corpus([marked], tmp_path / "parts", build=build, scheduler=scheduler, lines_per_partition=5)
    assert [e["status"] for e in run.partitions] == ["ok", "ok", "ok"]
    assert [e["attempts"] for e in run.partitions] == [1, 2, 1]
    assert "refuses a marked text" in run.partitions[1]["errors"][0]
    assert [r["line"] for r in records(run.manifest)] == list(range(1, 13))


def test_a_partition_that_always_fails_is_reported_never_silently_missing(scheduler, texts_file, tmp_path):
    marked = tmp_path / "marked.txt"
    marked.write_text("\n".join(TEXTS[:6] + [MARK] + TEXTS[7:]) + "\n", encoding="utf8")
    run = annotate_corpus([marked], tmp_path / "parts", build=failing_build, scheduler=scheduler,
                          lines_per_partition=5, retries=1)
    assert [e["status"] for e in run.partitions] == ["ok", "failed", "ok"]
    assert run.failed[0]["attempts"] == 2 and len(run.failed[0]["errors"]) == 2
    assert run.problems() == [f"{marked} lines 6-10: failed after 2 attempt(s): {run.failed[0]['errors'][-1]}"]
    manifest = json.loads(run.manifest.read_text())
    assert [e["status"] for e in manifest["partitions"]] == ["ok", "failed", "ok"]
    assert [r["line"] for r in records(run.manifest)] == [1, 2, 3, 4, 5, 11, 12]


def test_the_cli_runs_on_a_scheduler_and_fails_naming_a_stopped_partition(scheduler, tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "text": "Alice might come."}\n{"id": "b"\n{"id": "c", "text": "Bob said no."}\n',
                      encoding="utf8")
    result = CliRunner().invoke(app, ["annotate", str(source), str(tmp_path / "out"), "--scheduler", scheduler,
                                      "--partition-lines", "2"])
    assert result.exit_code == 1
    assert f"{source}:2: malformed JSON" in result.output and "1 of 2 partitions" in result.output
    skipped = CliRunner().invoke(app, ["annotate", str(source), str(tmp_path / "out"), "--scheduler", scheduler,
                                       "--partition-lines", "2", "--skip-bad-lines"])
    assert skipped.exit_code == 0, skipped.output
    assert [r["id"] for r in records(tmp_path / "out" / "manifest.json")] == ["a", "c"]


def test_the_cli_refuses_a_file_as_the_cluster_output_and_resume_on_a_cluster(scheduler, texts_file, pairs_file,
                                                                                tmp_path):
    result = CliRunner().invoke(app, ["annotate", str(texts_file), str(texts_file), "--scheduler", scheduler])
    assert result.exit_code == 1 and "is a file" in result.output
    result = CliRunner().invoke(app, ["gate", str(pairs_file), str(tmp_path / "out"), "--scheduler", scheduler,
                                      "--resume"])
    assert result.exit_code == 2 and "--scheduler runs without --resume" in result.output


@pytest.mark.parametrize("command,name", [("annotate", "part-00000.jsonl"), ("annotate", "part-00001.spacy"),
                                          ("annotate", "manifest.json"), ("gate", "part-00000.jsonl"),
                                          ("gate", "manifest.json")])
def test_a_cluster_run_never_writes_over_a_file_no_earlier_run_wrote(scheduler, texts_file, pairs_file, tmp_path,
                                                                      command, name):
    """A run wrote over a part-*.jsonl or manifest.json of the user's in its folder; it now refuses in one line
    naming the file, before the cluster is asked for anything. The files an earlier run's manifest lists are its
    own, and a run again into the same folder replaces them."""
    out = tmp_path / "out"
    out.mkdir()
    (out / name).write_text("mine\n")
    args = [command, str(texts_file if command == "annotate" else pairs_file), str(out), "--scheduler", scheduler,
            "--partition-lines", "5"]
    result = CliRunner().invoke(app, args)
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 1 and len(errors) == 1 and str(out / name) in errors[0], result.output
    assert (out / name).read_text() == "mine\n" and [p.name for p in out.iterdir()] == [name]
    (out / name).unlink()
    for _ in range(2):
        assert CliRunner().invoke(app, args).exit_code == 0
    assert len(list(records(out / "manifest.json"))) == 12


def test_gate_on_a_cluster_prints_the_summary_and_gives_the_exit_status_one_process_gives(scheduler, pairs_file,
                                                                                          tmp_path):
    one = CliRunner().invoke(app, ["gate", str(pairs_file), str(tmp_path / "one.jsonl"), "--fail-on", "rewrite"])
    cluster = CliRunner().invoke(app, ["gate", str(pairs_file), str(tmp_path / "out"), "--scheduler", scheduler,
                                       "--partition-lines", "5", "--fail-on", "rewrite"])
    summary = [line for line in one.output.splitlines() if line.startswith(("gated ", "verdicts: ", "changes: "))]
    assert len(summary) == 3 and "verdicts: pass 2, uncheckable 0, rewrite 8, reject 2" in summary
    assert [line for line in cluster.output.splitlines() if line in summary] == summary
    assert one.exit_code == cluster.exit_code == 5 and "12 records in 3 of 3 partitions" in cluster.output


def test_a_stream_of_new_words_keeps_them_up_to_the_budget_then_leaves_the_string_store_as_it_was(tmp_path,
                                                                                                  monkeypatch):
    """``pipe_pairs`` and ``annotate_file`` tokenize each batch before its memory zone while the words kept for good
    stay within ``zones.WARM_LEXEMES`` (a small one here: the mechanism is under test, not the figure): the first
    new words are kept, and once the budget is spent a stream of new words leaves the string store as it was."""
    monkeypatch.setattr(spacy_factwash.zones, "WARM_LEXEMES", 400)
    nlp = spacy_factwash.load()
    gate = nlp.get_pipe("factwash_compare")
    list(gate.pipe_pairs(PAIRS))
    pairs = [(f"Zorblax{i} said the qwimble{i} rose 3%.", f"The qwimble{i} rose 3%.") for i in range(600)]
    reports = list(gate.pipe_pairs(pairs[:300], batch_size=50))
    assert "qwimble0" in nlp.vocab.strings and "qwimble299" not in nlp.vocab.strings
    before = len(nlp.vocab.strings)
    reports += list(gate.pipe_pairs(pairs[300:], batch_size=50))
    assert len(nlp.vocab.strings) == before
    assert "qwimble307" not in nlp.vocab.strings and "zorblax307" not in nlp.vocab.strings
    assert reports[7].to_dict() == spacy_factwash.inspect(*pairs[7]).to_dict()
    assert reports[307].to_dict() == spacy_factwash.inspect(*pairs[307]).to_dict()
    assert [r.verdict for r in reports[:3]] == [r.verdict for r in reports[300:303]] == ["rewrite"] * 3
    texts = [f"Reportedly, the frombit{i} might fail." for i in range(300)]
    annotated = [record for _, record in annotate_records(nlp, [InputLine(n, t) for n, t in enumerate(texts, 1)],
                                                          batch_size=50)]
    assert len(nlp.vocab.strings) == before and "frombit0" not in nlp.vocab.strings
    lines = tmp_path / "in.txt"
    lines.write_text("\n".join(texts) + "\n")
    annotate_file(lines, tmp_path / "out.jsonl", max_length=10_000, batch_size=50)
    assert list(read_jsonl(tmp_path / "out.jsonl")) == annotated and [len(r["cues"]) for r in annotated] == [2] * 300


def test_a_stream_on_the_cluster_keeps_order_and_stops_with_one_line_when_a_batch_keeps_failing(scheduler):
    from spacy_factwash.run.dask import ScaleError
    from spacy_factwash.run.dask.stream import annotate_stream

    lines = [InputLine(n, text) for n, text in enumerate(TEXTS, start=1)]
    streamed = list(annotate_stream(spacy_factwash.load, lines, batch_size=3, n_workers=2, scheduler=scheduler))
    assert streamed == [(line, encoded(record)) for line, record in annotate_records(spacy_factwash.load(), lines)]
    marked = lines + [InputLine(13, MARK)]
    with pytest.raises(ScaleError, match="failed on a Dask worker 3 times, so the run stopped: RuntimeError: the test"):
        list(annotate_stream(failing_build, marked, batch_size=3, n_workers=2, scheduler=scheduler))


@given(st.lists(st.text(alphabet="abc .", min_size=1, max_size=12), min_size=1, max_size=5),
       st.integers(min_value=1, max_value=300))
@properties(40)
def test_the_memory_benchmark_stream_has_distinct_pairs_each_with_words_of_its_own(sentences, total):
    from factwash_dev.bench.scale import distinct_pairs

    pairs = list(distinct_pairs(sentences, total))
    assert len(pairs) == total and len(set(pairs)) == total
    codes = [source.split(":")[0] for source, _ in pairs]
    assert len(set(codes)) == total and all(memory.startswith(code + ":") for code, (_, memory) in zip(codes, pairs))


# -- annotate --n-process 2 against one process: the workers parse the lines and encode the records --------------

MAX_LENGTH = 40  # the longest text both runs take: a longer one is a bad line
LINE_KINDS = [b'{"text": "It may rain.", "id": 7}', b'{"text": ""}', b'{"text": "   "}', b"",
              '{"text": "ÉTUDE : ils auraient menti.", "id": "é"}'.encode("utf8"), b'{"text": "a\\ud800b"}',
              b'{"text": "ok", "meta": {"\\udc00": 1}}', json.dumps({"text": "x" * (MAX_LENGTH + 1)}).encode(),
              b"{not json", b"[1, 2]", b'{"id": 3}', b'{"text": 5}', b'{"text": NaN}', b"\xff\xfeoops", b"  \t",
              b'\xef\xbb\xbf{"text": "a mark"}', b'{"text": "Smith et al. reported it."}\r', b'"text"']
LINES = st.lists(st.sampled_from(LINE_KINDS) | st.builds(lambda text: json.dumps({"text": text}).encode(),
                                                         st.text(max_size=MAX_LENGTH)), min_size=1, max_size=30)


def _written(results, path, skip_bad_lines):
    """What ``write_annotations`` writes of ``results`` (the text of the file) and its summary."""
    out = []
    summary = write_annotations(out.append, results, path, skip_bad_lines)
    return "".join(out), summary


@pytest.fixture(scope="module")
def annotating():
    """The pipeline of ``annotate --max-length MAX_LENGTH`` and the way a run's workers build it."""
    build = DefaultPipeline(MAX_LENGTH)
    return build, build()


@given(LINES, st.booleans(), st.integers(min_value=1, max_value=4))
@properties(30)
def test_workers_parsing_and_encoding_write_what_one_process_writes(scheduler, annotating, tmp_path_factory, lines,
                                                                     skip_bad_lines, task_lines):
    path = tmp_path_factory.mktemp("lines") / "in.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    build, nlp = annotating
    one = _written(annotate_records(nlp, InputFile(path, MAX_LENGTH), batch_size=2), path, skip_bad_lines)
    with mock.patch.object(stream, "TASK_LINES", task_lines):  # several tasks for a few lines, each of 1 or 2 batches
        two = _written(stream.annotate_stream(build, InputFile(path, MAX_LENGTH), batch_size=2, n_workers=2,
                                              scheduler=scheduler), path, skip_bad_lines)
    assert two == one


@pytest.mark.parametrize("skip", [[], ["--skip-bad-lines"]])
@pytest.mark.parametrize("suffix", [".jsonl", ".txt"])
def test_annotate_on_two_processes_writes_the_file_and_message_one_process_writes(tmp_path, suffix, skip):
    path = tmp_path / f"in{suffix}"
    path.write_bytes(b"\n".join(LINE_KINDS * 3) + b"\n\n")
    done = {}
    for n in ("1", "2"):
        result = CliRunner().invoke(app, ["annotate", str(path), str(tmp_path / f"{n}.jsonl"), "--n-process", n,
                                          "--max-length", str(MAX_LENGTH), "--batch-size", "4", *skip])
        done[n] = result.exit_code, result.output.replace(f"{n}.jsonl", "OUT"), (tmp_path / f"{n}.jsonl").read_bytes()
    assert done["2"] == done["1"]
    assert done["1"][0] == (0 if skip else 1) and done["1"][2].startswith(b'{"line": 1,')
    assert ('"id": "é"'.encode() in done["1"][2]) == (suffix == ".jsonl" and bool(skip))  # characters, not escapes
