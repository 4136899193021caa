"""Local Dask workers are never forks of the calling process (``run/dask/cluster.py``): a fork copies the locks
the caller's other threads hold, and a worker forked while one of them was writing to a stream hung at its first
write (a bench run, in ``pipe_pairs`` on two workers). They come from a fork server that imported the package."""

import json
import subprocess
import sys

import pytest

import spacy_factwash.run.dask.cluster as cluster
from spacy_factwash.run.dask.cluster import client_for

pytest.importorskip("distributed")

MARKER = "set_in_the_calling_process_only"


def test_a_local_worker_does_not_start_as_a_copy_of_the_calling_process():
    setattr(cluster, MARKER, True)  # a fork of this process would see it; a worker of the fork server does not
    try:
        with client_for("local", n_workers=1) as client:
            def worker_view():
                import sys as worker_sys

                import spacy_factwash.run.dask.cluster as worker_cluster

                return hasattr(worker_cluster, MARKER), "spacy" in worker_sys.modules

            has_marker, has_spacy = client.submit(worker_view, pure=False).result(timeout=120)
    finally:
        delattr(cluster, MARKER)
    assert not has_marker and has_spacy  # started clean, with spaCy already imported by the fork server


def test_the_command_line_runs_on_two_local_workers_as_a_module(tmp_path):
    # the command line as a user starts it, its workers from the fork server, answering as one process does
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"source": "Alice said it may rain.", "memory": text}) + "\n"
                             for text in ["It rains.", "Alice said it may rain."] * 3))
    done = subprocess.run([sys.executable, "-m", "spacy_factwash", "gate", str(pairs), str(tmp_path / "out.jsonl"), "--n-process", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    verdicts = [json.loads(line)["verdict"] for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert verdicts == ["rewrite", "pass"] * 3  # as one process answers (hearsay made fact; a copy)
