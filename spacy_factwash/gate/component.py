"""factwash_compare: the gate's settings in the pipeline config, and compare / pipe over pairs.

The component does nothing to a single Doc (a comparison needs two); it holds
the alignment threshold, the check windows and the enabled checks, so that
``nlp.to_disk`` saves the whole gate, and it compares Docs the pipeline made
(``compare``) or gates a stream of text pairs (``pipe_pairs``).
"""

from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from ..cues.extensions import LEXICON_DIGEST_KEY, LEXICON_VERSION_KEY
from .align import align, sentences
from .checks import (
    PRESENCE_CHECKS,
    CueIndex,
    Pair,
    check_introduced_time,
    check_polarity,
    check_presence,
    check_values,
    excerpt,
)
from .policy import verdict
from .report import ALWAYS_NOT_CHECKED, CHANGE_TYPES, INFORMATIONAL_TYPES, Change, Report

DEFAULT_WINDOWS = {"HEDGE": 1, "CONDITIONAL": 1, "ATTRIBUTION": 0, "NEGATION": 0, "TEMPORAL": 0}
DEFAULT_CONFIG = {
    "threshold": 0.25,
    "windows": DEFAULT_WINDOWS,
    "neighbour_words": 3,
    "min_source_values": 2,
    "disabled": [],
}


class CompareComponent:
    """Compare a memory Doc with its source Doc and gate it."""

    def __init__(self, nlp: Language, name: str, *, threshold: float, windows: Dict[str, int],
                 min_source_values: int, disabled: Sequence[str], neighbour_words: int) -> None:
        unknown = set(disabled) - set(CHANGE_TYPES) - set(INFORMATIONAL_TYPES)
        if unknown:
            raise ValueError(f"{name}: unknown change types in 'disabled': {sorted(unknown)}")
        missing = set(DEFAULT_WINDOWS) - set(windows)
        if missing:
            raise ValueError(f"{name}: 'windows' needs a width for {sorted(missing)}")
        if not 0 < threshold <= 1:
            raise ValueError(f"{name}: threshold must be in (0, 1], got {threshold}")
        self.nlp = nlp
        self.name = name
        self.threshold = threshold
        self.windows = dict(windows)
        if neighbour_words < 0:
            raise ValueError(f"{name}: neighbour_words must be 0 or more, got {neighbour_words}")
        self.neighbour_words = neighbour_words
        self.min_source_values = min_source_values
        self.disabled = tuple(disabled)

    def __call__(self, doc: Doc) -> Doc:
        """A single Doc passes through unchanged: comparing needs a pair."""
        return doc

    def _changes(self, pair: Pair) -> List[Change]:
        found: List[Optional[Change]] = []
        for change_type, (label, _) in PRESENCE_CHECKS.items():
            found.append(check_presence(change_type, pair, self.windows[label]))
        found.append(check_polarity(pair, self.windows["NEGATION"]))
        found.extend(check_values(pair, self.min_source_values))
        found.append(check_introduced_time(pair, self.windows["TEMPORAL"]))
        return [c for c in found if c is not None and c.type not in self.disabled]

    def compare(self, source: Doc, memory: Doc) -> Report:
        """Align every memory sentence, run the checks on aligned ones, and apply the verdict policy."""
        version = memory.user_data.get(LEXICON_VERSION_KEY) or source.user_data.get(LEXICON_VERSION_KEY)
        if version is None:
            raise ValueError("compare needs Docs annotated by factwash_cues (no lexicon version on either Doc)")
        source_sents, memory_sents = sentences(source), sentences(memory)
        source_cues, memory_cues = CueIndex(source), CueIndex(memory)
        changes: List[Change] = []
        uncheckable = []
        for alignment in align(source_sents, memory_sents, self.threshold):
            if alignment.source_index is None:
                uncheckable.append(excerpt(alignment.memory))
                continue
            changes.extend(self._changes(Pair(alignment.memory, source_sents, alignment.source_index, version,
                                               source_cues, memory_cues, self.neighbour_words)))
        verdict_changes = [c for c in changes if c.type in CHANGE_TYPES]
        notes = [c for c in changes if c.type in INFORMATIONAL_TYPES]
        empty = not any(token.is_alpha or token.like_num for token in memory)
        return Report(
            verdict((c.type for c in verdict_changes), uncheckable, empty_memory=empty),
            verdict_changes, uncheckable, list(ALWAYS_NOT_CHECKED) + list(self.disabled), version, notes, empty,
            len(memory_sents),
            lexicon_digest=memory.user_data.get(LEXICON_DIGEST_KEY) or source.user_data.get(LEXICON_DIGEST_KEY, ""),
        )

    def pipe(self, docs: Iterable[Doc], batch_size: int = 256) -> Iterator[Doc]:
        """spaCy's stream protocol: single Docs pass through unchanged (use ``pipe_pairs`` to gate)."""
        yield from docs

    def pipe_pairs(self, pairs: Iterable, *, batch_size: int = 256, n_process: int = 1,
                   as_tuples: bool = False) -> Iterator:
        """Gate (source, memory) text pairs in batches, in order; with ``n_process`` > 1, in worker processes.

        Workers annotate *and* compare their batches (comparing is most of the
        work), each with its own copy of this pipeline; results come back in
        input order. With ``as_tuples``, items are ((source, memory), context)
        and results (report, context). (Named ``pipe_pairs`` because spaCy
        calls a component's ``pipe`` with its Doc stream.)
        """
        items = (item if as_tuples else (item, None) for item in pairs)
        if n_process > 1:
            results = _parallel(self, _batches(items, batch_size), n_process)
        else:
            results = (result for batch in _batches(items, batch_size) for result in self._gate_batch(batch))
        for report, context in results:
            yield (report, context) if as_tuples else report

    def _gate_batch(self, batch: List[Tuple[Tuple[str, str], object]]) -> List[Tuple[Report, object]]:
        """Annotate one batch of pairs and compare each."""
        texts = [text for (source, memory), _ in batch for text in (source, memory)]
        docs = list(self.nlp.pipe(texts, batch_size=len(texts)))
        return [(self.compare(docs[2 * i], docs[2 * i + 1]), context) for i, (_, context) in enumerate(batch)]


def _batches(items: Iterable, size: int) -> Iterator[List]:
    """Consecutive lists of ``size`` items (the last may be shorter)."""
    batch: List = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


_WORKER_GATE: Optional["CompareComponent"] = None


def _start_worker(gate: "CompareComponent") -> None:
    global _WORKER_GATE
    _WORKER_GATE = gate


def _work(batch: List) -> List[Tuple[Report, object]]:
    return _WORKER_GATE._gate_batch(batch)


def _parallel(gate: "CompareComponent", batches: Iterator[List], n_process: int) -> Iterator[Tuple[Report, object]]:
    """Gate batches in ``n_process`` worker processes, each started with a copy of the gate; in order.

    At most two batches per worker are in flight, so a long stream is read as
    it is gated and memory stays flat.
    """
    import multiprocessing
    from collections import deque

    with multiprocessing.get_context().Pool(n_process, initializer=_start_worker, initargs=(gate,)) as pool:
        pending: deque = deque()
        for batch in batches:
            pending.append(pool.apply_async(_work, (batch,)))
            if len(pending) >= 2 * n_process:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()


@Language.factory("factwash_compare", default_config=DEFAULT_CONFIG)
def make_compare(nlp: Language, name: str, threshold: float, windows: Dict[str, int], min_source_values: int,
                 disabled: List[str], neighbour_words: int) -> CompareComponent:
    """The gate, its settings from the config."""
    return CompareComponent(nlp, name, threshold=threshold, windows=windows, min_source_values=min_source_values,
                            disabled=disabled, neighbour_words=neighbour_words)
