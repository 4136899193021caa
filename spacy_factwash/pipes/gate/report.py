"""What the gate reports: typed changes with evidence that points into both texts, and the verdict."""

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

CHANGE_TYPES = (
    "dropped_attribution",
    "strengthened_certainty",
    "reversed_polarity",
    "dropped_condition",
    "dropped_temporal_scope",
    "changed_value",
    "dropped_values",
    "changed_unit",
    "changed_condition",
    "changed_time",
    "changed_source",
    "dropped_approximation",
    "strengthened_causality",
    "broadened",
    "weakened",
    "changed_mood",
    "changed_roles",
    "strengthened_comparison",
    "changed_tense",
)
INFORMATIONAL_TYPES = ("introduced_time", "introduced_value", "moved_value", "ambiguous_unit")
VERDICTS = ("pass", "rewrite", "reject", "uncheckable")


@dataclass(frozen=True)
class Excerpt:
    """A piece of one text: its words and character offsets in that text."""

    text: str
    start_char: int
    end_char: int


@dataclass(frozen=True)
class Cue:
    """A cue (or a gate word: a negative word, an antonym, a bound...) that a change rests on: on which side,
    where, and from which lexicon entry and version."""

    side: str  # "source" or "memory"
    label: str
    text: str
    start_char: int
    end_char: int
    entry: str
    lexicon_version: str


@dataclass(frozen=True)
class Change:
    """One thing the memory did to a claim of the source, with the evidence for it.

    ``memory`` and ``source`` are the sentences; ``memory_claim`` and ``source_claim`` the claims compared
    (their words, and the offsets of the stretch they cover, in their own texts).
    """

    type: str
    check: str
    message: str
    memory: Excerpt
    source: Optional[Excerpt]
    cues: List[Cue] = field(default_factory=list)
    values: Dict[str, Any] = field(default_factory=dict)
    memory_claim: Optional[Excerpt] = None
    source_claim: Optional[Excerpt] = None


@dataclass(frozen=True)
class LanguageFinding:
    """A text of the pair the gate did not read: which side, the language found and the model's probability."""

    side: str  # "source", "memory", or "source and memory" (two short texts read together)
    language: str  # ISO 639 code, as the model gives it ("de", "es", "fr", ...)
    score: float
    sentence: Optional[Excerpt] = None  # the memory sentence read, when one sentence was (offsets in the memory)


@dataclass(frozen=True)
class ReadNote:
    """A stretch of one text the gate read otherwise than it is written, as a person reads it
    (``syntax/reading.py``): which side, what kind (``markup``, ``struck``, ``entity``, ``bidi``, ``control``,
    ``invisible``, ``look-alike``), the stretch as written with its offsets, and what it reads as."""

    side: str  # "source" or "memory"
    kind: str
    text: str
    start_char: int
    end_char: int
    read_as: str


@dataclass
class Report:
    """The gate's answer for one (source, memory) pair."""

    verdict: str
    changes: List[Change]
    uncheckable: List[Excerpt]
    not_checked: List[str]
    lexicon_version: str
    notes: List[Change] = field(default_factory=list)
    empty_memory: bool = False
    memory_sentences: int = 0
    lexicon_digest: str = ""  # sha256 of the lexicon files as loaded: two different lexicons never share it
    not_english: List[LanguageFinding] = field(default_factory=list)  # set: nothing was checked (uncheckable)
    reading: List[ReadNote] = field(default_factory=list)  # what was read otherwise than written, on either side

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-safe dict with every field."""
        return asdict(self)

    def __str__(self) -> str:
        digest = f", {self.lexicon_digest[:19]}" if self.lexicon_digest else ""
        lines = [f"verdict: {self.verdict}  (lexicon {self.lexicon_version}{digest})"]
        for finding in self.not_english:
            verbs = ("are", "read") if " and " in finding.side else ("is", "reads")
            where = f"'s sentence [{finding.sentence.start_char}:{finding.sentence.end_char}] " \
                    f"{finding.sentence.text!r}" if finding.sentence else ""
            lines.append(f"  the {finding.side}{where} {verbs[0]} not English ({verbs[1]} as '{finding.language}', "
                         f"probability {finding.score:.2f}): nothing was checked")
        if self.empty_memory:
            lines.append("  the memory is empty: nothing could be checked")
        for change in self.changes:
            lines.append(f"  {change.type}: {change.message}")
            for side, excerpt in (("memory", change.memory_claim or change.memory),
                                  ("source", change.source_claim or change.source)):
                if excerpt is not None:
                    lines.append(f"    {side} claim [{excerpt.start_char}:{excerpt.end_char}] {excerpt.text!r}")
            for cue in change.cues:
                lines.append(f"    {cue.side} cue {cue.text!r} [{cue.start_char}:{cue.end_char}] {cue.entry}")
        for excerpt in self.uncheckable:
            lines.append(f"  uncheckable: memory [{excerpt.start_char}:{excerpt.end_char}] {excerpt.text!r} "
                         "aligns to no source claim")
        for note in self.notes:
            lines.append(f"  note ({note.type}): {note.message}")
        for read in self.reading:
            lines.append(f"  read ({read.kind}): {read.side} [{read.start_char}:{read.end_char}] {read.text!r} "
                         f"as {read.read_as!r}")
        lines.append(f"  not checked: {', '.join(self.not_checked) or 'nothing'}")
        return "\n".join(lines)
