"""Recovery: settling every decision whose outcome could not be written, from what the store holds now.

A decision record without an outcome is a write that was interrupted (a crash, a kill, a full disk). ``recover``
settles each: found in the store, it is ``stored``; a fact the store never confirmed is put in the review queue,
not lost; a drop is ``dropped``; a delete is ``deleted`` when the memory is gone. An approval left half-written
(a queue row still ``approving``) is finished when the store holds its fact and released back to ``held`` when
it does not.
"""

from collections import Counter

from ..audit import unsettled
from .decisions import Decision, Op, Steps
from .policy import STORING, hold
from .adding import AddingWrites


class RecoveringWrites(AddingWrites):
    """The gated writes, with the steps that settle what a crash left open."""

    def _recover(self) -> Steps:
        """Settle every decision the audit log holds without an outcome, and every approval left half-written,
        from what the store holds now; counts of what each became. Run it while nothing else writes."""
        counts: Counter = Counter()
        for record in unsettled(self.audit.records()).values():
            decision = Decision.from_record(record)
            counts[(yield from self._settle_interrupted(decision))] += 1
        for row in self.queue.list("approving"):
            probe = Decision("", "", "review", row.source, row.fact, row.verdict, "store", {}, None, row.scope, {},
                             row.operation, row.memory_id)
            ids = yield from self._find(probe)
            if ids:
                self.queue.finish(row.id, ids, "recovered: the store holds it")
            else:
                self.queue.release(row.id)
            counts["approval recovered" if ids else "approval released"] += 1
        return dict(counts)

    def _settle_interrupted(self, decision: Decision) -> Steps:
        """The outcome of one interrupted decision, logged: found in the store, held for review, or as decided."""
        if decision.action in ("delete", "delete_all", "reset"):
            gone = decision.memory_id is not None and not (yield Op("get", (decision.memory_id,)))
            outcome = "deleted" if gone else "failed"
            self._record_outcome(decision, outcome, recovered=True, **({} if gone else {"error": "interrupted; check"}))
            return outcome
        if decision.action == "drop":
            self._record_outcome(decision, "dropped", recovered=True)
            return "dropped"
        if decision.action in STORING:
            ids = yield from self._find(decision)
            if ids:
                self._record_outcome(decision, "stored", memory_ids=ids, recovered=True)
                return "stored"
        held = self.queue.by_decision(decision.decision)
        held_id = held.id if held else hold(
            self.queue, decision, "interrupted before the store confirmed it" if decision.action in STORING
            else f"policy: {decision.verdict} -> hold")
        self._record_outcome(decision, "held", held=held_id, recovered=True)
        return "held"
