"""What every check shares: the aligned pair, and evidence that points into both texts."""

from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from spacy.tokens import Span

from ..claims import Claim, DocClaims, span_text
from ..records import ClaimRecord, Part, record_of
from ..report import Change, Cue, Excerpt
from ..words import Word


@dataclass
class Pair:
    """A memory claim, the source claim it aligned to, and what the checks need around them."""

    memory: Claim
    source: Claim
    lexicon_version: str
    words_version: str
    source_claims: DocClaims
    memory_claims: DocClaims
    # memory claims by the index of the source claim they aligned to, and source claims by the index of the
    # memory claim aligned to them, for the checks that look across claims
    aligned_to: Dict[int, List[Claim]] = field(default_factory=dict)
    aligned_from: Dict[int, Sequence[Claim]] = field(default_factory=dict)
    min_source_values: int = 2
    # every source claim the memory claim aligned to (tied for best); ``source`` is one of them
    candidates: Sequence[Claim] = ()
    # the attribution entries that never name a speaker ("reportedly", "is expected"): evidentials
    evidentials: FrozenSet[str] = frozenset()

    def change(self, change_type: str, message: str, cues: Sequence[Cue] = (),
               values: Optional[Dict[str, Any]] = None, check: Optional[str] = None) -> Change:
        """A change on this pair, with both sentences and both claims as evidence."""
        return Change(change_type, check or change_type, message, excerpt(self.memory.sentence),
                      excerpt(self.source.sentence), list(cues), values or {}, self.memory.excerpt(),
                      self.source.excerpt())

    def cue_evidence(self, cues: Sequence[Span], side: str) -> List[Cue]:
        """Cue spans as evidence, with the cue lexicon's entry and version."""
        return [Cue(side, c.label_, span_text(c), c.start_char, c.end_char, c.id_, self.lexicon_version) for c in cues]

    def both_cue_evidence(self, source_cues: Sequence[Span], memory_cues: Sequence[Span]) -> List[Cue]:
        """Cue spans of the source claim and of the memory claim as evidence, source first."""
        return self.cue_evidence(source_cues, "source") + self.cue_evidence(memory_cues, "memory")

    def records(self) -> Tuple["ClaimRecord", "ClaimRecord"]:
        """The source claim's record and the memory claim's (``records.py``), each read once per claim."""
        return record_of(self.source_claims, self.source), record_of(self.memory_claims, self.memory)

    def part_evidence(self, parts: Sequence["Part"], side: str) -> List[Cue]:
        """Record parts as evidence: their gate words with entry and version, or, for a part read from structure
        (a question mark, word order, a fronted phrase), its words under the entry ``structure:<kind>``."""
        found: List[Cue] = []
        for part in parts:
            if part.words:
                found += self.word_evidence(part.words, side)
            else:
                found += [Cue(side, part.kind.upper(), span_text(s), s.start_char, s.end_char, f"structure:{part.kind}",
                              self.words_version) for s in part.spans]
        return found

    def word_evidence(self, words: Sequence[Word], side: str) -> List[Cue]:
        """Gate words as evidence, with the gate word lists' entry and version."""
        return [Cue(side, w.label, span_text(w.span), w.span.start_char, w.span.end_char, w.entry.id,
                    self.words_version) for w in words]


def excerpt(span: Span) -> Excerpt:
    """A span as evidence: its text and character offsets in its Doc."""
    return Excerpt(span_text(span), span.start_char, span.end_char)


def quoted(spans: Sequence[Span]) -> str:
    """Spans' words for a message: 'said', 'might'."""
    return ", ".join(repr(span_text(span)) for span in spans)
