"""Hedging: the writer's own uncertainty ("might", "I think", "it appears that").

Exclusions such as "no doubt", "appeared in the journal" and "could not" are
entries of ``lexicons/hedge.jsonl``. The rule that needs more than a pattern
lives here: a capitalised "May" inside a sentence is the month, not the modal.
With a parse, ``sense.py`` also drops hedge words in another sense ("as
indicated in Fig. 2", "the membrane potential", "we could detect").
"""

from spacy.tokens import Doc

from ...syntax.sense import holds_sense
from .component import register_factory
from .detector import CueDetector, Match, starts_sentence


class HedgeDetector(CueDetector):
    """Resolve hedge cues; rejects the month "May" mid-sentence, and with a parse the wrong senses."""

    label = "HEDGE"
    name = "hedge"
    reads_parse = True

    def keep(self, doc: Doc, cue: Match) -> bool:
        """Reject "May" written with a capital where no sentence starts (the month), and wrong senses (sense.py)."""
        first = doc[cue.start]
        return not (first.text == "May" and not starts_sentence(first)) and holds_sense(doc, cue, self.label)


make_hedge = register_factory("factwash_hedge", lambda: [HedgeDetector()])
