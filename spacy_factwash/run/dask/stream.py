"""One stream of batches over a local Dask cluster, results in input order: ``n_process`` > 1.

At most two tasks per worker are in flight, so a long stream is read as it
is processed and memory stays flat on both sides. A task of ``annotate``
carries at least ``TASK_LINES`` lines (whole batches of ``batch_size``, each
annotated in its own memory zone), since every task costs the scheduler and
the client a few milliseconds, as much as annotating several lines. The
client shares the machine with its workers, so it does as little as it can
for each line: a task's lines travel as one pickled blob (which the
scheduler passes on as it is), are parsed on the worker when they come from
an input file, and come back as one blob of the lines to write, which this
side pairs with the lines it sent.
"""

from collections import deque
from functools import partial
from typing import Callable, Iterable, Iterator, List, Optional, Tuple, Union

from spacy.language import Language
from spacy.util import minibatch

from ...io.inputs import InputFile, InputLine
from ...pipes.names import COMPARE
from ..annotate import DefaultPipeline
from ..records import EncodedRecord
from .cluster import LOCAL, ScaleError, client_for
from .server import start_fork_server
from .warm import Given, Inherited, holding, inheritable

TASK_LINES = 1024  # the fewest lines an annotate task carries (whole batches)


def ordered(client, task: Callable, items: Iterable[List], in_flight: int, retries: int = 2,
            pack: Optional[Callable[[List], object]] = None) -> Iterator:
    """Submit ``task(batch)`` (or ``task(pack(batch))``, the form a batch travels in) for each batch and yield
    (batch, its result) in submission order; a batch that fails ``retries`` + 1 times stops the stream with a
    ScaleError saying why."""
    pending: deque = deque()
    for batch in items:
        sent = batch if pack is None else pack(batch)
        pending.append((batch, client.submit(task, sent, pure=False, retries=retries)))
        if len(pending) >= in_flight:
            yield _done(*pending.popleft(), retries)
    while pending:
        yield _done(*pending.popleft(), retries)


def _done(batch: List, future, retries: int) -> tuple:
    """(batch, its result), or a ScaleError naming the worker's error."""
    return batch, _result(future, retries)


def _result(future, retries: int) -> List:
    """A batch's results, or a ScaleError naming the worker's error."""
    try:
        return future.result()
    except Exception as err:  # whatever the worker raised, or a worker that died
        reason = f"{type(err).__name__}: {err}".splitlines()[0]
        raise ScaleError(f"a batch failed on a Dask worker {retries + 1} times, so the run stopped: {reason}") from err


def cluster_stream(build: Callable[[], Language], task: Callable, items: Iterable, *, batch_size: int,
                   n_workers: int, scheduler: str = LOCAL,
                   pack: Optional[Callable[[List], object]] = None) -> Iterator:
    """``task(plugin name, batch)`` over the batches of ``items`` on ``n_workers`` local worker processes (or
    the workers of the scheduler at that address), each building its pipeline once with ``build``; (batch, its
    result) in input order (a batch sent as ``pack(batch)`` when given). For a local cluster, the fork server its
    workers come from starts now, before the stream is read: warming the default pipeline when ``build`` is it,
    and holding a ``Given`` pipeline when the server is copied from this process now, so that the workers inherit
    it instead of unpickling it (``warm.py``)."""
    if scheduler == LOCAL and isinstance(build, Given) and inheritable(build.nlp):
        with holding(build.nlp) as token:
            if start_fork_server():
                build = Inherited(token)
    elif scheduler == LOCAL:
        start_fork_server(warm=build == DefaultPipeline())
    return _stream(build, task, items, batch_size, n_workers, scheduler, pack)


def _stream(build: Callable[[], Language], task: Callable, items: Iterable, batch_size: int, n_workers: int,
            scheduler: str, pack: Optional[Callable[[List], object]]) -> Iterator:
    """The stream of ``cluster_stream``: the cluster started when the first result is asked for."""
    from .worker import with_pipeline

    with client_for(scheduler, n_workers) as client:
        name = with_pipeline(client, build)
        yield from ordered(client, partial(task, name), minibatch(items, batch_size), 2 * n_workers, pack=pack)


def gate_stream(nlp: Language, items: Iterable, *, batch_size: int, n_workers: int,
                name: str = COMPARE) -> Iterator:
    """Gate ((source, memory), context) items on local workers, each holding a copy of ``nlp`` (pickled to it
    once, or inherited: ``cluster_stream``); (report, context) in input order."""
    from .worker import gate_task

    results = cluster_stream(Given(nlp), partial(gate_task, component=name), items, batch_size=batch_size,
                             n_workers=n_workers)
    return (item for _, batch_results in results for item in batch_results)


def annotate_stream(build: Callable[[], Language], items: Iterable[InputLine], *, batch_size: int,
                    n_workers: int, scheduler: str = LOCAL) -> Iterator[Tuple[InputLine, Optional[EncodedRecord]]]:
    """Annotate lines on local workers, each building its pipeline with ``build``, in tasks of whole batches
    (at least ``TASK_LINES`` lines); (line, its record as the line to write, ``records.EncodedRecord``, or None)
    in input order. Given an ``InputFile``, the workers parse its lines too: this process only decodes them, and
    a good line comes back as its number alone, a bad one in full, with its reason."""
    from .worker import annotate_task, packed, records_of

    parse = items.parse if isinstance(items, InputFile) else None
    lines = items if parse is None else items.decoded()
    task_lines = batch_size * -(-TASK_LINES // batch_size)
    results = cluster_stream(build, partial(annotate_task, batch_size=batch_size, parse=parse), lines,
                             batch_size=task_lines, n_workers=n_workers, scheduler=scheduler, pack=packed)
    return (pair for sent, blob in results for pair in _paired(sent, records_of(blob)))


def _paired(sent: List, results: List[Union[EncodedRecord, InputLine]]) -> Iterator[Tuple[InputLine, Optional[
        EncodedRecord]]]:
    """A task's (line, record or None): a good line (an InputLine sent, or a decoded line's number) with its
    record, a bad line as the worker sent it back with None."""
    for line, result in zip(sent, results):
        if isinstance(result, InputLine):
            yield result, None
        else:
            yield (line if isinstance(line, InputLine) else InputLine(line[0])), result
