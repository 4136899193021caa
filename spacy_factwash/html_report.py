"""A self-contained HTML page a person can read: each pair side by side, cues highlighted, changes explained."""

import html
from typing import Iterable, List, Tuple

from spacy.tokens import Doc

from .cues.display import CUE_COLORS, segments
from .gate.report import Report

VERDICT_COLORS = {"pass": "#2f9e44", "rewrite": "#f08c00", "reject": "#e03131", "uncheckable": "#5c7cfa"}
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #212529; }
.pair { border: 1px solid #dee2e6; border-radius: 6px; padding: 1em; margin-bottom: 1.5em; }
.texts { display: grid; grid-template-columns: 1fr 1fr; gap: 1.5em; }
.text { line-height: 1.9; white-space: pre-wrap; }
.cue { padding: 0.1em 0.25em; border-radius: 3px; }
.cue sub { font-size: 0.6em; font-weight: bold; margin-left: 0.2em; }
.verdict { display: inline-block; color: white; padding: 0.2em 0.6em; border-radius: 4px; font-weight: bold; }
.legend span { margin-right: 1em; }
h3 { margin: 0.2em 0; font-size: 0.9em; color: #868e96; text-transform: uppercase; }
li { margin: 0.3em 0; }
"""


def highlight(doc: Doc) -> str:
    """The Doc's text as HTML with every cue wrapped in a coloured, labelled mark."""
    pieces: List[str] = []
    for text, cue in segments(doc):
        if cue is None:
            pieces.append(html.escape(text))
            continue
        color = CUE_COLORS.get(cue.label_, "#dee2e6")
        pieces.append(f'<mark class="cue cue-{cue.label_.lower()}" style="background:{color}" '
                      f'title="{html.escape(cue.id_)}">{html.escape(text)}<sub>{cue.label_}</sub></mark>')
    return "".join(pieces)


def pair_section(index: str, source: Doc, memory: Doc, report: Report) -> str:
    """One pair: verdict, the two texts side by side, and every change with its message."""
    items = [f"<li><b>{html.escape(c.type)}</b>: {html.escape(c.message)}</li>" for c in report.changes]
    items += [f"<li><b>uncheckable</b>: “{html.escape(u.text)}” aligns to no source sentence</li>"
              for u in report.uncheckable]
    items += [f"<li><i>note, {html.escape(n.type)}</i>: {html.escape(n.message)}</li>" for n in report.notes]
    color = VERDICT_COLORS[report.verdict]
    return (
        f'<section class="pair" id="pair-{html.escape(index)}"><div><span class="verdict" '
        f'style="background:{color}">{report.verdict}</span> pair {html.escape(index)}</div>'
        f'<div class="texts"><div><h3>source</h3><div class="text">{highlight(source)}</div></div>'
        f'<div><h3>memory</h3><div class="text">{highlight(memory)}</div></div></div>'
        f'<ul>{"".join(items) or "<li>no change found</li>"}</ul>'
        f'<div><small>not checked: {html.escape(", ".join(report.not_checked))}; '
        f'lexicon {html.escape(report.lexicon_version)}</small></div></section>'
    )


def page(sections: Iterable[Tuple[str, Doc, Doc, Report]]) -> str:
    """The whole self-contained page (inline CSS, no script, no external resource)."""
    legend = "".join(f'<span class="cue" style="background:{color}">{label}</span>'
                     for label, color in CUE_COLORS.items() if label != "SOURCE")
    body = "".join(pair_section(*section) for section in sections)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>spacy-factwash report</title>'
            f"<style>{STYLE}</style></head><body><h1>spacy-factwash report</h1>"
            f'<p class="legend">{legend}</p>{body}</body></html>')
