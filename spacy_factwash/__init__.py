"""spacy-factwash: catch rewrites that keep a claim but wash away what made it checkable.

The public face: ``load()`` builds the embedded default pipeline; the cue
components register themselves as spaCy factories (``factwash_cues`` and one
per class) when this package, or its ``spacy_factories`` entry point, is
imported.
"""

from . import pipes  # noqa: F401  (registers the components' factories)
from .api import certainty_level, check, claim_strength, confirm, default_pipeline, drift, inspect, load, wrap
from .lexicon.frozen import LABELS, LexiconError, load_lexicons
from .pipes.cues.extensions import CUES_KEY, SOURCES_KEY, register_extensions
from .pipes.gate.report import Report
from .pipes.strength import Certainty, Strength

__version__ = "0.1.0"
__all__ = [
    "load", "inspect", "check", "confirm", "drift", "wrap", "default_pipeline", "Report", "register_extensions", "load_lexicons",
    "LexiconError", "LABELS", "CUES_KEY", "SOURCES_KEY", "claim_strength", "certainty_level", "Strength", "Certainty",
]
