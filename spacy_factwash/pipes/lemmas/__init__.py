"""factwash_lemmas: spaCy's lookup lemmas set as one array per Doc."""
