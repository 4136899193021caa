"""The spaCy components, one folder each: lemmas, cues, strength, gate. Importing this package registers their
factories (spaCy also finds them through the ``spacy_factories`` entry points without it)."""

from .cues import attribution, conditional, factory, hedge, negation, temporal  # noqa: F401
from .gate import component as gate_component  # noqa: F401
from .lemmas import component as lemmas_component  # noqa: F401
from .strength import component as strength_component  # noqa: F401
