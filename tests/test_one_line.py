"""Hostile input ends in one line or a declared bad line, never a traceback (issue 25, point 6): JSON nested 10^6
deep, texts over max_length at every entry point, arguments of the wrong kind to the public functions."""

import json

import pytest
import spacy
from test_outputs import run, write_lines

import spacy_factwash
from spacy_factwash.api import add_factwash

DEEP = "[" * 1_000_000 + "]" * 1_000_000  # Python's json raises RecursionError on it
PAIR = {"id": 1, "source": "Bob said build 1 broke on Monday.", "memory": "Build 1 broke."}


def one_error_line(result):
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 1 and len(errors) == 1 and "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return errors[0]


def deep_line(key):
    return json.dumps({"id": 1, key: "x"})[:-1] + ', "deep": ' + DEEP + "}"


@pytest.mark.parametrize("command", ["gate", "annotate", "report", "confirm", "bench", "drift"])
def test_json_nested_a_million_deep_is_a_bad_line_named_by_every_command(tmp_path, command):
    key = {"gate": "source", "report": "source", "annotate": "text", "confirm": "text", "bench": "source",
           "drift": "versions"}[command]
    path = tmp_path / "in.jsonl"
    path.write_text(deep_line(key) + "\n", encoding="utf8")
    out = tmp_path / "out"
    args = {"gate": ["gate", path, out], "annotate": ["annotate", path, out], "report": ["report", path, "--html", out],
            "confirm": ["confirm", path, path, "--output", out], "bench": ["bench", path, path],
            "drift": ["drift", path, "--output", out]}[command]
    assert "in.jsonl:1: not standard JSON (nested too deeply to read)" in one_error_line(run(*args))
    assert not out.exists() or out.read_text() == ""  # a stream keeps what it wrote before the line: nothing


@pytest.mark.parametrize("command", ["gate", "annotate"])
def test_skip_bad_lines_skips_a_line_nested_too_deeply(tmp_path, command):
    good = PAIR if command == "gate" else {"id": 1, "text": "Alice might come."}
    path = tmp_path / "in.jsonl"
    path.write_text(DEEP + "\n" + json.dumps(good) + "\n", encoding="utf8")
    result = run(command, path, tmp_path / "out.jsonl", "--skip-bad-lines")
    assert result.exit_code == 0 and "1 bad lines skipped" in result.output, result.output
    assert [json.loads(line)["line"] for line in (tmp_path / "out.jsonl").read_text().splitlines()] == [2]


def test_a_text_over_max_length_is_the_packages_one_line_error_at_every_entry_point(tmp_path):
    """spaCy's E088 reached the user as a traceback from check, gate and inspect(); every entry point now refuses
    the text itself (E031, naming the limit), and in a stream it is a bad line."""
    from spacy_factwash.errors import FactwashError

    limit = spacy_factwash.default_pipeline().max_length
    long = "a " * (limit // 2 + 1)
    assert "[E031] inspect: memory of" in str(pytest.raises(FactwashError, spacy_factwash.inspect, "a.", long).value)
    refused = pytest.raises(FactwashError, spacy_factwash.check, long, "a.").value  # it said "inspect:"
    assert str(refused).startswith("[E031] check: source of")
    assert "[E031] version 1 of" in str(pytest.raises(FactwashError, spacy_factwash.drift, ["a.", long]).value)
    own = spacy.blank("en")
    own.add_pipe("sentencizer")
    add_factwash(own)
    with pytest.raises(FactwashError, match=r"\[E031\] inspect: source of 1,000,002 characters exceeds the "
                                            r"pipeline's max_length of 1,000,000"):
        spacy_factwash.inspect("a " * 500_001, "a.", nlp=own)
    assert "[E031] inspect: source of" in one_error_line(run("check", "--source", long, "--memory", "a."))
    assert "[E031]" in one_error_line(run("cues", long))
    pairs = write_lines(tmp_path / "pairs.jsonl", [{"id": 1, "source": long, "memory": "a."}, PAIR])
    line = one_error_line(run("gate", pairs, tmp_path / "out.jsonl"))
    assert f"pairs.jsonl:1: the source of {len(long):,} characters exceeds the pipeline's max_length" in line
    result = run("gate", pairs, tmp_path / "out.jsonl", "--skip-bad-lines")
    assert result.exit_code == 0 and "gated 1 pairs (1 bad lines skipped)" in result.output


CALLS = {  # a call with an argument of the wrong kind -> what its one line names
    "claim_strength(None)": (lambda: spacy_factwash.claim_strength(None), "claim_strength: expected a Doc or a Span"),
    "claim_strength(str)": (lambda: spacy_factwash.claim_strength("Alice might come."), "got str"),
    "certainty_level(int)": (lambda: spacy_factwash.certainty_level(3), "certainty_level: expected a Doc or a Span"),
    "wrap(None)": (lambda: spacy_factwash.wrap(None), "wrap: memory must be a mem0 Memory"),
    "confirm item with no text": (lambda: spacy_factwash.confirm({"type": "supersedes"}, [{"id": "A"}]),
                                  "confirm: item 0: an item needs an id"),
    "confirm items a str": (lambda: spacy_factwash.confirm({"type": "supersedes"}, "A"),
                            "confirm: items must be a mapping id -> text or a list"),
    "load max_length str": (lambda: spacy_factwash.load(max_length="many"), "load: max_length must be a whole number"),
    "load lexicon_dir int": (lambda: spacy_factwash.load(lexicon_dir=5), "load: lexicon_dir must be a folder path"),
    "load lexicon_dir surrogate": (lambda: spacy_factwash.load(lexicon_dir="lexicons\udc80"),
                                   "load: lexicon_dir holds a lone surrogate"),
    "inspect review str": (lambda: spacy_factwash.inspect("Someone said Alice came.", "Alice came.", review="witness"),
                           "inspect: review must be callable"),
    "inspect nlp str": (lambda: spacy_factwash.inspect("a", "b", nlp="x"), "a gate needs a spaCy pipeline, got str"),
    "check source int": (lambda: spacy_factwash.check(5, "b"), "check: source must be a str, got int"),
}


@pytest.mark.parametrize("name", CALLS)
def test_a_public_function_given_the_wrong_kind_of_argument_says_so_in_one_line(name):
    """Each raised an AttributeError, KeyError, UnicodeEncodeError or TypeError from deep inside, naming nothing of
    the call (inspect(nlp="x") already held)."""
    call, said = CALLS[name]
    with pytest.raises((TypeError, ValueError)) as raised:
        call()
    assert said in str(raised.value) and "\n" not in str(raised.value)


def test_a_confirm_items_file_with_an_id_that_is_not_a_string_or_number_is_named(tmp_path):
    items = write_lines(tmp_path / "items.jsonl", [{"id": ["A"], "text": "Reports go to Bob."}])
    proposals = write_lines(tmp_path / "proposals.jsonl", [{"type": "supersedes", "source_item_id": "A"}])
    line = one_error_line(run("confirm", items, proposals, "--output", tmp_path / "out.jsonl"))
    assert "items.jsonl:1: an item needs an id (a string or a whole number) and a string text" in line


def test_a_mem0_configuration_that_is_not_json_is_named(tmp_path):
    from spacy_factwash.memory.database import Database
    from spacy_factwash.memory.queue import ReviewQueue

    ReviewQueue(Database(tmp_path / "db.sqlite")).hold("d1", "add", "add", "s", "f", "rewrite", "r", None, {}, {}, {})
    (tmp_path / "mem0.json").write_text("{not json")
    line = one_error_line(run("review", "approve", "1", "--reviewer", "me", "--database", tmp_path / "db.sqlite",
                              "--mem0-config", tmp_path / "mem0.json", "--audit-log", tmp_path / "audit.jsonl"))
    assert "mem0.json: not a JSON file" in line


@pytest.mark.parametrize("batch_size", [0, -3, 2.5, True, "8"])
def test_a_batch_size_below_one_or_not_whole_is_refused_before_anything_is_read(tmp_path, batch_size):
    """A batch of none ended the stream at once: ``Gate.pipe`` yielded nothing and ``annotate_file`` wrote an empty
    file, every line dropped unread (and on workers it divided by zero). Each runner refuses it in one line, before
    any output is made."""
    from spacy_factwash.errors import BatchSizeError
    from spacy_factwash.pipes.gate.gate import Gate
    from spacy_factwash.run.annotate import annotate_file
    from spacy_factwash.run.dask.corpus import annotate_corpus
    from spacy_factwash.run.gate import gate_file

    lines = write_lines(tmp_path / "in.jsonl", [{"id": 1, "text": "Bob said build 1 broke."}])
    pairs = write_lines(tmp_path / "pairs.jsonl", [PAIR])
    nlp = spacy_factwash.default_pipeline()
    calls = {
        "Gate.pipe": lambda: list(Gate(nlp).pipe([(PAIR["source"], PAIR["memory"])], batch_size=batch_size)),
        "annotate_file": lambda: annotate_file(lines, tmp_path / "out.jsonl", max_length=1000, batch_size=batch_size),
        "gate_file": lambda: gate_file(pairs, tmp_path / "gated.jsonl", nlp, batch_size=batch_size),
        "annotate_corpus": lambda: annotate_corpus([lines], tmp_path / "corpus", batch_size=batch_size),
    }
    for caller, call in calls.items():
        with pytest.raises(BatchSizeError) as refused:
            call()
        assert str(refused.value).startswith(f"[E041] {caller}: batch_size must be a whole number of at least 1")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.jsonl", "pairs.jsonl"]
