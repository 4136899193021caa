"""The seven checks and unit drift, each a small function from an aligned pair to changes.

A pair is one memory sentence with its aligned source sentence (and the
source sentences around it, for the checks whose window is wider). Cue
classes are compared as classes, so a paraphrase that keeps the class
("said" -> "according to", "might" -> "may", "did not" -> "didn't") passes.
"""

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Sequence

from spacy.tokens import Doc, Span

from ..cues.extensions import CUES_KEY
from .align import content_ids
from .quantities import Quantity, quantities, same_value
from .report import Change, Cue, Excerpt

CLAUSE_WORDS = frozenset({"but", "although", "though", "while", "whereas", "yet", "however"})
NOT_BOUNDARIES = frozenset({"'", "\u2019", "-", "\u2010", "\""})
YEAR = re.compile(r"(?<![\d,.])\d{4}(?![\d,.])")
YEAR_WORDS = frozenset({"in", "since", "between", "from", "until", "till", "by", "during", "before", "after",
                        "year", "years", "circa", "early", "late", "mid"})
PRESENCE_CHECKS = {
    "dropped_attribution": ("ATTRIBUTION", "the source attributes this claim ({cues}); the memory states it as fact"),
    "strengthened_certainty": ("HEDGE", "the source hedges this claim ({cues}); the memory states it as certain"),
    "dropped_condition": ("CONDITIONAL", "the source holds this only under a condition ({cues}); the memory drops it"),
    "dropped_temporal_scope": ("TEMPORAL", "the source scopes this claim in time ({cues}); the memory drops it"),
}


class CueIndex:
    """A Doc's resolved cues by class, sorted by start token, so the cues inside a span are found by bisection.

    Built once per Doc per comparison: reading ``doc.spans`` makes a new Span
    object per cue, which over a long source and many memory sentences cost
    more than every check together.
    """

    def __init__(self, doc: Doc) -> None:
        self._spans: Dict[str, List[Span]] = {}
        for span in doc.spans.get(CUES_KEY, []):
            self._spans.setdefault(span.label_, []).append(span)
        for spans in self._spans.values():
            spans.sort(key=lambda cue: cue.start)
        self._starts = {label: [cue.start for cue in spans] for label, spans in self._spans.items()}

    def inside(self, spans: Sequence[Span], label: str) -> List[Span]:
        """The cues of one class that lie wholly inside one of ``spans``."""
        cues, starts = self._spans.get(label, []), self._starts.get(label, [])
        found = []
        for span in spans:
            at = bisect_left(starts, span.start)
            while at < len(cues) and cues[at].start < span.end:
                if cues[at].end <= span.end:
                    found.append(cues[at])
                at += 1
        return found


@dataclass
class Pair:
    """One memory sentence and the source sentences it is checked against.

    ``neighbour_words`` decides which sentences around the aligned one a
    window takes: a neighbour bears on the memory's claim when the memory
    took at least that many content words from it that the aligned sentence
    lacks (two source sentences merged into one), or when it has no more
    than that many of its own (a comment on the claim, such as "Not sure
    though."). Any other neighbour states its own claim and is left out.
    """

    memory: Span
    source_sents: Sequence[Span]
    index: int
    lexicon_version: str
    source_cues: CueIndex
    memory_cues: CueIndex
    neighbour_words: int
    _windows: Dict[int, List[Span]] = field(default_factory=dict, repr=False, compare=False)

    def window(self, neighbours: int) -> List[Span]:
        """The aligned source sentence and the neighbours within ``neighbours`` on each side that bear on it
        (worked out once per width: several checks read the same window)."""
        if neighbours == 0:
            return [self.source]
        if neighbours not in self._windows:
            aligned, memory = content_ids(self.source), content_ids(self.memory)
            window = []
            for index in range(max(0, self.index - neighbours),
                               min(len(self.source_sents), self.index + neighbours + 1)):
                sent = self.source_sents[index]
                own = content_ids(sent) - aligned
                merged, comment = len(own & memory) >= self.neighbour_words, len(own) <= self.neighbour_words
                if index == self.index or merged or comment:
                    window.append(sent)
            self._windows[neighbours] = window
        return self._windows[neighbours]

    @property
    def source(self) -> Span:
        return self.source_sents[self.index]


def excerpt(span: Span) -> Excerpt:
    return Excerpt(span.text, span.start_char, span.end_char)


def evidence(cues: Sequence[Span], side: str, version: str) -> List[Cue]:
    return [Cue(side, c.label_, c.text, c.start_char, c.end_char, c.id_, version) for c in cues]


def _quoted(cues: Sequence[Span]) -> str:
    return ", ".join(repr(c.text) for c in cues)


def check_presence(change_type: str, pair: Pair, neighbours: int) -> Optional[Change]:
    """A cue class present in the source window and absent from the memory sentence."""
    label, message = PRESENCE_CHECKS[change_type]
    source_cues = pair.source_cues.inside(pair.window(neighbours), label)
    if not source_cues or pair.memory_cues.inside([pair.memory], label):
        return None
    return Change(change_type, change_type, message.format(cues=_quoted(source_cues)), excerpt(pair.memory),
                  excerpt(pair.source), evidence(source_cues, "source", pair.lexicon_version))


def _clause_boundary(token) -> bool:
    return (token.is_punct and token.text not in NOT_BOUNDARIES) or token.lower_ in CLAUSE_WORDS


def clause_words(cue: Span, within: Span) -> FrozenSet[int]:
    """The content words of the clause around a cue, the cue's own words left out.

    The clause runs from the cue to the nearest punctuation mark or
    contrastive conjunction ("but", "although", ...) on each side, inside
    the sentence ``within``.
    """
    doc = cue.doc
    start, end = cue.start, cue.end
    while start > within.start and not _clause_boundary(doc[start - 1]):
        start -= 1
    while end < within.end and not _clause_boundary(doc[end]):
        end += 1
    return content_ids(doc[start:cue.start]) | content_ids(doc[cue.end:end])


def bearing(cues: Sequence[Span], spans: Sequence[Span], other: Sequence[Span]) -> List[Span]:
    """The negation cues whose clause shares a content word with the other side (or has no content word).

    A negation in a clause the other text never mentions ("..., but nobody
    has confirmed it") does not turn the claim the texts share around.
    """
    words = frozenset().union(*(content_ids(span) for span in other))
    kept = []
    for cue in cues:
        within = next(span for span in spans if span.start <= cue.start and cue.end <= span.end)
        clause = clause_words(cue, within)
        if not clause or clause & words:
            kept.append(cue)
    return kept


def check_polarity(pair: Pair, neighbours: int) -> Optional[Change]:
    """A negation on one side only, in a clause the other text shares (so the rule only ever removes flags)."""
    window = pair.window(neighbours)
    source_cues = pair.source_cues.inside(window, "NEGATION")
    memory_cues = pair.memory_cues.inside([pair.memory], "NEGATION")
    if bool(source_cues) == bool(memory_cues):
        return None
    source_cues = bearing(source_cues, window, [pair.memory])
    memory_cues = bearing(memory_cues, [pair.memory], window)
    if not (source_cues or memory_cues):
        return None
    if source_cues:
        message = f"the source negates this claim ({_quoted(source_cues)}); the memory asserts it"
        cues = evidence(source_cues, "source", pair.lexicon_version)
    else:
        message = f"the memory negates a claim the source asserts ({_quoted(memory_cues)})"
        cues = evidence(memory_cues, "memory", pair.lexicon_version)
    return Change("reversed_polarity", "reversed_polarity", message, excerpt(pair.memory), excerpt(pair.source), cues)


def _value(q: Quantity) -> Dict[str, object]:
    return {"value": q.value, "unit": q.unit, "surface": q.surface, "start_char": q.start_char, "end_char": q.end_char}


def is_time(times: Sequence[Span], quantity: Quantity, span: Span) -> bool:
    """Whether a quantity of ``span`` is a time, not a value: inside one of the TEMPORAL cues ``times`` (a date
    or clock time), or a year: four digits from 1000 to 2100 without a unit, after a word that introduces a
    time ("in 1994", "since 2011", "between 1994 and 2011")."""
    if any(c.start_char < quantity.end_char and quantity.start_char < c.end_char for c in times):
        return True
    if quantity.has_unit or not quantity.value.is_integer() or not 1000 <= quantity.value <= 2100:
        return False
    if str(int(quantity.value)) not in YEAR.findall(quantity.surface):
        return False
    at = quantity.start_char - span.start_char  # reading span.text, never the Doc's (built anew on each call)
    before = re.findall(r"[A-Za-z]+", span.text[max(0, at - 30):at])
    words = quantity.surface.lower().split()[:1] + [w.lower() for w in before[-1:]]
    return any(word in YEAR_WORDS for word in words)


def check_values(pair: Pair, min_source_values: int) -> List[Change]:
    """changed_value, changed_unit and dropped_values; introduced_value as a note.

    Every number is compared (a changed year is a changed value), but numbers
    inside a TEMPORAL cue do not count as the values a conclusion came from,
    and a date the source never had is ``introduced_time``, not a value.
    """
    memory_q = quantities(pair.memory)
    if not memory_q and sum(token.like_num for token in pair.source) < min_source_values:
        return []  # no value to compare and too few to be dropped: quantulum3 need not read the source
    source_q = quantities(pair.source)
    source_times = pair.source_cues.inside([pair.source], "TEMPORAL")
    memory_times = pair.memory_cues.inside([pair.memory], "TEMPORAL")
    source_values = [q for q in source_q if not is_time(source_times, q, pair.source)]
    memory_values = [q for q in memory_q if not is_time(memory_times, q, pair.memory)]
    changes: List[Change] = []
    if len(source_values) >= min_source_values and not memory_values:
        changes.append(Change(
            "dropped_values", "dropped_values",
            f"the source gives the values ({', '.join(q.surface for q in source_values)}); "
            "the memory keeps none of them",
            excerpt(pair.memory), excerpt(pair.source), values={"source": [_value(q) for q in source_values]}))
        return changes
    for q in memory_q:
        same = [s for s in source_q if same_value(s.value, q.value)]
        if not source_q:
            if q in memory_values:
                changes.append(Change("introduced_value", "changed_value",
                                      f"the memory gives {q.surface!r}, which the source sentence never had",
                                      excerpt(pair.memory), excerpt(pair.source), values={"memory": _value(q)}))
        elif not same:
            changes.append(Change(
                "changed_value", "changed_value",
                f"the memory says {q.surface!r}; the source says {', '.join(repr(s.surface) for s in source_q)}",
                excerpt(pair.memory), excerpt(pair.source),
                values={"memory": _value(q), "source": [_value(s) for s in source_q]}))
        elif q.has_unit and all(s.has_unit and s.unit != q.unit for s in same):
            changes.append(Change(
                "changed_unit", "changed_unit",
                f"the memory keeps the value but says {q.unit} ({q.surface!r}) where the source says "
                f"{same[0].unit} ({same[0].surface!r})",
                excerpt(pair.memory), excerpt(pair.source), values={"memory": _value(q), "source": _value(same[0])}))
    return changes


def _is_absolute(cue: Span) -> bool:
    """A date or clock time rather than a relative expression ("this morning", "currently")."""
    return any(token.like_num for token in cue) or cue.id_ in {"temporal:month", "temporal:weekday"}


def check_introduced_time(pair: Pair, neighbours: int) -> Optional[Change]:
    """A date in the memory where the source had none: resolved from a relative expression, or invented."""
    memory_dates = [c for c in pair.memory_cues.inside([pair.memory], "TEMPORAL") if _is_absolute(c)]
    source_cues = pair.source_cues.inside(pair.window(neighbours), "TEMPORAL")
    if not memory_dates or any(_is_absolute(c) for c in source_cues):
        return None
    how = (f"resolved from the relative {_quoted(source_cues)}" if source_cues else "with no time in the source")
    return Change("introduced_time", "dropped_temporal_scope",
                  f"the memory gives the date {_quoted(memory_dates)}, {how}", excerpt(pair.memory),
                  excerpt(pair.source), evidence(memory_dates, "memory", pair.lexicon_version) +
                  evidence(source_cues, "source", pair.lexicon_version),
                  values={"resolved_relative": bool(source_cues)})
