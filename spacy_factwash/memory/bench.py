"""Scoring a memory system on a stimulus set: flag rate, uncheckable share and abstention, always together.

The flag rate alone is gameable: a system whose writes cannot be aligned, or
that rarely writes, offers fewer chances to be flagged. So every score
carries the share of writes that could not be checked (never in the
flag-rate denominator), the share of sources for which nothing was stored,
counts per change type, and the stimulus set's identifier: base rates depend
on the domain, and scores compare only within one stimulus set.
"""

import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Mapping, Sequence, Tuple

FLAGGED = ("rewrite", "reject")
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval for a proportion (0, 0 when there are no trials)."""
    if trials == 0:
        return 0.0, 0.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends, where floats fall just short
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass
class BenchScore:
    """A memory system's score on one stimulus set."""

    stimulus_set: str
    sources: int
    writes: int
    checkable_writes: int
    flagged: int
    flag_rate: float
    flag_rate_ci95: Tuple[float, float]
    uncheckable_share: float
    abstention_share: float
    change_types: Dict[str, int] = field(default_factory=dict)
    verdicts: Dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        """The score as a JSON-safe dict."""
        return asdict(self)


def score_writes(stimulus_set: str, sources: Mapping[str, str], writes: Sequence[Tuple[str, str]], gate,
                 progress: Callable[[Iterable], Iterable] = iter) -> BenchScore:
    """Gate every (stimulus id, memory) write against its source and score the system (``progress`` wraps the
    stream of reports, for a progress bar)."""
    unknown = sorted({sid for sid, _ in writes} - set(sources))
    if unknown:
        raise ValueError(f"writes name stimuli that are not in set {stimulus_set!r}: {unknown[:5]}")
    verdicts: Counter = Counter()
    types: Counter = Counter()
    for report in progress(gate.pipe((sources[sid], memory) for sid, memory in writes)):
        verdicts[report.verdict] += 1
        types.update(change.type for change in report.changes)
    checkable = len(writes) - verdicts["uncheckable"]
    flagged = sum(verdicts[v] for v in FLAGGED)
    written = {sid for sid, _ in writes}
    return BenchScore(
        stimulus_set, len(sources), len(writes), checkable, flagged,
        flagged / checkable if checkable else 0.0, wilson(flagged, checkable),
        verdicts["uncheckable"] / len(writes) if writes else 0.0,
        sum(1 for sid in sources if sid not in written) / len(sources) if sources else 0.0,
        dict(types.most_common()), dict(verdicts),
    )


def markdown_rows(scores: Sequence[Tuple[str, BenchScore]]) -> List[str]:
    """One table row per named score."""
    rows = []
    for name, s in scores:
        low, high = s.flag_rate_ci95
        rows.append(f"| {name} | {s.stimulus_set} | {s.writes} | {s.flag_rate:.2f} | {low:.2f}–{high:.2f} | "
                    f"{s.uncheckable_share:.2f} | {s.abstention_share:.2f} |")
    return rows
