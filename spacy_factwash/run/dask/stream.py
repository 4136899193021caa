"""One stream of batches over a local Dask cluster, results in input order: ``n_process`` > 1.

At most two tasks per worker are in flight, so a long stream is read as it
is processed and memory stays flat on both sides. A task of ``annotate``
carries at least ``TASK_LINES`` lines (whole batches of ``batch_size``, each
annotated in its own memory zone), since every task costs the scheduler and
the client a few milliseconds, as much as annotating several lines; its
result is the records alone, already encoded as the lines to write, which
this side pairs with the lines it sent.
"""

from collections import deque
from functools import partial
from typing import Callable, Iterable, Iterator, List

from spacy.language import Language
from spacy.util import minibatch

from ...io.inputs import InputLine
from ...pipes.names import COMPARE
from ..annotate import DefaultPipeline
from .cluster import LOCAL, ScaleError, client_for
from .server import start_fork_server
from .warm import Given, Inherited, holding, inheritable

TASK_LINES = 1024  # the fewest lines an annotate task carries (whole batches)


def ordered(client, task: Callable, items: Iterable[List], in_flight: int, retries: int = 2) -> Iterator:
    """Submit ``task(batch)`` for each batch and yield (batch, its result) in submission order; a batch that
    fails ``retries`` + 1 times stops the stream with a ScaleError saying why."""
    pending: deque = deque()
    for batch in items:
        pending.append((batch, client.submit(task, batch, pure=False, retries=retries)))
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
                   n_workers: int, scheduler: str = LOCAL) -> Iterator:
    """``task(plugin name, batch)`` over the batches of ``items`` on ``n_workers`` local worker processes (or
    the workers of the scheduler at that address), each building its pipeline once with ``build``; (batch, its
    result) in input order. For a local cluster, the fork server its workers come from starts now, before the
    stream is read: warming the default pipeline when ``build`` is it, and holding a ``Given`` pipeline when the
    server is copied from this process now, so that the workers inherit it instead of unpickling it (``warm.py``)."""
    if scheduler == LOCAL and isinstance(build, Given) and inheritable(build.nlp):
        with holding(build.nlp) as token:
            if start_fork_server():
                build = Inherited(token)
    elif scheduler == LOCAL:
        start_fork_server(warm=build == DefaultPipeline())
    return _stream(build, task, items, batch_size, n_workers, scheduler)


def _stream(build: Callable[[], Language], task: Callable, items: Iterable, batch_size: int, n_workers: int,
            scheduler: str) -> Iterator:
    """The stream of ``cluster_stream``: the cluster started when the first result is asked for."""
    from .worker import with_pipeline

    with client_for(scheduler, n_workers) as client:
        name = with_pipeline(client, build)
        yield from ordered(client, partial(task, name), minibatch(items, batch_size), 2 * n_workers)


def gate_stream(nlp: Language, items: Iterable, *, batch_size: int, n_workers: int,
                name: str = COMPARE) -> Iterator:
    """Gate ((source, memory), context) items on local workers, each holding a copy of ``nlp`` (pickled to it
    once, or inherited: ``cluster_stream``); (report, context) in input order."""
    from .worker import gate_task

    results = cluster_stream(Given(nlp), partial(gate_task, component=name), items, batch_size=batch_size,
                             n_workers=n_workers)
    return (item for _, batch_results in results for item in batch_results)


def annotate_stream(build: Callable[[], Language], items: Iterable[InputLine], *, batch_size: int,
                    n_workers: int, scheduler: str = LOCAL) -> Iterator:
    """Annotate lines on local workers, each building its pipeline with ``build``, in tasks of whole batches
    (at least ``TASK_LINES`` lines); (line, its record as the line to write, ``records.EncodedRecord``, or None)
    in input order."""
    from .worker import annotate_task, records_of

    task_lines = batch_size * -(-TASK_LINES // batch_size)
    results = cluster_stream(build, partial(annotate_task, batch_size=batch_size), items, batch_size=task_lines,
                             n_workers=n_workers, scheduler=scheduler)
    return (pair for lines, blob in results for pair in zip(lines, records_of(blob)))
