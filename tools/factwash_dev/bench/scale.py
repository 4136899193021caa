"""The scale benchmark: one process, spaCy's ``n_process``, and a local Dask cluster on the same texts and pairs,
each as a ratio to one process measured in the same run; the ``annotate`` command's ways of running on a file
(one process, ``--n-process``, ``--scheduler local`` with and without DocBins), as whole runs; what writing a
partition's records and DocBin costs per Doc beside annotating it; the cost of starting workers; resident memory
over a stream of distinct pairs. Used by ``bench-scale``; nothing at runtime imports it.
"""

import json
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Sequence, Tuple

from spacy.tokens import DocBin

from spacy_factwash.api import DEFAULT_MAX_LENGTH, load
from spacy_factwash.io.inputs import InputLine
from spacy_factwash.io.strict_json import dumps
from spacy_factwash.pipes.gate.gate import Gate
from spacy_factwash.run.annotate import annotate_file
from spacy_factwash.run.dask.cluster import LOCAL, client_for
from spacy_factwash.run.dask.corpus import annotate_corpus
from spacy_factwash.run.dask.stream import annotate_stream
from spacy_factwash.run.docbins import PackedDocBin
from spacy_factwash.run.records import annotate_records, annotation_record

from .speed import clear_caches, current_rss_mb


@dataclass(frozen=True)
class Rate:
    """Items per second of one way of running, over the whole run and after its first batch came back (the
    steady rate: without starting workers, building their pipelines and warming them), each as a ratio to one
    process."""

    name: str
    items: int
    seconds: float
    ratio: float
    steady_per_second: float
    steady_ratio: float

    @property
    def per_second(self) -> float:
        return self.items / self.seconds


def _timings(run: Callable[[], Iterator], first_batch: int) -> Tuple[int, float, float]:
    """Drain ``run()`` (quantulum3's cache emptied first): items, wall seconds, and items per second after the
    first ``first_batch`` items."""
    clear_caches()
    count, started, steady_from = 0, time.perf_counter(), None
    for count, _ in enumerate(run(), start=1):
        if count == first_batch:
            steady_from = time.perf_counter()
    ended = time.perf_counter()
    steady = (count - first_batch) / (ended - steady_from) if steady_from and ended > steady_from else float("nan")
    return count, ended - started, steady


def _rates(runs: Sequence[Tuple[str, Callable[[], Iterator]]], first_batch: int, repeat: int) -> List[Rate]:
    """Time each run ``repeat`` times, interleaved (the machine's load changes as it goes), keeping the best of
    each; ratios to the first (one process)."""
    best = {name: (0, float("inf"), 0.0) for name, _ in runs}
    for _ in range(repeat):
        for name, run in runs:
            items, seconds, steady = _timings(run, first_batch)
            best[name] = (items, min(seconds, best[name][1]), max(steady, best[name][2]))
    timed = [(name, *best[name]) for name, _ in runs]
    _, _, one_seconds, one_steady = timed[0]
    return [Rate(name, items, seconds, one_seconds / seconds, steady, steady / one_steady)
            for name, items, seconds, steady in timed]


def _lines(texts: Sequence[str]) -> List[InputLine]:
    return [InputLine(number, text) for number, text in enumerate(texts, start=1)]


def _spacy_n_process(texts: Sequence[str], n_process: int, batch_size: int) -> Iterator:
    """spaCy's ``n_process``: workers annotate, the Docs come back to this process to be read."""
    nlp = load()
    pairs = ((text, item) for text, item in zip(texts, _lines(texts)))
    return (annotation_record(item, doc) for doc, item in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size,
                                                                n_process=n_process))


def _pairs_spacy_n_process(pairs: Sequence[Tuple[str, str]], n_process: int, batch_size: int) -> Iterator:
    """spaCy's ``n_process`` for the gate: workers annotate both texts, this process compares."""
    nlp = load()
    gate = Gate(nlp)
    docs = nlp.pipe((text for pair in pairs for text in pair), batch_size=batch_size, n_process=n_process)
    return (gate.compare(source, next(docs)).to_dict() for source in docs)


def annotation_rates(texts: Sequence[str], n_workers: int = 2, batch_size: int = 256, repeat: int = 1) -> List[Rate]:
    """Sentences per second: one process (memory zone per batch), spaCy ``n_process``, a local Dask cluster."""
    nlp = load()
    list(annotate_records(nlp, _lines(texts[:200])))
    return _rates([
        ("1 process", lambda: annotate_records(nlp, _lines(texts), batch_size=batch_size)),
        (f"spaCy n_process={n_workers}", lambda: _spacy_n_process(texts, n_workers, batch_size)),
        (f"Dask LocalCluster, {n_workers} workers",
         lambda: annotate_stream(load, _lines(texts), batch_size=batch_size, n_workers=n_workers)),
    ], batch_size, repeat)


def writing_costs(texts: Sequence[str], batch_size: int = 256, repeat: int = 1) -> Dict[str, float]:
    """Milliseconds per Doc, in this process, of annotating ``texts`` and of each thing a corpus run's partition
    writes for them, each timed alone over the same Docs (best of ``repeat``, interleaved): the record, its JSONL
    line, adding the Doc to spaCy's ``DocBin`` and to the ``PackedDocBin`` a partition writes, and its share of
    the DocBin file's bytes (``to_bytes``)."""
    nlp, lines = load(), _lines(texts)
    list(nlp.pipe(texts[:200]))
    docs = list(nlp.pipe(texts, batch_size=batch_size))
    records = [annotation_record(line, doc) for line, doc in zip(lines, docs)]
    filled = PackedDocBin(store_user_data=True, docs=docs)
    runs = {"annotation": lambda: list(nlp.pipe(texts, batch_size=batch_size)),
            "record": lambda: [annotation_record(line, doc) for line, doc in zip(lines, docs)],
            "JSONL line": lambda: [dumps(record) for record in records],
            "spaCy DocBin.add": lambda: DocBin(store_user_data=True, docs=docs),
            "PackedDocBin.add": lambda: PackedDocBin(store_user_data=True, docs=docs),
            "DocBin.to_bytes": filled.to_bytes}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for name, run in runs.items():
            started = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - started)
    return {name: seconds * 1000 / len(texts) for name, seconds in best.items()}


def annotate_command_rates(texts: Sequence[str], n_workers: int = 2, batch_size: int = 256,
                           repeat: int = 1) -> List[Tuple[str, float, float]]:
    """Whole runs of ``annotate`` on a JSONL file of ``texts`` (pipelines built and workers started inside the
    run, output written): one process, ``--n-process``, and ``--scheduler local`` writing JSONL and DocBins, and
    JSONL only (``--partition-lines`` at its default); (name, best seconds of ``repeat`` interleaved, ratio to
    one process)."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "texts.jsonl"
        source.write_text("".join(json.dumps({"text": text}) + "\n" for text in texts), encoding="utf8")
        out = Path(folder)
        runs = [
            ("annotate, 1 process", lambda: annotate_file(source, out / "one.jsonl", max_length=DEFAULT_MAX_LENGTH,
                                                          batch_size=batch_size)),
            (f"annotate --n-process {n_workers}",
             lambda: annotate_file(source, out / "many.jsonl", max_length=DEFAULT_MAX_LENGTH, batch_size=batch_size,
                                   n_process=n_workers)),
            (f"--scheduler local --workers {n_workers}",
             lambda: annotate_corpus([source], out / "parts", n_workers=n_workers, batch_size=batch_size)),
            ("  the same, --no-docbin",
             lambda: annotate_corpus([source], out / "jsonl", docbin=False, n_workers=n_workers,
                                     batch_size=batch_size)),
        ]
        best = {name: float("inf") for name, _ in runs}
        for _ in range(repeat):
            for name, run in runs:
                clear_caches()
                started = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - started)
    one = best[runs[0][0]]
    return [(name, seconds, one / seconds) for name, seconds in best.items()]


def gate_rates(pairs: Sequence[Tuple[str, str]], n_workers: int = 2, batch_size: int = 256,
               repeat: int = 1) -> List[Rate]:
    """Pairs per second: one process, spaCy ``n_process`` annotating for a comparing parent, a local Dask cluster
    (``pipe_pairs(n_process=...)``)."""
    gate = Gate(load())
    list(gate.pipe(pairs[:50]))
    return _rates([
        ("1 process", lambda: gate.pipe(pairs, batch_size=batch_size)),
        (f"spaCy n_process={n_workers}", lambda: _pairs_spacy_n_process(pairs, n_workers, batch_size)),
        (f"Dask LocalCluster, {n_workers} workers",
         lambda: gate.pipe(pairs, batch_size=batch_size, n_process=n_workers)),
    ], batch_size, repeat)


def worker_start(n_workers: int = 2) -> Tuple[float, float, float]:
    """Seconds to start a local cluster of ``n_workers`` processes, seconds to then build the default pipeline on
    each of them (the fixed cost of a Dask run, paid once per run, or once per cluster when it is kept), and the
    resident MB of one worker holding it. A worker's first gated number loads quantulum3's data on top."""
    from spacy_factwash.run.dask.worker import with_pipeline

    started = time.perf_counter()
    with client_for(LOCAL, n_workers) as client:
        up = time.perf_counter()
        with_pipeline(client, partial(load))
        built = time.perf_counter()
        resident = max(client.run(current_rss_mb).values())
    return up - started, built - up, resident


def distinct_pairs(sentences: Sequence[str], total: int) -> Iterator[Tuple[str, str]]:
    """``total`` pairs, no two alike and each with words no other pair has (a case code, as in a real stream of
    tickets or names): source two sentences, memory the first of them."""
    size = len(sentences)
    for index in range(total):
        code = f"Case {index:x}q{index * 7919 % 104729:x}:"
        first, second = sentences[index % size], sentences[(index * 31 + 1) % size]
        yield f"{code} {first} {second}", f"{code} {first}"


def stream_memory(pairs: Iterator[Tuple[str, str]], every: int, batch_size: int = 256) -> List[Tuple[int, float]]:
    """Gate a stream of pairs in one process; (pairs so far, resident MB) every ``every`` pairs."""
    gate = Gate(load())
    readings = []
    for count, _ in enumerate(gate.pipe(pairs, batch_size=batch_size), start=1):
        if count % every == 0:
            readings.append((count, current_rss_mb()))
    return readings


def scale_bench(root: Path, texts: int, pairs: int, stream: int, workers: int, repeat: int = 1) -> Iterator[str]:
    """The lines of the scale bench, each as soon as it is measured (``bench-scale``'s options): BioScope
    sentences (cycled up to ``texts``) and ``pairs`` distinct pairs in each way of running, the cost of starting
    the workers, and resident memory every 10,000 pairs of a stream of ``stream`` distinct pairs."""
    from ..evaluation.bioscope import read_sentences

    folder = root / "bioscope" / "raw"
    sentences = read_sentences(folder / "abstracts.xml") + read_sentences(folder / "full_papers.xml")
    sample, pair_sample = [sentences[i % len(sentences)] for i in range(texts)], list(distinct_pairs(sentences, pairs))
    yield (f"{texts:,} sentences ({min(texts, len(sentences)):,} distinct, BioScope), {pairs:,} distinct pairs, "
           f"{workers} processes")
    up, built, resident = worker_start(workers)
    yield (f"  Dask start: {up:.1f} s for {workers} worker processes, then {built:.1f} s to build the pipeline on "
           f"each (in parallel), {resident:,.0f} MB resident per worker; in the Dask rows' whole-run figures")
    costs = writing_costs(sample[:5000], repeat=repeat)
    written = costs["record"] + costs["JSONL line"] + costs["PackedDocBin.add"] + costs["DocBin.to_bytes"]
    before = written - costs["PackedDocBin.add"] + costs["spaCy DocBin.add"]
    yield f"  per Doc, one process, {min(texts, 5000):,} of them: " + ", ".join(
        f"{name} {ms:.3f} ms" for name, ms in costs.items())
    yield (f"  a partition's writing (record, JSONL line, PackedDocBin.add, to_bytes) {written:.3f} ms per Doc: "
           f"{written / costs['annotation']:.2f}x the annotation (with spaCy's DocBin.add {before:.3f} ms, "
           f"{before / costs['annotation']:.2f}x)")
    for name, seconds, ratio in annotate_command_rates(sample, workers, repeat=repeat):
        yield f"  {texts:,} lines {name:<38} {seconds:>6.1f} s  ratio to 1 process {ratio:.2f}"
    for what, rates in (("sentences", annotation_rates(sample, workers, repeat=repeat)),
                        ("pairs", gate_rates(pair_sample, workers, repeat=repeat))):
        yield from (f"  {what:<9} {rate.name:<30} {rate.per_second:>8,.0f} {what}/s  {rate.seconds:>6.1f} s  "
                    f"ratio to 1 process {rate.ratio:.2f};  after the first batch {rate.steady_per_second:>8,.0f}"
                    f" {what}/s, ratio {rate.steady_ratio:.2f}" for rate in rates)
    if stream:
        readings = stream_memory(distinct_pairs(sentences, stream), 10_000)
        yield "  resident memory, distinct pairs: " + ", ".join(f"{n:,}: {mb:,.0f} MB" for n, mb in readings)
        if readings:
            first, last = readings[0][1], readings[-1][1]
            yield f"  growth after the first reading: {last - first:+,.0f} MB ({(last - first) / first:+.1%})"
