"""The gate's reports on a list of pairs, each distinct pair gated once.

A report depends on its pair alone (``Gate.pipe`` annotates and compares each pair the same whatever else is in
its batch), so an evaluation whose pairs repeat (the corpus pairs: a drop and a control pair can be the same
pair when the words removed are the same) gates each distinct pair once and hands the same report to every copy.
"""

from typing import Iterable, List, Tuple


def reports_in_order(gate, pairs: Iterable[Tuple[str, str]]) -> List:
    """``list(gate.pipe(pairs))``, with each distinct (source, memory) pair gated once: a repeated pair's
    report is the one object made for its first copy (reports are read here, never changed)."""
    pairs = list(pairs)
    distinct = list(dict.fromkeys(pairs))
    reports = dict(zip(distinct, gate.pipe(distinct)))
    return [reports[pair] for pair in pairs]
