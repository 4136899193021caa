"""The README's table of what the model components would cost, on the written gate sets and on FRANK test."""

from pathlib import Path
from typing import Dict, Optional, Sequence

from spacy_factwash.llm.planned import planned_calls

from .frank import read_pairs
from .gate_sets import written_pairs


FRANK_SET = "FRANK test summaries"  # its pairs are ``frank.read_pairs(root, "test")``'s, in that order


def write_sets(gate_sets: Path, frank_root: Path) -> Dict[str, list]:
    """The (source, memory) pairs of each set of writes the table covers."""
    written = written_pairs(gate_sets)
    frank = [(article, summary) for _, article, summary in read_pairs(frank_root, "test")]
    return {"written gate sets": written, FRANK_SET: frank}


def cost_table(sets: Dict[str, list], nlp, model: str, reports: Optional[Dict[str, Sequence]] = None) -> str:
    """Calls and worst-case dollars per 100 writes, per component, as Markdown; ``reports``: by set name, the gate's
    reports on that set's pairs by ``nlp`` when they were made already (``frank.gate_reports`` for ``FRANK_SET``)."""
    lines = [
        f"Model calls per 100 writes and their worst-case cost in US dollars on `{model}` "
        "(prices in `spacy_factwash/models/prices.json`); the witness is asked only about flagged sentences.",
        "",
        "| writes | pairs | witness calls / 100 | witness $ / 100 | support calls / 100 | support $ / 100 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, pairs in sets.items():
        made = (reports or {}).get(name)
        if made is not None and len(made) != len(pairs):
            raise ValueError(f"{name}: {len(made)} reports for {len(pairs)} pairs")
        plan = planned_calls(pairs, nlp, model, made)
        per = 100 / plan["writes"]
        lines.append(f"| {name} | {plan['writes']} | {plan['witness_calls'] * per:.1f} | "
                     f"{plan['witness_usd'] * per:.3f} | {plan['support_calls'] * per:.1f} | "
                     f"{plan['support_usd'] * per:.3f} |")
    return "\n".join(lines) + "\n"
