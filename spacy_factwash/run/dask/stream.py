"""One stream of batches over a local Dask cluster, results in input order: ``n_process`` > 1.

At most two batches per worker are in flight, so a long stream is read as it
is processed and memory stays flat on both sides.
"""

from collections import deque
from functools import partial
from typing import Callable, Iterable, Iterator, List

from spacy.language import Language
from spacy.util import minibatch

from ...io.inputs import InputLine
from ...pipes.names import COMPARE
from .cluster import LOCAL, ScaleError, client_for


def ordered(client, task: Callable, items: Iterable[List], in_flight: int, retries: int = 2) -> Iterator:
    """Submit ``task(batch)`` for each batch and yield the items of each result in submission order; a batch
    that fails ``retries`` + 1 times stops the stream with a ScaleError saying why."""
    pending: deque = deque()
    for batch in items:
        pending.append(client.submit(task, batch, pure=False, retries=retries))
        if len(pending) >= in_flight:
            yield from _result(pending.popleft(), retries)
    while pending:
        yield from _result(pending.popleft(), retries)


def _result(future, retries: int) -> List:
    """A batch's results, or a ScaleError naming the worker's error."""
    try:
        return future.result()
    except Exception as err:  # whatever the worker raised, or a worker that died
        reason = f"{type(err).__name__}: {err}".splitlines()[0]
        raise ScaleError(f"a batch failed on a Dask worker {retries + 1} times, so the run stopped: {reason}") from err


def _same(nlp: Language) -> Language:
    """The pipeline itself: a worker gets it unpickled once, with the plugin."""
    return nlp


def cluster_stream(build: Callable[[], Language], task: Callable, items: Iterable, *, batch_size: int,
                   n_workers: int, scheduler: str = LOCAL) -> Iterator:
    """``task(plugin name, batch)`` over the batches of ``items`` on ``n_workers`` local worker processes (or
    the workers of the scheduler at that address), each building its pipeline once with ``build``; the results'
    items in input order."""
    from .worker import with_pipeline

    with client_for(scheduler, n_workers) as client:
        name = with_pipeline(client, build)
        yield from ordered(client, partial(task, name), minibatch(items, batch_size), 2 * n_workers)


def gate_stream(nlp: Language, items: Iterable, *, batch_size: int, n_workers: int,
                name: str = COMPARE) -> Iterator:
    """Gate ((source, memory), context) items on local workers, each holding a copy of ``nlp`` (pickled to it
    once); (report, context) in input order."""
    from .worker import gate_task

    return cluster_stream(partial(_same, nlp), partial(gate_task, component=name), items, batch_size=batch_size,
                          n_workers=n_workers)


def annotate_stream(build: Callable[[], Language], items: Iterable[InputLine], *, batch_size: int,
                    n_workers: int, scheduler: str = LOCAL) -> Iterator:
    """Annotate lines on local workers, each building its pipeline with ``build``; (line, record or None) in
    input order."""
    from .worker import annotate_task

    return cluster_stream(build, annotate_task, items, batch_size=batch_size, n_workers=n_workers,
                          scheduler=scheduler)
