"""The Dask executor: batches of a stream on a local cluster of worker processes, results in input order.

Registered as ``"dask"`` in ``spacy_factwash.executors`` (the
``spacy_factwash_executors`` entry point), which is how ``Gate.pipe`` and
``annotate`` find it; ``distributed`` is imported only when it runs.
"""

from typing import Callable, Iterable, Iterator

from spacy.language import Language


class DaskExecutor:
    """Runs batches on ``n_workers`` local Dask worker processes, each holding its own pipeline."""

    def gate(self, nlp: Language, items: Iterable, *, batch_size: int, n_workers: int, name: str) -> Iterator:
        """Gate ((source, memory), context) items on workers that each hold a copy of ``nlp``."""
        from .stream import gate_stream

        return gate_stream(nlp, items, batch_size=batch_size, n_workers=n_workers, name=name)

    def annotate(self, build: Callable[[], Language], items: Iterable, *, batch_size: int,
                 n_workers: int) -> Iterator:
        """Annotate input lines on workers that each build their pipeline with ``build``."""
        from .stream import annotate_stream

        return annotate_stream(build, items, batch_size=batch_size, n_workers=n_workers)
