"""The README's before/after of the claim-level gate: the sentence-level gate it replaced, and the gate now.

"Before" is a recorded measurement (``training/claim_gate/before.json``) of
the gate at commit dfa0e77, made by ``training/claim_gate/measure_before.py``
with that commit's package installed; "after" is measured here, on the same
data: the written pair sets (by verdict), the corpus drop/control pairs of the
test halves, FRANK's test split, SummEdits (development data), and how the
work of comparing grows as the texts double (``work.py``, in Python calls).
"""

import json
from pathlib import Path
from typing import Dict

from spacy_factwash.pipes.gate.report import CHANGE_TYPES

from .gate_pairs import NAMES
from .summedits import LABELS
from .work import NAMES as WORK_NAMES

BEFORE = Path("training") / "claim_gate" / "before.json"


def read_before(path: Path) -> Dict[str, object]:
    """The recorded measurement of the gate before the claim level."""
    return json.loads(Path(path).read_text(encoding="utf8"))


def measure_after(root: Path, splits: Path, sets: Path, gate) -> Dict[str, object]:
    """The gate now, measured on the data ``before`` was: the written sets, the corpus pairs of the test halves,
    FRANK test, SummEdits and the growth of the work of comparing."""
    from .evaluate import evaluation_pipeline
    from .frank import score as frank_score
    from .gate_pairs import build_pairs, score_pairs
    from .gate_sets import score_sets
    from .summedits import gate_score
    from .work import work_growth

    return {"lexicon_version": gate.lexicon_version, "sets": score_sets(sets, gate)["sets"],
            "corpus": score_pairs(build_pairs(root, splits, evaluation_pipeline()), gate),
            "frank": frank_score(root / "frank" / "raw", gate), "summedits": gate_score(root, gate),
            "work": work_growth()}


def _pair(before: float, after: float) -> str:
    return f"{before:.2f} → {after:.2f}"


def _share(counts: Dict[str, int], *keys: str) -> float:
    return sum(counts.get(key, 0) for key in keys) / counts["edits"] if counts.get("edits") else 0.0


def sets_table(before: Dict[str, object], after: Dict[str, object]) -> list:
    lines = ["| written set | must pass | passed (before → after) | to flag | flagged (before → after) |",
             "|---|---:|---:|---:|---:|"]
    for name, now in after["sets"].items():
        was = before["sets"].get(name, {})
        cells = []
        for total, ok in (("must_pass", "passed"), ("must_flag", "flagged")):
            cells += [str(now[total]), f"{was.get(ok, '-')} → {now[ok]}" if now[total] else "-"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def corpus_table(before: Dict[str, object], after: Dict[str, object]) -> list:
    lines = ["| corpus pairs (test halves) | change | recall (before → after) | control flagged (before → after) |",
             "|---|---|---:|---:|"]
    old = {(r["corpus"], r["label"]): r for r in before["corpus"]["rows"]}
    for row in after["corpus"]["rows"]:
        was = old[(row["corpus"], row["label"])]
        lines.append(f"| {NAMES[row['corpus']]} | {row['change']} | {_pair(was['recall'], row['recall'])} | "
                     f"{_pair(was['control_flagged'], row['control_flagged'])} |")
    for kind in ("drop", "control"):
        total = sum(n for key, n in after["corpus"]["confusion"].items() if key.startswith(kind + "->"))
        old_total = sum(n for key, n in before["corpus"]["confusion"].items() if key.startswith(kind + "->"))
        lines.append(f"| all {kind} pairs | uncheckable share | "
                     f"{_pair(before['corpus']['confusion'].get(kind + '->uncheckable', 0) / old_total, after['corpus']['confusion'].get(kind + '->uncheckable', 0) / total)} | |")
    return lines


def frank_table(before: Dict[str, object], after: Dict[str, object]) -> list:
    lines = ["| FRANK test summaries | count | uncheckable share (before → after) | flag rate (before → after) |",
             "|---|---:|---:|---:|"]
    for group, label in (("clean", "fully factual"), ("circumstance_error", "circumstance errors")):
        was, now = before["frank"]["groups"][group], after["frank"]["groups"][group]
        lines.append(f"| {label} | {now['summaries']} | "
                     f"{_pair(was['uncheckable'] / was['summaries'], now['uncheckable'] / now['summaries'])} | "
                     f"{_pair(was['flag_rate'], now['flag_rate'])} |")
    lines.append(f"| lift (circumstance errors over clean) | | | {_pair(before['frank']['lift'], after['frank']['lift'])} |")
    return lines


def summedits_table(before: Dict[str, object], after: Dict[str, object]) -> list:
    lines = ["| SummEdits edits | edits | flagged (before → after) | passed (before → after) | "
             "uncheckable (before → after) |", "|---|---:|---:|---:|---:|"]
    for name in LABELS.values():
        was, now = before["summedits"]["verdicts"][name], after["summedits"]["verdicts"][name]
        lines.append(f"| {name} | {now['edits']} | {_pair(_share(was, 'rewrite', 'reject'), _share(now, 'rewrite', 'reject'))} | "
                     f"{_pair(_share(was, 'pass'), _share(now, 'pass'))} | "
                     f"{_pair(_share(was, 'uncheckable'), _share(now, 'uncheckable'))} |")
    lines += ["", "| change type on SummEdits | consistent edits (before → after) | inconsistent edits (before → after) |",
              "|---|---:|---:|"]
    for change_type in CHANGE_TYPES:
        cells = []
        for name in LABELS.values():
            was = (before["summedits"]["types"][name].get(change_type, 0)
                   if change_type in before["change_types"] else None)
            now = after["summedits"]["types"][name].get(change_type, 0)
            old_edits = before["summedits"]["verdicts"][name]["edits"]
            new_edits = after["summedits"]["verdicts"][name]["edits"]
            cells.append(("-" if was is None else f"{was / old_edits:.3f}") + f" → {now / new_edits:.3f}")
        lines.append(f"| {change_type} | " + " | ".join(cells) + " |")
    return lines


def work_table(before: Dict[str, object], after: Dict[str, object]) -> list:
    lines = ["| texts doubled | size | calls comparing (before → after) | growth when doubled (before → after) |",
             "|---|---:|---:|---:|"]
    for texts, now in after["work"].items():
        was = before["work"][texts]
        lines.append(f"| {WORK_NAMES[texts]} | {now['size']:,} → {2 * now['size']:,} | "
                     f"{was['calls']:,} → {now['calls']:,} | {_pair(was['growth'], now['growth'])} |")
    return lines


def markdown_table(before: Dict[str, object], after: Dict[str, object]) -> str:
    """The README block: before (the sentence-level gate, commit ``before['commit']``) and after, side by side."""
    lines = [f"Before: the sentence-level gate of commit {before['commit']} (lexicon {before['lexicon_version']}), "
             f"recorded in `{BEFORE.as_posix()}`; after: this gate (lexicon {after['lexicon_version']}). "
             "A dash: the type did not exist before.", ""]
    for part in (sets_table, corpus_table, frank_table, summedits_table, work_table):
        lines += part(before, after) + [""]
    return "\n".join(lines)
