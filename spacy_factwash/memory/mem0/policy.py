"""What each verdict does to a write: store it, store it marked unverified, hold it for review, or drop it.

The policy maps each verdict (and ``unsourced``, a verbatim write with no source to check it against) to an
action. A fact held for a ``rewrite`` verdict is, with a fixer, rewritten by the model and stored only if the
rewrite passes the same gate; otherwise it waits in the review queue (``memory/queue.py``).
"""

import json
from typing import Any, Dict, Mapping, Optional

from .decisions import Call, Decision, Decisions

ACTIONS = ("store", "store_unverified", "hold", "drop")
STORING = ("store", "store_unverified")
DEFAULT_POLICY = {"pass": "store", "uncheckable": "store_unverified", "rewrite": "hold", "reject": "drop",
                  "unsourced": "store_unverified"}


def checked_policy(policy: Optional[Mapping[str, str]]) -> Dict[str, str]:
    """The policy with ``unsourced`` defaulted; a clear error when a verdict is missing or an action unknown."""
    merged = dict(DEFAULT_POLICY) if policy is None else {"unsourced": DEFAULT_POLICY["unsourced"], **policy}
    if (set(merged) != set(DEFAULT_POLICY) or not set(merged.values()) <= set(ACTIONS)
            or merged["unsourced"] == "store"):
        raise ValueError(f"policy must map each of {sorted(set(DEFAULT_POLICY) - {'unsourced'})} to one of "
                         f"{ACTIONS}, and may map 'unsourced' to any of them but 'store', got {dict(policy or {})}")
    return merged


def json_safe(value: Any) -> Any:
    """A value as JSON can keep it (anything else as its string)."""
    return json.loads(json.dumps(value, default=str))


def hold(queue, decision: Decision, reason: str) -> int:
    """Put a decided fact in the review queue (once per decision); its row id."""
    return queue.hold(decision.decision, decision.operation, decision.path, decision.source, decision.fact or "",
                      decision.verdict or "", reason, decision.report, decision.provenance, decision.scope,
                      json_safe(decision.metadata), decision.memory_id)


class PolicyActions(Decisions):
    """Acting on a decision: stored now, fixed, held or dropped, with its outcome logged."""

    def _to_store(self, call: Call, decision: Decision) -> Optional[Decision]:
        """The decision to store now (itself, or a fixer's passing rewrite of it), or None once it is held or
        dropped."""
        return decision if decision.action in STORING else self._withhold(call, decision)

    def _withhold(self, call: Call, decision: Decision) -> Optional[Decision]:
        """Act on a decision not to store now: a fixer's passing rewrite (returned, to be stored), else the review
        queue (hold) or nothing (drop), with its outcome logged."""
        try:
            if decision.action == "drop":
                self._record_outcome(decision, "dropped")
                return None
            fix = self._fix(call, decision)
            if fix is not None:
                self._record_outcome(decision, "fixed", fix=fix.decision)
                return fix
            held = hold(self.queue, decision, f"policy: {decision.verdict} -> hold")
            self._record_outcome(decision, "held", held=held)
        except BaseException as err:
            self._record_failure(decision, err)
            raise
        return None

    def _fix(self, call: Call, decision: Decision) -> Optional[Decision]:
        """With a fixer and a rewrite verdict, the model's rewrite as a decision of its own when it passes."""
        if self.fixer is None or decision.verdict != "rewrite":
            return None
        with self._exclusive:
            fix = self.fixer.fix(self.gate, decision.source, decision.fact, call.reports[decision.decision])
        self.audit.write({"event": "fix", "decision": decision.decision, "fact": decision.fact,
                          "proposal": fix.proposal, "accepted": fix.accepted, "reason": fix.reason, "model": fix.model,
                          "prompt": fix.prompt,
                          "proposal_report": fix.proposal_report.to_dict() if fix.proposal_report else None})
        if not fix.accepted:
            return None
        return self._to_store(call, self._decide(call, "fix", decision.source, fix.proposal,
                                                 operation=decision.operation, memory_id=decision.memory_id))

    def _route(self, call: Call, decision: Decision) -> bool:
        """Send a decision made inside mem0's own write where it goes: True when mem0 is to store it (the policy
        stores it with the provenance every fact of that write shares); else it is stored verbatim afterwards,
        held or dropped."""
        if decision.action == "store" and decision.provenance == call.shared:
            call.to_store.append(decision)
            return True
        fixed = self._to_store(call, decision)
        if fixed is not None:
            call.deferred.append(fixed)
        return False
