"""Metered runs that survive being killed: results appended as they arrive, a re-run skips what is done.

Each result is one JSON line, written and flushed to disk (fsync) before the
next call is made, so a kill loses at most the call in flight. A last line
cut short by a kill is dropped when the file is opened again (the count is
kept in ``torn``), and that item is asked again.

Run files are named so their lineage is in the name:
``<operation>__<model>__<param>=<value>,<param>=<value>__seed=<seed>.jsonl``,
for example ``witness-eval__claude-haiku-4-5__per_class=200,prompt=witness-v2__seed=0.jsonl``;
``parse_run_name`` reads one back.
"""

import json
import os
import re
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, Set, Tuple

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
    """An append-only JSONL file of results keyed by ``key``; opening it reads what is already done."""

    def __init__(self, path: Path, key: str = "key") -> None:
        self.path = Path(path)
        self.key = key
        self.torn = 0
        self.records: Dict[str, Dict[str, Any]] = {}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._load()
        self._handle = self.path.open("a", encoding="utf8")

    def _load(self) -> None:
        """Read finished lines; cut off a last line a kill left unfinished."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        good = data.rfind(b"\n") + 1
        if good < len(data):  # the last line never got its newline: the write was cut short
            self.torn += 1
            with self.path.open("r+b") as handle:
                handle.truncate(good)
        for number, line in enumerate(data[:good].decode("utf8").splitlines(), start=1):
            try:
                record = json.loads(line)
                self.records[record[self.key]] = record
            except (ValueError, KeyError, TypeError) as err:
                raise ValueError(f"{self.path}:{number}: not a result line ({err}); "
                                 "move the file aside to start the run again") from err

    @property
    def done(self) -> Set[str]:
        return set(self.records)

    def append(self, record: Dict[str, Any]) -> None:
        """Write one result and force it to disk before returning."""
        self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.records[record[self.key]] = record

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return iter(self.records.values())

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "RunFile":
        return self

    def __exit__(self, *exc: Optional[BaseException]) -> None:
        self.close()


def resume(run: RunFile, items: Iterable[Tuple[str, Any]], work: Callable[[Any], Dict[str, Any]]) -> int:
    """Run ``work`` on each (key, item) the run file does not hold yet, appending each result as it arrives.

    Returns how many results were added. An exception from ``work`` (an
    exhausted budget, say) stops the run; what was appended stays.
    """
    added = 0
    for key, item in items:
        if key in run.records:
            continue
        run.append({run.key: key, **work(item)})
        added += 1
    return added
