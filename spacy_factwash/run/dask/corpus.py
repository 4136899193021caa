"""Annotating and gating corpora partition by partition on a Dask cluster, with a manifest.

Each input file is cut into partitions of consecutive lines
(``run.partitions``). The runner is given the work of a partition as a
function (``annotate_partition`` or ``gate_partition``); a worker calls it
with its own pipeline, and it writes that partition's files. A partition
whose task fails (an exception, a worker that died) is submitted again up
to ``retries`` times; one that still fails is in the manifest with status
``failed``, its attempts and errors, and in the run's ``failed`` list.
"""

import json
import os
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set

from spacy.language import Language

from ...api import DEFAULT_MAX_LENGTH
from ...errors import batch_size_of
from ...io.outputs import OutputError, atomic_output
from ...io.strict_json import dumps, loads
from ...io.textfile import line_count
from ..annotate import DefaultPipeline
from ..partitions import Partition, annotate_partition, failed_entry, gate_partition
from .cluster import LOCAL, ScaleError, client_for, distributed
from .server import start_fork_server

MANIFEST = "manifest.json"
Work = Callable[[Language, Partition, Path, int, bool], Dict]  # a partition's work on a worker's pipeline


@dataclass
class CorpusRun:
    """What a cluster run did: the manifest written, its entries in input order, and the partitions that failed
    or stopped at a bad line."""

    manifest: Path
    partitions: List[Dict] = field(default_factory=list)

    @property
    def failed(self) -> List[Dict]:
        return [entry for entry in self.partitions if entry["status"] == "failed"]

    @property
    def stopped(self) -> List[Dict]:
        return [entry for entry in self.partitions if entry["status"] == "stopped"]

    def problems(self) -> List[str]:
        """One line for each partition that failed or stopped."""
        lines = [f"{e['path']} lines {e['first_line']}-{e['last_line']}: failed after {e['attempts']} attempt(s): "
                 f"{e['errors'][-1]}" for e in self.failed]
        return lines + [e["stop"] for e in self.stopped]


def partitions(paths: Sequence[Path], lines_per_partition: int) -> List[Partition]:
    """The partitions of the input files, in input order."""
    if lines_per_partition < 1:
        raise ScaleError(f"a partition needs at least 1 line, got {lines_per_partition}")
    parts: List[Partition] = []
    for path in paths:
        total = line_count(path)
        for first in range(1, total + 1, lines_per_partition):
            parts.append(Partition(len(parts), str(path), first, min(first + lines_per_partition - 1, total)))
    return parts


def run_partitions(client, task: Callable, parts: Sequence[Partition], retries: int) -> List[Dict]:
    """``task(partition)`` for every partition on the cluster; a failed one is submitted again up to ``retries``
    times. The manifest entries, in partition order, each with its attempts and the errors of failed ones."""
    dask = distributed()
    futures = {client.submit(task, part, pure=False): part for part in parts}
    errors: Dict[int, List[str]] = {part.index: [] for part in parts}
    entries: Dict[int, Dict] = {}
    queue = dask.as_completed(list(futures))
    for future in queue:
        part = futures.pop(future)
        try:
            entry = future.result()
        except Exception as err:  # the worker's error, whatever it was: recorded, retried, then reported
            errors[part.index].append(f"{type(err).__name__}: {err}".splitlines()[0])
            if len(errors[part.index]) <= retries:
                again = client.submit(task, part, pure=False)
                futures[again] = part
                queue.add(again)
                continue
            entry = failed_entry(part)
        entries[part.index] = {**entry, "attempts": len(errors[part.index]) + (entry["status"] != "failed"),
                               "errors": errors[part.index]}
    return [entries[part.index] for part in parts]


def _output_folder(out_dir: Path, inputs: Sequence[Path]) -> Path:
    """The output folder, checked (a ScaleError when it is a file or an input), not made yet."""
    if out_dir.exists() and not out_dir.is_dir():
        raise ScaleError(f"{out_dir}: is a file; with a cluster the output is a folder (nothing was written)")
    if any(Path(os.path.realpath(p)) == Path(os.path.realpath(out_dir)) for p in inputs):
        raise ScaleError(f"{out_dir}: is an input; nothing was written")
    if not out_dir.parent.is_dir():
        raise ScaleError(f"{out_dir}: the folder {out_dir.parent} does not exist; nothing was written")
    return out_dir


def earlier_files(out_dir: Path) -> Set[str]:
    """The files an earlier run wrote in the folder, as its manifest lists them (the manifest too); a
    ``manifest.json`` that is not a run's manifest is an ``OutputError``."""
    manifest = out_dir / MANIFEST
    if not manifest.exists():
        return set()
    try:
        partitions = loads(manifest.read_text(encoding="utf8"))["partitions"]
        return {MANIFEST} | {name for entry in partitions for name in entry["files"].values()}
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        raise OutputError(f"{manifest}: is not the manifest of a run, and a run would write over it; nothing was "
                          "written (move it aside or give another folder)") from None


def refuse_foreign_files(out_dir: Path, parts: Sequence[Partition], suffixes: Sequence[str]) -> None:
    """Refuse a run that would write over a file in its folder that no earlier run's manifest lists (a file of
    the user's, or of a run that never finished): an ``OutputError`` naming it, before anything is written.
    ``suffixes`` are those of the files the run writes for each partition."""
    if not out_dir.is_dir():
        return
    ours = earlier_files(out_dir)
    for name in [MANIFEST] + [part.stem + suffix for part in parts for suffix in suffixes]:
        if os.path.lexists(out_dir / name) and name not in ours:
            raise OutputError(f"{out_dir / name}: is not a file of an earlier run (no manifest lists it), and this "
                              "run would write over it; nothing was written (move it aside or give another folder)")


def run_corpus(work: Work, inputs: Sequence[Path], out_dir: Path, build: Callable[[], Language], *, kind: str,
               suffixes: Sequence[str] = (".jsonl",), scheduler: str = "local", n_workers: int = 2,
               lines_per_partition: int = 10_000, batch_size: int = 256, skip_bad_lines: bool = False,
               retries: int = 2) -> CorpusRun:
    """Do ``work`` on the input files partition by partition on a Dask cluster, each worker on the pipeline
    ``build`` makes, writing for each partition the files ``part-NNNNN`` + each of ``suffixes``; the manifest
    (which calls the run ``kind``) is written last, listing every partition, done, stopped or failed. A folder
    holding a file the run would write that no earlier run's manifest lists is refused before the cluster starts;
    the manifest's lock is held for the whole run, so a second run on the same folder is refused
    (``OutputLocked``)."""
    from .worker import partition_task, with_pipeline

    batch_size_of(batch_size, f"{kind}_corpus")
    inputs = [Path(p) for p in inputs]
    missing = [str(p) for p in inputs if not p.is_file()]
    if missing:
        raise ScaleError(f"{missing[0]}: no such file")
    out_dir = _output_folder(Path(out_dir), inputs).resolve()
    parts = partitions(inputs, lines_per_partition)
    refuse_foreign_files(out_dir, parts, suffixes)
    if scheduler == LOCAL:
        start_fork_server(warm=build == DefaultPipeline())  # its imports (and pipeline) while the scheduler starts
    with client_for(scheduler, n_workers) as client:
        out_dir.mkdir(exist_ok=True)  # once the cluster answered: a run that cannot start leaves nothing behind
        with atomic_output(out_dir / MANIFEST, inputs) as manifest:
            task = partial(partition_task, with_pipeline(client, build), work, out_dir=str(out_dir),
                           batch_size=batch_size, skip_bad_lines=skip_bad_lines)
            entries = run_partitions(client, task, parts, retries)
            manifest.write(dumps({"kind": kind, "inputs": [str(p) for p in inputs],
                                  "lines_per_partition": lines_per_partition, "partitions": entries}, indent=1) + "\n")
    return CorpusRun(out_dir / MANIFEST, entries)


def default_build(max_length: Optional[int] = None) -> Language:
    """The default pipeline, as each worker builds it."""
    from ...api import DEFAULT_MAX_LENGTH, load

    return load(max_length or DEFAULT_MAX_LENGTH)


def annotate_corpus(inputs: Sequence[Path], out_dir: Path, *, build: Optional[Callable[[], Language]] = None,
                    max_length: Optional[int] = None, docbin: bool = True, **settings) -> CorpusRun:
    """Annotate .txt/.jsonl files on a Dask cluster (``scheduler="local"`` or an address) into per-partition JSONL
    records and (unless ``docbin`` is False: JSONL only) DocBins in ``out_dir``, with ``manifest.json``; each
    worker builds ``build()`` (the default pipeline, with ``max_length`` when given); ``settings`` as
    ``run_corpus``."""
    return run_corpus(partial(annotate_partition, docbin=docbin), inputs, out_dir,
                      build or DefaultPipeline(max_length or DEFAULT_MAX_LENGTH), kind="annotate",
                      suffixes=(".jsonl", ".spacy") if docbin else (".jsonl",), **settings)


def gate_corpus(inputs: Sequence[Path], out_dir: Path, *, build: Callable[[], Language] = default_build,
                **settings) -> CorpusRun:
    """Gate pair files (``{"id", "source", "memory"}`` a line) on a Dask cluster into per-partition JSONL reports
    in ``out_dir``, with ``manifest.json``; ``settings`` as ``run_corpus``."""
    return run_corpus(gate_partition, inputs, out_dir, build, kind="gate", **settings)


def records(manifest: Path) -> Iterator[Dict]:
    """Every record of a run's partitions, in input order (the lines one process would have written)."""
    folder = Path(manifest).parent
    for entry in json.loads(Path(manifest).read_text(encoding="utf8"))["partitions"]:
        if "jsonl" in entry["files"]:
            with open(folder / entry["files"]["jsonl"], encoding="utf8") as handle:
                yield from (json.loads(line) for line in handle)
