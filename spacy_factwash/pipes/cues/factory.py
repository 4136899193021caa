"""The ``factwash_cues`` factory: all five cue classes in one matcher pass."""

from .attribution import AttributionDetector
from .component import register_factory
from .conditional import ConditionalDetector
from .hedge import HedgeDetector
from .negation import NegationDetector
from .temporal import TemporalDetector


def all_detectors():
    """One detector per cue class, in label order."""
    return [HedgeDetector(), AttributionDetector(), NegationDetector(), ConditionalDetector(), TemporalDetector()]


make_cues = register_factory("factwash_cues", all_detectors)
