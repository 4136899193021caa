"""Pipelines the fork server local workers are forked from holds for them, so that no worker builds or unpickles one.

A pipeline's components read and compile their data at its first document
(``api.load``; ``zones.zone`` primes a pipeline before its first memory
zone), which costs a worker more than starting does. When a run whose
workers build the default pipeline (``DefaultPipeline``) starts the fork
server (``server.start_fork_server(warm=True)``), the server builds the
default pipeline and annotates one short text with it inside a memory zone
(``warm``: a server copied from the caller calls it, a spawned one imports
this module with ``WARM_ENV`` set in its environment alone), so every worker
forked from it holds a copy that is ready. A worker's first
plugin whose build is ``DefaultPipeline()`` takes that copy
(``pipeline_for``); any other build, and any build after the first, is
built on the worker as before. A server that could not build the pipeline
keeps none, and the worker builds it (and reports why it cannot) itself.

A pipeline the caller built (``Given``: ``Gate.pipe(n_process=...)``) is
pickled to every worker, which unpickles it and warms its copy. When the
fork server is copied from the caller at that moment (``server.py``), it is
held under a token while the copy is made (``holding``), so the server and
every worker forked from it have it, warm as the caller's is; the workers'
build is then ``Inherited(token)``, and nothing is pickled. Only a pipeline of
spaCy's and this package's parts is inherited (``inheritable``): a user's
component may hold a file the copy lets go.
"""

import itertools
import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List

from spacy.language import Language

from ...zones import zone
from ..annotate import DefaultPipeline

WARM_ENV = "SPACY_FACTWASH_WARM_FORK_SERVER"  # set in the fork server's environment when it is to warm a pipeline
WARM_TEXT = "Smith et al. reported that the drug may reduce the risk by 20% in 2019."
_warmed: List[Language] = []  # the warmed default pipeline, until a worker's plugin takes it
_held: Dict[str, Language] = {}  # the caller's pipelines while a fork server is copied from it, by token
_tokens = itertools.count()


class Given:
    """A pipeline the caller built, as the build of its workers: pickled to each, which unpickles it."""

    def __init__(self, nlp: Language) -> None:
        self.nlp = nlp

    def __call__(self) -> Language:
        """The pipeline itself."""
        return self.nlp


@dataclass(frozen=True)
class Inherited:
    """The build of workers forked from a server copied from the caller while it held a pipeline: that pipeline,
    which the worker has already."""

    token: str

    def __call__(self) -> Language:
        """The pipeline held under the token (a LookupError where no copy holds it: a worker of another server)."""
        if self.token not in _held:
            raise LookupError(f"this process holds no pipeline {self.token}: it is not forked from the server "
                              "copied from the caller that held it")
        return _held[self.token]


def inheritable(nlp: Language) -> bool:
    """Whether workers may inherit ``nlp`` from a copy of this process: its tokenizer and components are all
    spaCy's or this package's. A component of the user's may hold a file, a socket or a lock that is let go in
    the copy (``server.let_go_all_but``): pickled instead, it fails loudly or opens its own."""
    parts = [nlp.tokenizer] + [component for _, component in nlp.pipeline]
    return all(type(part).__module__.split(".")[0] in ("spacy", "spacy_factwash") for part in parts)


@contextmanager
def holding(nlp: Language) -> Iterator[str]:
    """Hold ``nlp`` under a new token for the block: a fork server copied from this process meanwhile keeps it."""
    token = f"{os.getpid()}-{next(_tokens)}"
    _held[token] = nlp
    try:
        yield token
    finally:
        del _held[token]


def warm() -> None:
    """Build the default pipeline and annotate ``WARM_TEXT`` with it in a memory zone; keep it for ``pipeline_for``.
    A pipeline that cannot be built here is left to the worker, which builds it and raises there."""
    try:
        nlp = DefaultPipeline()()
        with zone(nlp):
            nlp(WARM_TEXT)
    except Exception:  # whatever it was, the worker's own build meets it again and the run reports it
        return
    _warmed.append(nlp)


def pipeline_for(build: Callable[[], Language]) -> Language:
    """The pipeline ``build`` makes: the warmed one, once, when ``build`` is ``DefaultPipeline()`` and this
    process was forked from a server that warmed it; else ``build()``."""
    if _warmed and build == DefaultPipeline():
        return _warmed.pop()
    return build()


if os.environ.pop(WARM_ENV, None):  # only in the fork server start_fork_server(warm=True) started; not passed on
    warm()
