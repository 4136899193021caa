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
from functools import partial
from pathlib import Path
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from ..io.inputs import read_records
from ..io.progress import Progress, quiet
from ..io.textfile import BadInput

FLAGGED = ("rewrite", "reject")
COLUMNS = ("| writes | stimulus set | writes | flag rate | 95% interval | uncheckable | abstention |\n"
           "|---|---|---:|---:|---:|---:|---:|")
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
                 progress: Progress = quiet) -> BenchScore:
    """Gate every (stimulus id, memory) write against its source and score the system (``progress`` wraps the
    stream of reports, for a progress bar)."""
    unknown = sorted({sid for sid, _ in writes} - set(sources))
    if unknown:
        raise ValueError(f"writes name stimuli that are not in set {stimulus_set!r}: {unknown[:5]}")
    verdicts: Counter = Counter()
    types: Counter = Counter()
    for report in progress(gate.pipe((sources[sid], memory) for sid, memory in writes), total=len(writes)):
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


def read_stimuli(path: Path) -> Tuple[str, Dict[str, str]]:
    """A stimulus set file (``{"stimulus_set", "id", "source"}`` a line): its set's name and its sources by id;
    a ``BadInput`` when the lines name more than one set or lack a string id or source."""
    stimuli = read_records(path)
    sets = {s.get("stimulus_set") for s in stimuli}
    if len(sets) != 1 or not isinstance(next(iter(sets)), str):
        raise BadInput(f"{path}: every stimulus needs the same string 'stimulus_set' (found {sorted(map(str, sets))})")
    if any(not isinstance(s.get("id"), str) or not isinstance(s.get("source"), str) for s in stimuli):
        raise BadInput(f"{path}: every stimulus needs a string 'id' and 'source'")
    return next(iter(sets)), {s["id"]: s["source"] for s in stimuli}


def read_writes(path: Path) -> List[Tuple[Any, str]]:
    """A file of a system's writes (``{"stimulus_id", "memory"}`` a line) as (stimulus id, memory) pairs."""
    writes = [(w.get("stimulus_id"), w.get("memory")) for w in read_records(path)]
    if any(not isinstance(memory, str) for _, memory in writes):
        raise BadInput(f"{path}: every write needs a string 'memory'")
    return writes


def score_files(stimuli_path: Path, writes_paths: Sequence[Path], gate,
                progress: Progress = quiet) -> List[Tuple[str, BenchScore]]:
    """Score each file of writes on the stimulus set, named by the file's stem (``progress`` wraps each file's
    stream of reports, named ``bench STEM``)."""
    stimulus_set, sources = read_stimuli(stimuli_path)
    scores = []
    for path in map(Path, writes_paths):
        writes = read_writes(path)
        try:
            scores.append((path.stem, score_writes(stimulus_set, sources, writes, gate,
                                                   partial(progress, desc=f"bench {path.stem}"))))
        except ValueError as err:
            raise BadInput(f"{path}: {err}") from err
    return scores


def markdown_rows(scores: Sequence[Tuple[str, BenchScore]]) -> List[str]:
    """One table row per named score."""
    rows = []
    for name, s in scores:
        low, high = s.flag_rate_ci95
        rows.append(f"| {name} | {s.stimulus_set} | {s.writes} | {s.flag_rate:.2f} | {low:.2f}–{high:.2f} | "
                    f"{s.uncheckable_share:.2f} | {s.abstention_share:.2f} |")
    return rows


def bench_table(scores: Sequence[Tuple[str, BenchScore]]) -> str:
    """The Markdown table of named scores (docs/memory.md holds the one of the shipped example writes)."""
    return "\n".join([COLUMNS, *markdown_rows(scores)]) + "\n"
