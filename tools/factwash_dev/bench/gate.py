"""The gate bench as lines to read: pairs per second in one process on the written sets and on PolNeAR pairs
(with and without digits), resident memory over a long stream, ``inspect`` once per pair against one stream,
and a long document against the time to annotate it, with how comparing grows as texts double. Used by
``bench-gate``; every ratio is computed here, from figures measured in the same run."""

from itertools import islice
from pathlib import Path
from typing import Iterator, Sequence, Tuple

from .speed import gate_speed, growth, has_digits, long_document_speed, stream_memory
from .timing import per_call_seconds


def polnear_pairs(root: Path, splits: Path, count: int, batch_size: int = 8) -> Sequence[Tuple[str, str]]:
    """The first ``count`` PolNeAR attribution pairs of the dev half: enough distinct pairs that no text repeats
    (no cache helps), for speed only. The articles are annotated ``batch_size`` at a time, as far as the pairs
    asked for reach (``iter_pairs`` annotates a first batch of 256 articles, more than a small count needs)."""
    from ..evaluation.corpora import read_half
    from ..evaluation.evaluate import evaluation_pipeline
    from ..evaluation.gate_pairs import attribution_pairs
    from ..evaluation.gold import to_doc

    nlp = evaluation_pipeline()
    docs = nlp.pipe((to_doc(nlp, item) for item in read_half(root, "polnear", "dev", splits)), batch_size=batch_size)
    pairs = (pair for doc in docs for pair in attribution_pairs(doc))
    return [(p.source, p.memory) for p in islice(pairs, count)]


def gate_bench(root: Path, splits: Path, sets: Path, polnear: int, stream: int, long_sentences: int,
               growth_from: int) -> Iterator[str]:
    """The lines of the gate bench, each as soon as it is measured (``bench-gate``'s options)."""
    from ..evaluation.gate_sets import written_pairs

    written, pairs = written_pairs(sets), polnear_pairs(root, splits, polnear)
    named = {"written sets": written, "PolNeAR pairs": pairs,
             "PolNeAR pairs, no digits": [p for p in pairs if not has_digits(p)],
             "PolNeAR pairs with digits": [p for p in pairs if has_digits(p)]}
    for result in gate_speed(named, n_processes=(1,)):
        yield (f"  {result.name:<28} {result.pairs:>6} pairs  n_process={result.n_process}  "
               f"{result.pairs_per_second:>7,.0f} pairs/s   peak RSS {result.peak_rss_mb:,.0f} MB")
    if stream:
        readings = stream_memory(written + pairs[:1000], stream, max(stream // 10, 1))
        yield "  resident memory while streaming: " + ", ".join(f"{n:,}: {mb:,.0f} MB" for n, mb in readings)
        yield f"  growth from the first to the last reading: {readings[-1][1] - readings[0][1]:+,.0f} MB"
    inspected, floored = per_call_seconds(written, repeat=1)
    yield (f"  inspect() once per pair on the written sets: {len(written) / inspected:,.0f} pairs/s; the floor "
           f"pipeline on both texts, one call at a time: {len(written) / floored:,.0f} pairs/s "
           f"({inspected / floored:.1f}x the floor)")
    if long_sentences:
        yield from long_document_lines([source for source, _ in pairs[:long_sentences]], growth_from)


def long_document_lines(sources: Sequence[str], growth_from: int) -> Iterator[str]:
    """One long document (the sources joined; its memory every 10th of them) against annotating it alone, and
    how comparing grows as a repetitive source and a cue-dense text double twice from ``growth_from``."""
    from ..evaluation.work import LONG_TEXTS, NAMES

    floor, total = long_document_speed(" ".join(sources), " ".join(sources[::10]))
    yield (f"  long document: {len(sources):,} source sentences, {len(sources[::10]):,} memory sentences: "
           f"annotated in {floor:.2f} s, annotated and gated in {total:.2f} s ({total / floor:.1f}x the floor)")
    for texts, first in (("repetitive_document", growth_from), ("dense_text", 4 * growth_from)):
        rows = growth(LONG_TEXTS[texts], (first, 2 * first, 4 * first))
        steps = ", ".join(f"{size:,}: annotate {a:.2f} s, compare {c:.2f} s" for size, a, c in rows)
        doubling = rows[-1][2] / rows[-2][2] if rows[-2][2] else float("nan")
        yield f"  {NAMES[texts]}: {steps}; compare time x{doubling:.1f} for the last doubling (linear: x2)"
