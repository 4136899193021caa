"""A self-contained HTML page a person can work through, for one pair or a thousand.

At the top: how many pairs got each verdict and each change type, each a
filter (a checkbox; a little inline script hides the pairs that do not match)
and a jump link to the first such pair, and an index of every pair. Then one
section per pair: for each change, the flagged memory sentence beside the
source sentence it was aligned to (with the sentences around it for context),
the claims compared underlined, cues highlighted by class and the values the
change names boxed; the whole texts are one click away in a ``<details>``,
so a long source costs no screen space until asked for. An empty memory, a
pair not in English and a memory sentence that aligns to nothing are said in
words. No network: CSS and script are inline.
"""

import bisect
import html
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

from ..pipes.cues.extensions import CUES_KEY
from ..pipes.gate.report import Change, Excerpt, Report
from ..syntax.sentences import sentences
from .display import CUE_COLORS

VERDICT_COLORS = {"pass": "#2f9e44", "rewrite": "#f08c00", "reject": "#e03131", "uncheckable": "#5c7cfa"}
VERDICT_ORDER = ("reject", "rewrite", "uncheckable", "pass")
# Findings that are not change types but that a reader filters by all the same.
FINDINGS = {"not_english": "not English", "empty_memory": "empty memory", "unaligned": "aligns to nothing"}
WHOLE_TEXT_LIMIT = 20_000  # characters of a whole text shown behind its <details>; the rest is cut and said so
OPEN_LIMIT = 1_000  # a pair with nothing flagged shows its texts open when they are this short together
STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 2em 2em; color: #212529; }
header.top { border-bottom: 1px solid #dee2e6; padding: .6em 0; }
.up { float: right; font-size: .8em; }
h1 { font-size: 1.3em; margin: .4em 0; }
.counts { display: flex; flex-wrap: wrap; gap: .3em 1.2em; margin: .3em 0; font-size: .9em; }
.counts label { white-space: nowrap; }
.counts a { color: #495057; font-size: .85em; }
.shown { font-size: .85em; color: #495057; }
.index { font-size: .8em; max-height: 12em; overflow: auto; }
.index a { display: inline-block; margin: 1px; padding: 0 .3em; border-radius: 3px; color: #fff;
  text-decoration: none; }
.pair { border: 1px solid #dee2e6; border-radius: 6px; padding: .6em 1em; margin: 1em 0; }
.pair > h2 { font-size: 1em; margin: 0 0 .4em; font-weight: normal; }
.verdict { display: inline-block; color: #fff; padding: .1em .5em; border-radius: 4px; font-weight: bold; }
.tag { display: inline-block; background: #f1f3f5; border-radius: 3px; padding: 0 .4em; margin-left: .3em;
  font-size: .85em; }
.said { margin: .3em 0; color: #862e9c; font-weight: bold; }
.change { margin: .5em 0; }
.what { font-size: .9em; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.side { background: #f8f9fa; border-radius: 4px; padding: .3em .6em; line-height: 1.8; }
.side h3 { margin: 0; font-size: .7em; color: #868e96; text-transform: uppercase; }
.context { color: #adb5bd; }
.claim { text-decoration: underline 2px #495057; text-underline-offset: 3px; }
.cue { border-radius: 3px; padding: .05em .15em; }
.cue sub { font-size: .6em; font-weight: bold; margin-left: .15em; }
.value { outline: 2px solid #e03131; border-radius: 2px; }
.flagged { font-weight: bold; }
.none { color: #868e96; font-style: italic; }
details { margin: .4em 0; font-size: .9em; }
details .side { white-space: pre-wrap; }
.meta { font-size: .75em; color: #868e96; }
.legend span { margin-right: .8em; font-size: .85em; }
"""
SCRIPT = """
const boxes = Array.from(document.querySelectorAll('input[data-filter]'));
const pairs = Array.from(document.querySelectorAll('section.pair'));
function apply() {
  const verdicts = new Set(boxes.filter(b => b.checked && b.dataset.filter === 'verdict').map(b => b.value));
  const kinds = new Set(boxes.filter(b => b.checked && b.dataset.filter === 'kind').map(b => b.value));
  let shown = 0;
  for (const pair of pairs) {
    const has = pair.dataset.kinds.split(' ');
    const show = verdicts.has(pair.dataset.verdict) && (kinds.size === 0 || has.some(k => kinds.has(k)));
    pair.hidden = !show;
    if (show) shown += 1;
  }
  document.getElementById('shown').textContent = shown;
}
boxes.forEach(b => b.addEventListener('change', apply));
apply();
"""


@dataclass
class Mark:
    """A stretch of one text to paint: its offsets, its CSS classes, a tooltip and an optional trailing label."""

    start: int
    end: int
    classes: str
    title: str = ""
    label: str = ""
    style: str = ""


@dataclass
class Summary:
    """What the page's header counts: pairs per verdict and per change type or finding, and the first of each."""

    verdicts: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    first: Dict[str, str] = field(default_factory=dict)

    def add(self, anchor: str, verdict: str, kinds: Sequence[str]) -> None:
        """Count one pair."""
        self.verdicts[verdict] += 1
        self.kinds.update(set(kinds))
        for key in (verdict, *kinds):
            self.first.setdefault(key, anchor)


def paint(text: str, start: int, end: int, marks: Sequence[Mark]) -> str:
    """``text[start:end]`` as HTML, every mark's stretch wrapped in a span with its classes (overlapping marks
    nest by cutting the text at every boundary), a cue's label after its last piece."""
    inside = [m for m in marks if m.start < end and m.end > start and m.start < m.end]
    cuts = sorted({start, end, *(max(start, m.start) for m in inside), *(min(end, m.end) for m in inside)})
    pieces = []
    for left, right in zip(cuts, cuts[1:]):
        piece = html.escape(text[left:right])
        for mark in (m for m in inside if m.start <= left and right <= m.end):
            label = f"<sub>{html.escape(mark.label)}</sub>" if mark.label and right == mark.end else ""
            style = f' style="{mark.style}"' if mark.style else ""
            title = f' title="{html.escape(mark.title)}"' if mark.title else ""
            piece = f'<span class="{mark.classes}"{style}{title}>{piece}{label}</span>'
        pieces.append(piece)
    return "".join(pieces)


def cue_marks(doc: Doc) -> List[Mark]:
    """Every cue of the Doc, coloured by class, its lexicon entry as tooltip."""
    return [Mark(span.start_char, span.end_char, f"cue cue-{span.label_.lower()}", span.id_, span.label_,
                 f"background:{CUE_COLORS.get(span.label_, '#dee2e6')}")
            for span in doc.spans.get(CUES_KEY, [])]


def _values(found, side: Optional[str] = None) -> Iterator[Tuple[str, int, int, str]]:
    """(side, start, end, surface) of every value a change's ``values`` names, found at any depth."""
    if isinstance(found, dict):
        if side is not None and isinstance(found.get("start_char"), int) and isinstance(found.get("end_char"), int):
            yield side, found["start_char"], found["end_char"], str(found.get("surface", ""))
        for key, value in found.items():
            yield from _values(value, key if key in ("memory", "source") else side)
    elif isinstance(found, (list, tuple)):
        for value in found:
            yield from _values(value, side)


def evidence_marks(change: Change, side: str) -> List[Mark]:
    """The claim a change compared (underlined), the cues it rests on (bold) and the values it names (boxed)."""
    claim = change.memory_claim if side == "memory" else change.source_claim
    marks = [Mark(claim.start_char, claim.end_char, "claim")] if claim is not None else []
    marks += [Mark(cue.start_char, cue.end_char, "flagged", cue.entry) for cue in change.cues if cue.side == side]
    marks += [Mark(start, end, "value", f"value {surface}") for found_side, start, end, surface in
              _values(change.values) if found_side == side]
    return marks


class Sentences:
    """A Doc's sentence offsets, to show a sentence with the ones around it."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.bounds = [(s.start_char, s.end_char) for s in sentences(doc)] if doc.has_annotation("SENT_START") else []
        self.starts = [start for start, _ in self.bounds]

    def around(self, excerpt: Excerpt) -> Tuple[int, int, int, int]:
        """(context start, excerpt start, excerpt end, context end): the sentence before and after the excerpt."""
        if not self.bounds:
            return excerpt.start_char, excerpt.start_char, excerpt.end_char, excerpt.end_char
        first = max(0, bisect.bisect_right(self.starts, excerpt.start_char) - 1)
        last = max(first, bisect.bisect_left(self.starts, excerpt.end_char) - 1)
        before = self.bounds[max(0, first - 1)][0]
        after = self.bounds[min(len(self.bounds) - 1, last + 1)][1]
        return before, excerpt.start_char, excerpt.end_char, after

    def show(self, excerpt: Excerpt, marks: Sequence[Mark]) -> str:
        """The excerpt with its neighbours greyed, and ellipses where the text goes on."""
        before, start, end, after = self.around(excerpt)
        text = self.doc.text
        return ("… " if before > 0 else "") + f'<span class="context">{paint(text, before, start, marks)}</span>' + \
            paint(text, start, end, marks) + f'<span class="context">{paint(text, end, after, marks)}</span>' + \
            (" …" if after < len(text.rstrip()) else "")


def _side(title: str, body: str) -> str:
    return f'<div class="side"><h3>{title}</h3>{body}</div>'


def _where(change: Change) -> Tuple:
    """The sentences and claims a change compared: changes that compared the same ones are shown together."""
    return tuple((e.start_char, e.end_char) if e is not None else None
                 for e in (change.memory, change.source, change.memory_claim, change.source_claim))


def change_blocks(changes: Sequence[Change], source: Sentences, memory: Sentences, cues: Dict[str, List[Mark]],
                  note: bool = False) -> List[str]:
    """The changes, grouped by the claims they compared: each group's types and messages, then the memory
    sentence beside the aligned source sentence, with every group member's evidence marked."""
    groups: Dict[Tuple, List[Change]] = {}
    for change in changes:
        groups.setdefault(_where(change), []).append(change)
    blocks = []
    for group in groups.values():
        shown = {}
        for side, side_sentences, excerpt in (("memory", memory, group[0].memory),
                                              ("source", source, group[0].source)):
            marks = cues[side] + [mark for change in group for mark in evidence_marks(change, side)]
            shown[side] = side_sentences.show(excerpt, marks) if excerpt is not None else \
                '<span class="none">no source sentence</span>'
        what = "".join(f'<div class="what"><b>{html.escape(f"note, {c.type}" if note else c.type)}</b>: '
                       f"{html.escape(c.message)}</div>" for c in group)
        blocks.append(f'<div class="change">{what}<div class="sides">{_side("memory", shown["memory"])}'
                      f'{_side("source", shown["source"])}</div></div>')
    return blocks


def whole_texts(source: Doc, memory: Doc, cues: Dict[str, List[Mark]], open_: bool) -> str:
    """Both whole texts side by side behind a <details> (open for a pair with nothing else to show)."""
    bodies = []
    for side, doc in (("memory", memory), ("source", source)):
        end = min(len(doc.text), WHOLE_TEXT_LIMIT)
        cut = f'<span class="none"> … {len(doc.text) - end:,} more characters not shown</span>' \
            if end < len(doc.text) else ""
        body = paint(doc.text, 0, end, cues[side]) + cut if doc.text.strip() else '<span class="none">empty</span>'
        bodies.append(_side(side, body))
    summary = f"whole texts (memory {len(memory.text):,} characters, source {len(source.text):,})"
    return f'<details{" open" if open_ else ""}><summary>{summary}</summary><div class="sides">{"".join(bodies)}' \
           f"</div></details>"


def kinds_of(report: Report) -> List[str]:
    """What a pair can be filtered by: its change types, and the findings that are not changes."""
    kinds = sorted({change.type for change in report.changes})
    kinds += ["not_english"] if report.not_english else []
    kinds += ["empty_memory"] if report.empty_memory else []
    kinds += ["unaligned"] if report.uncheckable else []
    return kinds


def pair_section(anchor: str, label: str, source: Doc, memory: Doc, report: Report) -> str:
    """One pair (``anchor`` its element id, ``label`` its name): verdict and tags, what was said about the pair as
    a whole, each change, and the whole texts."""
    kinds = kinds_of(report)
    cues = {"source": cue_marks(source), "memory": cue_marks(memory)}
    source_sentences, memory_sentences = Sentences(source), Sentences(memory)
    said = []
    if report.empty_memory:
        said.append("empty memory: there is nothing in it to check")
    said += [f"not English: the {f.side}{'' if f.sentence is None else f' sentence “{f.sentence.text}”'} "
             f"read{'' if ' and ' in f.side else 's'} as '{f.language}' (probability {f.score:.2f}); nothing was "
             "checked" for f in report.not_english]
    blocks = change_blocks(report.changes, source_sentences, memory_sentences, cues)
    blocks += [f'<div class="change"><div class="what"><b>uncheckable</b>: this memory sentence aligns to no source '
               f'claim</div><div class="sides">{_side("memory", memory_sentences.show(u, cues["memory"]))}'
               f'{_side("source", "<span class=none>nothing aligned</span>")}</div></div>' for u in report.uncheckable]
    blocks += change_blocks(report.notes, source_sentences, memory_sentences, cues, note=True)
    tags = "".join(f'<span class="tag">{html.escape(FINDINGS.get(kind, kind))}</span>' for kind in kinds)
    color = VERDICT_COLORS[report.verdict]
    return (
        f'<section class="pair" id="{html.escape(anchor)}" data-verdict="{report.verdict}" '
        f'data-kinds="{" ".join(kinds)}"><h2><a href="#{html.escape(anchor)}">{html.escape(label)}</a> '
        f'<span class="verdict" style="background:{color}">{report.verdict}</span>{tags}'
        f'<a class="up" href="#top">top</a></h2>'
        + "".join(f'<div class="said">{html.escape(line)}</div>' for line in said)
        + "".join(blocks)
        + whole_texts(source, memory, cues, open_=not blocks and not report.not_english
                      and len(source.text) + len(memory.text) <= OPEN_LIMIT)
        + f'<div class="meta">not checked: {html.escape(", ".join(report.not_checked))}; '
          f'lexicon {html.escape(report.lexicon_version)}</div></section>'
    )


def header(summary: Summary, anchors: List[Tuple[str, str, str]]) -> str:
    """Counts per verdict and per change type or finding, each a filter and a jump link; the index of pairs."""
    total = sum(summary.verdicts.values())

    def jump(key: str) -> str:
        return f' <a href="#{summary.first[key]}" data-first="{html.escape(key)}">first</a>' \
            if key in summary.first else ""

    verdicts = "".join(
        f'<label><input type="checkbox" data-filter="verdict" value="{v}" checked> '
        f'<span class="verdict" style="background:{VERDICT_COLORS[v]}">{v}</span> {summary.verdicts[v]:,}</label>'
        f"{jump(v)}" for v in VERDICT_ORDER)
    kinds = "".join(
        f'<label><input type="checkbox" data-filter="kind" value="{html.escape(k)}"> '
        f"{html.escape(FINDINGS.get(k, k))} {n:,}</label>{jump(k)}" for k, n in summary.kinds.most_common())
    index = "".join(f'<a href="#{anchor}" style="background:{VERDICT_COLORS[verdict]}">{html.escape(label)}</a>'
                    for anchor, label, verdict in anchors)
    legend = "".join(f'<span class="cue" style="background:{color}">{label}</span>'
                     for label, color in CUE_COLORS.items() if label != "SOURCE")
    return (f'<header class="top" id="top"><h1>spacy-factwash report: {total:,} pair{"s" if total != 1 else ""}</h1>'
            f'<div class="counts">{verdicts}</div>'
            f'<div class="counts">{kinds or "<span class=none>no change found in any pair</span>"}</div>'
            f'<div class="shown">showing <span id="shown">{total:,}</span> of {total:,} (tick change types to show '
            f'only pairs with one of them) · <span class="legend">{legend}<span class="value">value</span>'
            f'<span class="claim">claim compared</span></span></div>'
            f'<details><summary>index of pairs</summary><div class="index">{index}</div></details></header>')


def page(sections: Iterable[Tuple[str, Doc, Doc, Report]]) -> str:
    """The whole self-contained page for (label, source, memory, report) sections. Each pair is rendered as it
    comes (its Docs can then be freed) and anchored by its position, so any label makes a working link."""
    summary, anchors, bodies = Summary(), [], []
    for number, (label, source, memory, report) in enumerate(sections, 1):
        anchor = f"pair-{number}"
        summary.add(anchor, report.verdict, kinds_of(report))
        anchors.append((anchor, label, report.verdict))
        bodies.append(pair_section(anchor, label, source, memory, report))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>spacy-factwash report</title>'
            f"<style>{STYLE}</style></head><body>{header(summary, anchors)}<main>{''.join(bodies)}</main>"
            f"<script>{SCRIPT}</script></body></html>")
