"""Claim strength and certainty: how strongly a claim is worded, and which words say so.

``factwash_strength`` (``component.py``) matches the frozen lexicon in
``lexicons/strength/`` once per Doc and writes its cue spans (labelled
``CAUSAL``, ``ASSOCIATION``, ``MODAL``) to ``doc.spans["factwash_strength"]``.
``claim_strength(span)`` (``claim.py``) reads the cues inside any span (a
sentence, a clause) and names the claim's strength with the words that set
it; ``certainty_level(span)`` (``certainty.py``) places the span on an
ordered certainty scale from its hedge cues and its strength.
"""

from .certainty import Certainty, certainty_level
from .claim import STRENGTHS, Strength, StrengthCue, claim_strength, strengthened

__all__ = ["claim_strength", "certainty_level", "Strength", "StrengthCue", "Certainty", "STRENGTHS",
           "strengthened"]
