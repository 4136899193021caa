"""The fixer: on a rewrite verdict, a model proposes a memory that restores what was dropped; the gate decides.

The proposal must pass the same gate against the same source, or it is
refused and the original verdict stands. Both reports are kept.
"""

from dataclasses import dataclass
from typing import Optional, Tuple

from ...pipes.gate.report import Report
from ..budget import UnknownPrice
from ..client import ModelComponent

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
    model: str = ""
    prompt: str = ""


@dataclass
class Fixer(ModelComponent):
    """Propose corrected memories through the anthropic SDK; the gate accepts or refuses each."""

    def propose(self, source: str, memory: str, report: Report) -> Tuple[Optional[str], str]:
        """The model's rewrite of ``memory`` (None when its reply holds none) and the prompt version used."""
        dropped = "; ".join(f"{c.type}: {c.message}" for c in report.changes)
        reply = self.ask_tool("fixer", TOOL, f"SOURCE:\n{source}\n\nMEMORY:\n{memory}\n\nDROPPED:\n{dropped}")
        text = reply.input.get("memory") if isinstance(reply.input, dict) else None
        return (text if isinstance(text, str) and text.strip() else None), reply.prompt

    def fix(self, gate, source: str, memory: str, report: Report) -> Fix:
        """Ask for a rewrite of a ``rewrite``-verdict memory and gate it (a ``Gate``) against the same source."""
        if report.verdict != "rewrite":
            return Fix(report, None, None, False, f"only a rewrite verdict is fixed, not {report.verdict}")
        try:
            proposal, prompt = self.propose(source, memory, report)
        except UnknownPrice:
            raise
        except Exception as err:  # a failed call or an exhausted budget leaves the original verdict standing
            return Fix(report, None, None, False, f"call failed: {type(err).__name__}: {err}", self.model)
        if proposal is None:
            return Fix(report, None, None, False, "the reply held no rewrite", self.model, prompt)
        checked = gate.check(source, proposal)
        accepted = checked.verdict == "pass"
        return Fix(report, proposal, checked, accepted,
                   "the rewrite passes the gate" if accepted else f"the rewrite is itself {checked.verdict}",
                   self.model, prompt)
