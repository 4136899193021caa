"""What every cue detector shares: turning raw lexicon matches into resolved cues.

A detector owns one cue class. The component hands it the raw matches of its
class as ``Match`` tuples (token offsets and the lexicon entry's key), cue
entries and exclusion entries apart, and the detector returns the cues that
survive: not overlapping an exclusion, accepted by the class's own rule
(``keep``), and not overlapping a longer cue of the same class. Only the
survivors become Span objects, in the component.
"""

from typing import ClassVar, List, Optional, Sequence

from spacy.tokens import Doc, Span, Token

from ...lexicon.frozen import Entry
from ...lexicon.matcher import Match, longest_first

BREAKS = frozenset({".", "!", "?", ";", ":", "…", '"', "“", "”", "(", "-", "—", "–"})


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
    reads_parse: ClassVar[bool] = False  # whether ``keep`` reads a parse (tags, dependencies) when the Doc has one

    def keep(self, doc: Doc, cue: Match) -> bool:
        """Class-specific acceptance of one candidate cue (default: accept)."""
        return True

    def source_of(self, doc: Doc, cue: Span, entry: Entry) -> Optional[Span]:
        """The span a resolved cue attributes its claim to, for classes that have one."""
        return None

    def resolve(self, doc: Doc, cues: Sequence[Match], exclusions: Sequence[Match]) -> List[Match]:
        """Drop excluded and rejected candidates, then keep the longest of overlapping cues."""
        excluded = {i for exclusion in exclusions for i in range(exclusion.start, exclusion.end)}
        kept = [cue for cue in cues if excluded.isdisjoint(range(cue.start, cue.end)) and self.keep(doc, cue)]
        return longest_first(kept) if len(kept) > 1 else kept
