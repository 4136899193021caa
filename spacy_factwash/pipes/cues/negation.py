"""Negation: explicit, word-level cues ("not", "n't", "never", "no longer", "failed to").

Pseudo-negations ("no doubt", "not only", "nothing but", "whether or not")
are exclusion entries of ``lexicons/negation.jsonl``. Affixal negation
("unclear", "impossible") is out of scope for a word list.
"""

from .component import register_factory
from .detector import CueDetector


class NegationDetector(CueDetector):
    """Resolve negation cues: the lexicon and its exclusions say everything."""

    label = "NEGATION"
    name = "negation"


make_negation = register_factory("factwash_negation", lambda: [NegationDetector()])
