"""Runs that share files: one writer per output, a resume that touches only what gate wrote, cluster runs that keep
a folder's foreign files, read-only outputs refused, no temporary file left by a killed run, strict JSON out, and
every error naming the file that failed (issue 25, point 5)."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from test_outputs import run, write_lines

from spacy_factwash.io.outputs import atomic_output

PAIRS = [{"id": i, "source": f"Bob said build {i} broke on Monday.", "memory": f"Build {i} broke."} for i in range(1, 7)]
# a resumed gate run in a process of its own, that stops after its first report until the file GO exists
HELD_RUN = """
import sys, time
from pathlib import Path
import spacy_factwash
from spacy_factwash.run.gate import gate_file

pairs, output, started, go = map(Path, sys.argv[1:])
def progress(items, total=None, desc=None):
    for number, item in enumerate(items):
        if number == 1:
            started.write_text("written one")
            while not go.exists():
                time.sleep(0.05)
        yield item
summary = gate_file(pairs, output, spacy_factwash.default_pipeline(), resume=True, progress=progress)
print(sum(summary.verdicts.values()))
"""


def one_error_line(result):
    """The command's one line of error (and no traceback)."""
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 1 and len(errors) == 1 and "Traceback" not in result.output, result.output
    return errors[0]


def wait_for(path, seconds=120):
    for _ in range(seconds * 20):
        if path.exists():
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def test_a_second_run_on_an_output_another_run_is_writing_is_refused_and_nothing_is_gated_twice(tmp_path):
    """Two `gate --resume` on one output answered every line twice; the second now refuses at once (it does not
    wait: a script learns the output is busy instead of hanging behind a long run)."""
    pairs, output = write_lines(tmp_path / "pairs.jsonl", PAIRS), tmp_path / "out.jsonl"
    program = tmp_path / "held.py"
    program.write_text(HELD_RUN)
    first = subprocess.Popen([sys.executable, str(program), str(pairs), str(output), str(tmp_path / "started"),
                              str(tmp_path / "go")], stdout=subprocess.PIPE, text=True)
    try:
        wait_for(tmp_path / "started")
        before = output.read_bytes()
        for second in (["gate", pairs, output, "--resume"], ["gate", pairs, output]):
            line = one_error_line(run(*second))
            assert "out.jsonl: another run is writing it now" in line and "nothing was done" in line
            assert output.read_bytes() == before
    finally:
        (tmp_path / "go").write_text("go")
        out, _ = first.communicate(timeout=300)
    assert first.returncode == 0 and out.strip() == "6"
    assert sorted(json.loads(line)["line"] for line in output.read_text().splitlines()) == [1, 2, 3, 4, 5, 6]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["go", "held.py", "out.jsonl", "pairs.jsonl", "started"]
    assert run("gate", pairs, output, "--resume").exit_code == 0  # the lock went with the run


def test_an_output_is_locked_only_while_it_is_written(tmp_path):
    from spacy_factwash.io.outputs import OutputLocked

    output = tmp_path / "out.txt"
    with atomic_output(output) as out:
        out.write("first")
        with pytest.raises(OutputLocked, match="another run is writing it now"):
            with atomic_output(output):
                pass
    with atomic_output(output) as out:
        out.write("second")
    assert output.read_text() == "second" and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("kind", ["blank lines", "records without digests", "annotate output, cut short",
                                  "reports, then a note"])
def test_resume_refuses_a_file_gate_did_not_write_before_touching_it(tmp_path, kind):
    pairs = write_lines(tmp_path / "pairs.jsonl", PAIRS[:2])
    output = tmp_path / "mine.jsonl"
    if kind == "blank lines":
        output.write_text("\n\n\n")
    elif kind == "records without digests":
        output.write_text('{"line": 1, "note": "mine"}\n{"line": 2, "note": "mine too"}\n')
    elif kind == "annotate output, cut short":
        texts = write_lines(tmp_path / "texts.jsonl", [{"text": "Alice might come."}, {"text": "Bob left."}])
        assert run("annotate", texts, output).exit_code == 0
        output.write_text(output.read_text() + '{"line": 3, "id"')
    else:
        assert run("gate", pairs, output).exit_code == 0
        output.write_text(output.read_text() + "my notes on these, no newline")
    before = output.read_bytes()
    line = one_error_line(run("gate", pairs, output, "--resume"))
    assert "mine.jsonl" in line and ("not a result line" in line or "use --resume only on a file gate wrote" in line)
    assert output.read_bytes() == before


def test_a_resume_refused_for_other_input_keeps_the_line_a_kill_cut_short(tmp_path):
    pairs, output = write_lines(tmp_path / "pairs.jsonl", PAIRS[:3]), tmp_path / "out.jsonl"
    assert run("gate", pairs, output).exit_code == 0
    reports = output.read_text().splitlines(keepends=True)
    output.write_text(reports[0] + reports[1] + reports[2][:30])  # killed while writing its third report
    write_lines(pairs, [PAIRS[0], {**PAIRS[1], "memory": "Build 2 broke, Bob said."}, PAIRS[2]])
    before = output.read_bytes()
    line = one_error_line(run("gate", pairs, output, "--resume"))
    assert "its report for line 2 was written for another line" in line
    assert output.read_bytes() == before


@pytest.mark.parametrize("command", ["gate", "gate --resume", "report --html", "annotate", "drift"])
def test_a_read_only_output_is_refused_not_replaced(tmp_path, command):
    pairs = write_lines(tmp_path / "pairs.jsonl", PAIRS[:2])
    texts = write_lines(tmp_path / "texts.jsonl", [{"text": "Alice might come."}])
    chains = write_lines(tmp_path / "chains.jsonl", [{"id": "c", "versions": ["Alice might come.", "Alice comes."]}])
    output = tmp_path / "kept.out"
    output.write_text("keep me\n")
    output.chmod(0o444)
    args = {"gate": ["gate", pairs, output], "gate --resume": ["gate", pairs, output, "--resume"],
            "report --html": ["report", pairs, "--html", output], "annotate": ["annotate", texts, output],
            "drift": ["drift", chains, "--output", output]}[command]
    line = one_error_line(run(*args))
    assert "kept.out: is read-only; nothing was written" in line
    assert output.read_text() == "keep me\n" and sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))\
        == []


@pytest.mark.slow
def test_a_killed_run_leaves_no_temporary_file_that_piles_up(tmp_path):
    """A fresh run killed while writing left its temporary file behind, a new one each time; now a killed run's
    .partial (and .lock) is taken over by the next run on that output, which leaves nothing beside it."""
    pairs = write_lines(tmp_path / "pairs.jsonl", [{**PAIRS[0], "id": i} for i in range(4000)])
    output = tmp_path / "out.jsonl"
    for _ in range(2):
        child = subprocess.Popen([sys.executable, "-m", "spacy_factwash", "gate", str(pairs), str(output)],
                                 stderr=subprocess.DEVNULL)
        partial = tmp_path / ".out.jsonl.partial"
        for _ in range(2400):
            if partial.exists() and partial.stat().st_size > 0:
                break
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert sorted(p.name for p in tmp_path.iterdir()) == [".out.jsonl.lock", ".out.jsonl.partial", "pairs.jsonl"]
    assert run("gate", pairs, output).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "pairs.jsonl"]
    assert len(output.read_text().splitlines()) == 4000


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_an_id_json_has_not_is_a_bad_line_named_and_never_written(tmp_path, value):
    """Python's json reads NaN, Infinity and 1e999 (as inf) and writes NaN and Infinity back: invalid JSON for
    every other reader. Such a line is a bad line now, named by number, in every stream."""
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps(PAIRS[0]) + "\n" + json.dumps(PAIRS[1]).replace('"id": 2', f'"id": {value}') + "\n")
    texts = tmp_path / "texts.jsonl"
    texts.write_text('{"id": 1, "text": "Alice might come."}\n' + f'{{"id": {value}, "text": "Bob left."}}\n')
    for command, source in ((["gate", pairs, tmp_path / "out.jsonl"], "pairs.jsonl"),
                            (["annotate", texts, tmp_path / "out.jsonl"], "texts.jsonl")):
        line = one_error_line(run(*command))
        assert f"{source}:2: not standard JSON" in line
        kept = (tmp_path / "out.jsonl").read_text().splitlines()
        assert [json.loads(record, parse_constant=pytest.fail)["line"] for record in kept] == [1]
    result = run("gate", pairs, tmp_path / "skipped.jsonl", "--skip-bad-lines")
    assert result.exit_code == 0 and "1 bad lines skipped" in result.output


def test_a_full_disk_during_a_resume_names_the_output(tmp_path, small_disk):
    pairs = write_lines(tmp_path / "pairs.jsonl", [{**PAIRS[0], "id": i} for i in range(200)])
    output = small_disk.folder / "out.jsonl"
    output.write_text("")
    small_disk.fill(room=2000)
    args = ["gate", str(pairs), str(output), "--resume"]
    if small_disk.kind == "tmpfs":  # the kernel refuses this process's writes: run the command here
        result = run(*args)
        code, stderr = result.exit_code, result.output
    else:  # a file-size limit is set in a child
        child = subprocess.run([sys.executable, "-m", "spacy_factwash", *args], capture_output=True, text=True,
                               preexec_fn=small_disk.preexec, timeout=300)
        code, stderr = child.returncode, child.stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert code == 1 and "Traceback" not in stderr and len(errors) == 1, stderr
    assert f"{output}:" in errors[0] and "pairs.jsonl" not in errors[0]
    assert any(e in errors[0] for e in small_disk.errors()) and "results written before it are kept" in errors[0]
    small_disk.free()
    assert run(*args).exit_code == 0  # the reports on disk are kept, a line the disk cut short is asked again
    assert sorted(json.loads(line)["line"] for line in output.read_text().splitlines()) == list(range(1, 201))


@pytest.mark.parametrize("kind", ["a directory", "a pipe", "a character device", "missing"])
def test_every_input_that_is_not_a_readable_file_is_named_before_anything_runs(tmp_path, kind):
    """A FIFO given as input blocked `check --source-file` forever; a directory was 'no such file'."""
    path = {"a directory": tmp_path / "folder", "a pipe": tmp_path / "pipe", "a character device": "/dev/zero",
            "missing": tmp_path / "missing.jsonl"}[kind]
    if kind == "a directory":
        path.mkdir()
    if kind == "a pipe":
        os.mkfifo(path)
    said = "no such file" if kind == "missing" else f"is {kind}, not a file"
    for args in (["gate", path, tmp_path / "o.jsonl"], ["annotate", path, tmp_path / "o.jsonl"],
                 ["cues", "--file", path], ["check", "--source-file", path, "--memory", "x"],
                 ["drift", path, "--output", tmp_path / "o.jsonl"], ["bench", path, path],
                 ["confirm", path, path, "--output", tmp_path / "o.jsonl"]):
        line = one_error_line(run(*args))
        assert f"{path}: {said}" in line, (args, line)
    assert not (tmp_path / "o.jsonl").exists()
