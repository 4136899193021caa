"""Measure the sentence-level gate this repository had before the claim-level gate (commit dfa0e77).

Run it with that commit's package installed, so that every figure is the old code's own:

    git worktree add /tmp/before dfa0e77
    python3 -m venv /tmp/before-venv && /tmp/before-venv/bin/pip install /tmp/before
    FACTWASH_CORPORA=$(realpath ../shared/corpora) /tmp/before-venv/bin/python training/claim_gate/measure_before.py \
        training/gate_sets training/claim_gate/before.json

It writes what the README's before/after section reads as "before": the old gate on today's written pair sets (by
verdict: a change type the old gate did not have cannot be scored by type), on the corpus drop/control pairs of the
test halves, on FRANK's test split, and on SummEdits, with the change types the old gate could report, and the
calls its comparing makes as the texts double (counted by today's ``spacy_factwash/evaluation/work.py``, loaded by
path: it imports nothing of the package but its public names). Otherwise it imports only the old package's public
names and evaluation modules; nothing here is imported by the package.
"""

import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import spacy_factwash
from spacy_factwash.evaluation import frank, gate_pairs
from spacy_factwash.evaluation.evaluate import evaluation_pipeline
from spacy_factwash.gate.report import CHANGE_TYPES

DOMAINS = ("news", "ectsum", "scitldr", "sales_email")
LABELS = {1: "consistent", 0: "inconsistent"}


def gate_sets(folder: Path, gate) -> dict:
    """Per set, must-pass pairs passed and pairs to flag flagged (rewrite or reject)."""
    sets = {}
    for path in sorted(folder.glob("*.jsonl")):
        pairs = [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]
        counts = Counter()
        for pair, report in zip(pairs, gate.pipe_pairs((p["source"], p["memory"]) for p in pairs)):
            kind = "flag" if pair["expect"] else "pass"
            counts[kind] += 1
            counts[f"{kind}_ok"] += (report.verdict in ("rewrite", "reject")) if pair["expect"] else report.verdict == "pass"
        sets[path.stem] = {"must_pass": counts["pass"], "passed": counts["pass_ok"], "must_flag": counts["flag"],
                           "flagged": counts["flag_ok"]}
    return sets


def summedits(root: Path, gate) -> dict:
    """Verdicts by human label, and each change type's share of each label's edits (identical pairs left out)."""
    verdicts = {name: Counter() for name in LABELS.values()}
    types = {name: Counter() for name in LABELS.values()}
    for domain in DOMAINS:
        records = json.loads((root / "summedits/raw/data/summedits" / f"summedits_{domain}.json").read_text())
        records = [r for r in records if r["original_summary"] != r["summary"]]
        for record, report in zip(records, gate.pipe_pairs((r["original_summary"], r["summary"]) for r in records)):
            name = LABELS[record["label"]]
            verdicts[name]["edits"] += 1
            verdicts[name][report.verdict] += 1
            types[name].update({change.type for change in report.changes})
    return {"verdicts": {k: dict(v) for k, v in verdicts.items()}, "types": {k: dict(v) for k, v in types.items()}}


def work_growth() -> dict:
    """Today's call count (``evaluation/work.py`` of this checkout) run on the installed, old, package."""
    path = Path(__file__).resolve().parents[2] / "spacy_factwash" / "evaluation" / "work.py"
    spec = importlib.util.spec_from_file_location("factwash_work", path)
    work = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(work)
    return work.work_growth(sys.executable)


def main(sets_folder: str, out: str) -> None:
    root = Path(os.environ["FACTWASH_CORPORA"])
    gate = spacy_factwash.default_pipeline().get_pipe("factwash_compare")
    splits = Path(sets_folder).resolve().parent / "splits"
    pairs = gate_pairs.build_pairs(root, splits, evaluation_pipeline())
    commit = subprocess.run(["git", "-C", str(Path(spacy_factwash.__file__).parent), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    result = {
        "commit": commit or "dfa0e77",
        "change_types": list(CHANGE_TYPES),
        "lexicon_version": gate.nlp.get_pipe("factwash_cues").lexicon_version,
        "sets": gate_sets(Path(sets_folder), gate),
        "corpus": gate_pairs.score_pairs(pairs, gate),
        "frank": frank.score(root / "frank" / "raw", gate, "test"),
        "summedits": summedits(root, gate),
        "work": work_growth(),
    }
    Path(out).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
