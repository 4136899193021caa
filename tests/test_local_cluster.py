"""The local cluster a run starts (``run/dask/cluster.client_for``) spends its workers' time on the run's tasks: no
statistical profiler samples them (a stack sample every 10 ms, which only a dashboard reads)."""

import pytest

pytest.importorskip("distributed")

from spacy_factwash.run.dask.cluster import client_for  # noqa: E402


def _periodic(dask_worker=None):
    """The periodic callbacks a worker runs."""
    return sorted(dask_worker.periodic_callbacks)


def test_the_workers_of_a_local_cluster_run_no_profiler_and_answer_tasks():
    with client_for("local", n_workers=1) as client:
        callbacks = list(client.run(_periodic).values())
        assert client.submit(sum, [1, 2], pure=False).result() == 3
    assert len(callbacks) == 1 and "heartbeat" in callbacks[0]  # the worker's own periodic callbacks, read
    assert not [name for name in callbacks[0] if name.startswith("profile")]
