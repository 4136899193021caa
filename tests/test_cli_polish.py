"""The command line's rough edges: --version, gate --fail-on, progress bars with totals, developer commands from
any folder, and the files a package needs (LICENSE, CHANGELOG)."""

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_factwash
from spacy_factwash.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAIRS = {
    "pass": ("Alice was promoted.", "Alice was promoted."),
    "uncheckable": ("Alice was promoted.", "Bob bought a boat."),
    "rewrite": ("Someone said Alice was promoted.", "Alice was promoted."),
    "reject": ("The cluster has 4,500 nodes.", "The cluster has 5,400 nodes."),
}


def pairs_file(tmp_path, *verdicts):
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"id": v, "source": PAIRS[v][0], "memory": PAIRS[v][1]}) + "\n"
                            for v in verdicts), encoding="utf8")
    return path


def test_version_names_the_package_and_lexicon_versions():
    from importlib.metadata import version

    result = subprocess.run([sys.executable, "-m", "spacy_factwash", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith(f"spacy-factwash {version('spacy-factwash')} (lexicon "
                                    f"{spacy_factwash.load_lexicons().version};")
    assert spacy_factwash.__version__ == version("spacy-factwash")


@pytest.mark.parametrize("verdicts,fail_on,status", [
    (("pass", "rewrite", "reject", "uncheckable"), "reject", 5),
    (("pass", "rewrite", "reject", "uncheckable"), "rewrite", 5),
    (("pass", "rewrite", "uncheckable"), "reject", 0),
    (("pass", "rewrite", "uncheckable"), "rewrite", 4),
    (("pass", "uncheckable"), "rewrite", 0),
    (("pass", "uncheckable"), "uncheckable", 3),
    (("pass", "rewrite", "reject"), None, 0),
])
def test_gate_fail_on_exits_with_the_worst_verdict(tmp_path, verdicts, fail_on, status):
    options = ["--fail-on", fail_on] if fail_on else []
    result = CliRunner().invoke(app, ["gate", str(pairs_file(tmp_path, *verdicts)), str(tmp_path / "out.jsonl"),
                                      *options])
    assert result.exit_code == status, result.output
    written = [json.loads(line)["verdict"] for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert written == list(verdicts)  # failing on a verdict still writes every report


def test_gate_fail_on_refuses_an_unknown_verdict(tmp_path):
    result = CliRunner().invoke(app, ["gate", str(pairs_file(tmp_path, "pass")), str(tmp_path / "o.jsonl"),
                                      "--fail-on", "pass"])
    assert result.exit_code == 2 and "Invalid value for '--fail-on'" in result.output


def on_a_terminal(*args, cwd=None):
    """Run the command line with stderr on a pseudo-terminal (where progress bars are drawn); its stderr."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a terminal 120 columns wide
    process = subprocess.Popen([sys.executable, "-m", "spacy_factwash", *map(str, args)], stderr=follower,
                               stdout=subprocess.DEVNULL, cwd=cwd)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=300)
    os.close(leader)
    return process.returncode, b"".join(chunks).decode("utf8", "replace")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["gate", "report", "annotate", "bench"])
def test_long_commands_draw_progress_bars_with_a_total_and_time_left(tmp_path, command):
    pairs = pairs_file(tmp_path, "pass", "rewrite", "reject")
    args = {"gate": [pairs, tmp_path / "out.jsonl"], "report": [pairs, "--html", tmp_path / "r.html"]}
    (tmp_path / "texts.txt").write_text("Alice might come.\n\nBob said so.\n\n\n", encoding="utf8")
    args["annotate"] = [tmp_path / "texts.txt", tmp_path / "out.jsonl"]
    (tmp_path / "stimuli.jsonl").write_text(json.dumps({"stimulus_set": "s", "id": "1", "source": PAIRS["rewrite"][0]})
                                            + "\n", encoding="utf8")
    (tmp_path / "writes.jsonl").write_text("".join(json.dumps({"stimulus_id": "1", "memory": m}) + "\n"
                                                   for m in ("Alice was promoted.",) * 3), encoding="utf8")
    args["bench"] = [tmp_path / "stimuli.jsonl", tmp_path / "writes.jsonl"]
    status, stderr = on_a_terminal(command, *args[command])
    assert status == 0, stderr
    desc = "bench writes" if command == "bench" else command
    assert re.search(rf"{desc}: 100%\|.*\| 3/3 \[\d\d:\d\d<\d\d:\d\d", stderr), stderr


@pytest.mark.slow
def test_a_resumed_gate_counts_only_the_lines_left(tmp_path):
    pairs = pairs_file(tmp_path, "pass", "rewrite", "reject", "pass")
    out = tmp_path / "out.jsonl"
    first = CliRunner().invoke(app, ["gate", str(pairs), str(out)])
    assert first.exit_code == 0, first.output
    out.write_text("".join(out.read_text().splitlines(keepends=True)[:1]))  # a run stopped after one report
    status, stderr = on_a_terminal("gate", pairs, out, "--resume")
    assert status == 0 and re.search(r"gate: 100%\|.*\| 3/3 \[", stderr), stderr
    assert len(out.read_text().splitlines()) == 4


@pytest.mark.parametrize("command,expected", [("gate-sets", "Gate on the pair sets in"),
                                              ("confirm-fixture", "Authority confirmer on")])
def test_developer_commands_work_from_any_folder(tmp_path, monkeypatch, command, expected):
    """Their defaults are the repository's own files, as absolute paths: the folder they run from does not matter."""
    from factwash_dev.cli import app as dev_app

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(dev_app, [command])
    assert result.exit_code == 0 and expected in result.output, result.output
    assert list(tmp_path.iterdir()) == []  # nothing written where it ran


def test_a_missing_input_the_user_names_is_a_usage_error(tmp_path):
    from factwash_dev.cli import app as dev_app

    result = CliRunner().invoke(dev_app, ["gate-sets", "--sets", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "does not exist" in result.output and "Traceback" not in result.output


def test_license_and_changelog_ship_with_the_source():
    license_text = (ROOT / "LICENSE").read_text(encoding="utf8")
    assert license_text.startswith("MIT License") and "CC BY-SA 4.0" in license_text
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf8")
    assert f"## [{spacy_factwash.__version__}] - " in changelog
