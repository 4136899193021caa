"""The components' names, in one place: what a pipeline calls them and what code looks them up by."""

LEMMAS = "factwash_lemmas"
CUES = "factwash_cues"
STRENGTH = "factwash_strength"
COMPARE = "factwash_compare"
# the order ``load()`` adds them in, after the tokenizer and the sentence boundaries
DEFAULT_ORDER = (LEMMAS, CUES, STRENGTH, COMPARE)
