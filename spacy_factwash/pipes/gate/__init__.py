"""The gate: compare a rewrite (memory) with its source and report what it washed away.

Knows the cue layer's span groups and nothing of models, memory systems or the CLI.
"""
