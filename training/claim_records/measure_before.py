"""Measure the gate the claim records were built on, with that commit's own package (``redesign`` at 6241dc0).

Run it with that commit's package installed, so that every figure is the old code's own:

    git worktree add /tmp/before 6241dc0
    python3 -m venv /tmp/before-venv && /tmp/before-venv/bin/pip install "/tmp/before[test]"
    FACTWASH_CORPORA=$(realpath ../shared/corpora) PYTHONPATH=/tmp/before/tools /tmp/before-venv/bin/python \
        training/claim_records/measure_before.py training/claim_records training/claim_records/before.json

It writes what the docs' claim-record before/after reads as "before": the old gate on today's claim-record pair
sets (by kind) and on SummEdits' dev domains. It imports the old package's public names and its developer
package's SummEdits reader only; the scoring is this file's, the same as ``factwash_dev.evaluation.claim_records``.
"""

import json
import os
import sys
from collections import Counter
from pathlib import Path

import spacy_factwash
from spacy_factwash.pipes.gate.gate import Gate
from factwash_dev.evaluation.summedits import gate_score

FLAGGED = ("rewrite", "reject")


def kinds(folder: Path, gate) -> dict:
    """Per kind: pairs, must-flag pairs, pairs the gate got right, and flagged with an expected type."""
    pairs = [json.loads(line) for path in sorted(folder.glob("*.jsonl"))
             for line in path.read_text(encoding="utf8").splitlines() if line.strip()]
    found = {}
    for pair, report in zip(pairs, gate.pipe((p["source"], p["memory"]) for p in pairs)):
        counts = found.setdefault(pair["kind"], Counter())
        counts["pairs"] += 1
        counts["must_flag"] += bool(pair["expect"])
        counts["right"] += (report.verdict in FLAGGED) if pair["expect"] else report.verdict == "pass"
        counts["typed"] += bool(set(pair["expect"]) & {c.type for c in report.changes})
    return {kind: dict(counts) for kind, counts in sorted(found.items())}


def main(folder: str, output: str) -> None:
    gate = Gate(spacy_factwash.load())
    result = {"commit": "6241dc0", "kinds": kinds(Path(folder), gate),
              "summedits": gate_score(Path(os.environ["FACTWASH_CORPORA"]), gate)}
    Path(output).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf8")


if __name__ == "__main__":
    main(*sys.argv[1:])
