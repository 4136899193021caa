"""Scoring the whole gate on pair sets written for it (every ``*.jsonl`` of ``training/gate_sets/``).

Each line of a set is ``{"id", "source", "memory", "expect": [change types]}``
(``expect`` empty for a rewrite that must pass; any other key, such as
``why``, is a note). The score per change type counts a pair's expected
types against the types the gate found; the verdict confusion compares the
verdict the expected types imply (under the same hard-coded policy) with the
verdict given; the false-flag rate is the share of must-pass pairs not
passed, the flag rate the share of the others flagged. These are sentences
written here, development data: they show behaviour, not held-out accuracy.
"""

import json
from collections import Counter
from pathlib import Path
from typing import Dict, List

from spacy_factwash.pipes.cues.scorer import f1, ratio
from spacy_factwash.pipes.gate.policy import verdict
from spacy_factwash.pipes.gate.report import CHANGE_TYPES, VERDICTS


def set_names(folder: Path) -> List[str]:
    """The pair sets of a folder: its ``*.jsonl`` files, by name."""
    return sorted(path.stem for path in folder.glob("*.jsonl"))


def written_pairs(folder: Path) -> List[tuple]:
    """The (source, memory) pairs of every set of a folder, in set order."""
    return [(p["source"], p["memory"]) for name in set_names(folder) for p in read_set(folder / f"{name}.jsonl")]


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
    sets = {}
    for name in set_names(folder):
        pairs = read_set(folder / f"{name}.jsonl")
        counts = Counter()
        for pair, report in zip(pairs, gate.pipe((p["source"], p["memory"]) for p in pairs)):
            expected, found = set(pair["expect"]), {c.type for c in report.changes}
            for change_type in CHANGE_TYPES:
                per_type[change_type]["tp"] += change_type in expected and change_type in found
                per_type[change_type]["fp"] += change_type in found and change_type not in expected
                per_type[change_type]["fn"] += change_type in expected and change_type not in found
            confusion[(verdict(expected, []), report.verdict)] += 1
            kind = "flag" if expected else "pass"
            counts[kind] += 1
            counts[f"{kind}_ok"] += (report.verdict in ("rewrite", "reject")) if expected else report.verdict == "pass"
        sets[name] = {"must_pass": counts["pass"], "passed": counts["pass_ok"], "must_flag": counts["flag"],
                      "flagged": counts["flag_ok"]}
    types = {}
    for change_type, c in per_type.items():
        p, r = ratio(c["tp"], c["tp"] + c["fp"]), ratio(c["tp"], c["tp"] + c["fn"])
        types[change_type] = {"tp": c["tp"], "fp": c["fp"], "fn": c["fn"], "p": p, "r": r, "f1": f1(p, r)}
    must_pass = sum(s["must_pass"] for s in sets.values())
    must_flag = sum(s["must_flag"] for s in sets.values())
    return {
        "sets": sets,
        "false_flag_rate": ratio(must_pass - sum(s["passed"] for s in sets.values()), must_pass),
        "flag_rate": ratio(sum(s["flagged"] for s in sets.values()), must_flag),
        "per_type": types,
        "confusion": {f"{e}->{g}": n for (e, g), n in sorted(confusion.items())},
        "lexicon_version": gate_version(gate),
    }


def gate_version(gate) -> str:
    """The lexicon version of the pipeline the gate belongs to."""
    return gate.lexicon_version


def markdown_table(result: Dict[str, object]) -> str:
    """Per-set rates, per-type P/R and the verdict confusion as Markdown."""
    sets = result["sets"]
    lines = [
        f"Gate on the pair sets in `training/gate_sets/` ({sum(s['must_pass'] for s in sets.values())} must-pass, "
        f"{sum(s['must_flag'] for s in sets.values())} to flag), lexicon {result['lexicon_version']}: must-pass "
        f"pairs not passed (false-flag rate) {result['false_flag_rate']:.2f}; pairs to flag flagged "
        f"{result['flag_rate']:.2f}.",
        "",
        "| set | must pass | passed | to flag | flagged |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, s in sets.items():
        lines.append(f"| {name} | {s['must_pass']} | {s['passed']} | {s['must_flag']} | {s['flagged']} |")
    lines += ["", "| change | TP | FP | FN | P | R |", "|---|---:|---:|---:|---:|---:|"]
    for change_type, s in result["per_type"].items():
        lines.append(f"| {change_type} | {s['tp']} | {s['fp']} | {s['fn']} | {s['p']:.2f} | {s['r']:.2f} |")
    lines += ["", "| expected \\ given | " + " | ".join(VERDICTS) + " |", "|---|" + "---:|" * len(VERDICTS)]
    for expected in VERDICTS:
        row = [str(result["confusion"].get(f"{expected}->{given}", 0)) for given in VERDICTS]
        lines.append(f"| {expected} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"
