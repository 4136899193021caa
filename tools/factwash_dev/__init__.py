"""Developer tooling, not in the wheel: evaluation, corpus readers, benches, table writers and developer commands."""
