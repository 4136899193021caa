"""Showing a person which cues fired, where, and from which lexicon entry."""

from typing import Dict, Iterator, List, Optional, Tuple

from spacy.tokens import Doc, Span
from spacy.util import registry

from ..pipes.cues.extensions import CUES_KEY

CUE_COLORS = {
    "HEDGE": "#fde68a",
    "ATTRIBUTION": "#a5d8ff",
    "NEGATION": "#ffb3b3",
    "CONDITIONAL": "#c3f0c8",
    "TEMPORAL": "#e0c3fc",
    "SOURCE": "#dee2e6",
}


@registry.displacy_colors("spacy_factwash.cue_colors")
def cue_colors() -> Dict[str, str]:
    """displaCy colours for the cue labels (registered, and advertised by entry point)."""
    return dict(CUE_COLORS)


def segments(doc: Doc, spans_key: str = CUES_KEY) -> Iterator[Tuple[str, Optional[Span]]]:
    """The text in order as (text, cue) pieces, cue None between cues.

    Overlapping cues of different classes yield the outermost one only.
    """
    text = doc.text  # spaCy joins every token's text on each access of Doc.text: once, not once per cue
    position = 0
    for span in sorted(doc.spans.get(spans_key, []), key=lambda s: (s.start_char, -s.end_char)):
        if span.start_char < position:
            continue
        yield text[position:span.start_char], None
        yield text[span.start_char:span.end_char], span
        position = span.end_char
    yield text[position:], None


def mark_cues(doc: Doc, spans_key: str = CUES_KEY) -> str:
    """The text with every cue bracketed and labelled: ``Alice [might]HEDGE come``.

    Overlapping cues of different classes are marked by the outermost one
    only; ``cue_rows`` lists them all.
    """
    return "".join(text if cue is None else f"[{text}]{cue.label_}" for text, cue in segments(doc, spans_key))


def cue_rows(cues: List[dict]) -> List[str]:
    """One aligned line per cue (as made by ``run.stream.cue_dicts``): label, text, offsets, entry, source."""
    rows = []
    for cue in cues:
        source = cue["source"]
        said_by = f"  source: {source['text']!r} ({source['start_char']}-{source['end_char']})" if source else ""
        rows.append(
            f"  {cue['label']:<12} {cue['text']!r:<22} {cue['start_char']:>5}-{cue['end_char']:<5} {cue['entry']}{said_by}"
        )
    return rows
