"""The review queue: facts held by the gate wait here, durable, until a person approves or rejects them.

A row is written when the policy holds a fact (table ``held`` of the write
path's database, see ``database.py``). ``list`` and ``show`` read it;
``reject`` records who rejected it, when and why; approving goes through
``GatedMemory.approve``, which writes the fact through the wrapped store:
``claim`` marks the row ``approving`` first (so two reviewers cannot store
it twice), ``finish`` records the reviewer, the time and mem0's memory ids,
and ``release`` puts it back to ``held`` when the store failed.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional

from ..errors import FactwashError
from .database import Database

STATES = ("held", "approving", "approved", "rejected")


class ReviewError(FactwashError, ValueError):
    """A review action that cannot be done: no such row, or a row not in the state the action needs."""

    code = "E012"


@dataclass(frozen=True)
class Held:
    """One row of the queue."""

    id: int
    decision: str
    created_at: str
    operation: str
    memory_id: Optional[str]
    path: str
    source: str
    fact: str
    verdict: str
    reason: str
    report: Optional[Dict[str, Any]]
    provenance: Dict[str, str]
    scope: Dict[str, Any]
    metadata: Dict[str, Any]
    state: str
    reviewer: Optional[str]
    reviewed_at: Optional[str]
    note: Optional[str]
    memory_ids: Optional[List[str]]

    @classmethod
    def from_row(cls, row) -> "Held":
        """A row of table ``held`` read back, its JSON columns parsed."""
        data = dict(row)
        for key in ("report", "provenance", "scope", "metadata", "memory_ids"):
            data[key] = json.loads(data[key]) if data[key] is not None else None
        return cls(**data)

    def to_dict(self) -> Dict[str, Any]:
        """The row as a JSON-safe dict."""
        return dict(self.__dict__)


def now() -> str:
    """The time a review action is recorded with: ISO 8601, UTC."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def reviewer_name(reviewer: Any) -> str:
    """The reviewer's name; a review without one is refused."""
    if not isinstance(reviewer, str) or not reviewer.strip():
        raise ReviewError("a review needs the reviewer's name")
    return reviewer.strip()


def row_id(held_id: Any) -> int:
    """A held fact's id as the database keeps it (a whole number from 1 to 2^63 - 1); any other is no row."""
    if isinstance(held_id, bool) or not isinstance(held_id, int):
        raise ReviewError(f"a held fact's id is a whole number, got {type(held_id).__name__}")
    if not 1 <= held_id < 2 ** 63:
        raise ReviewError(f"no held fact {held_id} (ids are whole numbers from 1)")
    return held_id


class ReviewQueue:
    """The held facts of one database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def hold(self, decision: str, operation: str, path: str, source: str, fact: str, verdict: str, reason: str,
             report: Optional[Dict[str, Any]], provenance: Dict[str, str], scope: Dict[str, Any],
             metadata: Dict[str, Any], memory_id: Optional[str] = None) -> int:
        """Queue one fact (once per decision: holding the same decision again returns its row); its row id."""
        with self.database.write() as db:
            db.execute("INSERT OR IGNORE INTO held (decision, created_at, operation, memory_id, path, source, fact, "
                       "verdict, reason, report, provenance, scope, metadata, state) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'held')",
                       (decision, now(), operation, memory_id, path, source, fact, verdict, reason,
                        None if report is None else json.dumps(report), json.dumps(provenance), json.dumps(scope),
                        json.dumps(metadata)))
            return db.execute("SELECT id FROM held WHERE decision = ?", (decision,)).fetchone()["id"]

    def list(self, state: Optional[str] = "held") -> List[Held]:
        """The rows in one state (every row with ``state=None``), oldest first."""
        if state is not None and state not in STATES:
            raise ReviewError(f"state must be one of {STATES}, got {state!r}")
        rows = self.database.read("SELECT * FROM held" + (" WHERE state = ?" if state else "") + " ORDER BY id",
                                  (state,) if state else ())
        return [Held.from_row(row) for row in rows]

    def show(self, held_id: int) -> Held:
        """One row; ``ReviewError`` when there is none."""
        rows = self.database.read("SELECT * FROM held WHERE id = ?", (row_id(held_id),))
        if not rows:
            raise ReviewError(f"no held fact {held_id}")
        return Held.from_row(rows[0])

    def by_decision(self, decision: str) -> Optional[Held]:
        """The row a decision of the audit log queued, if any."""
        rows = self.database.read("SELECT * FROM held WHERE decision = ?", (decision,))
        return Held.from_row(rows[0]) if rows else None

    def _move(self, held_id: int, from_state: str, to_state: str, **fields: Any) -> Held:
        """Change a row's state (and fields) only when it is in ``from_state``; the row as it was."""
        held_id = row_id(held_id)
        with self.database.write() as db:
            row = db.execute("SELECT * FROM held WHERE id = ?", (held_id,)).fetchone()
            if row is None:
                raise ReviewError(f"no held fact {held_id}")
            if row["state"] != from_state:
                raise ReviewError(f"held fact {held_id} is {row['state']}, not {from_state}")
            assignments = ", ".join(["state = ?"] + [f"{name} = ?" for name in fields])
            db.execute(f"UPDATE held SET {assignments} WHERE id = ?", (to_state, *fields.values(), held_id))
        return Held.from_row(row)

    def reject(self, held_id: int, reviewer: str, note: str = "") -> Held:
        """Reject a held fact: it is never stored; who and when are recorded."""
        self._move(held_id, "held", "rejected", reviewer=reviewer_name(reviewer), reviewed_at=now(), note=note)
        return self.show(held_id)

    def claim(self, held_id: int, reviewer: str) -> Held:
        """Mark a held fact as being approved by ``reviewer`` (before it is written); the row."""
        return self._move(held_id, "held", "approving", reviewer=reviewer_name(reviewer))

    def finish(self, held_id: int, memory_ids: List[str], note: str = "") -> Held:
        """Record an approval the store confirmed: the memory ids, the time, the note."""
        self._move(held_id, "approving", "approved", reviewed_at=now(), note=note, memory_ids=json.dumps(memory_ids))
        return self.show(held_id)

    def release(self, held_id: int) -> None:
        """Put a row whose approval was not stored back to ``held``."""
        self._move(held_id, "approving", "held", reviewer=None)


def reject_held(queue: ReviewQueue, held_id: int, reviewer: str, note: str = "", audit=None) -> Held:
    """Reject a held fact (it is never stored), recorded in the queue and, given one, in the audit log."""
    row = queue.reject(held_id, reviewer, note)
    if audit is not None:
        audit.write({"event": "review", "held": held_id, "decision": row.decision, "state": row.state,
                     "reviewer": row.reviewer, "note": note})
    return row
