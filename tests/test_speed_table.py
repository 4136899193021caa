"""The speed table of docs/speed.md: the page is the committed record rendered, the record is complete and names
the command that reproduces it, and that command runs end to end on a tiny input. Nothing here times anything:
the figures are the record's, measured by `python tools/dev.py bench-table`."""

import copy
import json
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factwash_dev.bench.speed_table import COMMAND, QUICK, RECORD, ROWS, instruction_rows, missing_rows, page_drift, \
    record_problems, render, run_side
from factwash_dev.bench.timing import INSTRUCTION_MEASUREMENTS, instructions, side_by_side_seconds
from factwash_dev.cli import app
from factwash_dev.evaluation.readme import SPEED, extract_table

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "speed.md"


@pytest.fixture(scope="module")
def record() -> dict:
    return json.loads((ROOT / RECORD).read_text(encoding="utf8"))


def test_the_page_is_the_committed_record_rendered(record):
    drift = page_drift(PAGE.read_text(encoding="utf8"), record)
    assert not drift, "docs/speed.md's table differs from training/bench/speed.json rendered " \
                      "(run the command in its caption):\n" + "\n".join(drift)


def test_a_figure_changed_on_the_page_is_caught(record):
    page = PAGE.read_text(encoding="utf8")
    cell = record["rows"][1]["after"]["cell"]
    changed = page.replace(f"| {cell} |", "| 0.01× the floor |", 1)
    assert changed != page
    assert any(line.startswith("-") and "0.01× the floor" in line for line in page_drift(changed, record))


def test_the_committed_record_is_complete_and_names_its_command(record):
    assert record_problems(record) == []
    assert record["command"].startswith(COMMAND + " --before-python ")
    assert f"`{record['command']}`" in extract_table(PAGE.read_text(encoding="utf8"), SPEED)
    assert [entry["key"] for entry in record["rows"]] == [row.key for row in ROWS]


def test_a_record_missing_a_row_a_commit_or_a_run_is_refused(record):
    broken = copy.deepcopy(record)
    broken["sides"]["before"]["commit"] = None
    broken["sides"]["after"]["runs"] = broken["sides"]["after"]["runs"][:-1] or [{"run": 1, "seconds": {}}]
    for run in broken["sides"]["after"]["runs"]:
        run["seconds"].pop("cues/sentences", None)
    broken["command"] = "python somewhere.py"
    problems = record_problems(broken)
    assert "cues: no after figure and no reason" in problems
    assert "the before side names no commit" in problems
    assert any("names no command" in problem for problem in problems)
    assert "the stored rows are not the rows its runs give" in problems
    assert "| floor + `factwash_cues` |" in render(broken) and " | ? | " in render(broken)


@pytest.mark.slow
def test_the_command_runs_end_to_end_on_a_tiny_input(corpora, tmp_path):
    page = tmp_path / "speed.md"
    page.write_text(PAGE.read_text(encoding="utf8"), encoding="utf8")
    out = tmp_path / "speed.json"
    result = CliRunner().invoke(app, ["bench-table", "--before-python", sys.executable, "--repeat", "1",
                                      "--limit", "20", "--pairs", "20", "--no-dask", "--no-instructions", "--out",
                                      str(out), "--doc", str(page)])
    assert result.exit_code == 0, result.output
    measured = json.loads(out.read_text(encoding="utf8"))
    assert missing_rows(measured) == []
    assert [problem for problem in record_problems(measured) if "commit" not in problem] == []
    assert measured["inputs"] == {"sentences": 20, "plain": 20, "digits": 20, "pairs": 20, "lines": 20_000}
    for entry, row in zip(measured["rows"], ROWS):
        for side in ("before", "after"):
            assert (entry[side].get("reason") == QUICK) == row.dask, (row.key, entry[side])
            assert row.dask or entry[side]["value"] > 0
    assert page_drift(page.read_text(encoding="utf8"), measured) == []
    assert render(measured) in page.read_text(encoding="utf8")
    assert measured["command"].endswith("--no-dask --no-instructions") and "--limit 20" in measured["command"]
    assert "Instructions" not in render(measured)
    assert measured["sides"]["before"]["package"] == measured["sides"]["after"]["package"]


def test_instruction_counts_render_as_a_second_table_and_a_record_without_them_is_refused(record):
    counted = copy.deepcopy(record)
    counted["settings"]["instructions"] = True
    for n, side in enumerate(counted["sides"].values()):
        side["instructions"] = {name: 1000 * (index + 1) * (n + 1) for index, name in enumerate(INSTRUCTION_MEASUREMENTS)}
    counted["instruction_rows"] = instruction_rows(counted)
    assert record_problems(counted) == record_problems(record)
    table = render(counted)
    assert "Instructions (valgrind's callgrind" in table and "| floor + `factwash_cues` | " in table.split(
        "Instructions")[1] and "2.00× the floor" in table.split("Instructions")[1]
    del counted["sides"]["after"]["instructions"]
    assert "a side has no instruction counts, though the run counted them" in record_problems(counted)


@pytest.mark.slow
def test_instructions_are_counted_for_the_measured_pass(tmp_path):
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps({"plain": [["Bob said Alice was promoted.", "Alice was promoted."]]}),
                      encoding="utf8")
    counts = instructions(inputs, ["floor/plain"])
    if not counts:
        pytest.skip("valgrind is not installed")
    assert 10 ** 4 < counts["floor/plain"] < 10 ** 7  # two short texts tokenized, not the start of the interpreter


def test_a_missing_interpreter_or_a_page_without_the_table_is_one_line(tmp_path):
    corpus = tmp_path / "abstracts.xml"
    corpus.write_text("<Annotation/>", encoding="utf8")
    page = tmp_path / "speed.md"
    page.write_text("# Speed\n", encoding="utf8")
    base = ["bench-table", "--corpus", str(corpus), "--out", str(tmp_path / "speed.json")]
    result = CliRunner().invoke(app, base + ["--before-python", sys.executable, "--doc", str(page)])
    assert result.exit_code == 1 and "speed-table" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(app, base + ["--before-python", str(tmp_path / "python"), "--doc", str(PAGE)])
    assert result.exit_code == 1 and "no such interpreter" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "speed.json").exists()


def _interpreter(tmp_path, body: str) -> Path:
    """A stand-in for a side's python: a shell script that ignores its arguments and runs ``body``."""
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\n" + body + "\n", encoding="utf8")
    python.chmod(0o755)
    return python


def test_a_side_that_fails_or_hangs_ends_the_run_in_one_line_naming_where_it_was(tmp_path):
    failing = _interpreter(tmp_path, 'echo "timing inspect/plain" >&2; exit 3')
    with pytest.raises(RuntimeError, match="exited with 3: timing inspect/plain"):
        run_side(failing, tmp_path / "inputs.json", tmp_path, timeout=60)
    hanging = _interpreter(tmp_path, 'echo "timing pipe_pairs/2" >&2; sleep 60 & echo $! > worker.pid; wait')
    with pytest.raises(RuntimeError, match="did not finish in 1 s, ended; its last line: timing pipe_pairs/2"):
        run_side(hanging, tmp_path / "inputs.json", tmp_path, timeout=1)
    assert _ends(int((tmp_path / "worker.pid").read_text()), within=10)


def _ends(pid: int, within: float) -> bool:
    """Whether process ``pid`` is gone or a zombie within ``within`` seconds: a killed process is still running
    ('R') for a moment after its signal, and init may reap it between two reads of /proc."""
    deadline = time.monotonic() + within
    while True:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        except FileNotFoundError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)


@pytest.mark.slow
def test_side_by_side_runs_annotate_once_per_share_of_the_lines_and_a_failing_share_is_one_line(tmp_path):
    lines = tmp_path / "lines.jsonl"
    lines.write_text("".join(json.dumps({"text": f"Bob said it may rain on day {i}."}) + "\n" for i in range(5)),
                     encoding="utf8")
    assert side_by_side_seconds(lines, 2, tmp_path) > 0
    written = [(tmp_path / f"share-{share}-out.jsonl").read_text(encoding="utf8").splitlines() for share in (0, 1)]
    assert [len(records) for records in written] == [2, 3]  # every line annotated once, in its own share
    assert all(json.loads(record)["cues"] for records in written for record in records)
    lines.write_text(lines.read_text(encoding="utf8") + "{not json\n", encoding="utf8")
    with pytest.raises(RuntimeError, match=r"annotate of one share exited with 1: .*share-1\.jsonl:3: malformed JSON"):
        side_by_side_seconds(lines, 2, tmp_path)
