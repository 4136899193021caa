"""Write facts through one wrapped mem0 store, for the fault tests (in a forked child process, or in the test's).

Write n adds the message ``message(n)``; the stand-in model extracts ``fact(n)`` from it, which the gate passes
(n = 1, 4, 7, ...), holds (n = 2, 5, ...) or rejects (n = 3, 6, ...). ``run`` appends ``{"attempt": n}`` to
its record file before each write starts and ``{"n": n, "result": "ok" | "error: ..."}`` when it ends.
"""

import json
import resource
import signal
from pathlib import Path
from typing import Optional

from mem0_local import offline


def message(n: int) -> str:
    return f"Bob said build {n} broke on Monday."


def fact(n: int) -> str:
    """The fact extracted from write n: kept whole (pass), stripped of source and time (rewrite), or negated."""
    return [f"Bob said build {n} broke on Monday.", f"Build {n} broke.",
            f"Bob said build {n} did not break on Monday."][(n - 1) % 3]


def extract(body: dict) -> dict:
    """The stand-in model's extraction reply: the fact of the write the request is for."""
    from openai_standin import new_messages

    said = new_messages(body)
    return {"memory": [{"text": fact(int(said.split("build ")[1].split(" ")[0]))}]} if "build " in said else {
        "memory": []}


def write(wrapped, n: int) -> str:
    """One write; "ok" or the error it raised."""
    try:
        wrapped.add(message(n), user_id="u")
        return "ok"
    except Exception as err:
        return f"error: {type(err).__name__}: {err}"


def run(config: Path, audit_log: Path, database: Path, first: int, count: int, record: Path,
        file_size_limit: Optional[int] = None) -> None:
    """Writes ``first`` to ``first + count - 1`` through a store wrapped here (the target of a child process);
    with ``file_size_limit``, no file this process writes may grow past it (a disk that is full)."""
    from mem0 import Memory

    import spacy_factwash

    offline()
    with open(record, "a", encoding="utf8") as out:
        if file_size_limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
        wrapped = spacy_factwash.wrap(Memory.from_config(json.loads(Path(config).read_text())), audit_log=audit_log,
                                      database=database)
        for n in range(first, first + count):
            out.write(json.dumps({"attempt": n}) + "\n")
            out.flush()
            out.write(json.dumps({"n": n, "result": write(wrapped, n)}) + "\n")
            out.flush()
