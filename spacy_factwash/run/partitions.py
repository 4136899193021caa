"""The work of one partition of a corpus run: its lines annotated or gated into its own files, and its manifest
entry.

A partition is a range of consecutive lines of one input file, numbered as
the readers number them (so a record's ``line`` is the line of its own
file). Whatever runs the partitions (``run.dask.corpus``) is given one of
the two work functions, ``annotate_partition`` or ``gate_partition``, and
calls it on its worker's pipeline; each writes ``part-NNNNN.jsonl`` (and for
annotation, unless asked not to, ``part-NNNNN.spacy``, a ``DocBin``:
``docbins.PackedDocBin``) through ``outputs.atomic_output``, and the
manifest entry's ``files`` names the files it wrote. Read in partition
order, the partitions' JSONL lines are the lines the one-process
``annotate`` / ``gate`` would write.
"""

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, Optional

from spacy.language import Language

from ..io.inputs import read_inputs, read_pairs
from ..io.outputs import atomic_output, write_bytes
from .annotate import write_annotations
from .docbins import PackedDocBin
from .gate import GateSummary, gate_lines, jsonl_writer
from .records import annotate_records


@dataclass(frozen=True)
class Partition:
    """Lines ``first_line`` to ``last_line`` (1-based, inclusive) of one input file."""

    index: int
    path: str
    first_line: int
    last_line: int

    @property
    def stem(self) -> str:
        return f"part-{self.index:05d}"


def within(lines: Iterable, partition: Partition) -> Iterator:
    """The lines of a file that belong to the partition (its reader, given the partition's first line, parses
    none before it; stopping after its last)."""
    for line in lines:
        if line.number > partition.last_line:
            return
        if line.number >= partition.first_line:
            yield line


def entry(partition: Partition, files: Dict[str, str], records: int, bad: int, stop: Optional[str],
          **counts) -> Dict:
    """A partition's manifest entry once its files are written."""
    return {**asdict(partition), "status": "stopped" if stop else "ok", "files": files,
            "records": records, "bad_lines": bad, "stop": stop, **counts}


def failed_entry(partition: Partition) -> Dict:
    """The manifest entry of a partition whose every attempt failed: nothing of it is in the output."""
    return {**asdict(partition), "status": "failed", "files": {}, "records": 0, "bad_lines": 0, "stop": None}


def annotate_partition(nlp: Language, partition: Partition, out_dir: Path, batch_size: int, skip_bad_lines: bool,
                       docbin: bool = True) -> Dict:
    """Annotate one partition into its JSONL records and, with ``docbin``, its Docs as a DocBin (user data
    included); its manifest entry, whose ``files`` name the files written."""
    path = Path(partition.path)
    docs = PackedDocBin(store_user_data=True) if docbin else None
    items = within(read_inputs(path, nlp.max_length, partition.first_line), partition)
    results = annotate_records(nlp, items, batch_size=batch_size, docbin=docs, skip_bad_lines=skip_bad_lines)
    files = {"jsonl": f"{partition.stem}.jsonl"}
    with atomic_output(out_dir / files["jsonl"], [path]) as out:
        summary = write_annotations(out.write, results, path, skip_bad_lines)
    if docs is not None:
        files["docbin"] = f"{partition.stem}.spacy"
        write_bytes(out_dir / files["docbin"], docs.to_bytes(), [path])
    return entry(partition, files, summary.written, summary.bad, summary.stop, empty=summary.empty)


def gate_partition(nlp: Language, partition: Partition, out_dir: Path, batch_size: int, skip_bad_lines: bool) -> Dict:
    """Gate one partition's pairs into its JSONL reports; its manifest entry."""
    path, summary = Path(partition.path), GateSummary()
    pairs = within(read_pairs(path, first_line=partition.first_line), partition)
    with atomic_output(out_dir / f"{partition.stem}.jsonl", [path]) as out:
        gate_lines(jsonl_writer(out), pairs, path, nlp, summary, skip_bad_lines=skip_bad_lines, batch_size=batch_size)
    return entry(partition, {"jsonl": f"{partition.stem}.jsonl"}, sum(summary.verdicts.values()), summary.bad,
                 summary.stop, verdicts=dict(summary.verdicts), change_types=dict(summary.change_types))
