"""wrap(): gate every write to a mem0 store, record what became of it, and keep what is held for review.

mem0 (2.x) writes on these paths, and each is gated or declared:

- ``add(messages)`` (``infer=True``): mem0 asks its LLM for facts once; the
  wrapper reads that reply exactly as mem0 would (``extraction.py``: code
  fences, prose around the JSON), gates every fact it finds against the
  messages (or ``source=``), and hands mem0 only the facts the policy stores
  with the provenance all of them share; the others are stored verbatim
  afterwards with their own provenance, held, or dropped. A reply mem0 could
  not read stores nothing and is audited with the raw reply.
- ``add(messages, infer=False, source=...)``: each message is gated against
  the source. Without a source nothing can be checked: the policy's
  ``unsourced`` entry says what happens (``store_unverified`` by default:
  stored marked unverified and audited; ``hold`` or ``drop`` refuse it).
- ``add(..., memory_type="procedural_memory", agent_id=...)``: mem0's
  procedural summary is gated against the messages like a fact.
- ``update(memory_id, text=...)`` or ``update(memory_id, data=...)`` (mem0's
  older name): the new text is gated against the memory it replaces; a
  metadata-only update is audited.
- ``delete``, ``delete_all`` and ``reset`` are audited.

A message whose content is not a string (``None``, an image) is an error,
and so is metadata that sets the ``factwash_`` keys (provenance is the
gate's) or a custom ``llm=`` (it would bypass the gate). Reads (``get``,
``get_all``, ``search``, ``history``) are the Memory's own; any other
attribute is refused rather than forwarded. ``wrapped.memory`` is the naked
store: writing through it with ``infer=False`` bypasses the gate (with
``infer=True`` the LLM it shares with the wrapper stores nothing).

Nothing is lost. Every write leaves a ``decision`` record in the audit log
(``audit.py``) before anything is stored and an ``outcome`` record after:
``stored`` with mem0's ids, ``held`` with the review-queue row, ``dropped``,
or ``failed``, which is also raised to the caller (``NotStored``). A fact
held for a ``rewrite`` verdict is, with a fixer, rewritten by the model and
stored only if the rewrite passes the same gate; otherwise it waits in the
review queue (``queue.py``) until ``approve`` writes it through this store
or ``reject`` records that it never will be. Provenance (``provenance.py``)
lives in the same SQLite database: each fact is an item derived from its
source, never more verified than it, and its verification and source go
into the fact's metadata. After a crash, ``recover()`` settles every
decision left without an outcome from what the store holds: a fact the
store never confirmed is put in the review queue, not lost.

No state of a call is kept on the wrapper: each write carries its own
(``_Call``) in a context variable, so threads and asyncio tasks sharing one
wrapper never see each other's facts. ``GatedMemory`` wraps ``Memory`` and
``AsyncGatedMemory`` wraps ``AsyncMemory``; both run the same steps
(generators yielding the mem0 calls to make), driven with or without
``await``. mem0 is an optional extra and is imported only by this module.
"""

import contextvars
import hashlib
import json
import threading
import uuid
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from functools import wraps
from pathlib import Path
from typing import Any, Dict, Generator, List, Mapping, Optional, Sequence, Union

from ..errors import FactwashError
from ..io.textfile import surrogate_problem
from .audit import AuditLog, unsettled
from .database import Database
from .extraction import read_extraction
from .provenance import Item, SQLiteStore, Verification
from .queue import ReviewQueue, named, reject_held

ACTIONS = ("store", "store_unverified", "hold", "drop")
STORING = ("store", "store_unverified")
DEFAULT_POLICY = {"pass": "store", "uncheckable": "store_unverified", "rewrite": "hold", "reject": "drop",
                  "unsourced": "store_unverified"}
VERIFICATION_KEY = "factwash_verification"
SOURCE_KEY = "factwash_source"
REVIEWED_KEY = "factwash_reviewed_by"
SCOPE_KEYS = ("user_id", "agent_id", "run_id")
PROCEDURAL = "procedural_memory"
READS = frozenset({"get", "get_all", "search", "history", "config", "close", "api_version", "custom_instructions"})
INFERRING = ("memory_type", "prompt")  # options of mem0's inferring write, never passed to a verbatim one
FIND_LIMIT = 100_000  # memories of one scope read back when looking a fact up in the store
EMPTY_EXTRACTION = json.dumps({"memory": []})
_CALL: contextvars.ContextVar = contextvars.ContextVar("factwash_gated_call", default=None)


class NotStored(FactwashError, RuntimeError):
    """A write the policy allowed that the store did not confirm; it is recorded as failed in the audit log."""

    code = "E014"


class _Withheld(Exception):
    """Raised through mem0 to stop its own write of a procedural summary the policy does not let it store."""


def _no_model_downloads() -> None:
    """mem0 downloads a spaCy model at run time when spaCy is installed; turn that off (BM25 then uses the text)."""
    try:
        from mem0.utils import spacy_models
    except ImportError:
        return
    spacy_models._load_failed_full = True
    spacy_models._load_failed_lemma = True


def checked_policy(policy: Optional[Mapping[str, str]]) -> Dict[str, str]:
    """The policy with ``unsourced`` defaulted; a clear error when a verdict is missing or an action unknown."""
    merged = dict(DEFAULT_POLICY) if policy is None else {"unsourced": DEFAULT_POLICY["unsourced"], **policy}
    if (set(merged) != set(DEFAULT_POLICY) or not set(merged.values()) <= set(ACTIONS)
            or merged["unsourced"] == "store"):
        raise ValueError(f"policy must map each of {sorted(set(DEFAULT_POLICY) - {'unsourced'})} to one of "
                         f"{ACTIONS}, and may map 'unsourced' to any of them but 'store', got {dict(policy or {})}")
    return merged


def checked_messages(messages: Any) -> List[Dict[str, Any]]:
    """The messages as mem0 takes them (a string, a message, a list of messages), each with a string role and a
    string content that is text; anything else is an error, never stored as its ``str()``."""
    if isinstance(messages, str):
        listed: Sequence = [{"role": "user", "content": messages}]
    elif isinstance(messages, Mapping):
        listed = [messages]
    elif isinstance(messages, list):
        listed = messages
    else:
        raise TypeError(f"messages must be a string, a message or a list of messages, got {type(messages).__name__}")
    for index, message in enumerate(listed):
        if not isinstance(message, Mapping) or not isinstance(message.get("role"), str):
            raise TypeError(f"message {index} needs a string 'role'")
        content = message.get("content")
        if not isinstance(content, str):
            raise TypeError(f"message {index}: content is {type(content).__name__}, not a string; only text is "
                            "gated, so nothing was stored")
        problem = surrogate_problem(content, f"message {index}'s content")
        if problem:
            raise ValueError(problem)
    return [dict(message) for message in listed]


def messages_text(messages: Union[str, Sequence[Mapping[str, Any]]]) -> str:
    """The source a fact is checked against: the messages' contents, system messages left out."""
    if isinstance(messages, str):
        return messages
    return "\n".join(m["content"] for m in messages if m.get("role") != "system")


def checked_metadata(metadata: Any) -> Dict[str, Any]:
    """The caller's metadata; setting a ``factwash_`` key (the gate's provenance) is refused."""
    if metadata is None:
        return {}
    if not isinstance(metadata, Mapping):
        raise TypeError(f"metadata must be a dict, got {type(metadata).__name__}")
    ours = sorted(key for key in metadata if str(key).startswith("factwash_"))
    if ours:
        raise ValueError(f"metadata may not set {ours}: provenance is written by the gate")
    return dict(metadata)


def source_item_id(source: str) -> str:
    """The provenance id of a source text."""
    return "src:" + hashlib.sha1(source.encode("utf8")).hexdigest()[:12]


def _new_id() -> str:
    return uuid.uuid4().hex


@dataclass
class Decision:
    """What the gate decided for one write; its audit record and, held, its review-queue row come from it."""

    decision: str
    call: str
    path: str
    source: str
    fact: Optional[str]
    verdict: Optional[str]
    action: str
    provenance: Dict[str, str]
    report: Optional[Dict[str, Any]]
    scope: Dict[str, Any]
    metadata: Dict[str, Any]
    operation: str = "add"
    memory_id: Optional[str] = None
    held: Optional[int] = None

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "Decision":
        names = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in record.items() if key in names})


@dataclass
class _Call:
    """One write in flight: its source, scope and options, and the decisions it is carrying out. Never shared."""

    id: str
    path: str
    source: str
    scope: Dict[str, Any]
    metadata: Dict[str, Any]
    options: Dict[str, Any] = field(default_factory=dict)
    shared: Dict[str, str] = field(default_factory=dict)  # the provenance every fact handed to mem0 carries
    to_store: List[Decision] = field(default_factory=list)  # handed to mem0's own write
    deferred: List[Decision] = field(default_factory=list)  # stored verbatim after it
    reports: Dict[str, Any] = field(default_factory=dict)  # each decision's Report, for a fixer


@dataclass(frozen=True)
class Op:
    """One call on the wrapped mem0 Memory, made by the driver (with or without ``await``)."""

    name: str
    args: tuple = ()
    kwargs: Dict[str, Any] = field(default_factory=dict)


Steps = Generator[Op, Any, Any]


class _GatedLLM:
    """mem0's LLM, with every reply that becomes a memory passed through the gate of the write that asked for it."""

    def __init__(self, llm, owner: "_GatedWrites") -> None:
        self._llm = llm
        self._owner = owner

    def __getattr__(self, name: str):
        return getattr(self._llm, name)

    def generate_response(self, *args, **kwargs):
        reply = self._llm.generate_response(*args, **kwargs)
        call = _CALL.get()
        extraction = kwargs.get("response_format") == {"type": "json_object"}
        if call is None:
            return self._owner._outside(reply) if extraction else reply
        if call.path == "procedural":
            return self._owner._gate_procedural(call, reply)
        return self._owner._filter_extraction(call, reply) if extraction else reply


class _GatedWrites:
    """What the sync and async wrappers share: the gate, the policy, the audit log, the queue, the provenance."""

    def __init__(self, memory, gate, audit_log: Union[str, Path], policy: Optional[Mapping[str, str]] = None,
                 fixer=None, review=None, database: Union[str, Path] = "factwash.sqlite") -> None:
        self.policy = checked_policy(policy)
        if isinstance(memory.llm, _GatedLLM):
            raise ValueError("this Memory is already wrapped: wrap it once and share the wrapper")
        _no_model_downloads()
        self.memory = memory
        self.gate = gate
        self.fixer = fixer
        self.review = review
        self.audit = AuditLog(audit_log)
        self.audit_log = self.audit.path
        self.database = Database(database)
        self.queue = ReviewQueue(self.database)
        self.provenance = SQLiteStore(self.database)
        self._exclusive = threading.Lock()  # the spaCy pipeline and the model components are not thread-safe
        memory.llm = _GatedLLM(memory.llm, self)

    def __getattr__(self, name: str):
        if name in READS and "memory" in self.__dict__:
            return getattr(self.memory, name)
        raise AttributeError(f"{type(self).__name__} has no {name!r}: it forwards only the Memory's reads "
                             f"({', '.join(sorted(READS))}); writes go through its gated add, update, delete, "
                             "delete_all and reset (wrapped.memory is the naked store, and bypasses the gate)")

    # -- the record ------------------------------------------------------------------------------

    def _intent(self, decision: Decision) -> None:
        self.audit.write({"event": "decision", **asdict(decision)})

    def _outcome(self, decision: Decision, outcome: str, **details: Any) -> None:
        self.audit.write({"event": "outcome", "decision": decision.decision, "outcome": outcome, **details})

    def _fail(self, decision: Decision, error: BaseException) -> None:
        """Record a write that did not happen; when even that cannot be written, ``recover`` settles it later."""
        try:
            self._outcome(decision, "failed", error=f"{type(error).__name__}: {error}")
        except OSError:
            pass

    # -- deciding ----------------------------------------------------------------------------------

    def _decide(self, call: _Call, path: str, source: str, fact: str, *, operation: str = "add",
                memory_id: Optional[str] = None) -> Decision:
        """Gate one fact against its source, log the decision, then record its provenance."""
        with self._exclusive:  # a witness (the review) may lower the verdict, never raise it
            report = self.gate.check(source, fact, self.review)
        source_id = source_item_id(source)
        if self.provenance.get(source_id) is None:
            self.provenance.add(Item(source_id, source, "user_statement", path, verification=Verification.ATTRIBUTED))
        decision_id = _new_id()
        item = Item(f"fact:{decision_id}", fact, "model_inference", path, verification=Verification.ATTRIBUTED)
        changes, unchecked = [c.type for c in report.changes], report.verdict == "uncheckable"
        derived = self.provenance.derived(item, [source_id], changes, unchecked)
        decision = Decision(decision_id, call.id, path, source, fact, report.verdict, self.policy[report.verdict],
                            {VERIFICATION_KEY: derived.verification.name.lower(), SOURCE_KEY: source_id},
                            report.to_dict(), call.scope, call.metadata, operation, memory_id)
        call.reports[decision_id] = report
        self._intent(decision)
        try:
            self.provenance.derive(item, [source_id], changes, unchecked)
        except BaseException as err:
            self._fail(decision, err)
            raise
        return decision

    def _unsourced(self, call: _Call, path: str, fact: str) -> Decision:
        """A verbatim write with no source to check it against: the policy's ``unsourced`` action, unverified."""
        decision_id = _new_id()
        decision = Decision(decision_id, call.id, path, "", fact, "unsourced", self.policy["unsourced"],
                            {VERIFICATION_KEY: "unverified", SOURCE_KEY: ""}, None, call.scope, call.metadata)
        self._intent(decision)
        try:
            self.provenance.add(Item(f"fact:{decision_id}", fact, "user_statement", path))
        except BaseException as err:
            self._fail(decision, err)
            raise
        return decision

    def _ungated(self, call: _Call, path: str, action: str, fact: Optional[str] = None,
                 memory_id: Optional[str] = None) -> Decision:
        """An audited write with nothing to gate (a delete, a metadata-only update)."""
        decision = Decision(_new_id(), call.id, path, call.source, fact, None, action, {}, None, call.scope,
                            call.metadata, "update" if path == "update_metadata" else "add", memory_id)
        self._intent(decision)
        return decision

    def _withhold(self, call: _Call, decision: Decision) -> Optional[Decision]:
        """Act on a decision not to store now: a fixer's passing rewrite (returned, to be stored), else the review
        queue (hold) or nothing (drop), with its outcome logged."""
        try:
            if decision.action == "drop":
                self._outcome(decision, "dropped")
                return None
            fix = self._fix(call, decision)
            if fix is not None:
                self._outcome(decision, "fixed", fix=fix.decision)
                return fix
            held = self.queue.hold(decision.decision, decision.operation, decision.path, decision.source,
                                   decision.fact, decision.verdict, f"policy: {decision.verdict} -> hold",
                                   decision.report, decision.provenance, decision.scope, _json_safe(decision.metadata),
                                   decision.memory_id)
            self._outcome(decision, "held", held=held)
        except BaseException as err:
            self._fail(decision, err)
            raise
        return None

    def _to_store(self, call: _Call, decision: Decision) -> Optional[Decision]:
        """The decision to store now (itself, or a fixer's passing rewrite of it), or None once it is held or
        dropped."""
        return decision if decision.action in STORING else self._withhold(call, decision)

    def _route(self, call: _Call, decision: Decision) -> bool:
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

    def _fix(self, call: _Call, decision: Decision) -> Optional[Decision]:
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

    # -- what the LLM hook does inside mem0's own write -----------------------------------------

    def _outside(self, reply: Any) -> str:
        """mem0 asked its LLM for facts outside a gated write (the naked Memory's add): none of them is stored."""
        self.audit.write({"event": "unreadable", "call": None, "path": "outside_gate", "reply": reply,
                          "reason": "mem0 extracted facts outside a gated write; none was stored"})
        return EMPTY_EXTRACTION

    def _filter_extraction(self, call: _Call, reply: Any) -> str:
        """The extraction reply mem0 gets: only the facts the policy stores with the call's shared provenance."""
        extraction = read_extraction(reply)
        if extraction.error or extraction.unreadable:
            self.audit.write({"event": "unreadable", "call": call.id, "path": call.path, "reply": reply,
                              "reason": extraction.error or "list items that are not facts with a string text",
                              "items": extraction.unreadable})
        kept = [fact for fact in extraction.facts
                if self._route(call, self._decide(call, call.path, call.source, fact["text"]))]
        return json.dumps({"memory": kept})

    def _gate_procedural(self, call: _Call, reply: Any) -> Any:
        """A procedural summary: gated like a fact; mem0 writes it only when the policy stores it as it shares."""
        from mem0.memory.utils import remove_code_blocks

        summary = remove_code_blocks(reply)
        if not summary:
            return reply  # mem0 refuses an empty summary itself; nothing is stored
        decision = self._decide(call, call.path, call.source, summary)
        if self._route(call, decision):
            return reply
        raise _Withheld(decision.decision)

    # -- the steps of each write (generators yielding the mem0 calls to make) -----------------------

    def _add(self, messages, *, infer: bool = True, source: Optional[str] = None, metadata=None,
             memory_type: Optional[str] = None, **options) -> Steps:
        """Add messages through the gate; see the module docstring for each path."""
        listed = checked_messages(messages)
        metadata = checked_metadata(metadata)
        if source is not None and (not isinstance(source, str) or surrogate_problem(source)):
            raise TypeError("source must be a string of text")
        if "llm" in options:
            raise TypeError("a custom llm= would write without the gate; wrap a Memory configured with it instead")
        scope = {key: options.pop(key) for key in SCOPE_KEYS if options.get(key) is not None}
        if memory_type == PROCEDURAL and scope.get("agent_id") is not None:
            return (yield from self._add_inferred(listed, "procedural", source, {**metadata, "memory_type": PROCEDURAL},
                                                 scope, {**options, "memory_type": PROCEDURAL}))
        if memory_type is not None:
            options["memory_type"] = memory_type
        if not infer:
            return (yield from self._add_verbatim(listed, source, metadata, scope, options))
        return (yield from self._add_inferred(listed, "add", source, metadata, scope, options))

    def _add_inferred(self, listed, path: str, source: Optional[str], metadata: Dict[str, Any], scope, options) -> Steps:
        """mem0's own write, with the LLM's reply gated inside it; then the facts it was not to store itself."""
        source = source if source is not None else messages_text(listed)
        call = _Call(_new_id(), path, source, scope, metadata, options)
        call.shared = {VERIFICATION_KEY: Verification.ATTRIBUTED.name.lower(), SOURCE_KEY: source_item_id(source)}
        mem0_metadata = {**metadata, **call.shared}
        if path == "procedural":
            mem0_metadata.pop("memory_type")
        token = _CALL.set(call)
        try:
            result = yield Op("add", (listed,), {**options, **scope, "infer": True, "metadata": mem0_metadata})
        except _Withheld:
            result = {"results": []}
        except BaseException as err:
            for decision in call.to_store + call.deferred:
                self._fail(decision, err)
            raise
        finally:
            _CALL.reset(token)
        return (yield from self._settle(call, result))

    def _settle(self, call: _Call, result: Mapping[str, Any]) -> Steps:
        """Outcomes for the facts handed to mem0 (by the ids it returned), then the deferred ones stored verbatim;
        ``NotStored`` at the end when any was not stored."""
        returned: Dict[str, List[str]] = {}
        for stored in result.get("results", []):
            returned.setdefault(stored.get("memory"), []).append(stored["id"])
        failed = []
        for decision in call.to_store:
            if decision.fact in returned:
                self._outcome(decision, "stored", memory_ids=returned[decision.fact])
                continue
            existing = yield from self._find(decision)
            if existing:
                self._outcome(decision, "already_stored", memory_ids=existing)
            else:
                self._fail(decision, NotStored("mem0 returned no memory for it and the store does not hold it"))
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
        call = _Call(_new_id(), "add_verbatim", source or "", scope, metadata, options)
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
            self._fail(decision, err)
            raise
        self._outcome(decision, "stored", memory_ids=ids)
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

    def _update(self, memory_id: str, text: Optional[str] = None, *, data: Optional[str] = None, metadata=None,
                **options) -> Steps:
        """Gate the new text (``text``, or mem0's older ``data``) against the memory it replaces."""
        if text is not None and data is not None and text != data:
            raise ValueError("update got both text and data, and they differ")
        new = text if text is not None else data
        metadata = checked_metadata(metadata)
        if new is not None and (not isinstance(new, str) or surrogate_problem(new)):
            raise TypeError("the new text must be a string of text")
        old = yield Op("get", (memory_id,))
        if not old:
            raise ValueError(f"no memory {memory_id!r} to update")
        call = _Call(_new_id(), "update", old["memory"], {k: old[k] for k in SCOPE_KEYS if old.get(k)}, metadata,
                     options)
        if new is None:  # metadata or expiration only: nothing to gate, recorded all the same
            decision = self._ungated(call, "update_metadata", "store", old["memory"], memory_id)
            try:
                result = yield Op("update", (memory_id,), {"metadata": metadata or None, **options})
            except BaseException as err:
                self._fail(decision, err)
                raise
            self._outcome(decision, "stored", memory_ids=[memory_id])
            return result
        decision = self._decide(call, "update", old["memory"], new, operation="update", memory_id=memory_id)
        fixed = self._to_store(call, decision)
        if fixed is None:
            return {"message": f"not updated: the gate's policy says {decision.action}", "memory_id": memory_id}
        yield from self._store(fixed)
        return {"message": "Memory updated successfully!", "memory_id": memory_id, "memory": fixed.fact}

    def _audited(self, path: str, op: Op, fact: Optional[str] = None, memory_id: Optional[str] = None) -> Steps:
        """A write with nothing to gate, recorded before and after."""
        decision = self._ungated(_Call(_new_id(), path, "", dict(op.kwargs), {}), path, path, fact, memory_id)
        try:
            result = yield op
        except BaseException as err:
            self._fail(decision, err)
            raise
        self._outcome(decision, "deleted", memory_ids=[memory_id] if memory_id else [])
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

    # -- review ----------------------------------------------------------------------------------

    def _approve(self, held_id: int, reviewer: str, note: str = "") -> Steps:
        """Write a held fact through this store, recording who approved it and when; the queue row and mem0's
        results."""
        row = self.queue.claim(held_id, reviewer)
        decision = Decision(_new_id(), _new_id(), "review", row.source, row.fact, row.verdict, "store",
                            {**row.provenance, REVIEWED_KEY: named(reviewer)}, row.report, row.scope, row.metadata,
                            row.operation, row.memory_id, held_id)
        try:
            self._intent(decision)
            results = yield from self._store(decision)
        except BaseException:
            self.queue.release(held_id)
            raise
        return {"held": self.queue.finish(held_id, [r["id"] for r in results], note).to_dict(), "results": results}

    def reject(self, held_id: int, reviewer: str, note: str = "") -> Dict[str, Any]:
        """Reject a held fact: it is never stored; who, when and why are recorded in the queue and the audit log."""
        return reject_held(self.queue, held_id, reviewer, note, self.audit).to_dict()

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
            self._outcome(decision, outcome, recovered=True, **({} if gone else {"error": "interrupted; check"}))
            return outcome
        if decision.action == "drop":
            self._outcome(decision, "dropped", recovered=True)
            return "dropped"
        if decision.action in STORING:
            ids = yield from self._find(decision)
            if ids:
                self._outcome(decision, "stored", memory_ids=ids, recovered=True)
                return "stored"
        held = self.queue.by_decision(decision.decision)
        held_id = held.id if held else self.queue.hold(
            decision.decision, decision.operation, decision.path, decision.source, decision.fact or "",
            decision.verdict or "", "interrupted before the store confirmed it" if decision.action in STORING
            else f"policy: {decision.verdict} -> hold", decision.report, decision.provenance, decision.scope,
            _json_safe(decision.metadata), decision.memory_id)
        self._outcome(decision, "held", held=held_id, recovered=True)
        return "held"


def _json_safe(value: Any) -> Any:
    """A value as JSON can keep it (anything else as its string)."""
    return json.loads(json.dumps(value, default=str))


def _advance(steps: Steps, value: Any = None, error: Optional[BaseException] = None):
    """Resume the steps with the last call's result or error: (the next call, None) or (None, the return value)."""
    try:
        return (steps.throw(error) if error is not None else steps.send(value)), None
    except StopIteration as done:
        return None, done


WRITES = ("add", "update", "delete", "delete_all", "reset", "approve", "recover")


class GatedMemory(_GatedWrites):
    """A mem0 ``Memory`` whose writes pass the gate first; its reads are the Memory's own."""

    def _drive(self, steps: Steps) -> Any:
        op, done = _advance(steps)
        while done is None:
            try:
                value, error = getattr(self.memory, op.name)(*op.args, **op.kwargs), None
            except Exception as err:
                value, error = None, err
            op, done = _advance(steps, value, error)
        return done.value


class AsyncGatedMemory(_GatedWrites):
    """A mem0 ``AsyncMemory`` whose writes pass the gate first: the same steps, each mem0 call awaited."""

    async def _drive(self, steps: Steps) -> Any:
        op, done = _advance(steps)
        while done is None:
            try:
                value, error = await getattr(self.memory, op.name)(*op.args, **op.kwargs), None
            except Exception as err:
                value, error = None, err
            op, done = _advance(steps, value, error)
        return done.value


def _driven(name: str, asynchronous: bool):
    """The public method ``name`` that runs the steps ``_name`` with the wrapper's driver (awaited when
    ``asynchronous``)."""
    steps = getattr(_GatedWrites, f"_{name}")
    if asynchronous:
        async def method(self, *args, **kwargs):
            return await self._drive(steps(self, *args, **kwargs))
    else:
        def method(self, *args, **kwargs):
            return self._drive(steps(self, *args, **kwargs))
    method = wraps(steps)(method)
    method.__name__ = method.__qualname__ = name
    return method


for _name in WRITES:
    setattr(GatedMemory, _name, _driven(_name, asynchronous=False))
    setattr(AsyncGatedMemory, _name, _driven(_name, asynchronous=True))
