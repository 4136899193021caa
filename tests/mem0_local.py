"""A real mem0 store, fully offline (the OpenAI stub on 127.0.0.1, qdrant on disk, sqlite history), and the
counting the write-path tests share: what the store, the audit log and the review queue each hold."""

import json
import os
import threading
from collections import Counter
from pathlib import Path

os.environ["MEM0_TELEMETRY"] = "false"  # read by mem0 when it is imported: no telemetry, no second vector store

from openai_stub import DIMS  # noqa: E402


def mem0_config(folder: Path, url: str, name: str) -> dict:
    """A mem0 configuration whose LLM and embedder are the stub at ``url`` and whose stores are under ``folder``."""
    return {
        "llm": {"provider": "openai", "config": {"model": "stub", "api_key": "offline", "openai_base_url": url}},
        "embedder": {"provider": "openai", "config": {"model": "stub", "api_key": "offline", "openai_base_url": url,
                                                      "embedding_dims": DIMS}},
        "vector_store": {"provider": "qdrant", "config": {"path": str(folder / name), "collection_name": name,
                                                          "embedding_model_dims": DIMS, "on_disk": True}},
        "history_db_path": str(folder / f"{name}.db"),
    }


def offline() -> None:
    """No telemetry and no model download, in this process."""
    import mem0.memory.main

    from spacy_factwash.memory.mem0.drivers import _no_model_downloads

    mem0.memory.main.MEM0_TELEMETRY = False
    _no_model_downloads()


def new_memory(folder: Path, url: str, name: str, asynchronous: bool = False):
    from mem0 import AsyncMemory, Memory

    offline()
    return (AsyncMemory if asynchronous else Memory).from_config(mem0_config(folder, url, name))


class Serialised:
    """A vector store whose calls run one at a time: qdrant's local mode is not thread-safe (a search racing an
    insert fails inside it), and the thread tests are about the wrapper, not about qdrant."""

    def __init__(self, store) -> None:
        self._store = store
        self._lock = threading.RLock()

    def __getattr__(self, name: str):
        found = getattr(self._store, name)
        if not callable(found):
            return found

        def call(*args, **kwargs):
            with self._lock:
                return found(*args, **kwargs)

        return call


def threadsafe(memory):
    """The Memory with its vector store serialised (``Serialised``)."""
    memory.vector_store = Serialised(memory.vector_store)
    return memory


def audit(path: Path) -> list:
    """The audit log's records (none when nothing could be written to it)."""
    path = Path(path)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def events(path: Path, event: str) -> list:
    return [record for record in audit(path) if record.get("event") == event]


def outcomes(path: Path) -> dict:
    """Decision id -> its outcome record."""
    return {record["decision"]: record for record in events(path, "outcome")}


def tally(attempted, store: dict, audit_path: Path, queue, raised=()) -> Counter:
    """Count every attempted fact as stored, held, dropped or refused, each only when the store, the audit log
    and the review queue agree; anything else is lost. ``store``: memory id -> text, read back from the store;
    ``raised``: the facts whose write raised an error to its caller.

    stored: the store holds the fact, and an outcome "stored" (or "already_stored") names the ids holding it;
    held: a review-queue row holds it, and its decision's outcome says "held" (or "fixed");
    dropped: its decision's outcome says "dropped" and the store does not hold it;
    refused: its write raised to the caller, the store does not hold it, and no outcome says otherwise.
    Also lost: an outcome "stored" whose ids the store does not hold with that text (the log lying).
    """
    decisions = {record["decision"]: record for record in events(audit_path, "decision")}
    settled = outcomes(audit_path)
    held = {row.decision: row for row in queue.list(None)}
    counts = Counter(attempted=len(attempted))
    for fact in attempted:
        mine = [d for d in decisions.values() if d["fact"] == fact]
        results = [settled.get(d["decision"], {}).get("outcome") for d in mine]
        in_store = fact in store.values()
        if in_store and any(settled[d["decision"]].get("outcome") in ("stored", "already_stored")
                            and all(store.get(i) == fact for i in settled[d["decision"]]["memory_ids"])
                            for d in mine if d["decision"] in settled):
            counts["stored"] += 1
        elif not in_store and any(d["decision"] in held and r in ("held", "fixed") for d, r in zip(mine, results)):
            counts["held"] += 1
        elif not in_store and results and all(r == "dropped" for r in results):
            counts["dropped"] += 1
        elif not in_store and fact in raised and all(r in (None, "failed") for r in results):
            counts["refused"] += 1
        else:
            counts["lost"] += 1
    for record in settled.values():  # the log never says stored what the store does not hold
        if record["outcome"] in ("stored", "already_stored"):
            fact = decisions[record["decision"]]["fact"]
            counts["lost"] += sum(store.get(i) != fact for i in record["memory_ids"])
    return counts
