"""The edges a user hits first (issue 24, point 6): cues from a file or standard input, readable drift reports and
claims, one max_length rule, stated in the docs."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from typer.testing import CliRunner

import spacy_factwash
from spacy_factwash.api import DEFAULT_MAX_LENGTH, pipeline_on
from spacy_factwash.cli import app

ROOT = Path(__file__).resolve().parent.parent
MEGABYTE = "Alice might come. " * 58_255  # 1,048,590 characters: above spaCy's 1,000,000, too long for argv


def run(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def test_cues_reads_a_one_megabyte_text_from_a_file_or_standard_input(tmp_path):
    """cues took its text only as an argument: a 1 MB text met the argument-length limit, and `cues -` annotated the
    literal "-"."""
    (tmp_path / "text.txt").write_text(MEGABYTE, encoding="utf8")
    from_file = run("cues", "--file", tmp_path / "text.txt", "--json")
    from_stdin = run("cues", "-", "--json", input=MEGABYTE)
    assert from_file.exit_code == from_stdin.exit_code == 0
    assert len(json.loads(from_file.stdout)["cues"]) == len(json.loads(from_stdin.stdout)["cues"]) == 58_255
    marked = run("cues", "-", input="Someone said Alice might come.\n")
    assert marked.exit_code == 0 and marked.output.startswith("Someone [said]ATTRIBUTION Alice [might]HEDGE come.")
    both = run("cues", "Alice might come.", "--file", tmp_path / "text.txt")
    assert both.exit_code == 2 and "give TEXT, - (standard input) or --file PATH (exactly one)" in both.output
    not_utf8 = run("cues", "-", input=b"caf\xe9\n")
    assert not_utf8.exit_code == 1 and "standard input:1: not UTF-8" in not_utf8.output


def test_a_drift_report_prints_a_few_lines_not_a_page_of_dataclasses():
    report = spacy_factwash.drift(["Someone said Alice might come on Monday.", "Alice might come on Monday.",
                                   "Alice comes on Monday."])
    assert str(report).splitlines() == [
        "drift over 2 hop(s): end to end rewrite",
        "  hop 1 (v0 -> v1): rewrite (dropped_attribution)",
        "  hop 2 (v1 -> v2): rewrite (strengthened_certainty)",
        f"  lost at hop 1: dropped_attribution: {report.losses[0].message}",
        f"  lost at hop 2: strengthened_certainty: {report.losses[1].message}",
    ]
    assert "Report(" in repr(report)  # the dataclass repr is still there for debugging


def test_a_docs_claims_print_one_line_per_claim():
    nlp = spacy_factwash.default_pipeline()
    doc = nlp("Someone said Alice was promoted if it rains. Bob left.")
    shown = str(nlp.get_pipe("factwash_compare").claims(doc))
    assert shown.splitlines() == [
        "3 claim(s)",
        "  claim 0 [0:31] 'Someone said Alice was promoted'  qualified by ATTRIBUTION 'said', CONDITIONAL 'if'  "
        "if condition 1",
        "  condition 1 [32:44] 'if it rains.'",
        "  claim 2 [45:54] 'Bob left.'",
    ]


def test_max_length_is_the_pipelines_own_and_every_pipeline_the_package_builds_has_one_limit():
    """The rule: a pipeline you build keeps the max_length you give it (spaCy's 1,000,000 by default: the components
    never change it, since a parser in the same pipeline needs that guard); every pipeline the package builds
    (load, inspect/check, the command line, Dask workers) takes DEFAULT_MAX_LENGTH; every entry point refuses a
    longer text with E031 (tests/test_one_line.py). docs/pipeline.md states it."""
    from spacy_factwash.lexicon.frozen import packaged_lexicon_dir
    from spacy_factwash.run.dask.corpus import default_build

    own = spacy.blank("en")
    own.add_pipe("factwash_cues")
    built = [spacy_factwash.load(), spacy_factwash.default_pipeline(), pipeline_on(str(packaged_lexicon_dir())),
             default_build()]
    assert own.max_length == 1_000_000 and {nlp.max_length for nlp in built} == {DEFAULT_MAX_LENGTH}
    stated = (ROOT / "docs" / "pipeline.md").read_text(encoding="utf8")
    assert f"`max_length` of {DEFAULT_MAX_LENGTH:,} characters" in stated and "1,000,000" in stated


@pytest.mark.slow
def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path):
    """`cues ... | head` ended in "error: [Errno 32] Broken pipe" (exit 1); it now stops as a pipeline expects."""
    (tmp_path / "text.txt").write_text(MEGABYTE, encoding="utf8")
    child = subprocess.Popen([sys.executable, "-m", "spacy_factwash", "cues", "--file", str(tmp_path / "text.txt")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.read(10) == b"Alice [mig"
    child.stdout.close()
    _, stderr = child.communicate(timeout=300)
    assert child.returncode == 141 and stderr == b""
