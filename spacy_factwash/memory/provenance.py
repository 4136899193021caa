"""Provenance that never gains trust: what a memory item came from, and how far it is verified.

An item keeps its source class, source handle, subject, time and
verification state; a derived item (a rewrite, a summary) carries edges to
its inputs. The invariant: a derived item is never more verified than the
weakest of its inputs, and a gate finding that it dropped a hedge or an
attribution lowers it to unverified at most (it never raises it). Given a corrected or quarantined item,
``descendants`` lists every item derived from it, directly or not.

``Store`` keeps the graph in memory; ``SQLiteStore`` keeps it in the write
path's database (``database.Database``: tables ``items`` and ``edges``), so
it survives a restart and is shared by every thread and process that opens
the same file. Both run the same rules: only reading and writing differ.
"""

from dataclasses import asdict, dataclass, field, replace
from enum import IntEnum
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

SOURCE_CLASSES = ("user_statement", "system_of_record", "tool_observation", "model_inference")
LOWERING_CHANGES = frozenset({"dropped_attribution", "strengthened_certainty"})


class Verification(IntEnum):
    """How far an item is verified; a larger value is more trusted."""

    QUARANTINED = 0
    UNVERIFIED = 1
    ATTRIBUTED = 2
    CORROBORATED = 3
    VERIFIED = 4


@dataclass(frozen=True)
class Item:
    """One memory item and where it came from."""

    id: str
    text: str
    source_class: str
    source_handle: str
    subject: str = ""
    time: str = ""
    verification: Verification = Verification.UNVERIFIED
    derived_from: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Refuse a source class that is not one of ``SOURCE_CLASSES``."""
        if self.source_class not in SOURCE_CLASSES:
            raise ValueError(f"item {self.id!r}: source_class must be one of {SOURCE_CLASSES}")

    def to_dict(self) -> Dict[str, object]:
        """The item as a JSON-safe dict (its verification by name)."""
        data = asdict(self)
        data["verification"] = self.verification.name.lower()
        data["derived_from"] = list(self.derived_from)
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, object]) -> "Item":
        """The item ``to_dict`` gave."""
        return cls(**{**data, "verification": Verification[str(data["verification"]).upper()],
                      "derived_from": tuple(data.get("derived_from", ()))})


@dataclass
class Store:
    """Items by id, with the derivation edges between them."""

    items: Dict[str, Item] = field(default_factory=dict)

    # -- where items are kept: a dict here, the database in SQLiteStore ------------------------------

    def _put(self, items: Sequence[Item]) -> None:
        """Keep items, replacing any with the same id."""
        for item in items:
            self.items[item.id] = item

    def _all(self) -> Iterable[Item]:
        """Every item, in the order they were added."""
        return list(self.items.values())

    def get(self, item_id: str) -> Optional[Item]:
        """The item with this id, or None."""
        return self.items.get(item_id)

    # -- the rules --------------------------------------------------------------------------------

    def add(self, item: Item) -> Item:
        """Add a source item (no inputs) as it is."""
        if item.derived_from:
            raise ValueError(f"item {item.id!r} has inputs: add it with derive()")
        self._put([item])
        return item

    def derived(self, item: Item, inputs: Sequence[str], gate_changes: Iterable[str] = (),
                unchecked: bool = False) -> Item:
        """The item as ``derive`` would add it (its verification capped and lowered), without adding it."""
        found = {i: self.get(i) for i in inputs}
        missing = [i for i, input_item in found.items() if input_item is None]
        if not inputs or missing:
            raise ValueError(f"item {item.id!r}: inputs {missing or list(inputs)} are not in the store")
        cap = min(input_item.verification for input_item in found.values())
        verification = min(item.verification, cap)
        if unchecked or LOWERING_CHANGES & set(gate_changes):
            verification = min(verification, Verification.UNVERIFIED)  # lowered, never raised
        return Item(item.id, item.text, item.source_class, item.source_handle, item.subject, item.time,
                    Verification(verification), tuple(inputs))

    def derive(self, item: Item, inputs: Sequence[str], gate_changes: Iterable[str] = (),
               unchecked: bool = False) -> Item:
        """Add an item derived from ``inputs``, its verification capped by them and lowered by gate findings.

        ``unchecked``: the gate could not check the derivation (uncheckable), which lowers it the same way.
        """
        derived = self.derived(item, inputs, gate_changes, unchecked)
        self._put([derived])
        return derived

    def descendants(self, item_id: str) -> List[str]:
        """Every item derived from ``item_id``, directly or through others, in the order they were added."""
        items = self._all()
        found, frontier = set(), {item_id}
        while frontier:
            frontier = {item.id for item in items if set(item.derived_from) & frontier} - found
            found |= frontier
        return [item.id for item in items if item.id in found]

    def quarantine(self, item_id: str) -> List[str]:
        """Quarantine an item and every descendant; returns the ids it changed."""
        changed = [item_id] + self.descendants(item_id)
        self._put([replace(self.get(i), verification=Verification.QUARANTINED) for i in changed])
        return changed

    def to_json(self) -> List[Dict[str, object]]:
        """Every item as a JSON-safe dict, in order."""
        return [item.to_dict() for item in self._all()]

    @classmethod
    def from_json(cls, rows: Iterable[Dict[str, object]]) -> "Store":
        """The store ``to_json`` gave."""
        return cls({row["id"]: Item.from_dict(row) for row in rows})


class SQLiteStore(Store):
    """The same graph kept in the write path's database; every write is one transaction."""

    def __init__(self, database) -> None:  # a database.Database; no dict of items is kept here
        self.database = database

    @property
    def items(self) -> Dict[str, Item]:  # type: ignore[override]
        """Every item by id, read from the database."""
        return {item.id: item for item in self._all()}

    def _put(self, items: Sequence[Item]) -> None:
        """Write items and their edges in one transaction, replacing any with the same id."""
        with self.database.write() as db:
            for item in items:
                db.execute("INSERT INTO items (id, text, source_class, source_handle, subject, time, verification) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET text = excluded.text, "
                           "source_class = excluded.source_class, source_handle = excluded.source_handle, "
                           "subject = excluded.subject, time = excluded.time, verification = excluded.verification",
                           (item.id, item.text, item.source_class, item.source_handle, item.subject, item.time,
                            item.verification.name.lower()))
                db.executemany("INSERT OR IGNORE INTO edges (item_id, input_id) VALUES (?, ?)",
                               [(item.id, input_id) for input_id in item.derived_from])

    def _rows_to_items(self, rows) -> List[Item]:
        """Items from rows of table ``items``, with their edges read in chunks."""
        edges: Dict[str, List[str]] = {}
        ids = [row["id"] for row in rows]
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            for edge in self.database.read(f"SELECT item_id, input_id FROM edges WHERE item_id IN "
                                           f"({','.join('?' * len(chunk))}) ORDER BY rowid", chunk):
                edges.setdefault(edge["item_id"], []).append(edge["input_id"])
        return [Item(row["id"], row["text"], row["source_class"], row["source_handle"], row["subject"], row["time"],
                     Verification[row["verification"].upper()], tuple(edges.get(row["id"], ())))
                for row in rows]

    def _all(self) -> List[Item]:
        """Every item, in the order they were added."""
        return self._rows_to_items(self.database.read("SELECT * FROM items ORDER BY seq"))

    def get(self, item_id: str) -> Optional[Item]:
        """The item with this id, or None."""
        found = self._rows_to_items(self.database.read("SELECT * FROM items WHERE id = ?", (item_id,)))
        return found[0] if found else None

    def descendants(self, item_id: str) -> List[str]:
        """Every item derived from ``item_id``, found by one recursive query over the edges."""
        rows = self.database.read(
            "WITH RECURSIVE below(id) AS (SELECT item_id FROM edges WHERE input_id = ? UNION "
            "SELECT edges.item_id FROM edges JOIN below ON edges.input_id = below.id) "
            "SELECT items.id FROM items JOIN below ON items.id = below.id ORDER BY items.seq", (item_id,))
        return [row["id"] for row in rows]
