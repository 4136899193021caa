"""What ``annotate`` spends besides annotating: the pipeline it annotates with reads only what annotating uses, and
the process ends as soon as every record is on disk (``io.ending``), its exit status and messages as
before."""

import json
import subprocess
import sys

import pytest

from spacy_factwash.api import load
from spacy_factwash.io.inputs import InputLine
from spacy_factwash.pipes.names import COMPARE
from spacy_factwash.run.annotate import DefaultPipeline
from spacy_factwash.run.docbins import PackedDocBin
from spacy_factwash.run.records import annotate_records

TEXTS = ["Smith et al. reported that the drug may reduce the risk by 20% in 2019.", "", "   ", "It rains.",
         "If it rains, we allegedly won't go.", "ÉTUDE: Les résultats ne sont pas concluants.", "x" * 300,
         "No patient had fever before 3 May.", "\t\n"]


def _annotated(nlp):
    """The records and the DocBin bytes of ``TEXTS`` annotated on ``nlp``."""
    docs = PackedDocBin(store_user_data=True)
    items = [InputLine(number, text, str(number)) for number, text in enumerate(TEXTS, 1)]
    records = [record for _, record in annotate_records(nlp, items, batch_size=4, docbin=docs)]
    return records, docs.to_bytes()


def test_the_annotating_pipeline_never_reads_the_gate_word_lists_and_annotates_as_the_default_pipeline():
    nlp = DefaultPipeline()()
    assert nlp.component_names == load().pipe_names and nlp.disabled == [COMPARE]  # the default one, compare off
    assert _annotated(nlp) == _annotated(load())  # records and DocBin bytes alike
    assert nlp.get_pipe(COMPARE)._sets is None  # its word lists never read


ENDING = """
import atexit, gc, sys
from spacy_factwash.cli import main

class TornDown:
    def __del__(self):
        print("torn down", flush=True)

kept = TornDown()  # a normal interpreter exit tears the module down, and this says so
atexit.register(lambda: print("exit handlers ran", flush=True))
atexit.register(lambda: print("frozen objects:", gc.get_freeze_count(), file=sys.stderr, flush=True))
sys.argv = ["spacy_factwash", "annotate", *sys.argv[1:]]
main()
"""


def _ending(tmp_path, *arguments):
    """Run ``annotate ARGUMENTS`` through ``cli.main`` in a fresh interpreter: the finished process."""
    return subprocess.run([sys.executable, "-c", ENDING, *map(str, arguments)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)


def test_annotate_ends_the_process_once_its_records_are_on_disk_with_its_exit_handlers_run(tmp_path):
    texts = tmp_path / "texts.txt"
    texts.write_text("Allegedly, 3 mg helped.\nIt rains.\n")
    done = _ending(tmp_path, texts, tmp_path / "out.jsonl")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n") == ["exit handlers ran", ""]  # and no teardown
    assert "wrote 2 records" in done.stderr
    # the process is the command's own: what its imports made is frozen out of the collector's full collections
    frozen = int(done.stderr.split("frozen objects:")[1].split()[0])
    assert frozen > 10_000
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(r["line"], r["status"], [c["label"] for c in r["cues"]]) for r in records] == [
        (1, "ok", ["ATTRIBUTION", "HEDGE"]), (2, "ok", [])]


def test_annotate_stopped_at_a_bad_line_ends_with_status_1_its_message_and_the_records_before_it(tmp_path):
    lines = tmp_path / "lines.jsonl"
    lines.write_text(json.dumps({"text": "It may rain."}) + "\n" + "{not json\n" + json.dumps({"text": "x"}) + "\n")
    done = _ending(tmp_path, lines, tmp_path / "out.jsonl")
    assert done.returncode == 1
    assert done.stdout == "exit handlers ran\n"
    assert f"error: {lines}:2:" in done.stderr and "--skip-bad-lines" in done.stderr
    assert [json.loads(line)["line"] for line in (tmp_path / "out.jsonl").read_text().splitlines()] == [1]


def test_a_request_left_by_a_command_run_before_in_process_does_not_end_the_next_one():
    # an annotate run in-process (through the app, as typer's runner runs it) leaves its request behind; the next
    # command line run through the entry point must end as Python ends it (before: os._exit ended this process)
    from spacy_factwash.io.ending import end_at_once, ending_at_once

    end_at_once()
    with pytest.raises(SystemExit) as end:
        ending_at_once(lambda: sys.exit(3))
    assert end.value.code == 3
