"""Showing results to people: marked text and cue rows on a terminal, the HTML report."""
