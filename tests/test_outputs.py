"""Safe outputs: no command overwrites its input, removes what it did not create, or leaves a half-written file."""

import json
import os
import stat
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from spacy_factwash.cli import app
from spacy_factwash.io.outputs import OutputError, atomic_output

RUNNER = CliRunner()
PAIRS = [{"id": i, "source": f"Bob said build {i} broke on Monday.", "memory": f"Build {i} broke."} for i in range(1, 4)]


def run(*args):
    return RUNNER.invoke(app, [str(a) for a in args])


def write_lines(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    return path


def inputs(tmp_path):
    """One input file per command that writes a file, and the arguments that write OUTPUT from it."""
    pairs = write_lines(tmp_path / "pairs.jsonl", PAIRS)
    texts = write_lines(tmp_path / "texts.jsonl", [{"id": 1, "text": "Alice might come."}])
    chains = write_lines(tmp_path / "chains.jsonl", [{"id": "c", "versions": ["Alice might come.", "Alice comes."]}])
    items = write_lines(tmp_path / "items.jsonl", [{"id": "A", "text": "Reports go to Bob."},
                                                    {"id": "B", "text": "Reports now go to Carol instead of Bob."}])
    proposals = write_lines(tmp_path / "proposals.jsonl", [{"id": "p", "type": "supersedes", "source_item_id": "B",
                                                            "target_item_id": "A", "confidence": 0.9,
                                                            "quote": "Reports now go to Carol instead of Bob."}])
    return {
        "annotate": (texts, lambda out: ["annotate", texts, out]),
        "gate": (pairs, lambda out: ["gate", pairs, out]),
        "gate --resume": (pairs, lambda out: ["gate", pairs, out, "--resume"]),
        "report --html": (pairs, lambda out: ["report", pairs, "--html", out]),
        "drift": (chains, lambda out: ["drift", chains, "--output", out]),
        "confirm (items)": (items, lambda out: ["confirm", items, proposals, "--output", out]),
        "confirm (proposals)": (proposals, lambda out: ["confirm", items, proposals, "--output", out]),
    }


COMMANDS = ["annotate", "gate", "gate --resume", "report --html", "drift", "confirm (items)", "confirm (proposals)"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("alias", ["same path", "hard link", "symbolic link"])
def test_no_command_writes_over_its_input(tmp_path, command, alias):
    source, args = inputs(tmp_path)[command]
    before = source.read_bytes()
    output = source
    if alias != "same path":
        output = tmp_path / "alias.jsonl"
        (os.link if alias == "hard link" else os.symlink)(source, output)
    result = run(*args(output))
    assert result.exit_code == 1 and "is the input" in result.output and "Traceback" not in result.output
    assert source.read_bytes() == before and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("command", COMMANDS)
def test_an_output_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path, command):
    _, args = inputs(tmp_path)[command]
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # so that a command writing to it would not block
    try:
        result = run(*args(fifo))
    finally:
        os.close(reader)
    assert result.exit_code == 1 and "is a pipe, not a file" in result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    result = run(*args(tmp_path))
    assert result.exit_code == 1 and "is a directory, not a file" in result.output
    result = run(*args(tmp_path / "no" / "such" / "folder.jsonl"))
    assert result.exit_code == 1 and "does not exist" in result.output and "Traceback" not in result.output


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_gate_never_removes_a_device_it_is_given_as_output(tmp_path):
    source, args = inputs(tmp_path)["gate"]
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # /dev/null's numbers
    result = run(*args(device))
    assert result.exit_code == 1 and "is a character device" in result.output
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_a_symbolic_link_is_written_through_and_kept(tmp_path):
    source, args = inputs(tmp_path)["gate"]
    target = tmp_path / "reports.jsonl"
    target.write_text("old\n")
    link = tmp_path / "latest.jsonl"
    link.symlink_to(target)
    assert run(*args(link)).exit_code == 0
    assert link.is_symlink() and len(target.read_text().splitlines()) == 3


@pytest.mark.parametrize("command", ["annotate", "gate", "drift", "confirm (items)"])
def test_a_full_disk_is_a_one_line_error_and_the_old_output_is_unchanged(tmp_path, small_disk, command):
    _, args = inputs(tmp_path)[command]
    output = small_disk.folder / "out.jsonl"
    output.write_text("the old output\n")
    small_disk.fill(room=200)
    if small_disk.kind == "tmpfs":  # the kernel refuses this process's writes: run the command here
        result = run(*args(output))
        code, stderr = result.exit_code, result.output
    else:  # a file-size limit is set in a child
        child = subprocess.run([sys.executable, "-m", "spacy_factwash", *map(str, args(output))], capture_output=True,
                               text=True, preexec_fn=small_disk.preexec, timeout=300)
        code, stderr = child.returncode, child.stderr
    assert code == 1 and "Traceback" not in stderr and any(e in stderr for e in small_disk.errors()), stderr
    assert output.read_text() == "the old output\n"
    assert sorted(p.name for p in small_disk.folder.iterdir()) == sorted(["out.jsonl"] + (
        ["filler"] if small_disk.kind == "tmpfs" else []))  # no temporary file left behind


def test_a_failed_block_leaves_the_old_file_and_removes_only_its_own_temporary_file(tmp_path):
    output = tmp_path / "out.txt"
    output.write_text("old")
    neighbour = tmp_path / ".out.txt.mine.partial"
    neighbour.write_text("someone else's")
    with pytest.raises(RuntimeError):
        with atomic_output(output) as out:
            out.write("new, half")
            raise RuntimeError("the run failed")
    assert output.read_text() == "old" and neighbour.read_text() == "someone else's"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.txt.mine.partial", "out.txt"]
    with pytest.raises(OutputError, match="is the input"):
        with atomic_output(output, [output]):
            pass


def test_byte_order_marks_and_trailing_blank_lines_are_read_the_same_by_every_command(tmp_path):
    plain, marked = tmp_path / "plain", tmp_path / "marked"
    plain.mkdir()
    marked.mkdir()
    for folder in (plain, marked):
        inputs(folder)
    for source in marked.iterdir():
        source.write_bytes(b"\xef\xbb\xbf" + source.read_bytes() + b"\n  \n\n")
    outputs = {}
    for folder in (plain, marked):
        for command, (source, args) in inputs_no_rewrite(folder).items():
            out = folder / f"{command.replace(' ', '_')}.out"
            result = run(*args(out))
            assert result.exit_code == 0, (command, result.output)
            outputs.setdefault(command, []).append(out.read_text())
    for command, (plain_out, marked_out) in outputs.items():
        assert plain_out == marked_out, command
    (tmp_path / "source.txt").write_bytes(b"\xef\xbb\xbfSomeone said Alice was promoted.\n\n")
    result = run("check", "--source-file", tmp_path / "source.txt", "--memory", "Alice was promoted.", "--json")
    assert json.loads(result.output)["changes"][0]["source"]["start_char"] == 0  # the mark is not a character


def inputs_no_rewrite(folder):
    """The commands of ``inputs`` over the files already in ``folder`` (without writing them again)."""
    pairs, texts, chains, items, proposals = (folder / f"{n}.jsonl" for n in
                                              ("pairs", "texts", "chains", "items", "proposals"))
    return {
        "annotate": (texts, lambda out: ["annotate", texts, out]),
        "gate": (pairs, lambda out: ["gate", pairs, out]),
        "drift": (chains, lambda out: ["drift", chains, "--output", out]),
        "confirm": (items, lambda out: ["confirm", items, proposals, "--output", out]),
    }


def test_a_lone_surrogate_is_a_bad_line_named_by_number_and_the_rest_of_its_batch_is_gated(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    lines = [json.dumps(p) for p in PAIRS]
    lines[1] = '{"id": 2, "source": "Bob said build 2 broke.", "memory": "Build \\ud800 broke."}'
    pairs.write_text("\n".join(lines) + "\n")
    result = run("gate", pairs, tmp_path / "out.jsonl", "--skip-bad-lines", "--batch-size", "8")
    assert result.exit_code == 0 and "1 bad lines skipped" in result.output
    assert [json.loads(line)["id"] for line in (tmp_path / "out.jsonl").read_text().splitlines()] == [1, 3]
    result = run("gate", pairs, tmp_path / "out.jsonl")
    assert result.exit_code == 1 and "pairs.jsonl:2: 'memory' holds a lone surrogate (\\ud800)" in result.output
    assert [json.loads(line)["id"] for line in (tmp_path / "out.jsonl").read_text().splitlines()] == [1]


def test_lone_surrogates_are_clear_errors_at_every_entry_point(tmp_path):
    import spacy_factwash

    for call in (lambda: spacy_factwash.inspect("Alice \ud800 came.", "Alice came."),
                 lambda: spacy_factwash.drift(["Alice came.", "Alice \udfff came."]),
                 lambda: spacy_factwash.confirm({"type": "supersedes", "quote": "\ud800"}, {"A": "a", "B": "b"})):
        with pytest.raises(ValueError, match="lone surrogate"):
            call()
    assert "lone surrogate" in run("cues", "Alice \ud800 came.").output
    assert run("check", "--source", "Alice \ud800 came.", "--memory", "Alice came.").exit_code == 1
    chains = write_lines(tmp_path / "chains.jsonl", [{"id": 1, "versions": ["Alice came.", "Alice \ud800 came."]}])
    result = run("drift", chains, "--output", tmp_path / "drift.jsonl")
    assert result.exit_code == 1 and "chains.jsonl:1: 'versions'[1] holds a lone surrogate" in result.output


def test_check_takes_text_and_files_by_name_and_never_guesses(tmp_path):
    (tmp_path / "source.txt").write_text("Someone said Alice was promoted.")
    result = run("check", "--source", tmp_path / "source.txt", "--memory", "Alice was promoted.")
    assert result.exit_code == 2 and f"--source-file {tmp_path / 'source.txt'}" in result.output
    result = run("check", "--source-file", tmp_path / "sourse.txt", "--memory", "Alice was promoted.")
    assert result.exit_code == 1 and "sourse.txt: no such file (--source-file)" in result.output
    result = run("check", "--source", "a b", "--source-file", tmp_path / "source.txt", "--memory", "a b")
    assert result.exit_code == 2 and "exactly one" in result.output
    result = run("check", "--source-file", tmp_path / "source.txt", "--memory", "Alice was promoted.")
    assert result.exit_code == 4


def test_resume_refuses_an_output_written_for_other_input_and_leaves_it_alone(tmp_path):
    pairs = write_lines(tmp_path / "pairs.jsonl", PAIRS)
    assert run("gate", pairs, tmp_path / "out.jsonl").exit_code == 0
    written = (tmp_path / "out.jsonl").read_bytes()
    write_lines(pairs, [PAIRS[0], {**PAIRS[1], "memory": "Build 2 broke, Bob said."}, PAIRS[2]])
    result = run("gate", pairs, tmp_path / "out.jsonl", "--resume")
    assert result.exit_code == 1 and "its report for line 2 was written for another line" in result.output
    write_lines(pairs, PAIRS[:2])
    result = run("gate", pairs, tmp_path / "out.jsonl", "--resume")
    assert result.exit_code == 1 and "reports for line(s) [3]" in result.output
    assert (tmp_path / "out.jsonl").read_bytes() == written


def test_resume_never_cuts_the_last_line_of_a_file_gate_did_not_write(tmp_path):
    pairs = write_lines(tmp_path / "pairs.jsonl", PAIRS)
    notes = tmp_path / "notes.txt"
    notes.write_text("my only line, with no newline")
    result = run("gate", pairs, notes, "--resume")
    assert result.exit_code == 1 and "not a result line" in result.output
    assert notes.read_text() == "my only line, with no newline"
