"""Where memories are written and rewritten: drift over version chains, a bench for memory systems."""
