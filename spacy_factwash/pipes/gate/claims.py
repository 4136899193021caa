"""Claims: a Doc's clauses with the qualifiers bound to each (``cues/clauses.py`` does the binding).

A claim is a clause that states something (kind ``claim``) or the condition
another claim holds under (kind ``condition``). It carries

- its content keys: the case-insensitive lookup lemma of every word that is
  not a stop word, punctuation, a number or a speaker (what alignment
  compares; a cue word counts, so "The retention period is 90 days" and
  "Data is retained for 90 days" share "day");
- its qualifiers: the cue spans, by class, that the binding gave it, from
  its own clause or from a frame ("Someone said", "Not sure though.");
- its conditions: the condition clauses its conditional cues open;
- its words: the gate's word-list matches inside it (``words.py``).
"""

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence

from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc, Span, Token

from ...memo import cached
from ...syntax.clauses import CONDITION, FRAME, Clause, DocClauses, TokenView, doc_clauses
from ...syntax.links import source_link
from ...syntax.normalise import Shadow
from ...syntax.text import doc_text
from ..cues.extensions import CUES_KEY, SOURCES_KEY
from .report import Excerpt
from .values.quantities import unit_hashes
from .words import Word

KeyOf = Callable[[Token], int]
FOCUS = 3  # content words after a cue that say what it bears on
DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "its", "their", "his", "her", "our", "my",
                         "your", "any", "some", "each", "every"})
MODALS = frozenset({"may", "might", "could", "can", "should", "would", "will", "must", "shall"})


@dataclass
class Claim:
    """One claim of a Doc and what qualifies it."""

    doc: Doc
    clause: Clause
    index: int
    key_at: Dict[int, int]  # token index -> content key, for the claim's content words
    sentence: Span  # the sentence the claim stands in
    view: TokenView  # the Doc's token attributes, read once per Doc (``DocClauses.view``)
    names: FrozenSet[int] = frozenset()  # the content keys of capitalised words inside the sentence (names)
    qualifiers: Dict[str, List[Span]] = field(default_factory=dict)
    conditions: List["Claim"] = field(default_factory=list)
    words: List[Word] = field(default_factory=list)
    strength: Optional[object] = None  # the claim's strength, once a check has read it (checks/strength.py)

    def __post_init__(self) -> None:
        self.keys: FrozenSet[int] = frozenset(self.key_at.values())

    @property
    def kind(self) -> str:
        return self.clause.kind

    @property
    def pieces(self) -> List[Span]:
        return self.clause.spans(self.doc)

    @cached
    def start_char(self) -> int:
        return self.doc[self.clause.start].idx

    @cached
    def end_char(self) -> int:
        last = self.doc[self.clause.end - 1]
        return last.idx + len(last)

    @cached
    def text(self) -> str:
        """The claim's words, its pieces joined (a frame or clause that interrupts it left out)."""
        return " ... ".join(span_text(piece) for piece in self.pieces)

    @cached
    def signature(self) -> tuple:
        """What makes two claims give the same changes: words, bound qualifiers (by entry) and conditions."""
        qualifiers = tuple(sorted((label, tuple(c.id_ for c in cues)) for label, cues in self.qualifiers.items()))
        return self.wording, qualifiers, tuple(c.wording for c in self.conditions)

    @cached
    def numbers(self) -> FrozenSet[int]:
        """The numbers among the claim's words, by their text's hash ("599", "two"): alignment finds the source
        claims that give the same number through them, however common the claim's other words are."""
        view, at = self.view, self.view.numbers
        return frozenset(view.orth[i] for start, end in self.clause.ranges
                         for i in at[bisect_left(at, start):bisect_left(at, end)])

    @cached
    def wording(self) -> str:
        """The claim's words in lower case, punctuation left out: what makes two claims copies."""
        view, strings = self.view, self.doc.vocab.strings
        return " ".join(strings[view.lower[i]] for i in self.indices() if not (view.punct[i] or view.space[i]))

    def indices(self) -> Iterator[int]:
        """The indices of the claim's tokens, piece by piece."""
        return (i for start, end in self.clause.ranges for i in range(start, end))

    def excerpt(self) -> Excerpt:
        """The claim as evidence: its pieces' words and the offsets of the stretch they cover."""
        return Excerpt(self.text, self.start_char, self.end_char)

    def holds(self, span: Span) -> bool:
        """Whether a span lies inside one of the claim's pieces."""
        return any(start <= span.start and span.end <= end for start, end in self.clause.ranges)

    def tokens(self) -> List[Token]:
        """The claim's tokens, piece by piece (made once per claim: ``Doc.__getitem__`` makes a Token per read)."""
        return self._tokens

    @cached
    def _tokens(self) -> List[Token]:
        return [token for start, end in self.clause.ranges for token in Span(self.doc, start, end)]

    def focus(self, marker: Span, width: int = FOCUS) -> FrozenSet[int]:
        """What a cue inside the claim bears on: the first ``width`` content keys after it (before it when none
        follow), only the noun after it when it modifies that noun ("potential buyers", "the alleged fraudster");
        the whole claim for a cue outside it (a frame's "Someone said", "I don't think")."""
        if not self.holds(marker):
            return self.keys
        if self.attributive(marker):
            width = 1
        after = [key for i, key in sorted(self.key_at.items()) if i >= marker.end][:width]
        before = [key for i, key in sorted(self.key_at.items(), reverse=True) if i < marker.start][:width]
        return frozenset(after or before)

    def attributive(self, marker: Span) -> bool:
        """Whether a one-word marker modifies the noun after it: it opens the claim or follows a determiner or a
        possessive, a content word follows it, and it is no modal verb."""
        if len(marker) != 1 or marker[0].lower_ in MODALS or marker.end not in self.key_at:
            return False
        start = marker.start
        return start == self.clause.start or self.doc[start - 1].lower_ in DETERMINERS or \
            self.doc[start - 1].tag_ == "POS" or self.doc[start - 1].lower_ in ("'s", "’s")

    def bears_on(self, marker: Span, keys: FrozenSet[int]) -> bool:
        """Whether a cue of this claim bears on content the other claim (its ``keys``) shares."""
        focus = self.focus(marker)
        return not focus or bool(focus & keys)

    def words_of(self, label: str) -> List[Word]:
        """The gate words of one kind inside the claim (sorted by kind at the first read: the claims are built
        by then, and the checks read the words of one kind many times)."""
        return self._words_by_label.get(label, [])

    @cached
    def _words_by_label(self) -> Dict[str, List[Word]]:
        by_label: Dict[str, List[Word]] = {}
        for word in self.words:
            by_label.setdefault(word.label, []).append(word)
        return by_label

    def cues(self, label: str) -> List[Span]:
        """The cues of one class bound to the claim."""
        return self.qualifiers.get(label, [])


class LemmaKey:
    """The content key of a token: the id of its lookup lemma read case-insensitively ("PROMOTED" and "promoted"
    both give "promote"), from the pipeline's ``factwash_lemmas`` table; without that table, its lemma
    lower-cased, else its lower-case form. (A class, not a closure, so a gate can be pickled to workers.)"""

    def __init__(self, nlp: Optional[Language]) -> None:
        has_table = nlp is not None and "factwash_lemmas" in nlp.pipe_names
        self.table = nlp.get_pipe("factwash_lemmas").lemma_ids if has_table else None

    def of(self, doc: Doc, i: int, lower: int) -> int:
        """The key of token ``i`` of ``doc`` whose lower-case form has the hash ``lower`` (no Token is made when
        the lemma table is there)."""
        return self.table.get(lower, lower) if self.table is not None else self(doc[i])

    def __call__(self, token: Token) -> int:
        if self.table is not None:
            return self.table.get(token.lower, token.lower)
        if token.lemma:
            lemma = token.lemma_
            return token.lemma if lemma.islower() else token.doc.vocab.strings.add(lemma.lower())
        return token.lower


@dataclass(frozen=True)
class Reading:
    """The Doc as the checks read its words and numbers: itself, or its normalised shadow (zero-width, look-alike
    and full-width characters folded; ``cues/normalise.py``) with the map back to the original."""

    doc: Doc
    shadow: Optional[Shadow] = None

    def span(self, span: Span) -> Span:
        """The stretch of the read Doc that holds an original span."""
        if self.shadow is None:
            return span
        start, end = self.shadow.shadow_offset(span.start_char), self.shadow.shadow_offset(span.end_char)
        return self.doc.char_span(start, end, alignment_mode="expand") or self.doc[0:0]

    def original(self, start_char: int, end_char: int) -> tuple:
        """Original character offsets of a stretch of the read Doc."""
        return (start_char, end_char) if self.shadow is None else self.shadow.original(start_char, end_char)


@dataclass
class DocClaims:
    """A Doc's claims in text order, its clauses, the sentences that hold no claim, and a cache for the checks
    (what they work out once per Doc, such as a sentence's values)."""

    doc: Doc
    claims: List[Claim]
    clauses: DocClauses
    unclaimed: List[Span]  # sentences with words but no claim, whose cues qualify no claim either
    key: KeyOf
    cues: List[Span]
    speakers: List[Span]
    words: List[Word]
    reading: Reading
    by_sentence: Dict[int, List[Claim]] = field(default_factory=dict)
    cache: Dict[str, dict] = field(default_factory=dict)
    evidentials: FrozenSet[str] = frozenset()  # attribution entries that name no speaker ("reportedly")

    def __post_init__(self) -> None:
        for claim in self.claims:
            self.by_sentence.setdefault(claim.clause.sentence, []).append(claim)
        self._speakers: Dict[str, List[Span]] = {}
        for speaker in self.speakers:
            self._speakers.setdefault(speaker.kb_id_, []).append(speaker)
        self._words_at: Dict[int, List[Word]] = {}
        for word in self.words:
            for i in range(word.span.start, word.span.end):
                self._words_at.setdefault(i, []).append(word)

    def sentence_keys(self, sentence: int) -> FrozenSet[str]:
        """The content keys of every claim in a sentence (by index), worked out once per sentence."""
        found = self.cache.setdefault("sentence_keys", {})
        if sentence not in found:
            found[sentence] = frozenset().union(*(c.keys for c in self.by_sentence.get(sentence, [])))
        return found[sentence]

    def __str__(self) -> str:
        """One line per claim a person reads: its kind, offsets and words, the qualifiers bound to it (class and
        words) and the conditions it holds under; texts over 60 characters are cut."""
        def quoted(text: str) -> str:
            return repr(text if len(text) <= 60 else text[:57] + "...")

        lines = [f"{len(self.claims)} claim(s)" + (f", {len(self.unclaimed)} sentence(s) with no claim"
                                                   if self.unclaimed else "")]
        for claim in self.claims:
            qualifiers = ", ".join(f"{label} {quoted(cue.text)}" for label, cues in claim.qualifiers.items()
                                   for cue in cues)
            conditions = ", ".join(f"{c.kind} {c.index}" for c in claim.conditions)
            lines.append(f"  {claim.kind} {claim.index} [{claim.start_char}:{claim.end_char}] {quoted(claim.text)}"
                         + (f"  qualified by {qualifiers}" if qualifiers else "")
                         + (f"  if {conditions}" if conditions else ""))
        return "\n".join(lines)

    def has_numbers(self, sentence: int) -> bool:
        """Whether a sentence (by index) holds a number-like token (worked out once per sentence)."""
        found = self.cache.setdefault("has_numbers", {})
        if sentence not in found:
            sentences = self.clauses.sentence_starts + [len(self.doc)]
            found[sentence] = any(self.clauses.view.number[sentences[sentence]:sentences[sentence + 1]])
        return found[sentence]

    def cues_in(self, span: Span, label: str) -> List[Span]:
        """The cues of one class that start inside a span (the cue group is sorted by start: bisection)."""
        if "cue_starts" not in self.cache:
            self.cache["cue_starts"] = [cue.start for cue in self.cues]
        starts = self.cache["cue_starts"]
        at = bisect_left(starts, span.start)
        found = []
        while at < len(self.cues) and self.cues[at].start < span.end:
            if self.cues[at].label_ == label:
                found.append(self.cues[at])
            at += 1
        return found

    def speakers_of(self, cue: Span) -> List[Span]:
        """The speaker spans an attribution cue names (linked by ``kb_id``)."""
        return self._speakers.get(source_link(cue), [])

    def words_at(self, span: Span, label: str) -> List[Word]:
        """The gate words of one kind that overlap a span (a cue in a frame, outside every claim)."""
        found = {id(w): w for i in range(span.start, span.end) for w in self._words_at.get(i, []) if w.label == label}
        return list(found.values())


def span_text(span: Span) -> str:
    """``span.text``, cut from its Doc's text (joined once per Doc: ``syntax/text.py``) instead of joined anew from
    a Token per word."""
    return doc_text(span.doc)[span.start_char:span.end_char]


def _marked(doc: Doc, spans: Sequence[Span]) -> List[bool]:
    marked = [False] * len(doc)
    for span in spans:
        for i in range(span.start, span.end):
            marked[i] = True
    return marked


def _units(view: TokenView) -> List[bool]:
    """Which tokens of a Doc (its ``view``) are a value's unit ("$", "%", "percent" or "dollars" right after a
    number): part of the value, not of what the claim is about."""
    words, percent, number = unit_hashes(), get_string_id("%"), view.number
    return [currency or lower == percent or (i > 0 and number[i - 1] and lower in words)
            for i, (currency, lower) in enumerate(zip(view.currency, view.lower))]


def build_claims(doc: Doc, key: KeyOf, words: Sequence[Word], reading: Optional[Reading] = None,
                 evidentials: FrozenSet[str] = frozenset()) -> DocClaims:
    """Segment a Doc into claims and bind every cue to the claims it qualifies."""
    cues = list(doc.spans.get(CUES_KEY, []))
    speakers = list(doc.spans.get(SOURCES_KEY, []))
    clauses = doc_clauses(doc, cues, speakers)
    marked = _marked(doc, speakers)  # cue words are content for alignment ("90 days" / "for 90 days"); speakers are not
    valued = _units(clauses.view)
    claims: List[Claim] = []
    by_clause: Dict[tuple, Claim] = {}
    sents = clauses.sentence_spans
    for s, sentence_clauses in enumerate(clauses.sentences):
        for n, clause in enumerate(sentence_clauses):
            if clause.kind == FRAME:
                continue
            view = clauses.view
            key_at = {i: key.of(doc, i, view.lower[i]) for start, end in clause.ranges for i in range(start, end)
                      if view.plain[i] and not marked[i] and not valued[i]}
            named = frozenset(k for i, k in key_at.items() if view.title[i] and i != sents[s].start)
            claim = Claim(doc, clause, len(claims), key_at, sents[s], view, named)
            claims.append(claim)
            by_clause[(s, n)] = claim
    for cue in cues:
        for place in clauses.bind(cue):
            claim = by_clause.get(place)
            if claim is None:
                continue
            claim.qualifiers.setdefault(cue.label_, []).append(cue)
            if cue.label_ == "CONDITIONAL":
                found = clauses.locate(cue.start)
                opened = by_clause.get(found) if found is not None else None
                if opened is not None and opened.kind == CONDITION and opened is not claim:
                    claim.conditions.append(opened)
    _place_words(doc, claims, words)
    claimed = {claim.clause.sentence for claim in claims}
    sentence_cues = {}
    for cue in cues:
        found = clauses.locate(cue.start)
        if found is not None:
            sentence_cues.setdefault(found[0], []).append(cue)
    unclaimed = []
    for s, sentence in enumerate(sents):
        if s in claimed or not clauses.view.any_word(sentence.start, sentence.end):
            continue
        if any(clauses.bind(cue) for cue in sentence_cues.get(s, [])):
            continue
        unclaimed.append(sentence)
    return DocClaims(doc, claims, clauses, unclaimed, key, cues, speakers, list(words), reading or Reading(doc),
                     evidentials=evidentials)


def _place_words(doc: Doc, claims: Sequence[Claim], words: Sequence[Word]) -> None:
    """Give each claim the gate words that lie inside it."""
    owner: List[Optional[Claim]] = [None] * len(doc)
    for claim in claims:
        for start, end in claim.clause.ranges:
            owner[start:end] = [claim] * (end - start)
    for word in words:
        claim = owner[word.span.start]
        if claim is not None and claim.holds(word.span):
            claim.words.append(word)
