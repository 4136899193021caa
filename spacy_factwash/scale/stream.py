"""One stream of batches over a local Dask cluster, results in input order: ``n_process`` > 1.

At most two batches per worker are in flight, so a long stream is read as it
is processed and memory stays flat on both sides.
"""

from collections import deque
from functools import partial
from typing import Callable, Iterable, Iterator, List

from spacy.language import Language

from ..stream import InputLine, batches
from .cluster import LOCAL, client_for


def ordered(client, task: Callable, items: Iterable[List], in_flight: int) -> Iterator:
    """Submit ``task(batch)`` for each batch and yield the items of each result in submission order."""
    pending: deque = deque()
    for batch in items:
        pending.append(client.submit(task, batch, pure=False))
        if len(pending) >= in_flight:
            yield from pending.popleft().result()
    while pending:
        yield from pending.popleft().result()


def _same(nlp: Language) -> Language:
    """The pipeline itself: a worker gets it unpickled once, with the plugin."""
    return nlp


def local_stream(build: Callable[[], Language], task: Callable, items: Iterable, *, batch_size: int,
                 n_workers: int) -> Iterator:
    """``task(plugin name, batch)`` over the batches of ``items`` on ``n_workers`` local worker processes, each
    building its pipeline once with ``build``; the results' items in input order."""
    from .worker import with_pipeline

    with client_for(LOCAL, n_workers) as client:
        name = with_pipeline(client, build)
        yield from ordered(client, partial(task, name), batches(items, batch_size), 2 * n_workers)


def gate_stream(nlp: Language, items: Iterable, *, batch_size: int, n_workers: int,
                name: str = "factwash_compare") -> Iterator:
    """Gate ((source, memory), context) items on local workers, each holding a copy of ``nlp`` (pickled to it
    once); (report, context) in input order."""
    from .worker import gate_task

    return local_stream(partial(_same, nlp), partial(gate_task, component=name), items, batch_size=batch_size,
                        n_workers=n_workers)


def annotate_stream(build: Callable[[], Language], items: Iterable[InputLine], *, batch_size: int,
                    n_workers: int) -> Iterator:
    """Annotate lines on local workers, each building its pipeline with ``build``; (line, record or None) in
    input order."""
    from .worker import annotate_task

    return local_stream(build, annotate_task, items, batch_size=batch_size, n_workers=n_workers)
