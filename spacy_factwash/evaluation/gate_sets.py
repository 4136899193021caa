"""Scoring the whole gate on pair sets written for it: a should-pass set and a flagging set.

Each line of a set is ``{"id", "source", "memory", "expect": [change types]}``
(``expect`` empty for a rewrite that must pass). The score per change type
counts a pair's expected types against the types the gate found; the verdict
confusion compares the verdict the expected types imply (under the same
hard-coded policy) with the verdict given; the should-pass set's false-flag
rate is the share of its pairs not passed.
"""

import json
from collections import Counter
from pathlib import Path
from typing import Dict, List

from ..gate.policy import verdict
from ..gate.report import CHANGE_TYPES, VERDICTS
from .scoring import f1, ratio

SETS = ("should_pass", "flagging")


def read_set(path: Path) -> List[dict]:
    """The pairs of one set file, each checked for its fields."""
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf8").splitlines(), start=1):
        pair = json.loads(line)
        if not all(isinstance(pair.get(k), str) for k in ("id", "source", "memory")) or not isinstance(
                pair.get("expect"), list) or set(pair["expect"]) - set(CHANGE_TYPES):
            raise ValueError(f"{path}:{number}: needs string id, source, memory and a list of known change types")
        pairs.append(pair)
    return pairs


def score_sets(folder: Path, gate) -> Dict[str, object]:
    """Run the gate (a ``factwash_compare`` component) over every set; JSON-safe figures."""
    per_type = {t: Counter() for t in CHANGE_TYPES}
    confusion: Counter = Counter()
    sizes, not_passed = {}, {}
    for name in SETS:
        pairs = read_set(folder / f"{name}.jsonl")
        sizes[name] = len(pairs)
        not_passed[name] = 0
        for pair, report in zip(pairs, gate.pipe_pairs((p["source"], p["memory"]) for p in pairs)):
            expected, found = set(pair["expect"]), {c.type for c in report.changes}
            for change_type in CHANGE_TYPES:
                per_type[change_type]["tp"] += change_type in expected and change_type in found
                per_type[change_type]["fp"] += change_type in found and change_type not in expected
                per_type[change_type]["fn"] += change_type in expected and change_type not in found
            confusion[(verdict(expected, []), report.verdict)] += 1
            not_passed[name] += report.verdict != "pass"
    types = {}
    for change_type, c in per_type.items():
        p, r = ratio(c["tp"], c["tp"] + c["fp"]), ratio(c["tp"], c["tp"] + c["fn"])
        types[change_type] = {"tp": c["tp"], "fp": c["fp"], "fn": c["fn"], "p": p, "r": r, "f1": f1(p, r)}
    return {
        "sizes": sizes,
        "false_flag_rate": ratio(not_passed["should_pass"], sizes["should_pass"]),
        "flagging_flagged": ratio(not_passed["flagging"], sizes["flagging"]),
        "per_type": types,
        "confusion": {f"{e}->{g}": n for (e, g), n in sorted(confusion.items())},
        "lexicon_version": gate_version(gate),
    }


def gate_version(gate) -> str:
    """The lexicon version of the pipeline the gate belongs to."""
    return gate.nlp.get_pipe("factwash_cues").lexicon_version


def markdown_table(result: Dict[str, object]) -> str:
    """Per-type P/R and the verdict confusion matrix as Markdown."""
    sizes = result["sizes"]
    lines = [
        f"Gate on the pair sets in `training/gate_sets/` ({sizes['should_pass']} should-pass, "
        f"{sizes['flagging']} flagging), lexicon {result['lexicon_version']}: should-pass pairs not passed "
        f"(false-flag rate) {result['false_flag_rate']:.2f}; flagging pairs flagged {result['flagging_flagged']:.2f}.",
        "",
        "| change | TP | FP | FN | P | R |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for change_type, s in result["per_type"].items():
        lines.append(f"| {change_type} | {s['tp']} | {s['fp']} | {s['fn']} | {s['p']:.2f} | {s['r']:.2f} |")
    lines += ["", "| expected \\ given | " + " | ".join(VERDICTS) + " |", "|---|" + "---:|" * len(VERDICTS)]
    for expected in VERDICTS:
        row = [str(result["confusion"].get(f"{expected}->{given}", 0)) for given in VERDICTS]
        lines.append(f"| {expected} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"
