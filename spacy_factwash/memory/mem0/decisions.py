"""Deciding a write and recording it: the gate's verdict on a fact, its provenance, and its audit records.

Every write leaves a ``decision`` record in the audit log (``memory/audit.py``) before anything is stored and
an ``outcome`` record after it. ``Decisions`` makes the decisions and writes both records; the classes above it
act on them (``policy.py``), inside mem0's own write (``hook.py``) and outside it (``storing.py``, ``adding.py``).
"""

import hashlib
import threading
import uuid
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Dict, Generator, List, Mapping, Optional, Union

from ..audit import AuditLog
from ..database import Database, default_database_path
from ..provenance import Item, SQLiteStore, Verification
from ..queue import ReviewQueue
from .context import ROLE_FIELD, TurnReview, checked_fields, read_context

VERIFICATION_KEY = "factwash_verification"
SOURCE_KEY = "factwash_source"
REVIEWED_KEY = "factwash_reviewed_by"


def source_item_id(source: str) -> str:
    """The provenance id of a source text."""
    return "src:" + hashlib.sha1(source.encode("utf8")).hexdigest()[:12]


def new_id() -> str:
    """A fresh id for a decision or a call."""
    return uuid.uuid4().hex


@dataclass
class Decision:
    """What the gate decided for one write; its audit record and, held, its review-queue row come from it."""

    decision: str  # its id, the ``decision`` of its audit records
    call: str  # the id of the write it belongs to
    path: str  # the write path that made it: add, add_verbatim, procedural, update, fix, review, delete ...
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
    reply_fields: Dict[str, Any] = field(default_factory=dict)  # what mem0 is given back beside an extracted fact
    refused_fields: Dict[str, str] = field(default_factory=dict)  # the extraction reply's other fields, and why

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "Decision":
        """The decision a ``decision`` record of the audit log was written from."""
        names = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in record.items() if key in names})


@dataclass
class Call:
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
    messages: List[Dict[str, Any]] = field(default_factory=list)  # the messages of an inferring write
    history: List[Dict[str, Any]] = field(default_factory=list)  # the session messages mem0's extraction read


@dataclass(frozen=True)
class Op:
    """One call on the wrapped mem0 Memory, made by the driver (with or without ``await``)."""

    name: str
    args: tuple = ()
    kwargs: Dict[str, Any] = field(default_factory=dict)


Steps = Generator[Op, Any, Any]  # the steps of one write: the mem0 calls to make, each sent back its result


class Decisions:
    """The gate, the policy, the audit log, the review queue and the provenance a wrapper's writes share; makes
    each decision and writes its records. Without a ``database``, the review queue and the provenance are in the
    user's data folder's ``factwash.sqlite`` (``default_database_path``), never the working folder."""

    def __init__(self, gate, audit_log: Union[str, Path], policy: Dict[str, str], fixer=None, review=None,
                 database: Optional[Union[str, Path]] = None) -> None:
        self.policy = policy
        self.gate = gate
        self.fixer = fixer
        self.review = review
        self.audit = AuditLog(audit_log)
        self.audit_log = self.audit.path
        self.database = Database(default_database_path() if database is None else database)
        self.queue = ReviewQueue(self.database)
        self.provenance = SQLiteStore(self.database)
        self._exclusive = threading.Lock()  # the spaCy pipeline and the model components are not thread-safe

    # -- the record ------------------------------------------------------------------------------

    def _record_decision(self, decision: Decision) -> None:
        """The ``decision`` record, written before anything is stored."""
        self.audit.write({"event": "decision", **asdict(decision)})

    def _record_outcome(self, decision: Decision, outcome: str, **details: Any) -> None:
        """The ``outcome`` record of a decision: stored, held, dropped, deleted, failed ..."""
        self.audit.write({"event": "outcome", "decision": decision.decision, "outcome": outcome, **details})

    def _record_failure(self, decision: Decision, error: BaseException) -> None:
        """Record a write that did not happen; when even that cannot be written, ``recover`` settles it later."""
        try:
            self._record_outcome(decision, "failed", error=f"{type(error).__name__}: {error}")
        except OSError:
            pass

    # -- deciding ----------------------------------------------------------------------------------

    def _source_item(self, source: str, path: str) -> str:
        """The provenance id of a source text, its item recorded the first time it is seen."""
        source_id = source_item_id(source)
        if self.provenance.get(source_id) is None:
            self.provenance.add(Item(source_id, source, "user_statement", path, verification=Verification.ATTRIBUTED))
        return source_id

    def _decide(self, call: Call, path: str, source: str, fact: str, *, operation: str = "add",
                memory_id: Optional[str] = None, extracted: Optional[Mapping[str, Any]] = None) -> Decision:
        """Gate one fact against its source, log the decision, then record its provenance.

        A fact mem0 extracted (``extracted``: the reply's item) is gated against everything the extraction read
        (``context.py``: the session's earlier messages and this call's, turn by turn), and derives from that
        too when it is more than ``source``; the reply's fields beside the text are checked and recorded.
        """
        context = read_context(call.history, call.messages or [{"role": "user", "content": source}]) \
            if extracted is not None else None
        turns = TurnReview(self.gate, context, self.review, find_turns=ROLE_FIELD in extracted) if context else None
        with self._exclusive:  # a witness (the review) may lower the verdict, never raise it
            report = self.gate.check(context.text if context else source, fact, turns or self.review)
        source_id = self._source_item(source, path)
        inputs = [source_id] + ([self._source_item(context.text, "session_history")]
                                if context and context.text != source else [])
        decision_id = new_id()
        item = Item(f"fact:{decision_id}", fact, "model_inference", path, verification=Verification.ATTRIBUTED)
        changes, unchecked = [c.type for c in report.changes], report.verdict == "uncheckable"
        derived = self.provenance.derived(item, inputs, changes, unchecked)
        kept, refused = checked_fields(extracted, context, turns.turns) if context else ({}, {})
        decision = Decision(decision_id, call.id, path, context.text if context else source, fact, report.verdict,
                            self.policy[report.verdict],
                            {VERIFICATION_KEY: derived.verification.name.lower(), SOURCE_KEY: source_id},
                            report.to_dict(), call.scope, call.metadata, operation, memory_id,
                            reply_fields=kept, refused_fields=refused)
        call.reports[decision_id] = report
        self._record_decision(decision)
        try:
            self.provenance.derive(item, inputs, changes, unchecked)
        except BaseException as err:
            self._record_failure(decision, err)
            raise
        return decision

    def _unsourced(self, call: Call, path: str, fact: str) -> Decision:
        """A verbatim write with no source to check it against: the policy's ``unsourced`` action, unverified."""
        decision_id = new_id()
        decision = Decision(decision_id, call.id, path, "", fact, "unsourced", self.policy["unsourced"],
                            {VERIFICATION_KEY: "unverified", SOURCE_KEY: ""}, None, call.scope, call.metadata)
        self._record_decision(decision)
        try:
            self.provenance.add(Item(f"fact:{decision_id}", fact, "user_statement", path))
        except BaseException as err:
            self._record_failure(decision, err)
            raise
        return decision

    def _ungated(self, call: Call, path: str, action: str, fact: Optional[str] = None,
                 memory_id: Optional[str] = None) -> Decision:
        """An audited write with nothing to gate (a delete, a metadata-only update)."""
        decision = Decision(new_id(), call.id, path, call.source, fact, None, action, {}, None, call.scope,
                            call.metadata, "update" if path == "update_metadata" else "add", memory_id)
        self._record_decision(decision)
        return decision
