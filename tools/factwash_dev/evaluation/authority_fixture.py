"""Scoring the authority confirmer on the written fixture: per category, what it confirmed and what blocked."""

import json
from collections import Counter
from pathlib import Path
from typing import Dict, List

from spacy_factwash.authority.confirm import Confirmer


def read_fixture(path: Path) -> List[dict]:
    """The fixture's cases, one per line."""
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


def score_fixture(path: Path, confirmer: Confirmer) -> Dict[str, Dict[str, object]]:
    """Per category: cases, whether its cases are positives, confirmed, and the rules that blocked."""
    rows: Dict[str, Dict[str, object]] = {}
    for case in read_fixture(path):
        result = confirmer.confirm(case["proposal"], {item["id"]: item["text"] for item in case["items"]})
        row = rows.setdefault(case["category"], {"positive": case["positive"], "cases": 0, "confirmed": 0,
                                                 "blocked_by": Counter()})
        row["cases"] += 1
        row["confirmed"] += result.confirmed
        if result.blocked_by is not None:
            row["blocked_by"][f"{result.blocked_by.rule} {result.blocked_by.name}"] += 1
    return rows


def markdown_table(rows: Dict[str, Dict[str, object]], version: str) -> str:
    """Confirmed-true for positive categories, blocked-false for negative ones, and the blocking rules."""
    lines = [
        f"Authority confirmer on `training/authority/fixture.jsonl`, change-word lexicon {version}, "
        "no dependency parser (rules 1-7).",
        "",
        "| category | kind | cases | confirmed | blocked | blocked by |",
        "|---|---|---:|---:|---:|---|",
    ]
    for category, row in rows.items():
        blocked = row["cases"] - row["confirmed"]
        rules = ", ".join(f"{name} ({n})" for name, n in sorted(row["blocked_by"].items())) or "-"
        kind = "positive" if row["positive"] else "negative"
        lines.append(f"| {category} | {kind} | {row['cases']} | {row['confirmed']} | {blocked} | {rules} |")
    return "\n".join(lines) + "\n"
