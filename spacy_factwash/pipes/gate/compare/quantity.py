"""How much of a claim holds: quantifiers, frequency and partiality, widened (``broadened``) or narrowed
(``weakened``).

Each side's quantifier for a noun both claims keep is placed on its scale
(few < some < most < all; a bare or definite plural is all), and the
claim's frequency on its own (rarely < sometimes < often < always; a bare
verb is always): a memory higher on the scale than its source states more
than the source did ("a few of the nodes restarted" -> "the nodes
restarted", "occasionally times out" -> "times out"), a memory lower states
less ("all invoices" -> "some invoices"). A claim the source holds only in
part or has only begun ("partly", "has started", "70% done") stated as whole
in the memory is ``broadened``; the reverse ``weakened``. The same rank in
other words ("most" -> "the majority of", "often" -> "frequently") keeps it.
"""

from typing import List, Optional, Sequence

from ..records import UNMARKED, Part
from ..report import Change
from .base import Pair

WIDER = "the source says {what} ({said}); the memory {says}: it claims more than the source"
NARROWER = "the source says {what} ({said}); the memory {says}: it claims less than the source"


def _rank(parts: Sequence[Part]) -> int:
    """The highest rank the parts give (a bare claim is the top of the scale)."""
    return max((p.rank for p in parts if p.rank is not None), default=UNMARKED)


def _says(parts: Sequence[Part], bare: str) -> str:
    return f"says {parts[0].value} ({', '.join(p.text for p in parts)})" if parts else bare


def _scaled(pair: Pair, kind: str, source: Sequence[Part], memory: Sequence[Part], bare: str) -> List[Change]:
    """broadened or weakened when the two sides' ranks on one scale differ."""
    source_rank, memory_rank = _rank(source), _rank(memory)
    if source_rank == memory_rank:
        return []
    change = "broadened" if memory_rank > source_rank else "weakened"
    template = WIDER if change == "broadened" else NARROWER
    said = ", ".join(p.text for p in source) or "no word for it"
    what = f"{source[0].value}" if source else f"it of all ({bare})"
    message = template.format(what=what, said=said, says=_says(memory, bare))
    return [pair.change(change, message, pair.part_evidence(source, "source") + pair.part_evidence(memory, "memory"),
                        check=kind)]


def _adverbial(pair: Pair, claim, parts: Sequence[Part], other) -> List[Part]:
    """A claim's frequency parts that the other claim does not state as an adjective instead ("regularly" for
    "regular coffee intake"), bearing on what the other claim keeps."""
    said = {t.lower_ for t in other.tokens()}
    return [p for p in _about(parts, other.keys) if not (p.text.strip("'").lower().endswith("ly")
                                                         and p.spans[0].text.lower()[:-2] in said)]


def _about(parts: Sequence[Part], keys) -> List[Part]:
    """The parts that bear on content the other claim keeps."""
    return [p for p in parts if p.bears_on & keys]


def check_quantity(pair: Pair) -> List[Change]:
    """broadened / weakened for the quantifier of a noun both claims keep, the claim's frequency, and its
    partiality."""
    source, memory = pair.records()
    shared = pair.source.keys & pair.memory.keys
    changes = []
    quantified = {k for p in source.of("quantity") + memory.of("quantity") for k in p.bears_on & shared}
    for key in sorted(quantified):
        on_source = [p for p in source.of("quantity") if key in p.bears_on]
        on_memory = [p for p in memory.of("quantity") if key in p.bears_on]
        changes += _scaled(pair, "quantity", on_source, on_memory, "a plural with no quantifier")
    if source.of("frequency") or memory.of("frequency"):
        changes += _scaled(pair, "frequency", _adverbial(pair, pair.source, source.of("frequency"), pair.memory),
                           _adverbial(pair, pair.memory, memory.of("frequency"), pair.source),
                           "a bare verb, true every time")
    changes += _partiality(pair, _about(source.of("partial"), pair.memory.keys),
                           _about(memory.of("partial"), pair.source.keys), memory.of("complete"))
    return _once(changes)


def _partiality(pair: Pair, source: Sequence[Part], memory: Sequence[Part], complete: Sequence[Part]) -> List[Change]:
    """A claim held in part or only begun in the source and stated whole in the memory (or the reverse)."""
    if source and not memory:
        says = f"states it as complete ({', '.join(p.text for p in complete)})" if complete else "states it as whole"
        return [pair.change("broadened", f"the source holds this claim only in part ({', '.join(p.text for p in source)}); "
                            f"the memory {says}", pair.part_evidence(source, "source") +
                            pair.part_evidence(complete, "memory"), check="partial")]
    memory = [p for p in memory if p.value != "begun"]  # a memory that says work began says no less of a whole
    if memory and not source:
        return [pair.change("weakened", f"the memory holds this claim only in part ({', '.join(p.text for p in memory)}); "
                            "the source states it as whole", pair.part_evidence(memory, "memory"), check="partial")]
    return []


def _once(changes: List[Change]) -> List[Change]:
    """One change per type and check: two nouns widened in one claim are one widening of it."""
    seen, kept = set(), []
    for change in changes:
        key: Optional[tuple] = (change.type, change.check)
        if key not in seen:
            seen.add(key)
            kept.append(change)
    return kept
