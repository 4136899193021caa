"""What runs on a Dask worker: the pipeline, built once per worker, and the work done with it.

``PipelinePlugin`` travels to each worker once (when it is registered, or
when a worker joins later) and builds the pipeline there; tasks find it by
the plugin's name. A worker with several threads runs one task at a time on
its pipeline (a lock), since a memory zone belongs to the whole pipeline.
"""

import hashlib
import pickle
import threading
from itertools import starmap
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple, Union

import cloudpickle
from distributed import WorkerPlugin, get_worker
from spacy.language import Language
from spacy.util import minibatch

from ...io.inputs import InputLine
from ...pipes.gate.gate import Gate
from ...pipes.names import COMPARE
from ..records import EncodedRecord, annotate_batch, encoded
from .warm import pipeline_for


class PipelinePlugin(WorkerPlugin):
    """Builds a pipeline on every worker it is registered on, once."""

    def __init__(self, name: str, build: Callable[[], Language]) -> None:
        self.name = name
        self.build = build
        self.nlp = None
        self.lock = threading.Lock()

    def __getstate__(self) -> dict:
        return {"name": self.name, "build": self.build}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["name"], state["build"])

    def setup(self, worker) -> None:
        """Build the pipeline (or take the one the fork server warmed, when it is the same: ``warm.py``)."""
        self.nlp = pipeline_for(self.build)


def _has_plugin(name: str, dask_worker=None) -> bool:
    return name in dask_worker.plugins


def with_pipeline(client, build: Callable[[], Language]) -> str:
    """Register the plugin building ``build()`` on every worker of the cluster that lacks it (and on workers that
    join later); its name, which tasks pass to find the pipeline. The name is the digest of ``build``, pickled,
    so a long-lived cluster running again with the same pipeline keeps the pipelines its workers built."""
    name = "spacy-factwash-" + hashlib.sha256(cloudpickle.dumps(build)).hexdigest()[:16]
    if not all(client.run(_has_plugin, name).values()) or not client.scheduler_info()["workers"]:
        client.register_plugin(PipelinePlugin(name, build))
    return name


def worker_plugin(name: str) -> PipelinePlugin:
    """The pipeline plugin ``name`` of the worker this task runs on."""
    return get_worker().plugins[name]


def annotate_task(plugin_name: str, blob: bytes, batch_size: int, parse: Optional[Callable] = None) -> bytes:
    """Annotate one task's lines on this worker's pipeline, a batch of ``batch_size`` at a time (each in its memory
    zone). The lines come pickled into one blob (``packed``): InputLines, or lines as the client decoded them,
    which ``parse`` makes InputLines here (``io.inputs.InputFile.parse``). The result is, for each line in order,
    its record as the JSONL line ``annotate`` writes (``records.encoded``), or the bad line itself; pickled into
    one blob (``records_of`` reads it). Blobs both ways, and parsing and encoding here, leave the client (which
    shares the machine with its workers) little to do for each line: the scheduler passes one bytes object on,
    where it unpickled and pickled each line again."""
    lines = pickle.loads(blob)
    if parse is not None:
        lines = list(starmap(parse, lines))
    plugin = worker_plugin(plugin_name)
    with plugin.lock:
        records = [item if record is None else encoded(record) for batch in minibatch(lines, batch_size)
                   for item, record in annotate_batch(plugin.nlp, batch)]
    return packed(records)


def packed(items: list) -> bytes:
    """A list pickled into one blob: what an annotate task takes and gives."""
    return pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL)


def records_of(blob: bytes) -> List[Union[EncodedRecord, InputLine]]:
    """The records of an ``annotate_task`` result (a bad line in place of its record)."""
    return pickle.loads(blob)


def gate_task(plugin_name: str, batch: List, component: str = COMPARE) -> List[Tuple[object, object]]:
    """Gate one batch of ((source, memory), context) items on this worker's pipeline: (report, context), in order."""
    plugin = worker_plugin(plugin_name)
    with plugin.lock:
        return Gate(plugin.nlp, component).gate_batch(batch)


def partition_task(plugin_name: str, work: Callable, partition, out_dir: str, batch_size: int,
                   skip_bad_lines: bool) -> Dict:
    """Do a partition's ``work`` (``run.partitions``) on this worker's pipeline, which writes its files; its
    manifest entry."""
    plugin = worker_plugin(plugin_name)
    with plugin.lock:
        return work(plugin.nlp, partition, Path(out_dir), batch_size, skip_bad_lines)
