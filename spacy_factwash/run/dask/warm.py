"""The default pipeline built and warmed once, in the fork server local workers are forked from, not in each worker.

A pipeline's components read and compile their data at its first document
(``api.load``; ``zones.zone`` primes a pipeline before its first memory
zone), which costs a worker more than starting does. When a run whose
workers build the default pipeline (``DefaultPipeline``) starts the fork
server (``server.start_fork_server(warm=True)``), the server imports this
module with ``WARM_ENV`` set in its environment alone, builds the default
pipeline and annotates one short text with it inside a memory zone, so
every worker forked from it holds a copy that is ready. A worker's first
plugin whose build is ``DefaultPipeline()`` takes that copy
(``pipeline_for``); any other build, and any build after the first, is
built on the worker as before. A server that could not build the pipeline
keeps none, and the worker builds it (and reports why it cannot) itself.
"""

import os
from typing import Callable, List

from spacy.language import Language

from ...zones import zone
from ..annotate import DefaultPipeline

WARM_ENV = "SPACY_FACTWASH_WARM_FORK_SERVER"  # set in the fork server's environment when it is to warm a pipeline
WARM_TEXT = "Smith et al. reported that the drug may reduce the risk by 20% in 2019."
_warmed: List[Language] = []  # the warmed default pipeline, until a worker's plugin takes it


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
