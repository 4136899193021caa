"""Where batches run: executors, found by name, so the layers below the run layer never import one.

An executor takes a pipeline (or a way to build one) and a stream of items,
runs whole batches somewhere (this process, worker processes, a cluster) and
yields the results in input order. Two come with the package, each
registered through the ``spacy_factwash_executors`` entry point:
``"local"`` (``spacy_factwash.run.local``, this process) and ``"dask"``
(``spacy_factwash.run.dask``, the ``dask`` extra). The run layer is given
one, or looks one up here by name; ``Gate.pipe(n_process=2)`` finds the Dask
executor without the gate importing the run layer. A user may register
another (``executors.register("mine", func=...)``) and pass it, or its name,
as ``executor=``.
"""

from typing import Callable, Iterable, Iterator, Protocol

import catalogue
from spacy.language import Language

from .errors import FactwashError

executors = catalogue.create("spacy_factwash", "executors", entry_points=True)


class Executor(Protocol):
    """Runs batches of a stream on a pipeline somewhere else, results in input order."""

    def gate(self, nlp: Language, items: Iterable, *, batch_size: int, n_workers: int, name: str) -> Iterator:
        """Gate ((source, memory), context) items on copies of ``nlp``: (report, context) in order."""

    def annotate(self, build: Callable[[], Language], items: Iterable, *, batch_size: int,
                 n_workers: int) -> Iterator:
        """Annotate input lines on pipelines each worker builds with ``build``: (line, record or None) in order, a
        record as a dict or as the line to write for it (``run.records.EncodedRecord``)."""


class ExecutorMissing(FactwashError, LookupError):
    """No executor is registered under the name asked for."""

    code = "E016"


def executor_for(name: str) -> Executor:
    """The executor registered under ``name`` (a one-line error naming the extra to install when it is missing)."""
    try:
        return executors.get(name)()
    except catalogue.RegistryError:
        raise ExecutorMissing(f"no executor named {name!r} is installed (the Dask executor comes with the dask "
                              "extra: pip install 'spacy-factwash[dask]')") from None
