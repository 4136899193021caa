"""Local Dask workers are never forks of a calling process that has other threads (``run/dask/cluster.py``): a fork
copies the locks the caller's other threads hold, and a worker forked while one of them was writing to a stream
hung at its first write (a bench run, in ``pipe_pairs`` on two workers). They come from a fork server: one that
imported the package afresh, or, when the caller has no other thread, a copy of it that keeps none of its files
open. A server asked to warm the default pipeline hands each worker a copy that annotates as a fresh one does."""

import json
import subprocess
import sys

import pytest

pytest.importorskip("distributed")

SEEN_BY_WORKER = """
import os, sys, threading
import spacy_factwash.run.dask.server as server
from spacy_factwash.run.dask.cluster import client_for

def worker_view():
    import sys as worker_sys
    import spacy_factwash.run.dask.cluster as worker_cluster
    return hasattr(worker_cluster, "set_in_the_caller"), "spacy" in worker_sys.modules

import spacy_factwash.run.dask.cluster as cluster
cluster.set_in_the_caller = True  # a copy of this process sees it; a freshly started server does not
if sys.argv[1] == "busy":
    stop = threading.Event()
    threading.Thread(target=stop.wait, daemon=True).start()
held = open(sys.argv[2], "w")  # a file the caller holds open while the server starts
server.start_fork_server()
from multiprocessing import forkserver
server = forkserver._forkserver._forkserver_pid
with client_for("local", n_workers=1) as client:
    marker, spacy_there = client.submit(worker_view, pure=False).result(timeout=120)
open_files = [os.readlink(f"/proc/{server}/fd/{fd}") for fd in os.listdir(f"/proc/{server}/fd")]
print(marker, spacy_there, sys.argv[2] in open_files)
"""


def _seen(state: str, tmp_path) -> str:
    """What a one-worker cluster started by a fresh caller (with another thread running or none) shows."""
    done = subprocess.run([sys.executable, "-c", SEEN_BY_WORKER, state, str(tmp_path / "held.txt")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is how workers start on Linux")
def test_a_caller_with_another_thread_gets_workers_of_a_fresh_fork_server(tmp_path):
    assert _seen("busy", tmp_path) == ["False", "True", "False"]  # started clean, with spaCy imported by the server


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is how workers start on Linux")
def test_a_caller_with_no_other_thread_is_copied_into_a_server_that_keeps_none_of_its_files(tmp_path):
    assert _seen("alone", tmp_path) == ["True", "True", "False"]  # a copy of the caller, its open file closed


HELD_BY_WORKER = """
import sys, threading
import spacy_factwash
from spacy_factwash.run.dask.stream import cluster_stream
from spacy_factwash.run.dask.warm import Given
from spacy_factwash.run.dask.worker import worker_plugin
from spacy.language import Language

@Language.component("users_own")
def users_own(doc):
    return doc

def seen(name, batch):
    plugin = worker_plugin(name)
    return [(plugin.nlp.meta.get("held"), type(plugin.build).__name__) for _ in batch]

def signal_seen(name, batch):
    import signal
    return [str(signal.getsignal(signal.SIGTERM)) for _ in batch]

def on_term(*_):
    pass

if __name__ == "__main__":
    nlp = spacy_factwash.load()
    nlp.meta["held"] = "own"  # changed after it was built: the workers must have this pipeline
    if sys.argv[1] == "busy":
        threading.Thread(target=threading.Event().wait, daemon=True).start()
    if sys.argv[1] == "user":  # a component of the user's, which may hold a file the copy lets go: pickled
        nlp.add_pipe("users_own", first=True)
    if sys.argv[1] == "signal":  # the caller's clean-up on SIGTERM is not a worker's
        import signal
        signal.signal(signal.SIGTERM, on_term)
        print(*{item for _, results in cluster_stream(Given(nlp), signal_seen, range(2), batch_size=1, n_workers=1)
                for item in results})
        sys.exit(0)
    print(*{item for _, results in cluster_stream(Given(nlp), seen, range(4), batch_size=2, n_workers=2)
            for item in results})
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is how workers start on Linux")
@pytest.mark.parametrize("state,build", [("alone", "Inherited"), ("busy", "Given"), ("user", "Given")])
def test_the_workers_gate_on_the_callers_own_pipeline_inherited_or_unpickled(tmp_path, state, build):
    script = tmp_path / "held.py"
    script.write_text(HELD_BY_WORKER)
    done = subprocess.run([sys.executable, str(script), state], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"('own', '{build}')"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is how workers start on Linux")
def test_a_worker_of_a_copied_server_runs_none_of_the_callers_signal_handlers(tmp_path):
    script = tmp_path / "held.py"
    script.write_text(HELD_BY_WORKER)
    done = subprocess.run([sys.executable, str(script), "signal"], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "0"  # SIG_DFL: the copy set the caller's handler back


def test_a_worker_of_a_warmed_server_annotates_as_a_fresh_pipeline_does(tmp_path):
    from spacy_factwash.run.annotate import DefaultPipeline, annotate_file
    from spacy_factwash.run.dask import warm

    texts = tmp_path / "texts.txt"
    texts.write_text("Smith et al. reported that the drug may reduce the risk.\nIt rains.\n\nAllegedly, 3 mg helped.\n")
    annotate_file(texts, tmp_path / "fresh.jsonl", max_length=DefaultPipeline().max_length)
    warm.warm()  # what a warmed server does before it forks a worker
    assert len(warm._warmed) == 1 and warm.pipeline_for(DefaultPipeline(max_length=5)).max_length == 5  # not it
    taken = warm.pipeline_for(DefaultPipeline())
    assert not warm._warmed and warm.pipeline_for(DefaultPipeline()) is not taken  # handed out once
    annotate_file(texts, tmp_path / "warmed.jsonl", max_length=DefaultPipeline().max_length,
                  executor=_Reusing(taken))
    assert (tmp_path / "warmed.jsonl").read_text() == (tmp_path / "fresh.jsonl").read_text()


class _Reusing:
    """An executor annotating here on a pipeline it was given (the warmed one) instead of building one."""

    def __init__(self, nlp) -> None:
        self.nlp = nlp

    def annotate(self, build, items, *, batch_size: int, n_workers: int = 1):
        from spacy_factwash.run.records import annotate_records

        return annotate_records(self.nlp, items, batch_size=batch_size)


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
