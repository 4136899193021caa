"""The mem0 recipe as documented: examples/mem0_offline.py run as a user runs it (a subprocess, no network: every
connection but to 127.0.0.1 refused and reported), its output against docs/memory.md, the wrap line the README and
the docs show, and the real-provider configurations building a real mem0 Memory."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import in_ci

os.environ["MEM0_TELEMETRY"] = "false"  # read by mem0 when it is imported
try:
    import mem0  # noqa: F401
except ImportError:
    if in_ci():
        raise  # the README's test command installs the mem0 extra: missing in CI is a failure
    pytest.skip("mem0 is an optional extra: pip install '.[test,mem0]'", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "mem0_offline.py"
MEMORY_PAGE = ROOT / "docs" / "memory.md"
WRAP = 'memory = spacy_factwash.wrap(Memory.from_config(config), audit_log="audit.jsonl", database="factwash.sqlite")'

# Runs a script as `python SCRIPT ARGS` does (its folder first on the path), with every connection to anything but
# this machine refused and written to stderr, and a non-zero exit when there was one.
OFFLINE = """
import atexit, os, runpy, sys
LOCAL = {"127.0.0.1", "localhost", "::1"}
tried = []
def refuse(event, args):
    if event == "socket.connect" and isinstance(args[1], tuple) and args[1][0] not in LOCAL \\
            or event == "socket.getaddrinfo" and args[0] not in LOCAL | {None}:
        tried.append(repr(args[1] if event == "socket.connect" else args[0]))
        raise ConnectionRefusedError("offline: " + tried[-1])
def report():
    if tried:
        sys.stderr.write("network tried: " + ", ".join(tried) + "\\n")
        sys.stderr.flush()
        os._exit(3)
sys.addaudithook(refuse)
atexit.register(report)
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def marked_block(text: str, name: str) -> str:
    """The fenced block between a page's ``factwash:NAME`` markers."""
    inside = text.split(f"<!-- factwash:{name}:start -->\n", 1)[1].split(f"<!-- factwash:{name}:end -->", 1)[0]
    return inside.split("\n", 1)[1].rsplit("```", 1)[0]


@pytest.mark.slow
def test_the_mem0_example_runs_offline_and_prints_what_the_docs_show(tmp_path):
    env = {name: value for name, value in os.environ.items()
           if name not in {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MEM0_TELEMETRY", "MEM0_DIR"}}
    folder = tmp_path / "run"
    result = subprocess.run([sys.executable, "-c", OFFLINE, str(EXAMPLE), str(folder)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    printed = result.stdout.splitlines()
    assert printed[:2] == [
        "held for review: 'Alice was promoted to admin.' (rewrite: dropped_attribution, dropped_temporal_scope)",
        "stored: 'Dana said the deploy freeze starts on Friday.'"]
    assert printed[2:] == [f"audit log, review queue and stores in {folder}"]
    assert "\n".join(printed[:2]) + "\n" == marked_block(MEMORY_PAGE.read_text(encoding="utf8"), "mem0-example")
    assert {path.name for path in (folder / "qdrant" / "collection").iterdir()} == {"example"}  # no telemetry store
    assert (folder / "audit.jsonl").is_file() and (folder / "factwash.sqlite").is_file()
    assert list(tmp_path.iterdir()) == [folder]  # nothing written outside its folder


def test_the_example_the_readme_and_the_docs_wrap_the_store_with_the_same_line():
    for path in (EXAMPLE, ROOT / "README.md", MEMORY_PAGE):
        assert WRAP in path.read_text(encoding="utf8"), path
    assert "python examples/mem0_offline.py" in MEMORY_PAGE.read_text(encoding="utf8")
    assert 'os.environ["MEM0_TELEMETRY"] = "false"' in EXAMPLE.read_text(encoding="utf8")


@pytest.mark.parametrize("name", ["openai_config", "anthropic_config"])
def test_the_documented_provider_configurations_build_a_real_mem0_memory(name, tmp_path, monkeypatch):
    """Each is a configuration the installed mem0 accepts and builds (its clients made, nothing sent: no key is
    checked before the first call), with the vectors and the history kept under ``tmp_path``."""
    from mem0 import Memory
    from mem0_local import offline

    namespace = {}
    exec(marked_block(MEMORY_PAGE.read_text(encoding="utf8"), "mem0-providers"), namespace)
    assert namespace["config"] in (namespace["openai_config"], namespace["anthropic_config"])
    monkeypatch.setenv("OPENAI_API_KEY", "unused")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "unused")
    offline()
    config = dict(namespace[name], history_db_path=str(tmp_path / "history.db"),
                  vector_store={"provider": "qdrant", "config": {"path": str(tmp_path / "qdrant"),
                                                                 "embedding_model_dims": 1536}})
    memory = Memory.from_config(config)
    assert memory.config.llm.provider == namespace[name]["llm"]["provider"]
    assert memory.config.embedder.provider == "openai"
    assert type(memory.llm).__module__ == f"mem0.llms.{namespace[name]['llm']['provider']}"
