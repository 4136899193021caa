"""A one-shot check starts fast: value parsing is imported only for a number, and quantulum3 reads its plurals and
its large regexes from what an earlier process kept, with the same readings as quantulum3 built from scratch."""

import ast
import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from spacy_factwash.pipes.gate.values.compiled_patterns import LARGE, compile_kept, program_path
from spacy_factwash.pipes.gate.values.plurals import read_table, table_path
from properties import properties

MODULES = ("quantulum3", "inflect")
READER = """
import dataclasses, json, sys
import spacy_factwash
from spacy_factwash.pipes.gate.values.quantities import quantities
nlp = spacy_factwash.default_pipeline()
for line in sys.stdin:
    request = json.loads(line)
    if "text" in request:
        answer = [dataclasses.asdict(q) for q in quantities(nlp(request["text"])[:])]
    elif "pair" in request:
        answer = spacy_factwash.check(*request["pair"])
    elif "plurals" in request:
        from quantulum3.load import pluralize
        answer = [pluralize(word, count) for word, count in request["plurals"]]
    else:
        answer = sorted(name for name in %r if name in sys.modules)
    print(json.dumps(answer), flush=True)
""" % (MODULES,)


class Reader:
    """A fresh interpreter that answers requests about values, one JSON line each, with the cache folder ``cache``
    (None: no cache at all)."""

    def __init__(self, cache) -> None:
        env = {key: value for key, value in os.environ.items() if key not in ("FACTWASH_CACHE", "FACTWASH_NO_CACHE")}
        env.update({"FACTWASH_NO_CACHE": "1"} if cache is None else {"FACTWASH_CACHE": str(cache)})
        self.process = subprocess.Popen([sys.executable, "-c", READER], env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def ask(self, **request):
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


@pytest.mark.slow
def test_a_text_without_numbers_is_checked_without_importing_value_parsing(tmp_path):
    reader = Reader(tmp_path)
    try:
        assert reader.ask(pair=["Someone said Alice was promoted.", "Alice was promoted."]) == "rewrite"
        assert reader.ask(modules=True) == []
        assert reader.ask(pair=["The team hired three engineers.", "The team hired four engineers."]) == "reject"
        assert reader.ask(modules=True)[-1] == "quantulum3"  # a number word is read as a value
    finally:
        reader.close()


@pytest.fixture(scope="module")
def kept_cache(tmp_path_factory):
    """The cache folder the readers below record and read."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def readers(kept_cache):
    """quantulum3 as it ships; one process recording the cache; one reading what that one recorded."""
    shipped, recording = Reader(None), Reader(kept_cache)
    recording.ask(text="It weighs 5 kg.")  # the first value makes it build and keep quantulum3's tables
    kept = Reader(kept_cache)
    yield {"shipped": shipped, "recording": recording, "kept": kept}
    for reader in (shipped, recording, kept):
        reader.close()


NUMBERS = st.one_of(st.integers(0, 10**7).map(str), st.integers(0, 10**7).map("{:,}".format),
                    st.floats(0, 10**4, allow_nan=False).map("{:.2f}".format),
                    st.sampled_from(["one", "three", "twelve", "a dozen", "half a million", "1.2 million",
                                     "a quarter"]))
UNITS = st.sampled_from(["", "km", "kilometres", "miles", "feet", "inches", "GB", "megabytes", "MiB", "%", "percent",
                         "percentage points", "dollars", "euros", "USD", "°C", "degrees Fahrenheit", "hours",
                         "minutes", "ms", "mg/mL", "IU/mL", "hectares", "square metres", "km per hour", "kWh",
                         "watts", "litres", "gallons", "pounds", "ounces", "tonnes", "servers", "people"])
BEFORE = st.sampled_from(["", "about ", "at least ", "up to ", "roughly ", "$", "€", "minus ", "between ", "from "])
VALUE = st.tuples(BEFORE, NUMBERS, UNITS).map(lambda parts: f"{parts[0]}{parts[1]} {parts[2]}".strip())
JOIN = st.sampled_from([" and ", " to ", "-", " or ", ", then ", " of ", " per "])
TEXTS = st.lists(st.tuples(VALUE, JOIN), min_size=1, max_size=3).map(
    lambda parts: "The figure was " + "".join(value + join for value, join in parts) + "the rest.")


@pytest.mark.slow
@properties(100)
@given(TEXTS)
def test_values_read_the_same_with_and_without_the_kept_tables(readers, text):
    readings = {name: reader.ask(text=text) for name, reader in readers.items()}
    assert readings["recording"] == readings["shipped"] and readings["kept"] == readings["shipped"], readings


@pytest.mark.slow
def test_only_a_process_without_a_kept_table_imports_inflect_and_the_kept_files_stay_as_they_are(readers,
                                                                                                  kept_cache):
    kept = {path.name: path.stat().st_mtime_ns for path in kept_cache.iterdir()}
    assert sorted(kept)[0].startswith("plurals-quantulum3-") and all(name.endswith(".bin") for name in sorted(kept)[1:])
    assert len(kept) > 1
    for name in ("shipped", "recording", "kept"):  # each reads a value first (whatever else ran in this worker)
        readers[name].ask(text="It weighs 5 kg and costs $3.")
    assert [readers[name].ask(modules=True) for name in ("shipped", "recording", "kept")] == [
        ["inflect", "quantulum3"], ["inflect", "quantulum3"], ["quantulum3"]]
    assert readers["kept"].ask(text="It weighs 5 kg and costs $3.") == readers["shipped"].ask(
        text="It weighs 5 kg and costs $3.")
    assert {path.name: path.stat().st_mtime_ns for path in kept_cache.iterdir()} == kept  # nothing written again


@pytest.mark.slow
def test_every_kept_plural_is_inflects_own(readers, kept_cache):
    recorded = read_table(table_path(kept_cache))
    assert len(recorded) > 500  # every unit name and number word quantulum3 knows
    asked = [[key.split("\t", 1)[1], ast.literal_eval(key.split("\t", 1)[0])] for key in recorded]
    assert readers["shipped"].ask(plurals=asked) == list(recorded.values())  # inflect's answers, in table order
    kept = Reader(kept_cache)  # a process started on the table as it is now: the recording one may have added to it
    try:  # since the module's kept reader started (a swept property meets counts the first texts did not)
        kept.ask(text="It weighs 5 kg.")  # a first value loads quantulum3 the package's way, from the kept table
        assert kept.ask(plurals=asked) == list(recorded.values())
        assert kept.ask(modules=True) == ["quantulum3"]
    finally:
        kept.close()


# -- what is kept ---------------------------------------------------------------------------------------------

def test_a_table_that_cannot_be_read_is_recorded_again(tmp_path):
    path = table_path(tmp_path)
    path.write_text("{not json", encoding="utf8")
    assert read_table(path) == {}
    path.write_text(json.dumps({"None\tmetre": 5}), encoding="utf8")  # not a plural
    assert read_table(path) == {}  # the recording reader above shows an empty table asking inflect


LONG = "(?:" + "|".join(f"unit{i}(?P<g{i}>s)?" for i in range(2000)) + ")"


def test_a_kept_program_gives_the_pattern_re_compiles(tmp_path):
    assert len(LONG) >= LARGE
    fresh = re.compile(LONG, re.IGNORECASE | re.VERBOSE)
    first = compile_kept(tmp_path, LONG, re.IGNORECASE | re.VERBOSE)
    path = program_path(tmp_path, LONG, re.IGNORECASE | re.VERBOSE)
    assert path.exists() and first == fresh  # equal patterns: same text, flags and program
    again = compile_kept(tmp_path, LONG, re.IGNORECASE | re.VERBOSE)
    assert again == fresh and again.groupindex == fresh.groupindex and again.groups == fresh.groups
    assert again.fullmatch("UNIT1999S").group("g1999") == "S"


INVALID_PROGRAM = b'{"flags": 98, "groups": 0, "groupindex": {}, "indexgroup": [null]}\n' + b"\xff" * 64


@pytest.mark.parametrize("damage", [b"", b"{}\n", INVALID_PROGRAM, b"garbage"])
def test_a_damaged_program_is_compiled_again_never_trusted(tmp_path, damage):
    path = program_path(tmp_path, LONG, re.IGNORECASE)
    path.write_bytes(damage)
    assert compile_kept(tmp_path, LONG, re.IGNORECASE) == re.compile(LONG, re.IGNORECASE)
    assert path.read_bytes() != damage  # replaced by the real program


def test_a_folder_that_cannot_be_written_costs_speed_not_the_pattern(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    assert compile_kept(blocked / "cache", LONG) == re.compile(LONG)
