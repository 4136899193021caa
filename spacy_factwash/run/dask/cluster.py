"""Connecting to a Dask cluster: a local one on 127.0.0.1, or a running scheduler by address."""

from contextlib import contextmanager
from typing import Iterator

from ...errors import FactwashError
from .server import local_start_method, start_fork_server

LOCAL = "local"
START_METHOD = "distributed.worker.multiprocessing-method"
# Dask's statistical profiler (a stack sample of the running task every 10 ms): 3-4% of a worker's CPU measured on
# annotation, read only by a dashboard, which a local cluster here has none of; its workers run without it
PROFILER = "distributed.worker.profile.enabled"


class ScaleError(FactwashError):
    """A cluster run that cannot start or did not finish; the message is one line saying why."""

    code = "E005"


def distributed():
    """The ``distributed`` module, or a ScaleError saying which extra to install."""
    try:
        import distributed as module
    except ImportError as err:
        raise ScaleError("running on Dask needs the dask extra: pip install 'spacy-factwash[dask]'") from err
    return module


@contextmanager
def client_for(scheduler: str, n_workers: int = 2) -> Iterator["distributed.Client"]:
    """A client of ``scheduler``: ``"local"`` starts ``n_workers`` worker processes (one thread each, no
    profiler: ``PROFILER``) bound to 127.0.0.1 for the block; anything else is the address of a running scheduler
    (``tcp://host:8786``)."""
    dask = distributed()
    if scheduler == LOCAL:
        if n_workers < 1:
            raise ScaleError(f"a local cluster needs at least 1 worker, got {n_workers}")
        from dask import config

        method = local_start_method()
        with config.set({START_METHOD: method, PROFILER: False}):
            start_fork_server()
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
