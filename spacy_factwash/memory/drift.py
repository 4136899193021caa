"""Drift over a rewrite chain: gate every hop, gate the ends, and say on which hop each loss happened.

Per-write gating can be laundered gradually only if a loss never shows on a
single hop. Because the checks compare cue *classes*, a hop that removes
one of two hedges raises nothing and the hop that removes the last one
raises ``strengthened_certainty``: every end-to-end loss the lexicon covers
is pinned to a hop. A chain whose hop goes uncheckable has lost
checkability, which is a finding, not a pass. The report carries the
chain's provenance: each version derived from the one before, never more
verified than it, and lowered by a hop that dropped a hedge or attribution
or could not be checked.
"""

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ..io.inputs import checked_text, read_records
from ..io.outputs import atomic_output, check_output
from ..io.progress import Progress, quiet
from ..io.strict_json import dumps
from ..io.textfile import BadInput
from ..pipes.gate.report import Report
from .provenance import Item, Store, Verification


@dataclass(frozen=True)
class Loss:
    """A change found end to end (v0 -> vN), and the first hop that raised the same change type."""

    type: str
    message: str
    hop: Optional[int]  # 1 for v0 -> v1, ...; None when no single hop raised it


@dataclass
class DriftReport:
    """Every hop's report, the end-to-end report, and where each loss happened."""

    hops: List[Report]
    end_to_end: Report
    losses: List[Loss] = field(default_factory=list)
    uncheckable_hops: List[int] = field(default_factory=list)
    provenance: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def lost_checkability(self) -> bool:
        """Whether some hop could not be checked against its predecessor."""
        return bool(self.uncheckable_hops)

    def to_dict(self) -> Dict[str, Any]:
        """The drift report as a JSON-safe dict, with ``lost_checkability``."""
        data = asdict(self)
        data["lost_checkability"] = self.lost_checkability
        return data

    def __str__(self) -> str:
        """A few lines a person reads: the end-to-end verdict, each hop's verdict and change types, each loss
        with the hop that made it, and the hops that lost checkability."""
        lines = [f"drift over {len(self.hops)} hop(s): end to end {self.end_to_end.verdict}"]
        for index, report in enumerate(self.hops, start=1):
            types = ", ".join(dict.fromkeys(change.type for change in report.changes))
            lines.append(f"  hop {index} (v{index - 1} -> v{index}): {report.verdict}"
                         + (f" ({types})" if types else ""))
        for loss in self.losses:
            where = f"at hop {loss.hop}" if loss.hop is not None else "on no single hop"
            lines.append(f"  lost {where}: {loss.type}: {loss.message}")
        if self.lost_checkability:
            lines.append("  lost checkability at hop(s) " + ", ".join(map(str, self.uncheckable_hops)))
        return "\n".join(lines)


def chain_provenance(versions: Sequence[str], hops: Sequence[Report],
                     start: Verification = Verification.ATTRIBUTED) -> Store:
    """Each version as an item derived from the one before, its verification lowered by its hop's findings."""
    store = Store()
    store.add(Item("v0", versions[0], "user_statement", "chain:v0", verification=start))
    for index, report in enumerate(hops, start=1):
        store.derive(Item(f"v{index}", versions[index], "model_inference", f"chain:v{index}", verification=start),
                     [f"v{index - 1}"], [c.type for c in report.changes], unchecked=report.verdict == "uncheckable")
    return store


def drift_from_reports(hops: Sequence[Report], end_to_end: Report,
                       versions: Sequence[str] = ()) -> DriftReport:
    """Assemble a drift report from already gated hops and the end-to-end report."""
    losses = []
    for change in end_to_end.changes:
        hop = next((i for i, report in enumerate(hops, start=1)
                    if any(c.type == change.type for c in report.changes)), None)
        losses.append(Loss(change.type, change.message, hop))
    uncheckable = [i for i, report in enumerate(hops, start=1) if report.verdict == "uncheckable"]
    provenance = chain_provenance(versions, hops).to_json() if versions else []
    return DriftReport(list(hops), end_to_end, losses, uncheckable, provenance)


def check_chain(versions: Sequence[str], max_length: Optional[int] = None) -> None:
    """Refuse what is not a rewrite chain: a ``TypeError`` or ``ValueError`` saying why, unless ``versions`` is a
    list of at least two strings that are text (each at most ``max_length`` characters, when given)."""
    if isinstance(versions, (str, bytes)) or not isinstance(versions, Sequence):
        raise TypeError(f"'versions' must be a list of at least two strings (the chain v0, v1, ...), "
                        f"got {type(versions).__name__}")
    if len(versions) < 2:
        raise ValueError(f"'versions' must be a list of at least two strings (the chain v0, v1, ...), got "
                         f"{len(versions)}")
    for index, version in enumerate(versions):
        checked_text(version, max_length, f"version {index}")


def drift(versions: Sequence[str], gate) -> DriftReport:
    """Gate each hop (v[i-1] -> v[i]) and the ends (v0 -> vN) with a ``Gate`` (``check_chain`` first)."""
    check_chain(versions, gate.nlp.max_length)
    pairs = [(versions[i - 1], versions[i]) for i in range(1, len(versions))] + [(versions[0], versions[-1])]
    reports = list(gate.pipe(pairs))
    return drift_from_reports(reports[:-1], reports[-1], versions)


def read_chains(path: Path, max_length: Optional[int] = None) -> List[dict]:
    """A file of rewrite chains (``{"id", "versions": [v0, v1, ...]}`` a line), every chain checked (each version
    at most ``max_length`` characters, when given) before any is gated: a ``BadInput`` naming the file and line of
    the first that is not one."""
    chains = read_records(path)
    for number, chain in enumerate(chains, start=1):
        try:
            check_chain(chain.get("versions"), max_length)
        except (TypeError, ValueError) as err:
            raise BadInput(f"{path}:{number}: {err}") from None
    return chains


def drift_file(chains_path: Path, output_path: Path, gate,
               progress: Progress = quiet) -> Iterator[Tuple[Any, DriftReport]]:
    """Gate every chain of ``chains_path`` (``read_chains``) and write one drift report per chain (its ``id`` and
    ``DriftReport.to_dict``) to ``output_path`` through ``outputs.atomic_output``; yields each chain's id (its line
    number when it has none) and report as it is written. The output is in place once the last is taken."""
    check_output(output_path, [chains_path])  # every path checked before the chains are read
    chains = read_chains(chains_path, gate.nlp.max_length)
    with atomic_output(output_path, [chains_path]) as out:
        for number, chain in enumerate(progress(chains, total=len(chains), desc="drift"), start=1):
            report = drift(chain["versions"], gate)
            out.write(dumps({"id": chain.get("id"), **report.to_dict()}) + "\n")
            yield chain.get("id", number), report
