"""Conditionals: a claim held only under a condition ("if", "unless", "provided that").

The non-conditional readings are exclusion entries of
``lexicons/conditional.jsonl``: an "if" that means "whether" after a verb of
asking or testing ("we tested if X held"), "as if", "subject to change",
"assuming command".
"""

from .component import register_factory
from .detector import CueDetector


class ConditionalDetector(CueDetector):
    """Resolve conditional cues: the lexicon and its exclusions say everything."""

    label = "CONDITIONAL"
    name = "conditional"


make_conditional = register_factory("factwash_conditional", lambda: [ConditionalDetector()])
