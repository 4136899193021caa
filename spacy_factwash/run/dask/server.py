"""How local Dask workers start: forked from a fork server, which this process starts before its cluster.

A worker forked from a process whose other thread was writing to a stream at
that moment inherits the stream's lock held and hangs at its first write (a
bench run did, in ``pipe_pairs`` on two workers), so workers are never forks
of a busy caller. They are forks of multiprocessing's fork server: one spawned
afresh that imports ``PRELOAD``, or, when the caller has no other thread, a
copy of the caller made then (``fork_server_here``), which has the package
imported already and keeps none of the caller's files open. Asked to, the
server builds and warms the default pipeline before it forks any worker
(``warm.py``), so that the workers share that work instead of each doing it.
"""

import os
import sys

from .warm import WARM_ENV, warm as warm_pipeline

START_METHOD_ENV = "DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD"


def local_start_method() -> str:
    """How local workers start: from a fork server on Linux (``start_fork_server``), spawned elsewhere, Dask's
    default. Either way a script that starts a local cluster needs the ``if __name__ == "__main__":`` guard, as any
    Dask LocalCluster does. The environment variable Dask reads, DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD,
    overrides it."""
    return os.environ.get(START_METHOD_ENV) or ("forkserver" if sys.platform.startswith("linux") else "spawn")


# what the fork server imports before it forks a worker: what every worker imports first
PRELOAD = ("distributed", "spacy", "spacy_factwash.api", "spacy_factwash.pipes.gate.gate",
           "spacy_factwash.run.dask.worker")
WARM = "spacy_factwash.run.dask.warm"  # imported by a server asked to warm the default pipeline (warm.py)


def start_fork_server(warm: bool = False) -> bool:
    """With ``forkserver`` (``local_start_method``), start the server local workers are forked from now, unless it
    runs: it imports ``PRELOAD`` first and, with ``warm``, builds and warms the default pipeline for the workers
    (``warm.py``; ``WARM_ENV`` is set in the server's environment alone). The server starts once per process and
    serves every later cluster; started before the cluster is, it does its imports while this process starts the
    scheduler. Dask's own preload list, set when it first asks for its context, comes after and is not used.

    A process with no other thread forks the server from itself (``fork_server_here``): it starts with what this
    process imported and holds (``warm.holding``), instead of importing it all again; any other spawns a fresh one,
    as multiprocessing does. True when the server is a copy of this process made now."""
    if local_start_method() != "forkserver":
        return False
    from multiprocessing import forkserver

    preload = list(PRELOAD + ((WARM,) if warm else ()))
    forkserver.set_forkserver_preload(preload)
    if warm:
        os.environ[WARM_ENV] = "1"
    try:
        if fork_server_here(preload, warm):
            return True
        forkserver.ensure_running()
        return False
    finally:
        os.environ.pop(WARM_ENV, None)


def let_go_all_but(keep: list) -> None:
    """Point every descriptor of this process but those in ``keep`` at the null device: the caller's files, locks
    and pipes are let go, and an object of the caller's that still holds a descriptor number reads and writes
    nothing, where after a close it would reach whatever file took that number next."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in [int(name) for name in os.listdir("/dev/fd")]:
        if fd not in keep and fd != null:
            try:
                os.dup2(null, fd, inheritable=False)
            except OSError:  # the listing's own descriptor, gone already
                pass
    os.close(null)


FORK_SERVER_STATE = ("_forkserver_address", "_forkserver_alive_fd", "_forkserver_pid", "_lock")
# libraries that run native threads Python does not count (OpenMP pools, gRPC): a copy of a process that holds them
# may hang; the server is spawned afresh instead
NATIVE_THREADS = ("torch", "tensorflow", "jax", "tokenizers", "grpc", "onnxruntime")


def _copyable() -> bool:
    """Whether this process can be copied into a fork server: no other Python thread, and none of the libraries
    that run threads of their own (``NATIVE_THREADS``) imported."""
    import threading

    return threading.active_count() == 1 and not any(name in sys.modules for name in NATIVE_THREADS)


def _as_started() -> None:
    """What the copied server does first: signal handlers this process installed back to their defaults (a worker
    forked from it must not run the caller's clean-up on a signal) and ``WARM_ENV`` out of its environment."""
    import signal

    for number in signal.valid_signals():
        try:
            handler = signal.getsignal(number)
        except (OSError, ValueError):
            continue
        if callable(handler) and handler is not signal.default_int_handler:
            signal.signal(number, signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL)
    os.environ.pop(WARM_ENV, None)


def fork_server_here(preload: list, warm: bool = False) -> bool:
    """Start multiprocessing's fork server as a fork of this process, when it has no other thread (so the fork
    holds no lock another thread held: a worker forked from a copy of a busy process hung at its first write), no
    server runs yet, and multiprocessing keeps the server's state as this knows it (``FORK_SERVER_STATE``, and no
    ``authkey``, which later Pythons add). The copy keeps only its standard streams and the server's two ends
    (``let_go_all_but``), warms the default pipeline with ``warm`` (``warm.warm``: its module may be imported here
    already) and runs the server's ``main`` on ``preload``, as a spawned server does; True when it started."""
    import gc
    import socket
    import warnings
    from multiprocessing import connection, forkserver, resource_tracker, util

    server = getattr(forkserver, "_forkserver", None)
    if (not _copyable() or not all(hasattr(server, name) for name in FORK_SERVER_STATE)
            or hasattr(server, "_forkserver_authkey") or server._forkserver_pid is not None):
        return False
    resource_tracker.ensure_running()
    listener = socket.socket(socket.AF_UNIX)
    address = connection.arbitrary_address("AF_UNIX")
    listener.bind(address)
    if not util.is_abstract_socket_namespace(address):
        os.chmod(address, 0o600)
    listener.listen()
    alive_r, alive_w = os.pipe()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
        with warnings.catch_warnings():  # Python 3.12+ warns of threads it counts that are none of Python's
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:  # no memory to fork, a closed output: the server is spawned afresh instead
        for end in (alive_r, alive_w):
            os.close(end)
        listener.close()
        if not util.is_abstract_socket_namespace(address):
            os.unlink(address)
        return False
    if pid == 0:  # the server: never returns into the caller's code
        code = 1
        try:
            os.close(alive_w)
            let_go_all_but([0, 1, 2, listener.fileno(), alive_r])
            _as_started()
            if warm:
                warm_pipeline()
            gc.freeze()  # what the copy holds stays out of the workers' collections: its pages stay shared
            forkserver.main(listener.fileno(), alive_r, preload)
        except SystemExit:  # every client gone: the server's way to end
            code = 0
        finally:
            os._exit(code)
    os.close(alive_r)
    listener.close()
    with server._lock:
        server._forkserver_address, server._forkserver_alive_fd, server._forkserver_pid = address, alive_w, pid
    return True
