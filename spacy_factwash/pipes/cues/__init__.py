"""The cue layer: lexicon matching and the five class detectors. Knows nothing of the gate."""
