"""Frozen sets: entries, the registry of sets, their manifests, the tables a process reads, and the matcher."""
