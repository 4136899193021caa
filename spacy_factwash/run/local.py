"""The one-process executor, and how a run chooses the executor its batches go to.

``LocalExecutor`` runs every batch here, in order, with the same batch
functions the workers of other executors run. It is registered as
``"local"`` (the ``spacy_factwash_executors`` entry point) beside ``"dask"``.
"""

from typing import Callable, Iterable, Iterator, Union

from spacy.language import Language

from ..executors import Executor, executor_for
from ..pipes.gate.gate import Gate
from .records import annotate_records


class LocalExecutor:
    """Runs the batches in this process, one after the other (``n_workers`` is not used)."""

    def gate(self, nlp: Language, items: Iterable, *, batch_size: int, n_workers: int = 1, name: str) -> Iterator:
        """Gate ((source, memory), context) items on ``nlp``: (report, context) in order."""
        return Gate(nlp, name).pipe(items, batch_size=batch_size, as_tuples=True)

    def annotate(self, build: Callable[[], Language], items: Iterable, *, batch_size: int,
                 n_workers: int = 1) -> Iterator:
        """Annotate input lines on the pipeline ``build`` makes: (line, record or None) in order."""
        return annotate_records(build(), items, batch_size=batch_size)


def executor_of(executor: Union[Executor, str, None], n_process: int) -> Executor:
    """The executor a run hands its batches to: the one given, or registered under the name given; else the Dask
    executor for ``n_process`` > 1 (a local cluster of that many workers) and this process for 1."""
    if isinstance(executor, str):
        return executor_for(executor)
    if executor is not None:
        return executor
    return executor_for("dask") if n_process > 1 else LocalExecutor()

