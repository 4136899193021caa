"""Checking the certainty level on the sentence-level certainty corpus (Pei & Jurgens, EMNLP 2021).

Each finding carries a mean annotator certainty from 1 (uncertain) to 6
(certain) and a split (``train``, ``val``, ``test``, ``ext``). The scale's
hedge tiers are chosen on ``train`` and ``val``; the README reports the
Spearman rank correlation between ``certainty_level`` and the gold score on
``test``. The corpus README publishes no figure; the paper reports that the
number of hedges in a finding correlates only modestly with its certainty.
"""

import json
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

from spacy.language import Language

from spacy_factwash.pipes.strength.certainty import certainty_level

RAW = "certainty/raw/data/annotated_data/sentence-level-certainty.jsonl"
SPLITS = ("train", "val", "test", "ext")


class CertaintyFormatError(ValueError):
    """A line of the certainty corpus is not a finding with a certainty score and a split."""


def read(root: Path, splits: Sequence[str] = ("test",)) -> Iterator[Tuple[str, float]]:
    """(finding, gold certainty) of every line in one of ``splits``; a clear error on a malformed line."""
    path = root / RAW
    with path.open(encoding="utf8") as handle:
        for number, line in enumerate(handle, start=1):
            record = json.loads(line)
            score, split, text = record.get("sentence-level-certainty"), record.get("split"), record.get("finding")
            if not isinstance(score, (int, float)) or split not in SPLITS or not isinstance(text, str):
                raise CertaintyFormatError(f"{path}:{number}: needs 'finding', 'sentence-level-certainty' and a split")
            if split in splits:
                yield text, float(score)


def ranks(values: Sequence[float]) -> List[float]:
    """Ranks from 1, ties sharing their mean rank (as Spearman's rho needs)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r; 0.0 when either side is constant."""
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else 0.0


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's r over tie-averaged ranks)."""
    return pearson(ranks(x), ranks(y))


def score(root: Path, nlp: Language, splits: Sequence[str] = ("test",)) -> Dict[str, object]:
    """Spearman's rho between the certainty rank and the gold score, the count, and the mean gold score per level."""
    items = list(read(root, splits))
    levels = [certainty_level(doc) for doc in nlp.pipe(text for text, _ in items)]
    gold = [g for _, g in items]
    by_level: Dict[str, List[float]] = {}
    for level, g in zip(levels, gold):
        by_level.setdefault(level.level, []).append(g)
    return {
        "spearman": spearman([level.rank for level in levels], gold),
        "n": len(items),
        "levels": {name: {"n": len(gs), "mean_gold": sum(gs) / len(gs)} for name, gs in by_level.items()},
        "order": sorted(by_level, key=lambda name: next(lv.rank for lv in levels if lv.level == name)),
    }
