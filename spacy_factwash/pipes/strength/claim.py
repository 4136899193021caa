"""How strong a claim is: none, correlational, conditional causal or direct causal, with the words that say so.

The scale is that of Yu et al. (EMNLP 2019): a claim is *correlational*
when it names an association ("is associated with", "linked to"),
*conditional causal* when a cause word is governed by a modal ("may reduce",
"could lead to"), *direct causal* when a cause word stands alone ("reduces",
"led to"), and *none* when the span holds no claim word. ``claim_strength``
reads the cue spans ``factwash_strength`` wrote inside a span, so it works on
a sentence, a clause or any other span, and reads nothing outside it.
"""

from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc, Span

from ..cues.extensions import spans_within

STRENGTHS = ("none", "correlational", "conditional_causal", "direct_causal")
STRENGTH_KEY = "factwash_strength"
STRENGTH_VERSION_KEY = "factwash_strength_lexicon_version"
MODAL_REACH_KEY = "factwash_strength_modal_reach"
DEFAULT_MODAL_REACH = 6  # tokens between a modal and the cause word it governs ("may in turn reduce"); dev-chosen
CUE_LABELS = ("CAUSAL", "ASSOCIATION", "COMPARISON", "MODAL", "NONCLAIM")
POSSIBILITY_ENTRY = "modal:may"  # "may", "might", "could": a claim of a possible effect even with no cause word
CLAUSE_BREAKS = frozenset({".", ";", ":", "!", "?", "(", ")", "—", "–"})


@dataclass(frozen=True)
class StrengthCue:
    """One word (or phrase) that set a strength: its class, text, lexicon entry and offsets in the Doc."""

    label: str
    text: str
    entry: str
    start: int
    end: int
    start_char: int
    end_char: int

    @classmethod
    def of(cls, span: Span) -> "StrengthCue":
        """The record of a cue span of the ``factwash_strength`` group."""
        return cls(span.label_, span.text, span.id_, span.start, span.end, span.start_char, span.end_char)


@dataclass(frozen=True)
class Strength:
    """A claim's strength, the cues that set it, why, and the lexicon version that matched them."""

    label: str
    cues: Tuple[StrengthCue, ...]
    reason: str
    lexicon_version: str

    @property
    def rank(self) -> int:
        """The strength's place on the scale: 0 none ... 3 direct causal."""
        return STRENGTHS.index(self.label)

    @property
    def causal(self) -> bool:
        """Whether the claim names a cause (conditionally or directly)."""
        return self.label in ("conditional_causal", "direct_causal")

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-safe record."""
        return asdict(self)


def _governed(modal: Span, cue: Span, reach: int) -> bool:
    """Whether a modal stands close enough before a cue word (or opens it: "could lower"), in the same clause."""
    if modal.start > cue.start or (modal.end > cue.start and modal.start != cue.start) or cue.start - modal.end > reach:
        return False
    return not any(token.text in CLAUSE_BREAKS for token in cue.doc[modal.end:cue.start])


def _contains(outer: Span, inner: Span) -> bool:
    """Whether one cue span lies within another ("reduced" within "with reduced")."""
    return outer.start <= inner.start and inner.end <= outer.end


def decide(cues: Sequence[Span], modal_reach: int = DEFAULT_MODAL_REACH) -> Tuple[str, List[Span], str]:
    """The strength label, the cue spans that set it and the reason, from the cue spans of one claim.

    The rules, in order (each chosen on the dev half of the claim-strength corpus):

    1. a recommendation, an aim or a call for research ("should", "further
       studies are needed", "in order to") is not a finding: ``none``;
    2. an association word before the first cause word makes the cause word
       part of what is associated ("is associated with reduced risk");
       a cause word within an association or comparison phrase ("with reduced")
       does not count;
    3. a cause word governed by a modal ("may reduce") is ``conditional_causal``,
       a cause word alone ``direct_causal``;
    4. an association or comparison word ("higher in", "compared with") is
       ``correlational``;
    5. a bare "may", "might" or "could" claims a possible effect ("may help
       doctors decide"): ``conditional_causal``;
    6. otherwise ``none``.
    """
    by_label: Dict[str, List[Span]] = {label: [] for label in CUE_LABELS}
    for cue in cues:
        by_label[cue.label_].append(cue)
    association, comparison = by_label["ASSOCIATION"], by_label["COMPARISON"]
    if by_label["NONCLAIM"]:
        cue = by_label["NONCLAIM"][0]
        return "none", [cue], f"{cue.text!r} marks a recommendation, aim or call for research, not a finding"
    causal = [c for c in by_label["CAUSAL"] if not any(_contains(a, c) for a in association + comparison)]
    if causal and association and association[0].start < causal[0].start:
        causal = []
    if causal:
        cue = causal[0]
        modal = next((m for m in reversed(by_label["MODAL"]) if _governed(m, cue, modal_reach)), None)
        if modal is not None:
            return "conditional_causal", [modal, cue], f"modal {modal.text!r} governs cause word {cue.text!r}"
        return "direct_causal", [cue], f"cause word {cue.text!r} with no modal before it"
    if association or comparison:
        cue = (association or comparison)[0]
        return "correlational", [cue], f"association word {cue.text!r} and no cause word before it"
    possibility = [m for m in by_label["MODAL"] if m.id_ == POSSIBILITY_ENTRY]
    if possibility:
        cue = possibility[0]
        return "conditional_causal", [cue], f"modal {cue.text!r} claims a possible effect, with no association word"
    return "none", [], "no cause, association or modal word"


STRENGTHENABLE = frozenset({"correlational", "conditional_causal"})  # the strengths a memory can raise to a cause


def strengthened(source: Strength, memory: Strength, *, from_comparison: bool = False) -> bool:
    """Whether a claim went from correlational or conditional causal (``source``) to direct causal (``memory``).

    A source that is correlational only through a comparison word ("a rise
    in", "higher in") reports a difference, not an association of two
    things; it counts only with ``from_comparison=True`` (on SummEdits,
    counting it flagged 1% of consistent edits and found no washed claim).
    """
    if memory.label != "direct_causal" or source.label not in STRENGTHENABLE:
        return False
    return from_comparison or source.cues[0].label != "COMPARISON"


def claim_strength(
    span: Union[Span, Doc], *, spans_key: str = STRENGTH_KEY, modal_reach: Optional[int] = None
) -> Strength:
    """The strength of the claim in ``span``, read from the ``factwash_strength`` cues inside it.

    ``modal_reach`` None: the reach the annotating component was configured
    with (``doc.user_data["factwash_strength_modal_reach"]``). A Doc without
    the span group (no ``factwash_strength`` in its pipeline) is an error,
    not a silent ``none``.
    """
    doc = span if isinstance(span, Doc) else span.doc
    if spans_key not in doc.spans:
        raise ValueError(
            f"claim_strength: the Doc has no span group {spans_key!r}; add the factwash_strength component "
            "to the pipeline (nlp.add_pipe('factwash_strength'))"
        )
    return strength_of_cues(doc, spans_within(span, spans_key), modal_reach)


def strength_of_cues(doc: Doc, cues: Sequence[Span], modal_reach: Optional[int] = None) -> Strength:
    """The strength the ``factwash_strength`` cue spans of one claim set (for a caller that found them itself)."""
    if modal_reach is None:
        modal_reach = doc.user_data.get(MODAL_REACH_KEY, DEFAULT_MODAL_REACH)
    label, cues, reason = decide(cues, modal_reach)
    version: Optional[str] = doc.user_data.get(STRENGTH_VERSION_KEY)
    return Strength(label, tuple(StrengthCue.of(c) for c in cues), reason, version or "unknown")
