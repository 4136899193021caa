"""The one callable through which model components reach a gate report: ``review(report, source, memory)``.

The gate knows nothing of models; a caller that enables them passes a
``Review`` to ``inspect(..., review=...)`` or runs it on a report itself. The
witness (if any) may lower the verdict; the support judge (if any) adds notes
that never move it. Both share one meter (one budget, one deadline for the
whole run) and one reply cache.
"""

from dataclasses import dataclass, field
from typing import Optional

from spacy.tokens import Doc

from .budget import Meter
from .cache import ReplyCache
from .client import DEFAULT_MODEL
from .tasks.support import SupportJudge, review_support
from .tasks.witness import Witness, lower_with_witness


@dataclass
class Review:
    """The model components a run enabled, with their shared meter and cache."""

    witness: Optional[Witness] = None
    support: Optional[SupportJudge] = None
    meter: Meter = field(default_factory=Meter)

    @classmethod
    def build(cls, witness: bool = False, support: bool = False, model: str = DEFAULT_MODEL,
              max_usd: Optional[float] = None, cache: Optional[ReplyCache] = None, client=None,
              deadline_s: Optional[float] = None) -> "Review":
        """The components asked for, on one client, one meter (the budget and the run's deadline) and one cache;
        none built when none is asked for."""
        meter = Meter(max_usd, deadline_s=deadline_s)
        shared = dict(client=client, model=model, meter=meter, cache=cache)
        return cls(Witness(**shared) if witness else None, SupportJudge(**shared) if support else None, meter)

    def __call__(self, report, source: Doc, memory: Doc):
        """The report after the enabled model components have seen it."""
        if self.witness is not None:
            report = lower_with_witness(report, self.witness)
        if self.support is not None:
            report = review_support(report, source.text, memory, self.support)
        return report

    def texts(self, nlp, report, source: str, memory: str):
        """The report for a (source, memory) pair given as text; the texts are parsed only when the support
        judge needs the memory's sentences (the witness reads the report's own excerpts)."""
        if self.support is None:
            return self(report, None, None)
        return self(report, *nlp.pipe([source, memory]))

    def discarded(self) -> int:
        """Replies discarded by any component (they left the deterministic result standing)."""
        return sum(c.discarded for c in (self.witness, self.support) if c is not None)
