"""Connecting to a Dask cluster: a local one on 127.0.0.1, or a running scheduler by address."""

from contextlib import contextmanager
from typing import Iterator

from ...errors import FactwashError

LOCAL = "local"
START_METHOD = "distributed.worker.multiprocessing-method"
START_METHOD_ENV = "DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD"


class ScaleError(FactwashError):
    """A cluster run that cannot start or did not finish; the message is one line saying why."""

    code = "E005"


def local_start_method() -> str:
    """How local workers start: from a fork server on Linux (``prepare_start``: a clean process that imported spaCy
    and the package, so a worker starts with them, as a fork of this process would, without inheriting its
    threads: a worker forked from a process whose other thread was writing to a stream at that moment inherits
    the stream's lock held and hangs at its first write, as a bench run did in pipe_pairs on two workers);
    spawned elsewhere, Dask's default. Either way a script that starts a local cluster needs the
    ``if __name__ == "__main__":`` guard, as any Dask LocalCluster does. The environment variable Dask reads,
    DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD, overrides it."""
    import os
    import sys

    return os.environ.get(START_METHOD_ENV) or ("forkserver" if sys.platform.startswith("linux") else "spawn")


def distributed():
    """The ``distributed`` module, or a ScaleError saying which extra to install."""
    try:
        import distributed as module
    except ImportError as err:
        raise ScaleError("running on Dask needs the dask extra: pip install 'spacy-factwash[dask]'") from err
    return module


# what the fork server imports before it forks a worker: what every worker imports first
PRELOAD = ("distributed", "spacy", "spacy_factwash.api", "spacy_factwash.pipes.gate.gate",
           "spacy_factwash.run.dask.worker")


def prepare_start(method: str) -> None:
    """With ``forkserver``, have the server Dask's workers are forked from import ``PRELOAD`` first (the server
    starts once per process, at its first local cluster, and serves every later one). Called with Dask's start
    method set: Dask sets its own preload list the first time it asks for its context, so it asks here first."""
    if method == "forkserver":
        from distributed.utils import get_mp_context

        get_mp_context().set_forkserver_preload(list(PRELOAD))


@contextmanager
def client_for(scheduler: str, n_workers: int = 2) -> Iterator["distributed.Client"]:
    """A client of ``scheduler``: ``"local"`` starts ``n_workers`` worker processes (one thread each) bound to
    127.0.0.1 for the block; anything else is the address of a running scheduler (``tcp://host:8786``)."""
    dask = distributed()
    if scheduler == LOCAL:
        if n_workers < 1:
            raise ScaleError(f"a local cluster needs at least 1 worker, got {n_workers}")
        from dask import config

        method = local_start_method()
        with config.set({START_METHOD: method}):
            prepare_start(method)
            with dask.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None) as cluster, dask.Client(cluster) as client:
                yield client
        return
    try:
        client = dask.Client(scheduler, timeout="20s")
    except (OSError, TimeoutError, ValueError) as err:
        raise ScaleError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from err
    with client:
        yield client
