"""Metered runs that survive being killed: results appended as they arrive, a re-run skips what is done.

Each result is one JSON line, written and flushed to disk (fsync) before the
next call is made, so a kill loses at most the call in flight. A last line
cut short by a kill is dropped before the first new result is written (the
count is kept in ``torn``), and that item is asked again. Opening a run
file reads and checks all of it and changes nothing: a file that is not a
run file (a line that is not a result, a blank line, a last line that does
not start like a result) is refused untouched, and so is a run file its
caller refuses after reading it (``done``, ``checks``). One process at a
time holds a run file open (``outputs.output_lock``): a second is refused.

Run files are named so their lineage is in the name:
``<operation>__<model>__<param>=<value>,<param>=<value>__seed=<seed>.jsonl``,
for example ``witness-eval__claude-haiku-4-5__per_class=200,prompt=witness-v2__seed=0.jsonl``;
``parse_run_name`` reads one back.
"""

import json
import os
import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, Set, Tuple

from .outputs import OutputError, output_lock
from .strict_json import dumps, loads

SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _part(value: Any) -> str:
    """A name part: letters, digits, dot, hyphen and single underscores kept; anything else one hyphen."""
    return re.sub(r"_{2,}", "_", SAFE.sub("-", str(value))).strip("-_") or "none"


def run_name(operation: str, model: str, params: Dict[str, Any], seed: int) -> str:
    """The file name of a run: operation, model, parameters (sorted) and seed."""
    settings = ",".join(f"{_part(key)}={_part(value)}" for key, value in sorted(params.items())) or "default"
    return f"{_part(operation)}__{_part(model)}__{settings}__seed={int(seed)}.jsonl"


def parse_run_name(name: str) -> Dict[str, Any]:
    """Operation, model, parameters and seed from a run file's name (the inverse of ``run_name``)."""
    stem = Path(name).name
    if not stem.endswith(".jsonl") or stem.count("__") != 3:
        raise ValueError(f"{name}: not a run file name (operation__model__key=value,...__seed=N.jsonl)")
    operation, model, settings, seed = stem[: -len(".jsonl")].split("__")
    params = {}
    if settings != "default":
        for item in settings.split(","):
            key, _, value = item.partition("=")
            params[key] = value
    return {"operation": operation, "model": model, "params": params, "seed": int(seed.split("=", 1)[1])}


class RunFile:
    """An append-only JSONL file of results keyed by ``key``; opening it reads which keys are already done.

    Only the keys are held in memory; iterating reads the records back from
    the file. With ``durable`` (the default) each line is forced to disk
    before ``append`` returns; without it, lines go through the file's buffer
    (a plain, fast output file that a later run can still resume). With
    ``check``, every record must hold that field (``checks`` keeps it by key).
    An existing file is changed only from the first ``append`` on; a missing one is made, empty.
    """

    def __init__(self, path: Path, key: str = "key", durable: bool = True, check: Optional[str] = None) -> None:
        self.path = Path(path)
        self.key = key
        self.durable = durable
        self.check = check
        self.torn = 0
        self.done: Set[Any] = set()
        self.checks: Dict[Any, Any] = {}  # key -> the record's ``check`` field, when one is named
        self._handle = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = ExitStack()
        self._lock.enter_context(output_lock(self.path))
        try:
            for record in self._read(strict=True):  # every line is checked before anything in the file is touched
                self.done.add(record[self.key])
                if check is not None:
                    self.checks[record[self.key]] = record[check]
            self._torn_at = self._torn_line()
            if not self.path.exists():
                self.path.open("x").close()  # a new run file is there from the start, empty
        except BaseException:
            self._lock.close()
            raise
        self.torn = int(self._torn_at is not None)

    def _torn_line(self) -> Optional[int]:
        """Where a last line a kill left without its newline starts (None when there is none); a last line that
        does not start like one of this file's records is not ours to cut, and is an error."""
        if not self.path.exists():
            return None
        with self.path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size == 0:
                return None
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return None
            position = size
            while position > 0:  # walk back to the previous newline, a block at a time
                step = min(65536, position)
                handle.seek(position - step)
                block = handle.read(step)
                cut = block.rfind(b"\n")
                if cut >= 0:
                    position = position - step + cut + 1
                    break
                position -= step
            handle.seek(position)
            torn, start = handle.read(size - position), json.dumps({self.key: 0})[:len(self.key) + 4].encode()
        if not (torn.startswith(start) or start.startswith(torn)):
            raise ValueError(f"{self.path}: its last line is not a result line cut short; "
                             "move the file aside to start the run again")
        return position

    def _read(self, strict: bool = False) -> Iterator[Dict[str, Any]]:
        """The records in the file, one at a time; a last line cut short (no newline) is passed over. With
        ``strict`` (opening the file), a blank line or any other line that is not a record is named by file and
        line; else blank lines are passed over."""
        if not self.path.exists():
            return
        with self.path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.endswith(b"\n") or (not strict and not raw.strip()):
                    continue
                try:
                    record = loads(raw.decode("utf8"))
                    record[self.key]
                    if strict and self.check is not None:
                        record[self.check]
                except (ValueError, KeyError, TypeError, RecursionError) as err:
                    why = ("a blank line" if not raw.strip() else
                           f"no {err.args[0]!r} field" if isinstance(err, KeyError) else str(err))
                    raise ValueError(f"{self.path}:{number}: not a result line ({why}); "
                                     "move the file aside to start the run again") from err
                yield record

    def append(self, record: Dict[str, Any]) -> None:
        """Write one result (forced to disk when ``durable``); the first cuts off a line a kill left torn."""
        if self._handle is None:
            if self._torn_at is not None:
                with self.path.open("r+b") as handle:
                    handle.truncate(self._torn_at)
                self._torn_at = None
            self._handle = self.path.open("a", encoding="utf8")
        line = dumps(record) + "\n"
        try:
            self._handle.write(line)
            if self.durable:
                self._handle.flush()
                os.fsync(self._handle.fileno())
        except OSError as err:
            handle, self._handle = self._handle, None
            try:
                handle.close()  # what the disk refused is dropped: a line it left torn is cut by the next run
            except OSError:
                pass
            raise OutputError(f"{self.path}: {err.strerror or err}; the results written before it are kept") from err
        self.done.add(record[self.key])

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        if self._handle is not None:
            self._handle.flush()
        return self._read()

    def close(self) -> None:
        """Close the file (an ``OutputError`` naming it when what was buffered cannot be written) and give up its
        lock."""
        try:
            if self._handle is not None:
                handle, self._handle = self._handle, None
                handle.close()
        except OSError as err:
            raise OutputError(f"{self.path}: {err.strerror or err}; the results written before it are kept") from err
        finally:
            self._lock.close()

    def __enter__(self) -> "RunFile":
        return self

    def __exit__(self, *exc: Optional[BaseException]) -> None:
        self.close()


def resume(run: RunFile, items: Iterable[Tuple[str, Any]],
           work: Callable[[Any], Optional[Dict[str, Any]]]) -> int:
    """Run ``work`` on each (key, item) the run file does not hold yet, appending each result as it arrives.

    ``work`` returns None for an item it could not do (a failed call): it is
    not recorded, so a re-run tries it again. Returns how many results were
    added. An exception from ``work`` (an exhausted budget, say) stops the
    run; what was appended stays.
    """
    added = 0
    for key, item in items:
        if key in run.done:
            continue
        result = work(item)
        if result is not None:
            run.append({run.key: key, **result})
            added += 1
    return added
