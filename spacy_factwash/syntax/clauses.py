"""Clauses, and the clause each cue qualifies: what a cue scopes.

A sentence is split into clauses (``segment``). Without a dependency parse
the split is read from punctuation and the words that open a clause
(``clause_words.json`` of the syntax tables: coordinators before a subject or after a comma,
contrastive and subordinating conjunctions, relative pronouns); with a parse
it follows the clausal heads (``parsed_clauses``). A clause is

- a **claim** when it holds a content word that is neither a cue nor a
  speaker ("Alice was promoted", "not the hire");
- a **condition** when it opens with a conditional cue ("if the audit
  fails"): a claim the sentence's main claim depends on;
- a **frame** when everything in it is cue words, a speaker or function
  words ("Someone said", "according to the audit team", "As of Monday",
  "Not sure though").

A claim interrupted by a frame or a relative clause set off by commas
("The budget, Bob said, was cut"; "Bob, who left, leads") is one claim in
two pieces. ``bind`` then gives every cue the clauses it qualifies: the
claim it stands in; for a frame, the claims it introduces or comments on (a
frame before the sentence's claims scopes those that follow, up to a
semicolon or a contrastive conjunction; one after them scopes those before;
one between two claims the claim before it; a sentence that is nothing but
a frame, such as "Not sure though.", the sentences's neighbour before it);
for the conditional cue that opens a condition, the claim the condition
governs. A cue in one clause never qualifies another clause of its own
sentence that it is not bound to.
"""

from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.strings import get_string_id
from spacy.tokens import Doc, Span

from ..lexicon.sets import CLAUSE_WORDS_FILE, SYNTAX
from ..memo import cached
from ..lexicon.tables import table_json
from .token_passes import token_columns
from .links import source_link
from .sentences import sentences

CLAIM, CONDITION, FRAME = "claim", "condition", "frame"
SHORT_ASIDE = 3  # tokens: an aside this short between commas ("in fact", "of course") interrupts a claim
Range = Tuple[int, int]


@dataclass(frozen=True)
class ClauseWords:
    """The word lists of ``clause_words.json``, as string-store hashes of the lower-cased words (so a sentence
    is read from ``Doc.to_array`` without making a Token per word), and back from hash to word."""

    breaks: FrozenSet[int]
    hard: FrozenSet[int]
    coordinators: FrozenSet[int]
    contrastive: FrozenSet[int]
    subordinators: FrozenSet[int]
    relatives: FrozenSet[int]
    subjects: FrozenSet[int]
    consequence: FrozenSet[int]
    auxiliaries: FrozenSet[int]
    after_comma: FrozenSet[int]
    prepositions: FrozenSet[int]
    pro_forms: FrozenSet[int]
    determiners: FrozenSet[int]
    quotes: FrozenSet[int]
    function: FrozenSet[int]  # spaCy's stop words but those in content_in_stop_list
    word: Dict[int, str]
    comma: int = get_string_id(",")

    @cached
    def openers(self) -> FrozenSet[int]:
        """Every word that can open a clause (alone or as the first of two words): no other word does."""
        return (self.contrastive | self.relatives | self.subordinators | self.coordinators | self.after_comma
                | VERBAL_OPENERS | {get_string_id(first) for first, _ in TWO_WORD_OPENERS})

    def pair(self, first: int, second: int) -> str:
        """A two-word opener ("even if", "only if") starting with these words, or ""."""
        words = (self.word.get(first), self.word.get(second))
        return f"{words[0]} {words[1]}" if words in TWO_WORD_OPENERS else ""


NEGATORS = frozenset(get_string_id(w) for w in ("not", "n't", "never", "no"))
ONCE = get_string_id("once")  # "not once": a negation of frequency, not a clause
THAT = get_string_id("that")
# subordinators that are verb forms too: they open a clause at its start, after a comma or before "that" ("provided
# that you pay", ", providing you pay"), not after a subject ("Capital One provided earnings")
VERBAL_OPENERS = frozenset(get_string_id(w) for w in ("provided", "providing"))
TWO_WORD_OPENERS = frozenset({("even", "if"), ("even", "though"), ("even", "when"), ("even", "unless"),
                              ("only", "if"), ("only", "when"), ("only", "unless")})
KEYS = ("break_punctuation", "hard_punctuation", "coordinators", "contrastive", "subordinators", "relatives",
        "clause_subjects", "consequence", "auxiliaries", "after_comma", "prepositions", "pro_forms",
        "determiners_before_noun_use", "quote_marks")


@lru_cache(maxsize=1)
def clause_words() -> ClauseWords:
    """The clause-opening word lists of the syntax tables this process reads (``lexicon/tables.py``), read once."""
    data = table_json(SYNTAX.name, CLAUSE_WORDS_FILE)
    every = [w for key in KEYS for w in data[key]] + [w for pair in TWO_WORD_OPENERS for w in pair]
    function = frozenset(get_string_id(w) for w in STOP_WORDS - set(data["content_in_stop_list"]))
    return ClauseWords(*(frozenset(get_string_id(w) for w in data[key]) for key in KEYS), function,
                       {get_string_id(w): w for w in every})


@dataclass(frozen=True)
class TokenView:
    """What segmenting reads of every token, taken from the Doc in one array: the word (exact and lower-cased,
    as hashes), whether it is punctuation, a number, title-cased or a space, whether it can be a content word (not
    a function word, punctuation, a space or a number), and,
    when the Doc has a dependency parse, whether it heads a clause of its own (a verb with a subject:
    "..., and Bob left early") or coordinates one (the "and" before it); and, for the gate's claims (read in the
    same array), whether it is alphabetic or a currency sign."""

    orth: List[int]
    lower: List[int]
    punct: List[bool]
    plain: List[bool]
    number: List[bool]
    title: List[bool] = field(default_factory=list)
    finite: FrozenSet[int] = frozenset()
    joins_clause: FrozenSet[int] = frozenset()
    space: List[bool] = field(default_factory=list)
    alpha: List[bool] = field(default_factory=list)
    currency: List[bool] = field(default_factory=list)

    @classmethod
    def of(cls, doc: Doc) -> "TokenView":
        """The view of a Doc's tokens (read in one pass over them: ``token_passes.token_columns``; the parse's clause heads
        when it has one)."""
        orth, lower, punct, plain, number, title, space, alpha, currency = token_columns(doc, clause_words().function)
        finite, joins = _clauses_from_parse(doc) if doc.has_annotation("DEP") else (frozenset(), frozenset())
        return cls(orth, lower, punct, plain, number, title, finite, joins, space, alpha, currency)

    @cached
    def numbers(self) -> List[int]:
        """The indices of the number-like tokens, in order (most Docs have few or none; a claim finds its own by
        bisection)."""
        return [i for i, number in enumerate(self.number) if number]

    def any_word(self, start: int, end: int) -> bool:
        """Whether a token range holds a word or a number (an alphabetic or number-like token)."""
        return any(self.alpha[i] or self.number[i] for i in range(start, end))


SUBJECTS = frozenset({"nsubj", "csubj", "expl"})  # UD subject relations (subtypes such as nsubj:pass included)


def _clauses_from_parse(doc: Doc) -> Tuple[FrozenSet[int], FrozenSet[int]]:
    """From a dependency parse: the tokens that have a subject (a clause's head), and the coordinators ("cc")
    whose conjunct is such a head."""
    finite = frozenset(token.head.i for token in doc if token.dep_.split(":", 1)[0] in SUBJECTS)
    joins = frozenset(token.i for token in doc if token.dep_ == "cc" and token.head.i in finite)
    return finite, joins


@dataclass(frozen=True)
class Clause:
    """A clause: its token ranges (two when a frame or relative clause interrupts it), kind and sentence."""

    ranges: Tuple[Range, ...]
    kind: str
    sentence: int
    opener: str = ""  # the clause-opening word it starts with, lower case ("if", "and", "which"), if any
    hard_before: bool = False  # a semicolon, colon, dash, bracket or contrastive word separates it from the clause before

    @property
    def start(self) -> int:
        return self.ranges[0][0]

    @property
    def end(self) -> int:
        return self.ranges[-1][1]

    def holds(self, token_index: int) -> bool:
        """Whether a token lies in one of the clause's ranges."""
        return any(start <= token_index < end for start, end in self.ranges)

    def spans(self, doc: Doc) -> List[Span]:
        """The clause's pieces as spans of ``doc``."""
        return [Span(doc, start, end) for start, end in self.ranges]


@dataclass
class _Piece:
    start: int
    end: int
    opener: str
    separator: int  # the hash of the punctuation before it (0 when none)
    hard_before: bool


def _opener(view: TokenView, i: int, end: int, words: ClauseWords, after_comma: bool) -> str:
    """The clause-opening word at token ``i``, or "" when the token does not open a clause."""
    lower = view.lower[i]
    following = view.lower[i + 1] if i + 1 < end else 0
    if i > 0 and (view.lower[i - 1] in words.determiners or ((lower in words.contrastive or lower == ONCE)
                                                             and view.lower[i - 1] in NEGATORS)):
        return ""  # "a while back", "not yet final": a noun, or the negation's, not a new clause
    if lower in VERBAL_OPENERS and not (after_comma or following == THAT):
        return ""  # "Capital One provided earnings": the verb, not "provided (that)"
    if lower in words.contrastive or lower in words.relatives or lower in words.subordinators:
        return words.word[lower]
    if following and words.pair(lower, following):
        return words.pair(lower, following)
    if lower in words.coordinators and (following in words.subjects or i in view.joins_clause):
        return words.word[lower]  # "and they left" ("and Bob left", with a parse); else it is _opens_clause's
    if after_comma and lower in words.after_comma:
        return words.word[lower]
    return ""


def _pieces(view: TokenView, start: int, end: int, words: ClauseWords) -> List[_Piece]:
    """The sentence cut at clause-breaking punctuation and clause-opening words (punctuation left out)."""
    pieces: List[_Piece] = []
    current: Optional[_Piece] = None
    separator = 0
    opened_until = start  # the tokens of a two-word opener ("even if") open one clause
    for i in range(start, end):
        orth = view.orth[i]
        if orth in words.breaks or (view.punct[i] and orth in words.hard):
            if current is not None:
                pieces.append(current)
                current = None
            separator = orth if not separator or orth in words.hard else separator
            continue
        opener = "" if i < opened_until or view.lower[i] not in words.openers else \
            _opener(view, i, end, words, separator == words.comma or current is None)
        if opener:
            opened_until = max(opened_until, i + len(opener.split()))
        if opener and current is not None and i > current.start:
            pieces.append(current)
            current = None
        if current is None:
            hard = separator in words.hard or get_string_id(opener) in words.contrastive
            current = _Piece(i, i + 1, opener, separator, hard)
            separator = 0
        else:
            current.end = i + 1
    if current is not None:
        pieces.append(current)
    return pieces


@dataclass
class _Unit:
    ranges: List[Range]
    kind: str
    opener: str
    separator: int
    hard_before: bool

    @property
    def start(self) -> int:
        return self.ranges[0][0]


def _kind(piece: _Piece, content: Sequence[bool], conditions: FrozenSet[int]) -> str:
    """A piece's kind: a condition where a conditional cue opens it, a claim where it holds a content word
    (``content``), else a frame ("Bob said")."""
    if piece.start in conditions or (piece.start + 1 < piece.end and piece.start + 1 in conditions):
        return CONDITION
    return CLAIM if any(content[piece.start:piece.end]) else FRAME


def _interrupts(units: Sequence[_Unit], n: int, words: ClauseWords) -> bool:
    """Whether unit n + 1 interrupts one claim (units n and n + 2) between commas, dashes or brackets: a frame
    ("The budget, Bob said, was cut"), a relative clause ("Bob, who left, leads") or a short aside ("Alice did
    not, in fact, get the job")."""
    left, middle, right = units[n:n + 3]
    short = not middle.opener and middle.ranges[0][1] - middle.ranges[0][0] <= SHORT_ASIDE
    aside = middle.kind == FRAME or get_string_id(middle.opener) in words.relatives or short
    return (left.kind == CLAIM and right.kind == CLAIM and not right.opener and aside and bool(middle.separator)
            and bool(right.separator))


def _opens_clause(view: TokenView, unit: _Unit, words: ClauseWords) -> bool:
    """Whether what follows a comma is a clause of its own: an opener, a frame, or words holding an auxiliary,
    a modal or (with a parse) a verb with its subject (", the weather may turn", ", and the canteen opens");
    else it is a list item or an apposition of the claim before (", project management suite", ", and access
    to insights")."""
    if unit.opener or unit.kind != CLAIM or unit.separator != words.comma:
        return True
    return any(view.lower[i] in words.auxiliaries or i in view.finite
               for start, end in unit.ranges for i in range(start, end))


def _soft_merge(view: TokenView, units: Sequence[_Unit], words: ClauseWords) -> List[_Unit]:
    """Units after a comma that do not open a clause (list items, appositions: ", project management suite")
    joined to the claim before them; never to a frame or a relative clause, which a comma closes."""
    merged: List[_Unit] = []
    for unit in units:
        previous = merged[-1] if merged else None
        if (previous is not None and previous.kind == CLAIM and get_string_id(previous.opener) not in words.relatives
                and not _opens_clause(view, unit, words)):
            previous.ranges[-1] = (previous.ranges[-1][0], unit.ranges[0][1])
        else:
            merged.append(unit)
    return merged


def _leading_phrase(view: TokenView, units: List[_Unit], words: ClauseWords) -> List[_Unit]:
    """A prepositional phrase before the sentence's first clause ("By signing up within ten days, businesses
    get ...") joined to that clause."""
    if (len(units) > 1 and units[0].kind == CLAIM and units[1].kind == CLAIM and not units[1].opener
            and units[1].separator == words.comma and view.lower[units[0].start] in words.prepositions
            and not _opens_clause(view, _Unit(units[0].ranges, CLAIM, "", words.comma, False), words)):
        first, second = units[:2]
        return [_Unit([(first.start, second.ranges[0][1])] + second.ranges[1:], CLAIM, first.opener,
                      first.separator, first.hard_before)] + units[2:]
    return units


def _join_interrupted(units: List[_Unit], words: ClauseWords) -> List[_Unit]:
    """A claim interrupted by a frame, a relative clause or a short aside made one claim in two pieces."""
    joined: List[_Unit] = []
    n = 0
    while n < len(units):
        if n + 2 < len(units) and _interrupts(units, n, words):
            left, middle, right = units[n:n + 3]
            left.ranges += right.ranges
            if get_string_id(middle.opener) not in words.relatives:
                middle.kind = FRAME  # a short aside ("in fact", "one would imagine") comments on the claim
            joined += [left, middle]
            n += 3
        else:
            joined.append(units[n])
            n += 1
    return joined


def segment(view: TokenView, sentence: Span, index: int, content: Sequence[bool],
            conditions: FrozenSet[int] = frozenset()) -> List[Clause]:
    """The clauses of one sentence. ``content[i]`` says token i is a word that is not a cue, a speaker, a function
    word, punctuation or a number; ``conditions`` holds the first token of every conditional cue."""
    words = clause_words()
    units = [_Unit([(p.start, p.end)], _kind(p, content, conditions), p.opener, p.separator, p.hard_before)
             for p in _pieces(view, sentence.start, sentence.end, words)]
    units = _join_interrupted(_leading_phrase(view, _soft_merge(view, units, words), words), words)
    clauses = [Clause(tuple(u.ranges), u.kind, index, u.opener, u.hard_before) for u in units]
    return sorted(clauses, key=lambda clause: clause.start)


def _breaks_before(clause: Clause) -> bool:
    """Whether a semicolon, colon, dash, bracket or contrastive word separates a clause from the one before it."""
    return clause.hard_before or get_string_id(clause.opener) in clause_words().contrastive


class Nearest:
    """For each clause of one sentence, the nearest claim (and the nearest claim or condition) before and after
    it: worked out in two passes, so binding every cue of a long sentence stays linear."""

    def __init__(self, clauses: Sequence[Clause]) -> None:
        self.claim_before = self._pass(clauses, range(len(clauses)), (CLAIM,))
        self.claim_after = self._pass(clauses, range(len(clauses) - 1, -1, -1), (CLAIM,))
        self.statement_after = self._pass(clauses, range(len(clauses) - 1, -1, -1), (CLAIM, CONDITION))

    @staticmethod
    def _pass(clauses: Sequence[Clause], order, kinds) -> List[Optional[int]]:
        nearest: List[Optional[int]] = [None] * len(clauses)
        seen: Optional[int] = None
        for n in order:
            nearest[n] = seen
            if clauses[n].kind in kinds:
                seen = n
        return nearest


def _bound_frame(clauses: Sequence[Clause], nearest: Nearest, at: int) -> List[int]:
    """The claims (indices into one sentence's ``clauses``) that the frame at ``at`` qualifies; conditions are
    qualified through the claim they govern, never on their own.

    A frame before every claim of the sentence scopes the claims that follow, up to a break or the next frame;
    one after them, the claims before it back to a break or a frame; one between claims, the claim after it when
    it opens with a coordinator or after a break ("..., and Bob said the hire is off"), else the claim before it
    (a parenthetical: "..., Bob said, ...").
    """
    frame = clauses[at]
    previous, following = nearest.claim_before[at], nearest.claim_after[at]
    introduces = get_string_id(frame.opener) in clause_words().coordinators or _breaks_before(frame)
    if following is not None and (previous is None or introduces):
        bound, n = [following], following + 1
        while n < len(clauses) and clauses[n].kind != FRAME and not _breaks_before(clauses[n]):
            if clauses[n].kind == CLAIM:
                bound.append(n)
            n += 1
        return bound
    if following is not None:
        return [previous]
    bound, n = [], at - 1
    while n >= 0 and clauses[n].kind != FRAME:
        if clauses[n].kind == CLAIM:
            bound.append(n)
        if _breaks_before(clauses[n]):
            break
        n -= 1
    return sorted(bound)


def _condition_governs(nearest: Nearest, at: int) -> List[int]:
    """The claim a condition clause governs: the next claim for a condition that comes first, else the one before."""
    previous, following = nearest.claim_before[at], nearest.claim_after[at]
    if previous is None and following is not None:
        return [following]
    return [previous] if previous is not None else []


@dataclass
class DocClauses:
    """Every sentence's clauses, and the way from a token to its sentence and clause."""

    sentences: List[List[Clause]]
    sentence_starts: List[int]
    view: TokenView
    sentence_spans: List[Span] = field(default_factory=list)  # the Doc's sentences, read once (``sentences.py``)
    _owners: Dict[int, Dict[int, int]] = field(default_factory=dict, repr=False)
    _nearest: Dict[int, Nearest] = field(default_factory=dict, repr=False)

    def nearest(self, s: int) -> Nearest:
        """The nearest claims around each clause of sentence ``s`` (worked out once per sentence)."""
        if s not in self._nearest:
            self._nearest[s] = Nearest(self.sentences[s])
        return self._nearest[s]

    def locate(self, token_index: int) -> Optional[Tuple[int, int]]:
        """The (sentence, clause) holding a token, or None (punctuation between clauses)."""
        s = bisect_right(self.sentence_starts, token_index) - 1
        if s < 0:
            return None
        if s not in self._owners:  # token -> clause, worked out once per sentence
            self._owners[s] = {i: n for n, clause in enumerate(self.sentences[s])
                               for start, end in clause.ranges for i in range(start, end)}
        n = self._owners[s].get(token_index)
        return None if n is None else (s, n)

    def bind(self, cue: Span) -> List[Tuple[int, int]]:
        """The (sentence, clause) pairs a cue qualifies."""
        found = self.locate(cue.start)
        if found is None:
            return []
        s, at = found
        clauses, nearest = self.sentences[s], self.nearest(s)
        clause = clauses[at]
        if clause.kind == CONDITION and cue.label_ == "CONDITIONAL" and cue.start < clause.start + 2:
            return [(s, n) for n in _condition_governs(nearest, at)] + self._continued(s + 1)
        quoted = self._quoted_after(s, at, cue) if cue.label_ == "ATTRIBUTION" else []
        if clause.kind != FRAME:
            return [(s, at)] + (self._comment(s) if cue.label_ == "ATTRIBUTION" and self._reports_back(cue) else quoted)
        if quoted:
            return quoted  # "when she said, “...”": the frame reports the quotation
        if cue.label_ == "NEGATION" and nearest.statement_after[at] is None:
            return []  # a negation in a comment after the claim ("..., but nobody has confirmed it") negates the comment
        if nearest.claim_after[at] is not None or nearest.claim_before[at] is not None:
            return [(s, n) for n in _bound_frame(clauses, nearest, at)]
        return self._comment(s)

    def _reports_back(self, cue: Span) -> bool:
        """Whether a reporting verb reports what came before through a pro-form ("Bob said so in a meeting.")."""
        words, view, end = clause_words(), self.view, cue.end
        if end >= len(view.lower) or view.lower[end] not in words.pro_forms:
            return False
        after = end + 1
        return after >= len(view.lower) or view.punct[after] or view.lower[after] in words.prepositions

    def _quoted_after(self, s: int, at: int, cue: Span) -> List[Tuple[int, int]]:
        """The claims of a quotation a reporting verb ends its clause on ("she said, “I know that ...”"): the
        clauses from one opening with a quote mark up to the sentence's end."""
        clauses, view = self.sentences[s], self.view
        if at + 1 >= len(clauses) or cue.end < clauses[at].end - 1:
            return []
        start = clauses[at + 1].start
        if not any(view.orth[i] in clause_words().quotes for i in range(max(start - 2, 0), start + 1)):
            return []
        return [(s, n) for n in range(at + 1, len(clauses)) if clauses[n].kind == CLAIM]

    def _continued(self, s: int) -> List[Tuple[int, int]]:
        """The claims of sentence ``s`` that continue a condition of the sentence before by a consequence word
        ("If the audit passes, we proceed. Access is *then* granted.")."""
        if s >= len(self.sentences):
            return []
        words = clause_words().consequence
        return [(s, n) for n, clause in enumerate(self.sentences[s]) if clause.kind == CLAIM
                and any(self.view.lower[i] in words for start, end in clause.ranges for i in range(start, end))]

    def _comment(self, s: int) -> List[Tuple[int, int]]:
        """A sentence that is only a frame ("Not sure though.") qualifies the claims of the sentence before it
        (or, when it comes first, of the sentence after it)."""
        for neighbour in (s - 1, s + 1):
            if 0 <= neighbour < len(self.sentences):
                claims = [(neighbour, n) for n, c in enumerate(self.sentences[neighbour]) if c.kind != FRAME]
                if claims:
                    return claims
        return []


def doc_clauses(doc: Doc, cues: Sequence[Span], speakers: Sequence[Span],
                only: Optional[FrozenSet[int]] = None) -> DocClauses:
    """Segment a Doc's sentences into clauses (those in ``only``, by index, when given; the others are left
    empty), reading which tokens are cue or speaker words from ``cues`` and ``speakers``."""
    marked = [False] * len(doc)
    for span in list(cues) + list(speakers):
        for i in range(span.start, span.end):
            marked[i] = True
    conditions = frozenset(cue.start for cue in cues if cue.label_ == "CONDITIONAL")
    sents = sentences(doc)
    view = TokenView.of(doc)
    content = [plain and not mark for plain, mark in zip(view.plain, marked)]
    clauses = [segment(view, sent, n, content, conditions) if only is None or n in only else []
               for n, sent in enumerate(sents)]
    return DocClauses(clauses, [sent.start for sent in sents], view, sents)


def scope_spans(doc: Doc, cues: Sequence[Span], speakers: Sequence[Span]) -> List[Span]:
    """For every cue, the clauses it qualifies as spans, sorted by start: label the cue's class, ``kb_id`` the
    cue's link (``cue:START-END``), ``id`` the cue's lexicon entry.

    Only the sentences holding a cue, and their neighbours (a comment sentence reaches one sentence back or
    forward), are segmented, so a long Doc with few cues costs little.
    """
    if not cues:
        return []
    starts = [sent.start for sent in sentences(doc)]
    holding = {bisect_right(starts, cue.start) - 1 for cue in cues}
    nearby = frozenset(n + step for n in holding for step in (-1, 0, 1))
    clauses = doc_clauses(doc, cues, speakers, nearby)
    scopes = []
    for cue in cues:
        link = source_link(cue)
        for s, n in clauses.bind(cue):
            for start, end in clauses.sentences[s][n].ranges:
                scopes.append(Span(doc, start, end, label=cue.label_, kb_id=link, span_id=cue.id_))
    return sorted(scopes, key=lambda scope: (scope.start, scope.end))
