"""The audit log of the write path: what was decided, then what happened, one JSON line each.

A gated write leaves two records with the same ``decision`` id: a
``decision`` record written *before* anything is stored (the fact, its
verdict and report, the policy's action, its provenance, and what is needed
to settle it later), and an ``outcome`` record written *after* (``stored``
with mem0's memory ids, ``already_stored``, ``held`` with the review-queue
id, ``fixed``, ``dropped``, ``deleted``, or ``failed`` with the error, which
is also raised to the caller). So the log never says a fact was stored that
the store does not hold: a decision without an outcome is a write that was
interrupted, and ``GatedMemory.recover`` settles it from the store.

Each record is one ``write`` on a descriptor opened for appending, under an
exclusive ``flock`` (so threads and processes sharing the file never
interleave), and forced to disk before ``write`` returns. A record that
cannot be written whole (a full disk) is cut back off the file and the error
raised; a line a kill left without its newline is fenced off by the next
record and skipped by readers. The log's path is checked when the log is
made (so a wrapper with a log it cannot write is refused when it is built):
its folder must exist, and the file, if there is one, must be a regular,
writable file.
"""

import fcntl
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, Union

from ..io.outputs import OutputError, check_output
from ..io.strict_json import loads


class AuditLog:
    """An append-only JSONL file shared by threads and processes; its path is checked when it is made (an
    ``OutputError`` naming it when it cannot be appended to), not at the first write."""

    def __init__(self, path: Union[str, Path]) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"the audit log must be a path, got {type(path).__name__}")
        self.path = Path(path)
        try:
            check_output(self.path)
        except OutputError as err:
            raise OutputError(f"audit log {err.message}") from None
        self._lock = threading.Lock()

    def write(self, record: Dict[str, Any]) -> None:
        """Append one record and force it to disk; raises ``OSError`` (with nothing half-written left) when it
        cannot."""
        data = (json.dumps({"time": time.time(), **record}, ensure_ascii=True, default=str) + "\n").encode("ascii")
        with self._lock:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    data = b"\n" + data  # fence off a line a kill cut short
                try:
                    written = 0
                    while written < len(data):
                        written += os.write(fd, data[written:])
                    os.fsync(fd)
                except OSError:
                    try:
                        os.ftruncate(fd, size)
                    except OSError:
                        pass
                    raise
            finally:
                os.close(fd)

    def records(self) -> Iterator[Dict[str, Any]]:
        """Every complete record in the file, in order (lines cut short are passed over)."""
        if not self.path.exists():
            return
        with self.path.open("rb") as handle:
            for raw in handle:
                if not raw.endswith(b"\n") or not raw.strip():
                    continue
                try:
                    record = loads(raw.decode("utf8"))
                except ValueError:  # not UTF-8, not JSON, NaN, nested too deep: not a record this log wrote
                    continue
                if isinstance(record, dict):
                    yield record


def unsettled(records: Iterator[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """The decision records that have no outcome record yet, by decision id, in the order they were made."""
    pending: Dict[str, Dict[str, Any]] = {}
    for record in records:
        if record.get("event") == "decision":
            pending[record["decision"]] = record
        elif record.get("event") == "outcome":
            pending.pop(record.get("decision"), None)
    return pending
