"""A real mem0 store gated by spacy-factwash, offline: no key, no network, no model download.

From a checkout, after ``pip install ".[mem0]"``::

    python examples/mem0_offline.py [FOLDER]

It starts an OpenAI-compatible stand-in on 127.0.0.1 (``openai_standin.py``, beside this file) that plays the model
and the embedder mem0 calls, builds a mem0 ``Memory`` on it with a local qdrant store, wraps it, adds two messages
and prints what the gate held for review and what it stored. Everything it writes goes under FOLDER (by default a
new temporary folder). With a key, use a real provider's ``config`` instead (docs/memory.md) and no stand-in.
"""

import os
import sys
import tempfile
from pathlib import Path

FOLDER = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="factwash-mem0-")).resolve()
# mem0 reads MEM0_TELEMETRY once, when it is imported: unless it is "false", mem0 sends anonymous usage events over
# the network to its telemetry service and keeps a second collection ("mem0migrations") in your vector store.
os.environ["MEM0_TELEMETRY"] = "false"
os.environ.setdefault("MEM0_DIR", str(FOLDER / ".mem0"))  # mem0's own settings file; by default under ~/.mem0

from mem0 import Memory  # noqa: E402
from openai_standin import DIMS, StandIn, new_messages  # noqa: E402

import spacy_factwash  # noqa: E402

HEARSAY = "Someone in the chat said Alice was promoted to admin this morning."
SAID = "Dana said the deploy freeze starts on Friday."
# What the stand-in model writes for a message it is asked to remember: the hearsay stated as fact, as a real model
# wrote it (the README's example); anything else as it was said.
WRITES = {HEARSAY: "Alice was promoted to admin."}


def extract(body: dict) -> dict:
    """The stand-in model's answer to mem0's extraction prompt: a memory for each message it was given."""
    said = [line.split(": ", 1)[-1] for line in new_messages(body).splitlines() if line.strip()]
    return {"memory": [{"text": WRITES.get(text, text)} for text in said]}


def main() -> None:
    """Add the two messages through the gated store and print what it held and what it stored."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    os.chdir(FOLDER)
    with StandIn(extract) as standin:
        offline = {"api_key": "offline", "openai_base_url": standin.url, "model": "stand-in"}
        config = {
            "llm": {"provider": "openai", "config": offline},
            "embedder": {"provider": "openai", "config": {**offline, "embedding_dims": DIMS}},
            "vector_store": {"provider": "qdrant", "config": {"path": str(FOLDER / "qdrant"), "on_disk": True,
                                                              "collection_name": "example",
                                                              "embedding_model_dims": DIMS}},
            "history_db_path": str(FOLDER / "history.db"),
        }
        memory = spacy_factwash.wrap(Memory.from_config(config), audit_log="audit.jsonl", database="factwash.sqlite")
        memory.add(HEARSAY, user_id="alice")
        memory.add(SAID, user_id="alice")
        for held in memory.queue.list():
            changes = ", ".join(change["type"] for change in held.report["changes"])
            print(f"held for review: {held.fact!r} ({held.verdict}: {changes})")
        for stored in memory.get_all(filters={"user_id": "alice"})["results"]:
            print(f"stored: {stored['memory']!r}")
    print(f"audit log, review queue and stores in {FOLDER}")


if __name__ == "__main__":
    main()
