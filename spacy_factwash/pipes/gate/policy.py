"""The verdict, hard-coded (../shared/docs/interface.md): not scored, not configurable."""

from typing import Iterable, Sequence

RANKING = ("pass", "uncheckable", "rewrite", "reject")  # from best to worst: ``verdict`` gives the worst that holds
EXIT_STATUS = dict(zip(RANKING, (0, 3, 4, 5)))  # what ``check`` (and ``gate --fail-on``) exits with for each

REJECT = frozenset({"reversed_polarity", "changed_value", "dropped_values", "changed_unit",
                    "changed_condition", "changed_time", "changed_source", "changed_roles", "changed_tense"})
REWRITE = frozenset({"dropped_attribution", "strengthened_certainty", "dropped_condition", "dropped_temporal_scope",
                     "dropped_approximation", "strengthened_causality", "broadened", "weakened", "changed_mood",
                     "strengthened_comparison"})


def verdict(change_types: Iterable[str], uncheckable: Sequence[object], empty_memory: bool = False,
            not_english: bool = False) -> str:
    """reject > rewrite > uncheckable > pass; an empty memory, or a pair not in English (which the gate does not
    read, so it finds no change there), is uncheckable, never passed."""
    types = set(change_types)
    if types & REJECT:
        return "reject"
    if types & REWRITE:
        return "rewrite"
    if uncheckable or empty_memory or not_english:
        return "uncheckable"
    return "pass"


def worst(verdicts: Iterable[str]) -> str:
    """The worst of some verdicts by ``RANKING`` ("pass" when there are none)."""
    return max(verdicts, key=RANKING.index, default="pass")
