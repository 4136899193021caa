"""How a speaker span points back at its attribution cue: the key it carries in ``kb_id_``.

The cue component writes the link, the clause and scope binding and the gate read it; it lives here, below all
of them.
"""

from spacy.tokens import Span


def source_link(cue: Span) -> str:
    """The key a source span carries (in ``kb_id_``) to point back at its cue."""
    return f"cue:{cue.start}-{cue.end}"
