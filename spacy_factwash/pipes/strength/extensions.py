"""Doc and Span extensions for claim strength and certainty, registered once and never clobbered.

With the default prefix ``factwash`` a Doc, a sentence or any Span gets
``._.factwash_strength`` (a ``Strength``) and ``._.factwash_certainty`` (a
``Certainty``). Both are getters over the span groups, so they survive
``DocBin``, pickling and ``n_process`` workers; nothing is kept in
``user_data`` but the lexicon version (a string) and the modal reach (an int).
"""

from typing import Dict

from spacy.tokens import Doc, Span

from ..cues.extensions import set_extensions
from .certainty import certainty_level
from .claim import claim_strength


def strength_extension_names(prefix: str) -> Dict[str, str]:
    """The extension attribute names for a prefix."""
    return {"strength": f"{prefix}_strength", "certainty": f"{prefix}_certainty"}


def register_strength_extensions(prefix: str, spans_key: str, cues_key: str) -> Dict[str, str]:
    """Register the strength and certainty getters under ``prefix``; safe to call any number of times.

    Getters made for other span keys are never overwritten: that is an error
    asking for another prefix. The modal reach and the certainty scale are
    those of the component that annotated the Doc (read from its user_data).
    """
    names = strength_extension_names(prefix)

    def strength(container):
        return claim_strength(container, spans_key=spans_key)

    def certainty(container):
        return certainty_level(container, cues_key=cues_key, spans_key=spans_key)

    wanted = [(cls, names[what], getter) for what, getter in (("strength", strength), ("certainty", certainty))
              for cls in (Doc, Span)]
    set_extensions(wanted, (spans_key, cues_key))
    return names
