"""Text a user or a model wrote never drives the terminal (issue 25, point 8): control characters are shown as their
escapes in what a person reads, JSON keeps every value exact, and a newline in a fact never forges a row."""

import json
import re

import pytest
from test_outputs import run, write_lines

from spacy_factwash import default_pipeline, inspect
from spacy_factwash.memory.database import Database
from spacy_factwash.memory.queue import ReviewQueue
from spacy_factwash.run.records import cue_dicts

# an OSC title, a screen clear, a bare CR, a newline forging a queue row, an 8-bit CSI, a right-to-left override
EVIL = "ok\x1b]0;pwned\x07\x1b[2J\rforged\n   99  approved   pass         2020  forged row\x9b31m\u202etxt"
# what a terminal acts on instead of showing it
ACTS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def queue_with(tmp_path, text):
    database = tmp_path / "db.sqlite"
    ReviewQueue(Database(database)).hold("d1", "add", "add", text, text, "rewrite", text, None, {}, {}, {})
    return database


def test_review_list_shows_a_fact_with_control_characters_as_one_escaped_row(tmp_path):
    """review list printed held facts raw: a fact could set the terminal's title or add a row of its own."""
    result = run("review", "list", "--database", queue_with(tmp_path, EVIL))
    assert result.exit_code == 0 and not ACTS.search(result.stdout)
    [row] = result.stdout.splitlines()
    assert row.startswith("   1  held") and "\\x1b]0;pwned\\x07\\x1b[2J\\rforged\\n   99  approved" in row
    assert "\\x9b31m\\u202etxt" in row


def test_review_show_prints_json_whose_values_are_exact_and_whose_characters_are_escaped(tmp_path):
    result = run("review", "show", "1", "--database", queue_with(tmp_path, EVIL))
    assert result.exit_code == 0 and not ACTS.search(result.stdout)
    shown = json.loads(result.stdout)
    assert shown["fact"] == shown["source"] == EVIL


@pytest.mark.parametrize("command", ["cues", "cues --json", "check", "check --json", "drift", "error line"])
def test_every_command_printing_user_text_sends_no_control_character(tmp_path, command):
    chains = write_lines(tmp_path / "chains.jsonl", [{"id": EVIL, "versions": ["Alice might come." + EVIL,
                                                                               "Alice comes." + EVIL]}])
    pairs = write_lines(tmp_path / "pairs.jsonl", [{"id": 1, "source": EVIL}])
    args = {"cues": ["cues", "Alice might come." + EVIL], "cues --json": ["cues", "--json", "Reportedly " + EVIL],
            "check": ["check", "--source", "Someone said Alice might come." + EVIL, "--memory", "Alice comes." + EVIL],
            "check --json": ["check", "--json", "--source", "Bob said " + EVIL, "--memory", EVIL],
            "drift": ["drift", chains, "--output", tmp_path / "drift.jsonl"],
            "error line": ["cues", "x", "--lexicon-dir", tmp_path / "no\x1b]0;such\x07folder"]}[command]
    result = run(*args)
    assert "Traceback" not in result.output and not ACTS.search(result.output), result.output
    if command == "check --json":  # the values are exactly the report's
        assert json.loads(result.stdout) == json.loads(json.dumps(inspect("Bob said " + EVIL, EVIL).to_dict()))
    if command == "cues --json":
        doc = default_pipeline()("Reportedly " + EVIL)
        assert json.loads(result.stdout)["cues"] == cue_dicts(doc) and EVIL in doc.text
    if command == "drift":
        assert len(result.stdout.splitlines()) == 1 and result.stdout.startswith("ok\\x1b]0;pwned")
    assert run("gate", pairs, tmp_path / "out.jsonl").exit_code == 1  # a bad line's error names it, escaped


def test_the_terminal_helper_escapes_every_character_a_terminal_acts_on_and_nothing_else():
    from spacy_factwash.cli._util import json_text, shown

    acted_on = [chr(c) for c in [*range(0x20), *range(0x7f, 0xa0), *range(0x202a, 0x202f), *range(0x2066, 0x206a),
                                 0x2028, 0x2029]]
    assert not ACTS.search(shown("".join(acted_on))) and "\n" not in shown("a\nb")
    assert shown("café — naïve «ok» 東京 \u200d") == "café — naïve «ok» 東京 \u200d"
    assert shown("\x1b\n\r\t\u202e") == "\\x1b\\n\\r\\t\\u202e"
    value = {"fact": "".join(acted_on) + "é", "n": 1}
    assert json.loads(json_text(value, indent=1)) == value and not ACTS.search(json_text(value, indent=1))
