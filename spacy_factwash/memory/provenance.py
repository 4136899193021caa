"""Provenance that never gains trust: what a memory item came from, and how far it is verified.

An item keeps its source class, source handle, subject, time and
verification state; a derived item (a rewrite, a summary) carries edges to
its inputs. The invariant: a derived item is never more verified than the
weakest of its inputs, and a gate finding that it dropped a hedge or an
attribution lowers it to unverified at most (it never raises it). Given a corrected or quarantined item,
``descendants`` lists every item derived from it, directly or not.
"""

from dataclasses import asdict, dataclass, field
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
        if self.source_class not in SOURCE_CLASSES:
            raise ValueError(f"item {self.id!r}: source_class must be one of {SOURCE_CLASSES}")

    def to_dict(self) -> Dict[str, object]:
        data = asdict(self)
        data["verification"] = self.verification.name.lower()
        data["derived_from"] = list(self.derived_from)
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, object]) -> "Item":
        return cls(**{**data, "verification": Verification[str(data["verification"]).upper()],
                      "derived_from": tuple(data.get("derived_from", ()))})


@dataclass
class Store:
    """Items by id, with the derivation edges between them."""

    items: Dict[str, Item] = field(default_factory=dict)

    def add(self, item: Item) -> Item:
        """Add a source item (no inputs) as it is."""
        if item.derived_from:
            raise ValueError(f"item {item.id!r} has inputs: add it with derive()")
        self.items[item.id] = item
        return item

    def derive(self, item: Item, inputs: Sequence[str], gate_changes: Iterable[str] = (),
               unchecked: bool = False) -> Item:
        """Add an item derived from ``inputs``, its verification capped by them and lowered by gate findings.

        ``unchecked``: the gate could not check the derivation (uncheckable), which lowers it the same way.
        """
        missing = [i for i in inputs if i not in self.items]
        if not inputs or missing:
            raise ValueError(f"item {item.id!r}: inputs {missing or list(inputs)} are not in the store")
        cap = min(self.items[i].verification for i in inputs)
        verification = min(item.verification, cap)
        if unchecked or LOWERING_CHANGES & set(gate_changes):
            verification = min(verification, Verification.UNVERIFIED)  # lowered, never raised
        derived = Item(item.id, item.text, item.source_class, item.source_handle, item.subject, item.time,
                       Verification(verification), tuple(inputs))
        self.items[derived.id] = derived
        return derived

    def descendants(self, item_id: str) -> List[str]:
        """Every item derived from ``item_id``, directly or through others, in the order they were added."""
        found, frontier = set(), {item_id}
        while frontier:
            frontier = {i for i, item in self.items.items() if set(item.derived_from) & frontier} - found
            found |= frontier
        return [i for i in self.items if i in found]

    def quarantine(self, item_id: str) -> List[str]:
        """Quarantine an item and every descendant; returns the ids it changed."""
        changed = [item_id] + self.descendants(item_id)
        for i in changed:
            old = self.items[i]
            self.items[i] = Item(old.id, old.text, old.source_class, old.source_handle, old.subject, old.time,
                                 Verification.QUARANTINED, old.derived_from)
        return changed

    def to_json(self) -> List[Dict[str, object]]:
        return [item.to_dict() for item in self.items.values()]

    @classmethod
    def from_json(cls, rows: Iterable[Dict[str, object]]) -> "Store":
        return cls({row["id"]: Item.from_dict(row) for row in rows})

    def get(self, item_id: str) -> Optional[Item]:
        return self.items.get(item_id)
