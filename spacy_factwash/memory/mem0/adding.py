"""The add paths: ``add(messages)`` with mem0's own write gated inside it, and ``add(..., infer=False)``.

- ``add(messages)`` (``infer=True``): mem0's own write, its LLM's reply gated inside it (``hook.py``) against
  everything the extraction read: the session's earlier messages and these (``context.py``; a ``source=`` given
  stands for these messages); then the facts it was not to store itself are stored verbatim with their own
  provenance (``storing.py``), held or dropped (``policy.py``).
- ``add(messages, infer=False, source=...)``: each message is gated against the source. Without a source
  nothing can be checked: the policy's ``unsourced`` entry says what happens (``store_unverified`` by default:
  stored marked unverified and audited; ``hold`` or ``drop`` refuse it).
- ``add(..., memory_type="procedural_memory", agent_id=...)``: mem0's procedural summary is gated against the
  messages like a fact.
"""

from typing import Any, Dict, List, Mapping, Optional

from ..provenance import Verification
from .decisions import SOURCE_KEY, VERIFICATION_KEY, Call, Op, Steps, new_id, source_item_id
from .hook import CURRENT_CALL, Withheld, watch_history
from .storing import NotStored, StoringWrites
from .validation import check_text, checked_messages, checked_metadata, messages_text, split_scope

PROCEDURAL = "procedural_memory"


class AddingWrites(StoringWrites):
    """The steps of ``add`` on each of its paths."""

    def _add(self, messages, *, infer: bool = True, source: Optional[str] = None, metadata=None,
             memory_type: Optional[str] = None, **options) -> Steps:
        """Add messages through the gate; see the module docstring for each path."""
        listed = checked_messages(messages)
        metadata = checked_metadata(metadata)
        check_text(source, "source")
        scope, options = split_scope(options)
        if memory_type == PROCEDURAL and scope.get("agent_id") is not None:
            return (yield from self._add_inferred(listed, "procedural", source,
                                                  {**metadata, "memory_type": PROCEDURAL}, scope,
                                                  {**options, "memory_type": PROCEDURAL}))
        if memory_type is not None:
            options["memory_type"] = memory_type
        if not infer:
            return (yield from self._add_verbatim(listed, source, metadata, scope, options))
        return (yield from self._add_inferred(listed, "add", source, metadata, scope, options))

    def _add_inferred(self, listed, path: str, source: Optional[str], metadata: Dict[str, Any], scope,
                      options) -> Steps:
        """mem0's own write, with the LLM's reply gated inside it; then the facts it was not to store itself."""
        given = source is not None
        source = source if given else messages_text(listed)
        call = Call(new_id(), path, source, scope, metadata, options,
                    messages=[{"role": "user", "content": source}] if given else listed)
        call.shared = {VERIFICATION_KEY: Verification.ATTRIBUTED.name.lower(), SOURCE_KEY: source_item_id(source)}
        mem0_metadata = {**metadata, **call.shared}
        if path == "procedural":
            mem0_metadata.pop("memory_type")
        watch_history(self.memory)
        token = CURRENT_CALL.set(call)
        try:
            result = yield Op("add", (listed,), {**options, **scope, "infer": True, "metadata": mem0_metadata})
        except Withheld:
            result = {"results": []}
        except BaseException as err:
            for decision in call.to_store + call.deferred:
                self._record_failure(decision, err)
            raise
        finally:
            CURRENT_CALL.reset(token)
        return (yield from self._settle(call, result))

    def _settle(self, call: Call, result: Mapping[str, Any]) -> Steps:
        """Outcomes for the facts handed to mem0 (by the ids it returned), then the deferred ones stored verbatim;
        ``NotStored`` at the end when any was not stored."""
        returned: Dict[str, List[str]] = {}
        for stored in result.get("results", []):
            returned.setdefault(stored.get("memory"), []).append(stored["id"])
        failed = []
        for decision in call.to_store:
            if decision.fact in returned:
                self._record_outcome(decision, "stored", memory_ids=returned[decision.fact])
                continue
            existing = yield from self._find(decision)
            if existing:
                self._record_outcome(decision, "already_stored", memory_ids=existing)
            else:
                self._record_failure(decision, NotStored("mem0 returned no memory for it and the store does not "
                                                         "hold it"))
                failed.append(decision.fact)
        results = list(result.get("results", []))
        for decision in call.deferred:
            try:
                results += yield from self._store(decision, None, call.options)
            except Exception:
                failed.append(decision.fact)
        if failed:
            raise NotStored(f"{len(failed)} fact(s) the policy allowed were not stored (recorded as failed in "
                            f"{self.audit_log}): {failed}")
        return {**result, "results": results}

    def _add_verbatim(self, listed, source: Optional[str], metadata: Dict[str, Any], scope, options) -> Steps:
        """infer=False: each message gated against the source (or, with none, the policy's ``unsourced`` action)."""
        call = Call(new_id(), "add_verbatim", source or "", scope, metadata, options)
        results = []
        for message in listed:
            if message["role"] == "system":
                continue  # mem0 stores no system message
            decision = (self._unsourced(call, "add_verbatim", message["content"]) if source is None
                        else self._decide(call, "add_verbatim", source, message["content"]))
            fixed = self._to_store(call, decision)
            if fixed is not None:
                results += yield from self._store(fixed, message if fixed is decision else None, options)
        return {"results": results}
