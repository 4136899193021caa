"""Hedging: the writer's own uncertainty ("might", "I think", "it appears that").

Exclusions such as "no doubt", "appeared in the journal" and "could not" are
entries of ``lexicons/hedge.jsonl``. The rule that needs more than a pattern
lives here: a capitalised "May" inside a sentence is the month, not the modal.
"""

from spacy.tokens import Doc

from .base import CueDetector, Match, starts_sentence
from .matcher import register_factory


class HedgeDetector(CueDetector):
    """Resolve hedge cues; rejects the month "May" mid-sentence."""

    label = "HEDGE"
    name = "hedge"

    def keep(self, doc: Doc, cue: Match) -> bool:
        """Reject "May" written with a capital where no sentence starts: the month."""
        first = doc[cue.start]
        return not (first.text == "May" and not starts_sentence(first))


make_hedge = register_factory("factwash_hedge", lambda: [HedgeDetector()])
