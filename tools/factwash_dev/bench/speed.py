"""Speed benchmarks: the cue pipeline against a tokenizer + sentencizer floor, and the gate's pairs per second.

Machines here are noisy, so the figure that matters is a ratio measured in
the same process over the same sentences: each pipeline is timed several
times, interleaved, and the best run of each is kept.
"""

import gc
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from spacy.language import Language

from spacy_factwash.api import load
from spacy_factwash.pipes.gate.gate import Gate

from .timing import best_seconds, clear_caches, cue_pipeline, floor_pipeline, per_call_seconds


@dataclass(frozen=True)
class SpeedResult:
    """Sentences per second for one pipeline, and its cost relative to the floor."""

    name: str
    sentences_per_second: float
    ratio_to_floor: float


def has_digits(pair: Tuple[str, str]) -> bool:
    """Whether a pair holds a digit (a value to read: the gate's slower path)."""
    return any(ch.isdigit() for ch in pair[0] + pair[1])


def measure(texts: Sequence[str], repeat: int = 5, batch_size: int = 1000) -> List[SpeedResult]:
    """Time the floor, the cue pipeline and the full default pipeline over ``texts``."""
    pipelines: Dict[str, Language] = {
        "tokenizer+sentencizer (floor)": floor_pipeline(),
        "floor + factwash_cues": cue_pipeline(),
        "spacy_factwash.load() (+ lemmas, gate)": load(),
    }
    best = best_seconds(pipelines, texts, repeat, batch_size)
    floor = best["tokenizer+sentencizer (floor)"]
    return [SpeedResult(name, len(texts) / seconds, seconds / floor) for name, seconds in best.items()]


def speed_bench(corpus: Path, repeat: int = 5, limit: int = 0, sets: Optional[Path] = None) -> Iterator[str]:
    """The lines of the speed bench on a BioScope file (its first ``limit`` sentences when given): sentences per
    second of each pipeline and its ratio to the floor; with ``sets`` (the written pair sets), ``inspect`` called
    once per pair, on the pairs without digits and on those with, against the floor on the same pairs."""
    from ..evaluation.bioscope import read_sentences

    sentences = read_sentences(corpus)[:limit or None]
    yield f"{len(sentences):,} sentences from {corpus}, best of {repeat} runs each"
    for result in measure(sentences, repeat=repeat):
        yield (f"  {result.name:<42} {result.sentences_per_second:>9,.0f} sentences/s   "
               f"ratio {result.ratio_to_floor:.2f}")
    if sets is not None:
        from ..evaluation.gate_sets import written_pairs

        pairs = written_pairs(sets)
        for name, chosen in (("without digits", [p for p in pairs if not has_digits(p)]),
                             ("with digits", [p for p in pairs if has_digits(p)])):
            if not chosen:
                continue
            inspected, floored = per_call_seconds(chosen, repeat)
            rate, floor = len(chosen) / inspected, len(chosen) / floored
            yield (f"  inspect() per call, {len(chosen)} written pairs {name:<15} {rate:>9,.0f} pairs/s       "
                   f"ratio {floor / rate:.2f} (floor {floor:,.0f} pairs/s)")


@dataclass(frozen=True)
class GateSpeed:
    """Pairs per second for one set of pairs and one process count, with the process's peak memory."""

    name: str
    pairs: int
    n_process: int
    pairs_per_second: float
    peak_rss_mb: float


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    """This process's resident memory now, in MB (from /proc; 0 where there is none)."""
    try:
        with open("/proc/self/statm") as handle:
            pages = int(handle.read().split()[1])
    except OSError:
        return 0.0
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def gate_speed(named_pairs: Dict[str, Sequence[Tuple[str, str]]], n_processes: Sequence[int] = (1, 2),
               batch_size: int = 256) -> List[GateSpeed]:
    """Time ``pipe_pairs`` of the default gate over each set of pairs, for each process count."""
    gate = Gate(load())
    warm = [("Revenue was 1.2 million dollars, Alice said.", "Revenue was 1.2 million euros.")] * 8
    list(gate.pipe(warm))  # quantulum3 loads its data on first use
    results = []
    for name, pairs in named_pairs.items():
        if not pairs:
            continue
        for n_process in n_processes:
            clear_caches()
            gc.collect()
            started = time.perf_counter()
            for _ in gate.pipe(pairs, batch_size=batch_size, n_process=n_process):
                pass
            seconds = time.perf_counter() - started
            results.append(GateSpeed(name, len(pairs), n_process, len(pairs) / seconds, peak_rss_mb()))
    return results


def stream_memory(pairs: Sequence[Tuple[str, str]], total: int, every: int) -> List[Tuple[int, float]]:
    """Gate ``total`` pairs (cycling through ``pairs``) as one stream; resident memory every ``every`` pairs."""
    gate = Gate(load())

    def stream():
        for index in range(total):
            yield pairs[index % len(pairs)]

    readings = []
    for count, _ in enumerate(gate.pipe(stream()), start=1):
        if count % every == 0:
            readings.append((count, current_rss_mb()))
    return readings


def long_document_speed(source: str, memory: str) -> Tuple[float, float]:
    """Seconds to annotate one long (source, memory) pair, and to annotate and compare it: the floor and the gate."""
    nlp = load()
    gate = Gate(nlp)
    list(gate.pipe([("Revenue was 1.2 million dollars, Alice said.", "Revenue was 1.2 million euros.")]))
    clear_caches()
    started = time.perf_counter()
    source_doc, memory_doc = nlp.pipe([source, memory])
    annotated = time.perf_counter()
    gate.compare(source_doc, memory_doc)
    return annotated - started, time.perf_counter() - started


def growth(texts: Callable[[int], Tuple[str, str]], sizes: Sequence[int]) -> List[Tuple[int, float, float]]:
    """(size, seconds to annotate, seconds to compare) of the (source, memory) pair ``texts(size)`` at each size:
    doubling the size should double both, never more (alignment and binding are linear)."""
    nlp = load()
    gate = Gate(nlp)
    rows = []
    for size in sizes:
        source, memory = texts(size)
        started = time.perf_counter()
        source_doc, memory_doc = nlp.pipe([source, memory])
        annotated = time.perf_counter()
        gate.compare(source_doc, memory_doc)
        rows.append((size, annotated - started, time.perf_counter() - annotated))
    return rows
