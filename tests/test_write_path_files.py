"""The write path's files: an audit log checked when the wrapper is built, the review database in the user's data
folder unless given one and its path said, review ids beyond SQLite's integers (issues 25.5, 25.6, 24.6)."""

import os

import pytest
from conftest import in_ci
from typer.testing import CliRunner

os.environ["MEM0_TELEMETRY"] = "false"  # read by mem0 when it is imported: no telemetry, no second vector store
try:
    import mem0  # noqa: F401
except ImportError:
    if in_ci():
        raise
    pytest.skip("mem0 is an optional extra: pip install '.[test,mem0]'", allow_module_level=True)

from mem0_local import new_memory, offline  # noqa: E402
from openai_stub import Stub  # noqa: E402

import spacy_factwash  # noqa: E402
from spacy_factwash.cli import app  # noqa: E402
from spacy_factwash.errors import FactwashError  # noqa: E402
from spacy_factwash.memory.database import Database  # noqa: E402
from spacy_factwash.memory.queue import ReviewQueue  # noqa: E402

HUGE = "99999999999999999999999"  # beyond SQLite's 64-bit integers


@pytest.fixture
def stub():
    offline()
    with Stub({"memory": [{"text": "Alice was promoted to admin."}]}) as server:
        yield server


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    """A user data folder of the test's own, and a working folder that must stay empty."""
    monkeypatch.delenv("FACTWASH_DATABASE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path / "data" / "spacy-factwash"


@pytest.mark.parametrize("kind", ["missing folder", "a directory", "a device", "read-only"])
def test_an_audit_log_that_cannot_be_written_is_refused_when_the_wrapper_is_built(tmp_path, stub, kind):
    """A bad audit-log path was found only at the first write, inside mem0's extraction, as "LLM extraction
    failed"; now wrap() refuses it in one line naming it, before anything can be written."""
    path = {"missing folder": tmp_path / "no" / "audit.jsonl", "a directory": tmp_path,
            "a device": "/dev/zero", "read-only": tmp_path / "audit.jsonl"}[kind]
    if kind == "read-only":
        path.write_text("")
        path.chmod(0o444)
    memory = new_memory(tmp_path, stub.url, "refused")
    with pytest.raises(FactwashError) as refused:
        spacy_factwash.wrap(memory, audit_log=path, database=tmp_path / "db.sqlite")
    assert str(refused.value).startswith("[E002] audit log ") and str(path) in str(refused.value)
    assert "\n" not in str(refused.value) and stub.chat_requests == []


def test_the_review_database_is_in_the_user_data_folder_unless_given(tmp_path, stub, data_home, monkeypatch):
    """wrap() wrote factwash.sqlite into whatever folder the program ran in; the default is now the user's data
    folder ($XDG_DATA_HOME or ~/.local/share, spacy-factwash/), $FACTWASH_DATABASE overrides it, database= still
    wins, and the review commands read the same default and say which file they read."""
    wrapped = spacy_factwash.wrap(new_memory(tmp_path, stub.url, "default"), audit_log=tmp_path / "a.jsonl")
    assert wrapped.database.path == data_home / "factwash.sqlite" and data_home.joinpath("factwash.sqlite").is_file()
    assert list((tmp_path / "work").iterdir()) == []
    listed = CliRunner().invoke(app, ["review", "list"])
    assert listed.exit_code == 0 and f"0 fact(s) in {data_home / 'factwash.sqlite'}" in listed.output
    given = spacy_factwash.wrap(new_memory(tmp_path, stub.url, "given"), audit_log=tmp_path / "b.jsonl",
                                database=tmp_path / "given.sqlite")
    assert given.database.path == tmp_path / "given.sqlite"
    monkeypatch.setenv("FACTWASH_DATABASE", str(tmp_path / "env.sqlite"))
    missing = CliRunner().invoke(app, ["review", "list"])
    assert missing.exit_code == 1 and f"{tmp_path / 'env.sqlite'}: no such database" in missing.output
    assert "this is the default" in missing.output


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_wrapper_built_directly_keeps_its_database_in_the_user_data_folder_too(tmp_path, stub, data_home,
                                                                                 asynchronous):
    """GatedMemory and AsyncGatedMemory (and the Decisions under them) built without wrap() still wrote
    factwash.sqlite into the working folder: the default lives where the database is opened now, the same as
    wrap()'s."""
    from spacy_factwash.api import default_gate
    from spacy_factwash.memory.mem0 import gated_class

    memory = new_memory(tmp_path, stub.url, f"direct-{asynchronous}", asynchronous=asynchronous)
    wrapped = gated_class(memory)(memory, default_gate(), tmp_path / "audit.jsonl")
    assert type(wrapped).__name__ == ("AsyncGatedMemory" if asynchronous else "GatedMemory")
    assert wrapped.database.path == data_home / "factwash.sqlite" and data_home.joinpath("factwash.sqlite").is_file()
    assert list((tmp_path / "work").iterdir()) == []


def test_the_decisions_built_directly_keep_their_database_in_the_user_data_folder(tmp_path, data_home):
    from spacy_factwash.api import default_gate
    from spacy_factwash.memory.mem0.decisions import Decisions

    decisions = Decisions(default_gate(), tmp_path / "audit.jsonl", {})
    assert decisions.database.path == data_home / "factwash.sqlite"
    assert list((tmp_path / "work").iterdir()) == []


def test_a_review_id_beyond_sqlite_integers_is_no_such_fact(tmp_path):
    database = tmp_path / "db.sqlite"
    ReviewQueue(Database(database)).hold("d1", "add", "add", "Someone said so.", "It is so.", "rewrite", "r", None,
                                         {}, {}, {})
    for args in (["show", HUGE], ["reject", HUGE, "--reviewer", "me"], ["show", "0"]):
        result = CliRunner().invoke(app, ["review", *args, "--database", str(database)])
        errors = [line for line in result.output.splitlines() if line.startswith("error:")]
        assert result.exit_code == 1 and len(errors) == 1 and "no held fact" in errors[0], result.output
    assert ReviewQueue(Database(database)).show(1).state == "held"
