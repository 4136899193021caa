"""Comparison: inflated (``strengthened_comparison``) or turned around (``changed_value``).

Degrees rank equative ("as reliable as") below comparative ("more reliable
than") and "one of the cheapest" below "the cheapest"; a memory that states
the same comparison a degree higher inflates it. A comparative whose
direction turns on the same word ("fewer errors than" -> "more errors
than") says the opposite of the source.
"""

from typing import List

from ..report import Change
from .base import Pair


def check_comparison(pair: Pair) -> List[Change]:
    """strengthened_comparison and changed_value for the comparisons both claims make."""
    source, memory = pair.records()
    changes = []
    for part in source.of("comparison"):
        direction, key = part.detail
        same_word = [m for m in memory.of("comparison") if m.detail[1] == key]
        others = same_word or [m for m in memory.of("comparison") if part.value in ("one_of", "equative")]
        higher = [m for m in others if m.rank > part.rank and not (part.value == "one_of" and m.value == "comparative")]
        if higher:
            changes.append(pair.change("strengthened_comparison", f"the source compares as {part.value} ({part.text}); "
                                       f"the memory as {higher[0].value} ({higher[0].text})",
                                       pair.part_evidence([part], "source") + pair.part_evidence(higher[:1], "memory")))
        turned = [m for m in same_word if m.value == part.value == "comparative" and m.detail[0] != direction]
        if turned:
            changes.append(pair.change("changed_value", f"the source compares {direction} ({part.text}); the memory "
                                       f"{turned[0].detail[0]} ({turned[0].text})",
                                       pair.part_evidence([part], "source") + pair.part_evidence(turned[:1], "memory"),
                                       check="comparison"))
    return changes
