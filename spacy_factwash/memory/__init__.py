"""Where memories are written and rewritten: the gated mem0 wrapper (``mem0/``) with its audit log, review queue
and provenance, drift over version chains, and a bench for memory systems."""
