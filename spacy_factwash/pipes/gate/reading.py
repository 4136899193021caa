"""The gate reads each text as a person sees it, and gives every offset of its report in the text it was given.

``Gate`` reads both texts of a pair (``syntax/reading.py``: markup, right-to-left controls, control and invisible
characters, look-alike letters) before the pipeline annotates them, so clauses, alignment and every check read
"Bob said Alice was promoted." where "Bob s<b></b>aid Alice was <i>promoted</i>." is written. ``on_original``
then maps every offset of the report (claims, sentences, cues, values, the sentences left unchecked) back into
the text as given, and adds a note (``Report.reading``) for each stretch read otherwise than written. A paragraph
nested too deep to put in display order (``bidi-unresolved``) makes a pair that would pass uncheckable, with
``reading`` in ``not_checked``. A text that reads as it is written (the common case) is annotated as it is, and
its report is left as it is.
"""

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional, Tuple

from ...syntax.bidi import UNRESOLVED
from ...syntax.reading import read
from ...syntax.textmap import Shadow
from .report import Change, Cue, Excerpt, LanguageFinding, ReadNote, Report


@dataclass(frozen=True)
class ReadText:
    """One text of a pair: as given, and as a person reads it (``shadow``: None when it reads as written)."""

    text: str
    shadow: Optional[Shadow] = None

    @property
    def read(self) -> str:
        """The text the pipeline annotates."""
        return self.text if self.shadow is None else self.shadow.text

    def excerpt(self, excerpt: Optional[Excerpt]) -> Optional[Excerpt]:
        """An excerpt of the text as read, as the stretch of the text as given that shows it (its words as
        given when they were a stretch of the text as read; a claim's joined pieces keep their words)."""
        if excerpt is None or self.shadow is None:
            return excerpt
        start, end = self.shadow.original(excerpt.start_char, excerpt.end_char)
        stretch = self.shadow.text[excerpt.start_char:excerpt.end_char] == excerpt.text
        return Excerpt(self.text[start:end] if stretch else excerpt.text, start, end)

    def notes(self, side: str) -> List[ReadNote]:
        """What was read otherwise than written, as notes: one per stretch of one kind (touching stretches of a
        kind joined)."""
        if self.shadow is None:
            return []
        by_kind: Dict[str, List[Tuple[int, int]]] = {}
        for kind, start, end in self.shadow.notes:
            by_kind.setdefault(kind, []).append((start, end))
        joined: List[List] = []
        for kind, stretches in by_kind.items():
            for start, end in sorted(stretches):
                if joined and joined[-1][0] == kind and start <= joined[-1][2]:
                    joined[-1][2] = max(joined[-1][2], end)
                else:
                    joined.append([kind, start, end])
        joined.sort(key=lambda note: (note[1], note[2]))
        shadow = self.shadow
        return [ReadNote(side, kind, self.text[start:end], start, end,
                         shadow.text[shadow.shadow_offset(start):shadow.shadow_offset(end)])
                for kind, start, end in joined]


def read_text(text: str) -> ReadText:
    """A text of a pair, read as a person reads it (a text that is not a string is left to the pipeline to
    refuse)."""
    return ReadText(text, read(text) if isinstance(text, str) else None)


def on_original(report: Report, source: ReadText, memory: ReadText) -> Report:
    """The report of the texts as read, with every offset in the texts as given and a note for each stretch read
    otherwise than written."""
    if source.shadow is None and memory.shadow is None:
        return report
    sides = {"source": source, "memory": memory}

    def change(found: Change) -> Change:
        return replace(found, memory=memory.excerpt(found.memory), source=source.excerpt(found.source),
                       memory_claim=memory.excerpt(found.memory_claim),
                       source_claim=source.excerpt(found.source_claim),
                       cues=[cue(c) for c in found.cues], values=values(found.values, None))

    def cue(found: Cue) -> Cue:
        excerpt = sides[found.side].excerpt(Excerpt(found.text, found.start_char, found.end_char))
        return replace(found, text=excerpt.text, start_char=excerpt.start_char, end_char=excerpt.end_char)

    def values(value: Any, side: Optional[ReadText]) -> Any:
        """A change's values, each stretch with offsets (a value read in a sentence) moved into its side's text."""
        if isinstance(value, list):
            return [values(item, side) for item in value]
        if not isinstance(value, dict):
            return value
        moved = {key: values(item, sides.get(key, side)) for key, item in value.items()}
        if side is not None and isinstance(moved.get("start_char"), int) and isinstance(moved.get("end_char"), int):
            excerpt = side.excerpt(Excerpt(moved.get("surface", ""), moved["start_char"], moved["end_char"]))
            moved.update(start_char=excerpt.start_char, end_char=excerpt.end_char)
            if "surface" in moved:
                moved["surface"] = excerpt.text
        return moved

    def finding(found: LanguageFinding) -> LanguageFinding:
        return replace(found, sentence=memory.excerpt(found.sentence))

    reading = report.reading + source.notes("source") + memory.notes("memory")
    unread = any(note.kind == UNRESOLVED for note in reading)  # a text not put in display order: never a pass
    return replace(report, changes=[change(c) for c in report.changes], notes=[change(c) for c in report.notes],
                   uncheckable=[memory.excerpt(e) for e in report.uncheckable],
                   not_english=[finding(f) for f in report.not_english], reading=reading,
                   verdict="uncheckable" if unread and report.verdict == "pass" else report.verdict,
                   not_checked=report.not_checked + ["reading"] * unread)
