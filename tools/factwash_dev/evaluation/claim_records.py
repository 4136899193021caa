"""The before/after of claim records (issue 21): the gate that compared five qualifier classes and values, and
the gate that compares every part of a claim's record.

"Before" is the gate of the ``redesign`` branch's commit the claim records were built on, measured by its own
package (``training/claim_records/measure_before.py``) and recorded in ``training/claim_records/before.json``;
"after" is this checkout's gate, measured the same way by ``measure``. Both read development data only: the
claim-record pair sets (``training/claim_records``, one row per kind), the written gate sets, SummEdits' dev
domains (the human label of each real LLM edit); FRANK's test split and the corpus drop/control pairs of the test
halves are reported, never tuned on.
"""

import json
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Sequence

from spacy_factwash.pipes.cues.scorer import ratio

FLAGGED = ("rewrite", "reject")
FOLDER = Path("training") / "claim_records"
BEFORE = FOLDER / "before.json"


def read_before(path: Path) -> Dict[str, object]:
    """The recorded "before" (``measure_before.py`` writes it)."""
    return json.loads(Path(path).read_text(encoding="utf8"))


def read_records(folder: Path) -> List[dict]:
    """Every pair of the claim-record sets, in file order."""
    return [json.loads(line) for path in sorted(Path(folder).glob("*.jsonl"))
            for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


def score_kinds(pairs: Sequence[dict], verdicts: Iterable[str], types: Iterable[Sequence[str]]) -> Dict[str, dict]:
    """Per kind: its pairs, whether they must be flagged, how many the gate got right (flagged, or passed), and how
    many it flagged with an expected change type."""
    kinds: Dict[str, Counter] = {}
    for pair, verdict, found in zip(pairs, verdicts, types):
        counts = kinds.setdefault(pair["kind"], Counter())
        counts["pairs"] += 1
        counts["must_flag"] += bool(pair["expect"])
        counts["right"] += (verdict in FLAGGED) if pair["expect"] else verdict == "pass"
        counts["typed"] += bool(set(pair["expect"]) & set(found))
    return {kind: dict(counts) for kind, counts in sorted(kinds.items())}


def kinds_of(folder: Path, gate) -> Dict[str, dict]:
    """The gate (anything with ``pipe`` over (source, memory) pairs giving reports) on the claim-record sets."""
    pairs = read_records(folder)
    reports = list(gate.pipe((p["source"], p["memory"]) for p in pairs))
    return score_kinds(pairs, [r.verdict for r in reports], [[c.type for c in r.changes] for r in reports])


def summedits_of(root: Path, gate) -> Dict[str, object]:
    """SummEdits' dev domains: verdicts by human label and the change types each label raised."""
    from .summedits import gate_score

    return gate_score(root, gate)


def totals(kinds: Mapping[str, dict]) -> Dict[str, int]:
    """Pairs to flag flagged and pairs to pass passed, over every kind."""
    flag = [k for k in kinds.values() if k["must_flag"]]
    keep = [k for k in kinds.values() if not k["must_flag"]]
    return {"must_flag": sum(k["pairs"] for k in flag), "flagged": sum(k["right"] for k in flag),
            "typed": sum(k["typed"] for k in flag), "must_pass": sum(k["pairs"] for k in keep),
            "passed": sum(k["right"] for k in keep)}


def _pair(before, after) -> str:
    return f"{before} → {after}"


def kinds_table(before: Mapping[str, dict], after: Mapping[str, dict]) -> List[str]:
    """One row per kind: laundering kinds by pairs flagged, faithful kinds by pairs passed."""
    rows = ["| kind | pairs | must | right, before → after | with the expected type |", "|---|---:|---|---:|---:|"]
    for kind in sorted(after, key=lambda k: (not after[k]["must_flag"], k)):
        a, b = after[kind], before.get(kind, {"right": 0, "typed": 0})
        must = "flag" if a["must_flag"] else "pass"
        typed = _pair(b["typed"], a["typed"]) if a["must_flag"] else "–"
        rows.append(f"| {kind.replace('_', ' ')} | {a['pairs']} | {must} | {_pair(b['right'], a['right'])} | {typed} |")
    tb, ta = totals(before), totals(after)
    rows.append(f"| **all laundering kinds** | {ta['must_flag']} | flag | {_pair(tb['flagged'], ta['flagged'])} | "
                f"{_pair(tb['typed'], ta['typed'])} |")
    rows.append(f"| **all faithful kinds** | {ta['must_pass']} | pass | {_pair(tb['passed'], ta['passed'])} | – |")
    return rows


def _share(counts: Mapping[str, int], *keys: str) -> float:
    """The share of a label's edits with one of the verdicts ``keys``."""
    return ratio(sum(counts.get(k, 0) for k in keys), counts.get("edits", 0))


def summedits_table(before: Mapping[str, object], after: Mapping[str, object]) -> List[str]:
    """Verdict shares by human label, then each change type's rate on inconsistent and consistent edits."""
    rows = ["| SummEdits dev (real LLM edits) | before | after |", "|---|---:|---:|"]
    for label in ("consistent", "inconsistent"):
        b, a = before["verdicts"][label], after["verdicts"][label]
        rows.append(f"| {label}: flagged | {_share(b, *FLAGGED):.3f} | {_share(a, *FLAGGED):.3f} |")
        rows.append(f"| {label}: uncheckable | {_share(b, 'uncheckable'):.3f} | {_share(a, 'uncheckable'):.3f} |")
    rows += ["", "| change type | inconsistent, before → after | consistent, before → after |", "|---|---:|---:|"]
    types = sorted(set(after["types"]["inconsistent"]) | set(after["types"]["consistent"])
                   | set(before["types"]["inconsistent"]) | set(before["types"]["consistent"]))
    for change in types:
        def rate(result, label):
            return ratio(result["types"][label].get(change, 0), result["verdicts"][label].get("edits", 0))
        rows.append(f"| `{change}` | {rate(before, 'inconsistent'):.3f} → {rate(after, 'inconsistent'):.3f} | "
                    f"{rate(before, 'consistent'):.3f} → {rate(after, 'consistent'):.3f} |")
    return rows


def markdown_table(before: Mapping[str, object], after: Mapping[str, object]) -> str:
    """The docs block: the claim-record sets by kind, then SummEdits."""
    lines = ["Before: the gate the claim records were built on (five qualifier classes and values; recorded in "
             "`training/claim_records/before.json`); after: this gate. Development data only.", ""]
    lines += kinds_table(before["kinds"], after["kinds"]) + [""] + summedits_table(before["summedits"],
                                                                                   after["summedits"])
    return "\n".join(lines) + "\n"


def measure(root: Path, gate, folder: Path) -> Dict[str, object]:
    """The figures ``markdown_table`` reads, for one gate."""
    return {"kinds": kinds_of(folder, gate), "summedits": summedits_of(root, gate)}
