"""Annotating and gating streams and files: read, batch, hand to an executor, write records."""
