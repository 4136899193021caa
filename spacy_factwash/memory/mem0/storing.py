"""One decided fact written verbatim and confirmed from the store; the write paths that write that way.

mem0 (2.x) writes on these paths besides ``add`` (``adding.py``), and each is gated or declared:

- ``update(memory_id, text=...)`` or ``update(memory_id, data=...)`` (mem0's older name): the new text is gated
  against the memory it replaces; a metadata-only update is audited.
- ``delete``, ``delete_all`` and ``reset`` are audited.
- ``approve`` writes a held fact through the store, recording who approved it; ``reject`` records that it never
  will be.

Each step is a generator that yields the mem0 calls to make (``decisions.Op``), so one body serves the sync and
the async wrapper. A stored fact is confirmed from what the store returns or holds, and its outcome logged:
``stored`` with mem0's ids, or ``failed``, which is also raised to the caller (``NotStored``).
"""

from typing import Any, Dict, Mapping, Optional

from ...errors import FactwashError
from ..queue import reject_held, reviewer_name
from .decisions import REVIEWED_KEY, Call, Decision, Op, Steps, new_id
from .hook import HookedWrites
from .validation import SCOPE_KEYS, check_text, checked_metadata, update_text

INFERRING = ("memory_type", "prompt")  # options of mem0's inferring write, never passed to a verbatim one
FIND_LIMIT = 100_000  # memories of one scope read back when looking a fact up in the store


class NotStored(FactwashError, RuntimeError):
    """A write the policy allowed that the store did not confirm; it is recorded as failed in the audit log."""

    code = "E014"


class StoringWrites(HookedWrites):
    """Writing decided facts to the store and confirming them: update, delete, reset, approve and reject."""

    # -- store and find ----------------------------------------------------------------------------

    def _store(self, decision: Decision, message: Optional[Mapping[str, Any]] = None,
               options: Optional[Mapping[str, Any]] = None) -> Steps:
        """Write one decided fact verbatim (an add, or the update it is), confirm it from the store, log the
        outcome; ``NotStored`` (logged as failed) when the store did not take it."""
        metadata = {**decision.metadata, **decision.provenance}
        options = {key: value for key, value in (options or {}).items() if key not in INFERRING}
        try:
            if decision.operation == "update":
                yield Op("update", (decision.memory_id,), {"text": decision.fact, "metadata": metadata})
                found = yield Op("get", (decision.memory_id,))
                results = [{"id": decision.memory_id, "memory": decision.fact, "event": "UPDATE"}]
                ids = [decision.memory_id] if found and found.get("memory") == decision.fact else []
            else:
                message = message or {"role": "user", "content": decision.fact}
                result = yield Op("add", ([dict(message)],), {**options, **decision.scope, "infer": False,
                                                              "metadata": metadata})
                results = [r for r in result.get("results", []) if r.get("memory") == decision.fact]
                ids = [r["id"] for r in results]
            if not ids:
                raise NotStored(f"the store did not take {decision.fact!r}")
        except BaseException as err:
            self._record_failure(decision, err)
            raise
        self._record_outcome(decision, "stored", memory_ids=ids)
        return results

    def _find(self, decision: Decision) -> Steps:
        """The ids of memories in the decision's scope (or its memory, for an update) that hold its fact now."""
        if decision.operation == "update":
            found = yield Op("get", (decision.memory_id,))
            return [decision.memory_id] if found and found.get("memory") == decision.fact else []
        if not decision.scope:
            return []
        found = yield Op("get_all", (), {"filters": dict(decision.scope), "top_k": FIND_LIMIT})
        return [m["id"] for m in found.get("results", []) if m.get("memory") == decision.fact]

    # -- update, delete, reset ---------------------------------------------------------------------

    def _update(self, memory_id: str, text: Optional[str] = None, *, data: Optional[str] = None, metadata=None,
                **options) -> Steps:
        """Gate the new text (``text``, or mem0's older ``data``) against the memory it replaces."""
        new = update_text(text, data)
        metadata = checked_metadata(metadata)
        check_text(new, "the new text")
        old = yield Op("get", (memory_id,))
        if not old:
            raise ValueError(f"no memory {memory_id!r} to update")
        call = Call(new_id(), "update", old["memory"], {k: old[k] for k in SCOPE_KEYS if old.get(k)}, metadata,
                    options)
        if new is None:  # metadata or expiration only: nothing to gate, recorded all the same
            decision = self._ungated(call, "update_metadata", "store", old["memory"], memory_id)
            try:
                result = yield Op("update", (memory_id,), {"metadata": metadata or None, **options})
            except BaseException as err:
                self._record_failure(decision, err)
                raise
            self._record_outcome(decision, "stored", memory_ids=[memory_id])
            return result
        decision = self._decide(call, "update", old["memory"], new, operation="update", memory_id=memory_id)
        fixed = self._to_store(call, decision)
        if fixed is None:
            return {"message": f"not updated: the gate's policy says {decision.action}", "memory_id": memory_id}
        yield from self._store(fixed)
        return {"message": "Memory updated successfully!", "memory_id": memory_id, "memory": fixed.fact}

    def _audited(self, path: str, op: Op, fact: Optional[str] = None, memory_id: Optional[str] = None) -> Steps:
        """A write with nothing to gate, recorded before and after."""
        decision = self._ungated(Call(new_id(), path, "", dict(op.kwargs), {}), path, path, fact, memory_id)
        try:
            result = yield op
        except BaseException as err:
            self._record_failure(decision, err)
            raise
        self._record_outcome(decision, "deleted", memory_ids=[memory_id] if memory_id else [])
        return result

    def _delete(self, memory_id: str) -> Steps:
        """Delete one memory, recorded with the text it held."""
        old = yield Op("get", (memory_id,))
        return (yield from self._audited("delete", Op("delete", (memory_id,)), (old or {}).get("memory"), memory_id))

    def _delete_all(self, **scope) -> Steps:
        """Delete every memory of a scope, recorded."""
        return (yield from self._audited("delete_all", Op("delete_all", (), scope)))

    def _reset(self) -> Steps:
        """Reset the store, recorded (the review queue, provenance and audit log are kept)."""
        return (yield from self._audited("reset", Op("reset")))

    # -- review ------------------------------------------------------------------------------------

    def _approve(self, held_id: int, reviewer: str, note: str = "") -> Steps:
        """Write a held fact through this store, recording who approved it and when; the queue row and mem0's
        results."""
        row = self.queue.claim(held_id, reviewer)
        decision = Decision(new_id(), new_id(), "review", row.source, row.fact, row.verdict, "store",
                            {**row.provenance, REVIEWED_KEY: reviewer_name(reviewer)}, row.report, row.scope,
                            row.metadata, row.operation, row.memory_id, held_id)
        try:
            self._record_decision(decision)
            results = yield from self._store(decision)
        except BaseException:
            self.queue.release(held_id)
            raise
        return {"held": self.queue.finish(held_id, [r["id"] for r in results], note).to_dict(), "results": results}

    def reject(self, held_id: int, reviewer: str, note: str = "") -> Dict[str, Any]:
        """Reject a held fact: it is never stored; who, when and why are recorded in the queue and the audit log."""
        return reject_held(self.queue, held_id, reviewer, note, self.audit).to_dict()
