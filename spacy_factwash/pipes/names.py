"""The components' names, in one place: what a pipeline calls them and what code looks them up by."""

LEMMAS = "factwash_lemmas"
CUES = "factwash_cues"
STRENGTH = "factwash_strength"
COMPARE = "factwash_compare"
# every factory of the package starts so (the default config's order and settings are configs/factwash.cfg)
FACTORY_PREFIX = "factwash_"
