"""spacy-factwash: catch rewrites that keep a claim but wash away what made it checkable.

The public face: ``load()`` builds the embedded default pipeline; the cue
components register themselves as spaCy factories (``factwash_cues`` and one
per class) when this package, or its ``spacy_factories`` entry point, is
imported.
"""

from .cues import attribution, conditional, factory, hedge, negation, temporal  # noqa: F401  (registers factories)
from .cues.extensions import CUES_KEY, SOURCES_KEY, register_extensions
from .gate import component  # noqa: F401  (registers factwash_compare)
from . import lemmas  # noqa: F401  (registers factwash_lemmas)
from .strength import component as strength_component  # noqa: F401  (registers factwash_strength)
from .strength import Certainty, Strength, certainty_level, claim_strength
from .gate.report import Report
from .lexicon import LABELS, LexiconError, load_lexicons
from .pipeline import check, confirm, default_pipeline, drift, inspect, load, wrap

__version__ = "0.1.0"
__all__ = [
    "load", "inspect", "check", "confirm", "drift", "wrap", "default_pipeline", "Report", "register_extensions", "load_lexicons",
    "LexiconError", "LABELS", "CUES_KEY", "SOURCES_KEY", "claim_strength", "certainty_level", "Strength", "Certainty",
]
