"""What every cue detector shares: turning raw lexicon matches into resolved cues.

A detector owns one cue class. The component hands it the raw matches of its
class (cue entries and exclusion entries, as Spans whose ``id_`` is the
lexicon entry id) and the detector returns the cues that survive: not inside
an exclusion, accepted by the class's own rule (``keep``), and not
overlapping a longer cue of the same class.
"""

from typing import ClassVar, List, Optional, Sequence

from spacy.tokens import Doc, Span, Token
from spacy.util import filter_spans

from ..lexicon import Entry

BREAKS = frozenset({".", "!", "?", ";", ":", "…", '"', "“", "”", "(", "-", "—", "–"})


def overlaps(a: Span, b: Span) -> bool:
    """Whether two spans share at least one token."""
    return a.start < b.end and b.start < a.end


def starts_sentence(token: Token) -> bool:
    """Whether a token opens a sentence (or a quote, heading or list item).

    Uses sentence boundaries where a component has set them and falls back
    to the preceding token otherwise, so it also works in a bare pipeline.
    """
    if token.i == 0 or token.is_sent_start:
        return True
    previous = token.doc[token.i - 1]
    return previous.is_space or previous.text in BREAKS


class CueDetector:
    """Resolve the raw matches of one cue class; subclasses add the class's own rules."""

    label: ClassVar[str] = ""
    name: ClassVar[str] = ""

    def keep(self, doc: Doc, cue: Span) -> bool:
        """Class-specific acceptance of one candidate cue (default: accept)."""
        return True

    def source_of(self, doc: Doc, cue: Span, entry: Entry) -> Optional[Span]:
        """The span a resolved cue attributes its claim to, for classes that have one."""
        return None

    def resolve(self, doc: Doc, cues: Sequence[Span], exclusions: Sequence[Span]) -> List[Span]:
        """Drop excluded and rejected candidates, then keep the longest of overlapping cues."""
        kept = [
            cue
            for cue in cues
            if not any(overlaps(cue, excluded) for excluded in exclusions) and self.keep(doc, cue)
        ]
        return filter_spans(kept)
