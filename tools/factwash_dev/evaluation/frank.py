"""FRANK (Pagnoni et al. 2021): does the gate flag summaries with circumstance errors more than clean ones?

FRANK's surviving labels are summary-level proportions of sentences free of
each error type (1.0 = no such error). Source = the article, memory = the
model's summary, official test split only. A summary is *flagged* when the
verdict is rewrite or reject; uncheckable summaries are counted apart and
are in no flag-rate denominator. The lift is the flag rate on summaries with
circumstance errors (CircE < 1) over the rate on summaries annotators found
fully factual (Factuality = 1). Summaries have several sentences, so the
share of summary *sentences* flagged is reported beside it.
"""

import json
from collections import Counter
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

from spacy_factwash.pipes.cues.scorer import ratio

ANNOTATIONS = Path("data") / "human_annotations.json"
ARTICLES = Path("initial-commit-5860706") / "data" / "articles-wmetrics-reference-json"
GROUPS = ("clean", "circumstance_error")


def read_pairs(root: Path, split: str = "test") -> Iterator[Tuple[str, str, str]]:
    """(group, article, summary) for every annotated summary of the split that falls in a group."""
    articles: Dict[str, dict] = {}
    for record in json.loads((root / ANNOTATIONS).read_text(encoding="utf8")):
        if record["split"] != split:
            continue
        groups = []
        if record["Factuality"] == 1.0:
            groups.append("clean")
        if record["CircE"] < 1.0:
            groups.append("circumstance_error")
        if not groups:
            continue
        if record["hash"] not in articles:
            articles[record["hash"]] = json.loads((root / ARTICLES / f"{record['hash']}.json").read_text(encoding="utf8"))
        article = articles[record["hash"]]
        for group in groups:
            yield group, article["article"], article[record["model_name"]]


def gate_reports(root: Path, gate, split: str = "test") -> List:
    """The gate's report on every pair of ``read_pairs(root, split)``, in that order."""
    return list(gate.pipe((article, summary) for _, article, summary in read_pairs(root, split)))


def score(root: Path, gate, split: str = "test") -> Dict[str, object]:
    """Flag rates per group and the lift, with counts."""
    return score_reports(root, gate_reports(root, gate, split), split)


def score_reports(root: Path, reports: Sequence, split: str = "test") -> Dict[str, object]:
    """``score`` from the gate's reports on the split's pairs (``gate_reports``), when they were made already."""
    pairs = list(read_pairs(root, split))
    if len(reports) != len(pairs):
        raise ValueError(f"{len(reports)} reports for the {len(pairs)} pairs of FRANK's {split} split")
    counts = {group: Counter() for group in GROUPS}
    types = {group: Counter() for group in GROUPS}
    for (group, _, _), report in zip(pairs, reports):
        c = counts[group]
        c["summaries"] += 1
        c["flagged"] += report.verdict in ("rewrite", "reject")
        c["uncheckable"] += report.verdict == "uncheckable"
        c["sentences"] += report.memory_sentences
        c["flagged_sentences"] += len({change.memory.start_char for change in report.changes})
        types[group].update(change.type for change in report.changes)
    for group in GROUPS:
        c = counts[group]
        c["flag_rate"] = ratio(c["flagged"], c["summaries"] - c["uncheckable"])
        c["sentence_flag_rate"] = ratio(c["flagged_sentences"], c["sentences"])
        c["change_types"] = dict(types[group].most_common())
    return {"split": split, "groups": {group: dict(c) for group, c in counts.items()},
            "lift": ratio(counts["circumstance_error"]["flag_rate"], counts["clean"]["flag_rate"]),
            "sentence_lift": ratio(counts["circumstance_error"]["sentence_flag_rate"],
                                   counts["clean"]["sentence_flag_rate"])}


def markdown_table(result: Dict[str, object], lexicon_version: str) -> str:
    """Flag rate per group and the lift, as Markdown."""
    groups = result["groups"]
    lines = [
        f"FRANK {result['split']} split, summary level, lexicon {lexicon_version}: flagged = rewrite or reject; "
        f"uncheckable summaries are outside the rate. Lift (circumstance errors over clean): {result['lift']:.2f} "
        f"by summary, {result['sentence_lift']:.2f} by sentence.",
        "",
        "| summaries | count | uncheckable | flagged | flag rate | sentences | sentences flagged | sentence flag rate |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, label in (("clean", "fully factual (Factuality = 1)"), ("circumstance_error", "circumstance errors (CircE < 1)")):
        g = groups[name]
        lines.append(f"| {label} | {g['summaries']} | {g['uncheckable']} | {g['flagged']} | {g['flag_rate']:.2f} | "
                     f"{g['sentences']} | {g['flagged_sentences']} | {g['sentence_flag_rate']:.2f} |")
    return "\n".join(lines) + "\n"
