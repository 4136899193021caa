"""The gate on SummEdits' real LLM edits (development data): verdicts by human label, and claim-strength step-ups.

SummEdits (Laban et al., 2023) pairs a seed summary (``original_summary``)
with an LLM edit of it (``summary``) and a human verdict: label 1, the edit
is still consistent with the document; 0, it is not. Each edited claim is
aligned to its seed claims by the gate (``gate.claims``, ``gate.align``), and
a *step-up* is an aligned pair whose seed claim is correlational or
conditional causal and whose edited claim is direct causal
(``strength.strengthened``): what the ``strengthened_causality`` check flags. It is counted twice: with any weaker seed, and only with a
seed whose evidence is an association or a modal (not a bare comparison,
"a rise in"). Its rate on consistent edits is that check's false-flag rate on
real paraphrases.
"""

import json
from collections import Counter
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from spacy_factwash.pipes.gate.align import align
from spacy_factwash.pipes.gate.compare.strength import strength_of
from spacy_factwash.pipes.gate.gate import Gate
from spacy_factwash.pipes.gate.report import CHANGE_TYPES
from spacy_factwash.pipes.strength.claim import strengthened

RAW = "summedits/raw/data/summedits"
DOMAINS = ("news", "ectsum", "scitldr", "sales_email")
LABELS = {1: "consistent", 0: "inconsistent"}
VARIANTS = {"any": True, "association": False}  # variant -> whether a comparison-only seed counts


class SummEditsFormatError(ValueError):
    """A SummEdits record lacks the fields the measurement reads."""


def read(root: Path, domain: str) -> Iterator[Tuple[str, str, int]]:
    """(original_summary, summary, label) of every record of one domain; a clear error on a malformed one."""
    path = root / RAW / f"summedits_{domain}.json"
    for number, record in enumerate(json.loads(path.read_text(encoding="utf8"))):
        original, summary, label = record.get("original_summary"), record.get("summary"), record.get("label")
        if not isinstance(original, str) or not isinstance(summary, str) or label not in (0, 1):
            raise SummEditsFormatError(f"{path}: record {number}: needs original_summary, summary and a 0/1 label")
        yield original, summary, label


def step_ups(gate, original: Doc, edited: Doc, from_comparison: bool = False) -> List[Tuple[str, str]]:
    """(seed claim, edited claim) of every aligned pair whose claim went from weaker to direct causal."""
    return [(candidate.text, memory.text)
            for candidate, memory in aligned_claims(gate, gate.claims(original), gate.claims(edited))
            if strengthened(strength_of(candidate), strength_of(memory), from_comparison=from_comparison)]


def aligned_claims(gate, seed, edit) -> Iterator[Tuple[object, object]]:
    """(seed claim, edited claim) of every aligned pair of two texts' claims (``gate.claims``)."""
    for alignment in align(seed.claims, edit.claims, gate.threshold):
        for candidate in alignment.candidates:
            yield candidate, alignment.memory


def score(root: Path, nlp: Language) -> Dict[str, Dict[str, Dict[str, object]]]:
    """Per domain and verdict (consistent, inconsistent): pairs, and per variant the pairs with a step-up and the rate.
    A domain's texts are annotated and read into claims once each (a seed summary has many edits), and each edit's
    aligned pairs are found once for both variants; the claims are dropped when the domain is done."""
    gate = Gate(nlp).component
    result: Dict[str, Dict[str, Dict[str, object]]] = {}
    for domain in DOMAINS:
        records = list(read(root, domain))
        texts = list(dict.fromkeys(text for original, summary, _ in records for text in (original, summary)))
        claims = {text: gate.claims(doc) for text, doc in zip(texts, nlp.pipe(texts))}
        groups = {group: {"pairs": 0, **{variant: 0 for variant in VARIANTS}} for group in ("consistent", "inconsistent")}
        for original, summary, label in records:
            counts = groups["consistent" if label == 1 else "inconsistent"]
            counts["pairs"] += 1
            strengths = [(strength_of(candidate), strength_of(memory))
                         for candidate, memory in aligned_claims(gate, claims[original], claims[summary])]
            for variant, from_comparison in VARIANTS.items():
                counts[variant] += any(strengthened(seed, edit, from_comparison=from_comparison)
                                       for seed, edit in strengths)
        result[domain] = groups
    return result


def gate_score(root: Path, gate) -> Dict[str, object]:
    """The gate on every SummEdits edit (``original_summary`` -> ``summary``; identical pairs left out):
    per domain and label, the verdicts; per change type, the share of consistent and of inconsistent edits
    raising it. A consistent edit that is flagged is a false flag on a real paraphrase; the uncheckable share
    is the gate's abstention on real rewrites."""
    verdicts = {name: Counter() for name in LABELS.values()}
    types = {name: Counter() for name in LABELS.values()}
    domains: Dict[str, Dict[str, Counter]] = {}
    for domain in DOMAINS:
        records = [(o, s, l) for o, s, l in read(root, domain) if o != s]
        by_label = domains.setdefault(domain, {name: Counter() for name in LABELS.values()})
        for (_, _, label), report in zip(records, gate.pipe((o, s) for o, s, _ in records)):
            name = LABELS[label]
            for counter in (verdicts[name], by_label[name]):
                counter["edits"] += 1
                counter[report.verdict] += 1
            types[name].update({change.type for change in report.changes})
    return {"verdicts": {k: dict(v) for k, v in verdicts.items()}, "types": {k: dict(v) for k, v in types.items()},
            "domains": {d: {k: dict(v) for k, v in by.items()} for d, by in domains.items()},
            "lexicon_version": gate.lexicon_version}


def measure(root: Path) -> Dict[str, Dict[str, object]]:
    """The default gate and the same gate on the parse pipeline (``load(parse=True)``), on every edit."""
    from spacy_factwash.api import load

    if not (root / RAW).is_dir():
        raise FileNotFoundError(f"{root / RAW}: no SummEdits files (public origin: github.com/salesforce/factualNLG)")
    return {name: gate_score(root, Gate(load(parse=parse)))
            for name, parse in (("default", False), ("parse", True))}


def _share(counts: Dict[str, int], *keys: str) -> float:
    return sum(counts.get(key, 0) for key in keys) / counts["edits"] if counts.get("edits") else 0.0


def gate_table(result: Dict[str, Dict[str, object]]) -> str:
    """The README block: flagged, passed and uncheckable shares by domain and label (and flagged with the parse);
    each change type's rate."""
    default, parse = result["default"], result["parse"]
    lines = [
        f"SummEdits (Laban et al. 2023; development data), every LLM edit of a seed summary, lexicon "
        f"{default['lexicon_version']}: share of edits flagged (rewrite or reject), passed and uncheckable, by the "
        "human label (consistent edits should pass; inconsistent ones include edits no check here covers, such as a "
        "swapped entity), and the share flagged when the pipeline has the parse (`load(parse=True)`).",
        "",
        "| domain | label | edits | flagged | passed | uncheckable | flagged with the parse |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    rows = [(d, default["domains"][d], parse["domains"][d]) for d in DOMAINS]
    rows.append(("all", default["verdicts"], parse["verdicts"]))
    for domain, by, parsed in rows:
        for name in LABELS.values():
            c = by[name]
            lines.append(f"| {domain} | {name} | {c.get('edits', 0)} | {_share(c, 'rewrite', 'reject'):.2f} | "
                         f"{_share(c, 'pass'):.2f} | {_share(c, 'uncheckable'):.2f} | "
                         f"{_share(parsed[name], 'rewrite', 'reject'):.2f} |")
    lines += ["", "| change | consistent edits | inconsistent edits |", "|---|---:|---:|"]
    edits = {name: default["verdicts"][name]["edits"] for name in LABELS.values()}
    for change_type in CHANGE_TYPES:
        cells = [f"{default['types'][name].get(change_type, 0) / edits[name]:.3f}" for name in LABELS.values()]
        lines.append(f"| {change_type} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
