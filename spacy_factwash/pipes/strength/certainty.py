"""How certain a claim is worded: a level on an ordered scale, from its hedge cues and its strength.

The scale lives in the strength lexicon set (``lexicons/strength/scale.json``,
frozen in its manifest): its ``levels`` from least to most certain, the tier
of each hedge entry of the cue lexicon (``hedge:might`` is more tentative
than ``hedge:indicate``), the tier of a hedge the scale does not list, how
many levels each further hedge in the claim takes off, and the level of an
unhedged claim by its strength (a bare "X reduces Y" is worded more
certainly than "X is associated with Y"). The hedges are the ``HEDGE`` spans
of ``factwash_cues`` inside the span; nothing outside the span is read.
"""

from dataclasses import asdict, dataclass
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from spacy.tokens import Doc, Span

from ..cues.extensions import CUES_KEY, spans_within
from .claim import STRENGTH_KEY, STRENGTH_VERSION_KEY, StrengthCue, claim_strength
from .lexicon import packaged_strength_lexicon, scale_of


@dataclass(frozen=True)
class Certainty:
    """A claim's certainty level (name and rank, 0 = least certain), the cues that set it, and why."""

    level: str
    rank: int
    cues: Tuple[StrengthCue, ...]
    reason: str
    lexicon_version: str

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-safe record."""
        return asdict(self)


_SCALES: Dict[str, Mapping[str, Any]] = {}


def remember_scale(version: str, scale: Mapping[str, Any]) -> None:
    """Record the scale of a strength lexicon version a component loaded, for the Docs it annotates."""
    _SCALES[version] = scale


def scale_for(doc: Doc) -> Mapping[str, Any]:
    """The scale of the lexicon version that annotated ``doc`` (the packaged one when it is that version)."""
    version = doc.user_data.get(STRENGTH_VERSION_KEY)
    if version not in _SCALES:
        packaged = packaged_strength_lexicon()
        remember_scale(packaged.version, scale_of(packaged))
    if version not in _SCALES:
        raise ValueError(f"certainty_level: no certainty scale known for strength lexicon {version!r}; load the "
                         "pipeline that annotated this Doc, or pass scale=")
    return _SCALES[version]


def certainty_level(
    span: Union[Span, Doc], *, scale: Optional[Mapping[str, Any]] = None, cues_key: str = CUES_KEY,
    spans_key: str = STRENGTH_KEY, modal_reach: Optional[int] = None,
) -> Certainty:
    """The certainty level of the claim in ``span`` on ``scale``, and the cues that set it.

    ``scale`` None: the scale of the strength lexicon version that annotated
    the Doc (``doc.user_data["factwash_strength_lexicon_version"]``).

    With hedges, the most tentative hedge sets the level and each further
    hedge lowers it by the scale's ``stacked_hedge_step`` (never below the
    first level), and the hedges are the cues; without, the claim's strength
    sets it, and its cues are the strength's.
    """
    doc = span if isinstance(span, Doc) else span.doc
    if cues_key not in doc.spans:
        raise ValueError(
            f"certainty_level: the Doc has no span group {cues_key!r}; add the factwash_cues component before "
            "factwash_strength"
        )
    strength = claim_strength(span, spans_key=spans_key, modal_reach=modal_reach)
    scale = scale_for(doc) if scale is None else scale
    levels = scale["levels"]
    hedges = [s for s in spans_within(span, cues_key) if s.label_ == "HEDGE"]
    if not hedges:
        level = scale["unhedged"][strength.label]
        return Certainty(level, levels.index(level), strength.cues, f"no hedge; {strength.label} claim",
                         strength.lexicon_version)
    tiers = [levels.index(scale["hedge_tiers"].get(h.id_, scale["default_hedge_tier"])) for h in hedges]
    weakest = min(range(len(hedges)), key=lambda i: (tiers[i], i))
    rank = max(0, tiers[weakest] - scale["stacked_hedge_step"] * (len(hedges) - 1))
    reason = f"hedge {hedges[weakest].text!r} ({hedges[weakest].id_})"
    if len(hedges) > 1:
        reason += f" and {len(hedges) - 1} more hedge(s)"
    return Certainty(levels[rank], rank, tuple(StrengthCue.of(h) for h in hedges), reason, strength.lexicon_version)
