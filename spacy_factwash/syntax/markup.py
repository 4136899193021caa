"""HTML and Markdown read as what they show: "s<b></b>aid" reads "said", "n&#111;t" reads "not", "n*o*t" reads "not".

A person reading rendered text sees neither tags nor entity names: an inline tag ("<b>", "<span class=x>") is read
as nothing, a tag that breaks the line ("<br>", "<p>") as a space where it stands between two words, a comment
and an element that shows nothing ("<script>", "<style>", "<template>") as nothing, an entity ("&#111;",
"&#x6f;", "&nbsp;") as the character it names (decoded once, as a browser does: "&amp;#111;" shows "&#111;"),
and emphasis stars inside a word ("s*a*id", "s**a**id": an even number of star runs touching its letters) as
nothing. Struck-out text ("<del>", "<s>", "<strike>", "~~not~~") is left out, as a reader reads it (and as the
character reading leaves out a word struck with combining overlays). Only tags of HTML's own elements are read
so: "a<b and c>d" in plain text is read as written unless it spells one.

``markup_edits`` gives the stretches to read otherwise, in text order, and a note for each. The scan is linear in
the text: an element that is never closed is read as its tag alone, a comment never closed as written.
"""

import html
import math
import re
from bisect import bisect_right
from typing import Dict, List, Optional, Tuple

from .textmap import Edit, Note

INLINE = frozenset({"a", "abbr", "b", "bdi", "bdo", "big", "body", "button", "cite", "code", "data", "dfn", "em",
                    "font", "html", "i", "img", "ins", "kbd", "label", "mark", "q", "samp", "small", "span",
                    "strong", "sub", "sup", "time", "tt", "u", "var", "wbr"})
BREAKING = frozenset({"address", "article", "aside", "blockquote", "br", "caption", "center", "dd", "details", "div",
                      "dl", "dt", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
                      "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody",
                      "td", "tfoot", "th", "thead", "tr", "ul"})
HIDDEN = frozenset({"script", "style", "template"})
STRUCK = frozenset({"del", "s", "strike"})
# an attribute has a value ("<b and c>" in plain text is no tag), bounded, so a "<" before unterminated junk costs
# a bounded scan
_ATTRIBUTE = r"""\s+[a-z_:][-\w:.]{0,64}\s*=\s*(?:"[^"<>]{0,1024}"|'[^'<>]{0,1024}'|[^\s"'=<>`]{1,1024})"""
MARKUP = re.compile(
    rf"<!--|~~|<(?P<close>/?)(?P<name>[a-z][a-z0-9]{{0,15}})\b(?:{_ATTRIBUTE}){{0,32}}\s*/?>"
    r"|(?P<entity>&(?:#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});)",
    re.IGNORECASE)
CHUNK = re.compile(r"\S+")
STARS = re.compile(r"\*+")
MARKS = frozenset("<&*~")


def markup_edits(text: str) -> Tuple[List[Edit], List[Note]]:
    """What markup and emphasis in ``text`` read as, and a note for each stretch."""
    if MARKS.isdisjoint(text):
        return [], []
    found = list(MARKUP.finditer(text))
    closing = _closing_tags(found)
    struck_marks = [m.start() for m in found if m.group() == "~~"]
    edits: List[Edit] = []
    notes: List[Note] = []
    at = 0
    for match in found:
        start = match.start()
        if start < at:
            continue
        read = _read(text, match, closing, struck_marks)
        if read is None:
            continue
        end, replacement, kind = read
        edits.append((start, end, replacement, False))
        notes.append((kind, start, end))
        at = end
    stars = _emphasis(text, edits)
    if stars:
        edits = sorted(edits + stars)
        notes += [("markup", start, end) for start, end, _, _ in stars]
    return edits, notes


def _read(text: str, match: "re.Match", closing: Dict[str, List[Tuple[int, int]]],
          struck_marks: List[int]) -> Optional[Tuple[int, str, str]]:
    """What one markup match reads as: (where the stretch it starts ends, its reading, the note's kind), or None
    when it is read as written."""
    start, end, token = match.start(), match.end(), match.group()
    if token == "<!--":
        close = text.find("-->", end)
        return None if close < 0 else (close + 3, "", "markup")
    if token == "~~":
        after = bisect_right(struck_marks, start)
        if after == len(struck_marks):
            return None
        close = struck_marks[after]
        inner = text[end:close]
        if close == end or "\n" in inner or inner[0].isspace() or inner[-1].isspace():
            return None
        return close + 2, "", "struck"
    if match.group("entity"):
        replacement = html.unescape(token)
        return None if replacement == token else (end, replacement, "entity")
    name = match.group("name").lower()
    if name in HIDDEN or name in STRUCK:
        close = _first_close(closing.get(name, []), end) if not match.group("close") else None
        if close is not None:
            return close, "", "markup" if name in HIDDEN else "struck"
        if name in HIDDEN:
            return end, "", "markup"
    if name in BREAKING:
        between_words = 0 < start and end < len(text) and not text[start - 1].isspace() and not text[end].isspace()
        return end, " " if between_words else "", "markup"
    if name in INLINE or name in STRUCK:
        return end, "", "markup"
    return None


def _closing_tags(found: List["re.Match"]) -> Dict[str, List[Tuple[int, int]]]:
    """The closing tags of the elements whose content is read too, by name: (start, end) in text order."""
    closing: Dict[str, List[Tuple[int, int]]] = {}
    for match in found:
        if match.group("close") and (match.group("name") or "").lower() in HIDDEN | STRUCK:
            closing.setdefault(match.group("name").lower(), []).append((match.start(), match.end()))
    return closing


def _first_close(closes: List[Tuple[int, int]], after: int) -> Optional[int]:
    """Where the first closing tag at or after ``after`` ends, or None."""
    at = bisect_right(closes, (after, -1))
    return closes[at][1] if at < len(closes) else None


def _emphasis(text: str, edits: List[Edit]) -> List[Edit]:
    """The star runs of Markdown emphasis that touch the letters of a word ("s*a*id", "**s**aid"), where a word
    has an even number of them, outside the stretches ``edits`` already reads."""
    if "*" not in text:
        return []
    taken = [(start, end) for start, end, _, _ in edits]
    found: List[Edit] = []
    for chunk in CHUNK.finditer(text):
        word = chunk.group()
        if "*" not in word:
            continue
        runs = [run for run in STARS.finditer(word) if _touches_letter(word, run.start(), run.end())]
        if len(runs) < 2 or len(runs) % 2:
            continue
        for run in runs:
            start, end = chunk.start() + run.start(), chunk.start() + run.end()
            if not _inside(taken, start, end):
                found.append((start, end, "", False))
    return found


def _inside(taken: List[Tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``[start, end)`` overlaps one of the stretches ``taken`` (in text order)."""
    at = bisect_right(taken, (start, math.inf)) - 1
    return any(0 <= i < len(taken) and taken[i][0] < end and start < taken[i][1] for i in (at, at + 1))


def _touches_letter(word: str, start: int, end: int) -> bool:
    """Whether the star run ``word[start:end]`` has a letter right before or right after it."""
    return (start > 0 and word[start - 1].isalpha()) or (end < len(word) and word[end].isalpha())
