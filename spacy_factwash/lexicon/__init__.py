"""Frozen lexicons: entries, the sets and their manifests, and the matcher they compile into."""
