"""The fixer: on a rewrite verdict, a model proposes a memory that restores what was dropped; the gate decides.

The proposal must pass the same gate against the same source, or it is
refused and the original verdict stands. Both reports are kept.
"""

from dataclasses import dataclass
from typing import Optional

from ..gate.report import Report
from .client import ModelComponent

TOOL = {
    "name": "propose_rewrite",
    "description": "The memory written again so that it keeps the dropped cues.",
    "input_schema": {"type": "object", "properties": {"memory": {"type": "string"}}, "required": ["memory"],
                     "additionalProperties": False},
}


@dataclass(frozen=True)
class Fix:
    """The original report, the proposal (None when the model gave none), its report, and whether it passed."""

    original: Report
    proposal: Optional[str]
    proposal_report: Optional[Report]
    accepted: bool
    reason: str


@dataclass
class Fixer(ModelComponent):
    """Propose corrected memories through the anthropic SDK; the gate accepts or refuses each."""

    def propose(self, source: str, memory: str, report: Report) -> Optional[str]:
        """The model's rewrite of ``memory``, or None when its reply holds none."""
        dropped = "; ".join(f"{c.type}: {c.message}" for c in report.changes)
        reply = self.ask_tool("fixer", TOOL, f"SOURCE:\n{source}\n\nMEMORY:\n{memory}\n\nDROPPED:\n{dropped}")
        text = reply.get("memory") if isinstance(reply, dict) else None
        return text if isinstance(text, str) and text.strip() else None

    def fix(self, gate, source: str, memory: str, report: Report) -> Fix:
        """Ask for a rewrite of a ``rewrite``-verdict memory and gate it against the same source."""
        if report.verdict != "rewrite":
            return Fix(report, None, None, False, f"only a rewrite verdict is fixed, not {report.verdict}")
        try:
            proposal = self.propose(source, memory, report)
        except Exception as err:  # a failed call leaves the original verdict standing
            return Fix(report, None, None, False, f"call failed: {type(err).__name__}: {err}")
        if proposal is None:
            return Fix(report, None, None, False, "the reply held no rewrite")
        checked = gate.compare(*gate.nlp.pipe([source, proposal]))
        accepted = checked.verdict == "pass"
        return Fix(report, proposal, checked, accepted,
                   "the rewrite passes the gate" if accepted else f"the rewrite is itself {checked.verdict}")
