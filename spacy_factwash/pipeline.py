"""The embedded default pipeline: blank English, sentences, lookup lemmas, resolved cues.

No model is downloaded: lemmas come from the lookup tables that
spacy-lookups-data installs.
"""

import spacy
from spacy.language import Language

DEFAULT_MAX_LENGTH = 10_000_000


def load(max_length: int = DEFAULT_MAX_LENGTH) -> Language:
    """Build the default pipeline.

    ``max_length`` is raised above spaCy's 1,000,000 characters because no
    component here keeps a parser's per-token memory; a longer text raises
    spaCy's error E088, which names the limit.
    """
    nlp = spacy.blank("en")
    nlp.max_length = max_length
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("lemmatizer", config={"mode": "lookup"})
    nlp.add_pipe("factwash_cues")
    nlp.initialize()
    return nlp
