"""The command line: annotate streams JSONL and reports bad input by file and line; cues shows a person the cues."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from spacy_factwash.cli import app
from spacy_factwash.lexicon.frozen import load_lexicons

RUNNER = CliRunner()
VERSION = load_lexicons().version


def run(*args):
    return RUNNER.invoke(app, [str(a) for a in args])


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines()]


def test_python_m_lists_the_commands_and_only_the_users():
    result = subprocess.run([sys.executable, "-m", "spacy_factwash", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for command in ["cues", "annotate", "check", "gate", "report", "drift", "bench", "confirm", "freeze-lexicons",
                    "review"]:
        assert command in result.stdout
    assert not {"bench-speed", "evaluate", "mine", "gate-sets"} & set(result.stdout.split())


def test_the_developer_commands_list_themselves():
    from factwash_dev.cli import app as dev_app

    listing = RUNNER.invoke(dev_app, ["--help"]).output
    for command in ["bench-speed", "bench-gate", "evaluate", "mine", "gate-sets", "memory-bench", "parser-measure"]:
        assert command in listing


def test_help_prints_brackets_as_written():
    """Rich markup is off: a help text's [v0, v1, ...] is printed, not eaten as a style tag."""
    shown = " ".join(run("drift", "--help").output.split())
    assert '{"id", "versions": [v0, v1, ...]} a line' in shown


def test_cues_marks_the_text_and_lists_entries_and_sources():
    result = run("cues", "Someone said Alice might not get admin access if the audit fails, as of Monday.")
    assert result.exit_code == 0, result.output
    assert "Someone [said]ATTRIBUTION Alice [might]HEDGE [not]NEGATION" in result.output
    assert "attribution:say" in result.output and "source: 'Someone' (0-7)" in result.output
    assert f"lexicon version {VERSION}" in result.output


def test_cues_json_carries_offsets_and_version():
    result = run("cues", "--json", "Bob never came.")
    data = json.loads(result.output)
    assert data["cues"] == [{"label": "NEGATION", "text": "never", "start_char": 4, "end_char": 9,
                             "entry": "negation:never", "source": None}]
    assert data["lexicon_version"] == VERSION and data["lexicon_digest"] == load_lexicons().digest


def test_cues_on_empty_text_says_so():
    result = run("cues", "   ")
    assert result.exit_code == 0 and "empty text" in result.output


def test_annotate_txt_writes_one_record_per_line_including_empty_ones(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("Alice might come.\n\n   \nBob said no.\n", encoding="utf8")
    result = run("annotate", source, tmp_path / "out.jsonl")
    assert result.exit_code == 0, result.output
    records = read_jsonl(tmp_path / "out.jsonl")
    assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert [r["status"] for r in records] == ["ok", "empty", "empty", "ok"]
    assert records[0]["cues"][0] == {"label": "HEDGE", "text": "might", "start_char": 6, "end_char": 11,
                                     "entry": "hedge:might", "source": None}
    assert records[3]["cues"][0]["source"] == {"text": "Bob", "start_char": 0, "end_char": 3}
    assert "2 empty texts" in result.output


def _jsonl_with_bad_line(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text(
        '{"id": "a", "text": "Alice might come."}\n'
        '{"id": "b", "text": "Bob said no."\n'
        '{"id": "c", "text": 42}\n'
        '["not", "an", "object"]\n'
        '{"id": "d", "text": "Carol never came."}\n',
        encoding="utf8",
    )
    return source


def test_annotate_stops_at_a_malformed_line_naming_it_and_keeps_what_came_before(tmp_path):
    source = _jsonl_with_bad_line(tmp_path)
    result = run("annotate", source, tmp_path / "out.jsonl")
    assert result.exit_code == 1
    assert f"{source}:2: malformed JSON" in result.output and "--skip-bad-lines" in result.output
    assert [r["id"] for r in read_jsonl(tmp_path / "out.jsonl")] == ["a"]


def test_annotate_can_skip_and_count_bad_lines(tmp_path):
    source = _jsonl_with_bad_line(tmp_path)
    result = run("annotate", source, tmp_path / "out.jsonl", "--skip-bad-lines")
    assert result.exit_code == 0, result.output
    assert [r["id"] for r in read_jsonl(tmp_path / "out.jsonl")] == ["a", "d"]
    assert "3 bad lines skipped" in result.output


@pytest.mark.parametrize(
    "content,message",
    [
        (b'{"id": 1, "text": 42}\n', ":1: 'text' is int, not a string"),
        (b'{"id": 1}\n', ":1: no 'text' field"),
        (b'{"text": "ok"}\n\n{"text": "ok"}\n', ":2: blank line"),
        (b'{"text": "ok"}\n{"text": "caf\\ud800"}\n', ":2: 'text' holds a lone surrogate (\\ud800) at character 3"),
        (b'{"text": "caf\xe9"}\n', ":1: not UTF-8"),
    ],
)
def test_annotate_names_each_kind_of_bad_line(tmp_path, content, message):
    source = tmp_path / "in.jsonl"
    source.write_bytes(content)
    result = run("annotate", source, tmp_path / "out.jsonl")
    assert result.exit_code == 1 and message in result.output


def test_annotate_handles_a_one_megabyte_document(tmp_path):
    text = "The assay ran. " * 70_000 + "It might fail."
    assert len(text) > 1_000_000
    source = tmp_path / "big.jsonl"
    source.write_text(json.dumps({"id": "big", "text": text}) + "\n", encoding="utf8")
    result = run("annotate", source, tmp_path / "out.jsonl")
    assert result.exit_code == 0, result.output
    [record] = read_jsonl(tmp_path / "out.jsonl")
    assert [c["text"] for c in record["cues"]] == ["might"]
    assert record["cues"][0]["start_char"] == text.index("might")


def test_annotate_reports_a_text_over_max_length_as_a_bad_line(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("short one\n" + "x" * 60 + "\nshort two\n", encoding="utf8")
    result = run("annotate", source, tmp_path / "out.jsonl", "--skip-bad-lines", "--max-length", 50)
    assert result.exit_code == 0 and [r["line"] for r in read_jsonl(tmp_path / "out.jsonl")] == [1, 3]
    result = run("annotate", source, tmp_path / "out.jsonl", "--max-length", 50)
    assert result.exit_code == 1 and ":2: text of 60 characters exceeds the pipeline's max_length of 50" in result.output


def test_annotate_refuses_a_missing_file(tmp_path):
    result = run("annotate", tmp_path / "nope.txt", tmp_path / "out.jsonl")
    assert result.exit_code == 1 and "nope.txt: no such file" in result.output


def test_annotate_with_two_processes_writes_the_same_records(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("\n".join(["Alice might come.", "Bob said no.", "", "As of May 2020 it held."] * 10) + "\n")
    run("annotate", source, tmp_path / "one.jsonl", "--batch-size", "4")
    result = run("annotate", source, tmp_path / "two.jsonl", "--batch-size", "4", "--n-process", "2")
    assert result.exit_code == 0, result.output
    assert read_jsonl(tmp_path / "one.jsonl") == read_jsonl(tmp_path / "two.jsonl")


def test_freeze_lexicons_reports_a_broken_file(tmp_path):
    import shutil

    from spacy_factwash.lexicon.frozen import packaged_lexicon_dir

    folder = tmp_path / "lex"
    shutil.copytree(packaged_lexicon_dir(), folder)
    with (folder / "hedge.jsonl").open("a") as handle:
        handle.write("{oops\n")
    result = run("freeze-lexicons", folder, "--version", "0.2.0")
    assert result.exit_code == 1 and "hedge.jsonl" in result.output and "invalid JSON" in result.output


@pytest.mark.parametrize(
    "source,memory,code",
    [
        ("Alice leads the team.", "Alice leads the team.", 0),
        ("The meeting is on Monday.", "Bananas are yellow.", 3),
        ("Someone said Alice was promoted.", "Alice was promoted.", 4),
        ("The cluster has 4,500 nodes.", "The cluster has 5,400 nodes.", 5),
    ],
)
def test_check_exit_status_says_the_verdict(source, memory, code):
    result = run("check", "--source", source, "--memory", memory)
    assert result.exit_code == code, result.output
    assert result.output.startswith("verdict: ")


def test_check_reads_files_and_prints_json(tmp_path):
    (tmp_path / "source.txt").write_text("Someone said Alice was promoted.", encoding="utf8")
    (tmp_path / "memory.txt").write_text("Alice was promoted.", encoding="utf8")
    result = run("check", "--source-file", tmp_path / "source.txt", "--memory-file", tmp_path / "memory.txt", "--json")
    assert result.exit_code == 4 and json.loads(result.output)["verdict"] == "rewrite"


def _pairs_file(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(
        '{"id": 1, "source": "Someone said Alice was promoted.", "memory": "Alice was promoted."}\n'
        '{"id": 2, "source": "Alice leads the team."\n'
        '{"id": 3, "source": "Alice leads the team.", "memory": 7}\n'
        '{"id": 4, "source": "The cluster has 4,500 nodes.", "memory": "The cluster has 5,400 nodes."}\n',
        encoding="utf8",
    )
    return path


def test_gate_stops_at_a_malformed_line_and_keeps_earlier_reports(tmp_path):
    result = run("gate", _pairs_file(tmp_path), tmp_path / "out.jsonl")
    assert result.exit_code == 1 and "pairs.jsonl:2: malformed JSON" in result.output
    assert [r["id"] for r in read_jsonl(tmp_path / "out.jsonl")] == [1]


def test_gate_skips_and_counts_bad_lines_and_summarises(tmp_path):
    result = run("gate", _pairs_file(tmp_path), tmp_path / "out.jsonl", "--skip-bad-lines")
    assert result.exit_code == 0, result.output
    records = read_jsonl(tmp_path / "out.jsonl")
    assert [(r["id"], r["verdict"]) for r in records] == [(1, "rewrite"), (4, "reject")]
    assert "2 bad lines skipped" in result.output
    assert "verdicts: pass 0, uncheckable 0, rewrite 1, reject 1" in result.output
    assert "dropped_attribution 1" in result.output and "changed_value 1" in result.output


def test_gate_resume_keeps_the_reports_written_and_gates_only_the_rest(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": i, "source": f"Bob said the build {i} broke.",
                                         "memory": f"The build {i} broke."}) + "\n" for i in range(1, 6)))
    assert run("gate", pairs, tmp_path / "out.jsonl").exit_code == 0
    full = (tmp_path / "out.jsonl").read_text().splitlines()
    stopped = "\n".join(full[:2]) + "\n" + full[2][:40]  # two reports, then a line a kill cut short
    (tmp_path / "out.jsonl").write_text(stopped)
    result = run("gate", pairs, tmp_path / "out.jsonl", "--resume")
    assert result.exit_code == 0, result.output
    assert "gated 3 pairs (0 bad lines skipped; 2 kept from the earlier run)" in result.output
    assert (tmp_path / "out.jsonl").read_text().splitlines() == full
    again = run("gate", pairs, tmp_path / "out.jsonl")  # without --resume the output starts afresh
    assert "gated 5 pairs" in again.output and (tmp_path / "out.jsonl").read_text().splitlines() == full


def test_gate_resume_refuses_a_file_it_did_not_write(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text('{"id": 1, "source": "a b c", "memory": "a b c"}\n')
    (tmp_path / "notes.jsonl").write_text("my own notes\n")
    result = run("gate", pairs, tmp_path / "notes.jsonl", "--resume")
    assert result.exit_code == 1 and "notes.jsonl:1: not a result line" in result.output


def test_gate_names_a_pair_without_a_string_memory(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"id": 3, "source": "Alice leads the team.", "memory": 7}\n', encoding="utf8")
    result = run("gate", path, tmp_path / "out.jsonl")
    assert result.exit_code == 1 and ":1: memory missing or not a string" in result.output


def test_readme_cues_example_is_what_the_command_prints():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf8")
    text = "Someone said Alice might not get admin access if the audit fails, as of Monday."
    shown = readme.split(f'cues "{text}"\n```\n\n```\n', 1)[1].split("```", 1)[0]
    assert run("cues", text).output == shown
