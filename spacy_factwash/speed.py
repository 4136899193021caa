"""The speed benchmark: the cue pipeline against a tokenizer + sentencizer floor, in one run.

Machines here are noisy, so the figure that matters is a ratio measured in
the same process over the same sentences: each pipeline is timed several
times, interleaved, and the best run of each is kept.
"""

import gc
import time
from dataclasses import dataclass
from typing import Dict, List, Sequence

import spacy
from spacy.language import Language

from .pipeline import load


@dataclass(frozen=True)
class SpeedResult:
    """Sentences per second for one pipeline, and its cost relative to the floor."""

    name: str
    sentences_per_second: float
    ratio_to_floor: float


def floor_pipeline() -> Language:
    """Blank English with the sentencizer: the least any pipeline here does."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def cue_pipeline() -> Language:
    """The floor plus ``factwash_cues``: what the cue layer costs on its own."""
    nlp = floor_pipeline()
    nlp.add_pipe("factwash_cues")
    return nlp


def _seconds(nlp: Language, texts: Sequence[str], batch_size: int) -> float:
    """Wall time of one pass over the texts, starting from a collected heap."""
    gc.collect()
    started = time.perf_counter()
    for _ in nlp.pipe(texts, batch_size=batch_size):
        pass
    return time.perf_counter() - started


def measure(texts: Sequence[str], repeat: int = 5, batch_size: int = 1000) -> List[SpeedResult]:
    """Time the floor, the cue pipeline and the full default pipeline over ``texts``."""
    if not texts:
        raise ValueError("no sentences to time")
    pipelines: Dict[str, Language] = {
        "tokenizer+sentencizer (floor)": floor_pipeline(),
        "floor + factwash_cues": cue_pipeline(),
        "spacy_factwash.load() (+ lemmas, gate)": load(),
    }
    for nlp in pipelines.values():
        _seconds(nlp, texts[:200], batch_size)  # warm caches
    best = {name: float("inf") for name in pipelines}
    for _ in range(max(1, repeat)):
        for name, nlp in pipelines.items():
            best[name] = min(best[name], _seconds(nlp, texts, batch_size))
    floor = best["tokenizer+sentencizer (floor)"]
    return [SpeedResult(name, len(texts) / seconds, seconds / floor) for name, seconds in best.items()]
