"""The gate's false flags on SummEdits' consistent edits: real paraphrases a gate must pass.

SummEdits (Laban et al., 2023; ``$FACTWASH_CORPORA/summedits``, development
data here) pairs a verified seed summary with an LLM edit of it and a human
label; ``label == 1`` means the edit is still consistent with the document.
Each consistent edit is gated as (``original_summary`` -> ``summary``) through
the gate's public ``pipe_pairs``; a ``rewrite`` or ``reject`` verdict on it
is a false flag. The figures are per domain, with the change types that
raised them.
"""

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from .scoring import ratio

SUMMEDITS_DIR = "summedits/raw/data/summedits"
FLAGGED = ("rewrite", "reject")


@dataclass
class DomainFlags:
    """False flags on one domain's consistent edits."""

    pairs: int = 0
    flagged: int = 0
    change_types: Counter = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return ratio(self.flagged, self.pairs)


def consistent_pairs(root: Path) -> List[Tuple[str, str, str]]:
    """(domain, original summary, edited summary) for every consistent edit, domains in file-name order."""
    folder = Path(root) / SUMMEDITS_DIR
    files = sorted(folder.glob("summedits_*.json"))
    if not files:
        raise FileNotFoundError(f"{folder}: no summedits_*.json files (public origin: github.com/salesforce/factualNLG)")
    pairs = []
    for path in files:
        domain = path.stem[len("summedits_"):]
        for record in json.loads(path.read_text(encoding="utf8")):
            if record["label"] == 1:
                pairs.append((domain, record["original_summary"], record["summary"]))
    return pairs


def false_flags(gate, pairs: Sequence[Tuple[str, str, str]]) -> Dict[str, DomainFlags]:
    """Gate every pair with ``gate.pipe_pairs``; per domain (and "all"), the pairs flagged and why."""
    by_domain: Dict[str, DomainFlags] = {}
    reports = gate.pipe_pairs([(source, memory) for _, source, memory in pairs])
    for (domain, _, _), report in zip(pairs, reports):
        for name in (domain, "all"):
            flags = by_domain.setdefault(name, DomainFlags())
            flags.pairs += 1
            if report.verdict in FLAGGED:
                flags.flagged += 1
                flags.change_types.update({change.type for change in report.changes})
    return by_domain


def measure(root: Path) -> Tuple[Dict[str, DomainFlags], Dict[str, DomainFlags]]:
    """False flags of the default gate and of the same gate on the parse pipeline (``load(parse=True)``)."""
    from ..pipeline import load

    pairs = consistent_pairs(root)
    return tuple(false_flags(load(parse=parse).get_pipe("factwash_compare"), pairs) for parse in (False, True))


def markdown_table(without_parse: Dict[str, DomainFlags], with_parse: Dict[str, DomainFlags]) -> str:
    """False-flag rate per domain, without and with the parse, and the two commonest causes of each."""
    lines = [
        "Gate on SummEdits consistent edits (original summary -> edited summary, label 1), "
        "flagged = rewrite or reject, so every flag is a false flag.",
        "",
        "| domain | pairs | flagged | rate | flagged with parse | rate with parse |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for domain in sorted(without_parse, key=lambda name: (name == "all", name)):
        flags, parsed = without_parse[domain], with_parse[domain]
        lines.append(f"| {domain} | {flags.pairs} | {flags.flagged} | {flags.rate:.2f} | "
                     f"{parsed.flagged} | {parsed.rate:.2f} |")
    lines.append("")
    for name, result in (("without the parse", without_parse), ("with the parse", with_parse)):
        causes = ", ".join(f"{kind} {n}" for kind, n in result["all"].change_types.most_common())
        lines.append(f"Change types on flagged pairs {name}: {causes or 'none'}.")
    return "\n".join(lines) + "\n"
