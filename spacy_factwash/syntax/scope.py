"""A cue's scope inside the clauses it is bound to: which of their tokens it qualifies.

``clauses.py`` binds each cue to whole clauses; here the scope is narrowed
inside them, never widened, by the convention of one of the two corpora that
annotate scope (``style``):

- ``"bioscope"`` (BioScope): the scope starts at the cue and runs to the end
  of its clause, except that it takes in the subject of a passive or raising
  predicate ("X was *not* detected", "X *appears* to"), that a coordinator
  scopes the words it joins ("low *or* negative"), that a contrast scopes its
  phrase ("A, but *not* B, binds") and that "since" and "because" end it;
- ``"cdsco"`` (*SEM 2012 CD-SCO): the scope is the negated clause with its
  subject, without the words that open it ("but", "that"), an interjection
  or vocative at its edges ("Well, ...", "..., sir"), or, for "without",
  anything but its object.

Without a dependency parse the rules read words and punctuation only
(``scope_words.json`` of the syntax tables). With one (``doc.has_annotation("DEP")``, any spaCy
pipeline with a parser) they read the cue's head instead: the subject of a
passive or raising head, a modifier's phrase (its head noun's subtree), and
for CD-SCO the subtree of the clause a negated argument ("*no* chance",
"*nothing*") belongs to. Every rule and word list was chosen on the
corpora's dev halves (``evaluation/scope.py`` scores them).
"""

from functools import lru_cache
from typing import Callable, Dict, FrozenSet, List, Sequence, Tuple

from spacy.tokens import Doc, Span, Token

from ..lexicon.sets import SCOPE_WORDS_FILE, SYNTAX
from ..lexicon.tables import table_json
from .clauses import scope_spans
from .links import source_link

STYLES = ("bioscope", "cdsco")
SHORT = 3  # tokens: an interjection or vocative set off by a comma ("Well,", ", Mr. Holmes") is at most this long
Range = Tuple[int, int]
# dependency labels (Universal Dependencies, as spaCy's English parsers give them)
FUNCTION_DEPS = frozenset({"advmod", "aux", "aux:pass", "det", "cc", "cc:preconj", "mark", "case", "neg", "cop",
                           "discourse", "fixed", "compound:prt", "det:predet", "nmod:poss", "amod"})
SUBJECT_DEPS = frozenset({"nsubj", "nsubj:pass", "csubj", "csubj:pass", "expl", "expl:pass", "nsubj:outer"})
ARGUMENT_DEPS = frozenset({"obj", "iobj", "obl", "nsubj", "nsubj:pass", "expl"})
PHRASE_DEPS = frozenset({"amod", "case"})  # a cue that modifies a noun scopes the noun's phrase ("putative site")
ASIDE_DEPS = frozenset({"vocative", "parataxis", "discourse", "punct"})  # never in a CD-SCO scope
OUTER_DEPS = frozenset({"mark", "cc", "discourse", "vocative", "punct", "case"})  # before the cue: outside it
FRONTED_DEPS = frozenset({"advmod", "obl"})  # before the subject ("Even now we have no case"): outside it


@lru_cache(maxsize=1)
def scope_words() -> Dict[str, FrozenSet[str]]:
    """The word lists of ``scope_words.json`` (the syntax tables this process reads), read once."""
    data = table_json(SYNTAX.name, SCOPE_WORDS_FILE)
    return {key: frozenset(value) for key, value in data.items() if not key.startswith("_")}


def _ranges(tokens) -> List[Range]:
    """Token indices as sorted, maximal contiguous ranges."""
    ranges: List[Range] = []
    for i in sorted(set(tokens)):
        if ranges and ranges[-1][1] == i:
            ranges[-1] = (ranges[-1][0], i + 1)
        else:
            ranges.append((i, i + 1))
    return ranges


def _trim(doc: Doc, tokens: List[int]) -> List[int]:
    """Without punctuation at the end."""
    while tokens and doc[tokens[-1]].is_punct:
        tokens = tokens[:-1]
    return tokens


def _before(doc: Doc, cue: Span) -> str:
    return doc[cue.start - 1].lower_ if cue.start > 0 else ""


# -- without a parse ------------------------------------------------------------------------------


def _is_participle(word: str) -> bool:
    lower = word.lower()
    return lower.endswith("ed") or lower in scope_words()["participles"]


def _takes_subject(doc: Doc, cue: Span) -> bool:
    """Whether the cue's predicate takes its subject into a BioScope scope: a raising verb ("X *appears* to"),
    a passive cue ("X is *thought* to") or a negated passive ("X was *not* detected")."""
    words = scope_words()
    after = doc[cue.end].text if cue.end < len(doc) else ""
    if cue[0].lower_ in words["raising"]:
        return True
    if _before(doc, cue) not in words["be"]:
        return False
    return _is_participle(after) if cue.label_ == "NEGATION" else _is_participle(cue[-1].text)


def _subject_start(doc: Doc, cue: Span, piece: Range) -> int:
    """Where the subject before a cue starts: after the last comma, semicolon or colon before it in its piece,
    and after the words that open the clause (but a relative pronoun that is the subject stays)."""
    words = scope_words()
    start = next((i + 1 for i in range(cue.start - 1, piece[0] - 1, -1) if doc[i].text in (",", ";", ":")),
                 piece[0])
    while (start < cue.start and doc[start].lower_ in words["openers"]
           and doc[start].lower_ not in words["relative_subjects"]):
        start += 1
    return start


def _bioscope_end(doc: Doc, cue: Span, tokens: List[int]) -> List[int]:
    """A BioScope scope's end: the clause's, or earlier at the comma closing a contrast ("A, but *not* B, binds")
    or at a subordinator that opens a reason ("not surprising *since* ...")."""
    words = scope_words()
    if cue.label_ == "NEGATION" and _before(doc, cue) in words["contrast"]:
        comma = next((n for n, i in enumerate(tokens) if i > cue.start and doc[i].text == ","), None)
        tokens = tokens if comma is None else tokens[:comma]
    stop = next((n for n, i in enumerate(tokens) if i >= cue.end and doc[i].lower_ in words["boundaries"]), None)
    return _trim(doc, tokens if stop is None else tokens[:stop])


def _bioscope(doc: Doc, cue: Span, pieces: Sequence[Range]) -> List[int]:
    """From the cue (or its subject) to the end of its clause, a coordinator's two words, or a contrast's phrase."""
    piece = next((p for p in pieces if p[0] <= cue.start < p[1]), None)
    if piece is None:  # a frame bound to another clause ("These data suggest | that ..."): all of it
        return [i for s, e in pieces for i in range(s, e)]
    if cue.text.lower() in scope_words()["coordinators"] and piece[0] < cue.start and cue.end < piece[1]:
        return list(range(cue.start - 1, cue.end + 1))
    start = _subject_start(doc, cue, piece) if _takes_subject(doc, cue) else cue.start
    return _bioscope_end(doc, cue, [i for s, e in pieces for i in range(max(s, start), e)])


def _cdsco(doc: Doc, cue: Span, pieces: Sequence[Range]) -> List[int]:
    """The clause from the subject after its last complementizer, without an interjection, openers or a
    vocative; a preposition's object alone."""
    words = scope_words()
    tokens = [i for s, e in pieces for i in range(s, e)]
    that = [n for n, i in enumerate(tokens) if i < cue.start - 1 and doc[i].lower_ in words["complementizers"]]
    tokens = tokens[that[-1] + 1:] if that else tokens
    comma = next((n for n, i in enumerate(tokens) if i < cue.start and doc[i].text == ","), None)
    if comma is not None and comma <= SHORT:  # "Well, I do not know"
        tokens = tokens[comma + 1:]
    while tokens and tokens[0] < cue.start and doc[tokens[0]].lower_ in words["openers"]:
        tokens = tokens[1:]
    if cue[0].lower_ in words["prepositions"]:
        tokens = [i for i in tokens if i >= cue.end]
    commas = [n for n, i in enumerate(tokens) if i >= cue.end and doc[i].text == ","]
    if commas and len([i for i in tokens[commas[-1]:] if not doc[i].is_punct]) <= SHORT:  # "..., sir."
        tokens = tokens[:commas[-1]]
    return _trim(doc, tokens)


# -- with a parse ---------------------------------------------------------------------------------


def _head_of(cue: Span) -> Token:
    """The cue's syntactic head: its token whose head lies outside it."""
    return next((t for t in cue if not cue.start <= t.head.i < cue.end or t.head.i == t.i), cue[0])


def _anchor(cue: Span, style: str) -> Token:
    """The token whose subtree holds the scope: the head a function word or modifier qualifies ("not" -> its
    verb, "putative" -> its noun, "or" -> the first conjunct, "no" -> its noun, or the noun's verb when the noun
    is a subject); for CD-SCO, the verb of a negated argument ("had *no* chance", "knew *nothing*")."""
    token = _head_of(cue)
    anchor = token
    if token.dep_ in FUNCTION_DEPS and token.head.i != token.i:
        anchor = token.head
        if token.dep_ in ("cc", "cc:preconj") and anchor.dep_ == "conj":
            anchor = anchor.head
        if token.dep_ == "det" and anchor.dep_ in SUBJECT_DEPS and anchor.head.i != anchor.i:
            anchor = anchor.head
    negated_argument = token.dep_ == "det" or (anchor.i == token.i and token.pos_ == "PRON")
    if style == "cdsco" and negated_argument and anchor.dep_ in ARGUMENT_DEPS and anchor.head.i != anchor.i:
        anchor = anchor.head
    return anchor


def _subtree(token: Token, skip: FrozenSet[str] = frozenset()) -> List[int]:
    """A token's subtree without the subtrees of its dependents labelled in ``skip`` (at any depth)."""
    found = [token.i]
    for child in token.children:
        if child.dep_ not in skip:
            found += _subtree(child, skip)
    return found


def _parsed_takes_subject(cue: Span, anchor: Token) -> bool:
    """BioScope: whether the anchor's subject lies in the scope: a raising verb, a passive, a clausal subject
    ("whether X ... remains *unknown*"), an adjective with a complement ("X is *likely* to")."""
    deps = {child.dep_ for child in anchor.children}
    if cue[0].lower_ in scope_words()["raising"]:
        return True
    return bool(deps & {"nsubj:pass", "csubj"}) or (anchor.pos_ == "ADJ" and "xcomp" in deps)


def _parsed_bioscope(doc: Doc, cue: Span, pieces: Sequence[Range]) -> List[int]:
    """As without a parse, but the subject and a modifier's phrase are read from the parse."""
    anchor = _anchor(cue, "bioscope")
    piece = next((p for p in pieces if p[0] <= cue.start < p[1]), None)
    if piece is None:
        return [i for s, e in pieces for i in range(s, e)]
    start = cue.start
    if _parsed_takes_subject(cue, anchor):
        start = min([start] + [i for child in anchor.children if child.dep_ in SUBJECT_DEPS
                               for i in _subtree(child)])
    tokens = _bioscope_end(doc, cue, [i for s, e in pieces for i in range(max(s, start), e)])
    if _head_of(cue).dep_ in PHRASE_DEPS:
        tokens = [i for i in tokens if i <= max(_subtree(anchor) + [cue.end - 1])]
    return tokens


def _parsed_cdsco(doc: Doc, cue: Span, pieces: Sequence[Range]) -> List[int]:
    """The anchor's subtree (with its subject), without asides, openers before the cue, or adverbials fronted
    before the subject."""
    anchor = _anchor(cue, "cdsco")
    tokens = set(_subtree(anchor, ASIDE_DEPS)) | set(range(cue.start, cue.end))
    subject = min([c.i for c in anchor.children if c.dep_ in SUBJECT_DEPS] + [cue.start])
    for child in anchor.children:
        fronted = child.dep_ in FRONTED_DEPS and child.i < subject
        if (child.dep_ in OUTER_DEPS or fronted) and child.i < cue.start:
            tokens -= set(_subtree(child))
    return sorted(tokens)


RULES: Dict[Tuple[str, bool], Callable[[Doc, Span, Sequence[Range]], List[int]]] = {
    ("bioscope", False): _bioscope, ("cdsco", False): _cdsco,
    ("bioscope", True): _parsed_bioscope, ("cdsco", True): _parsed_cdsco,
}


def narrow(doc: Doc, cue: Span, pieces: Sequence[Range], style: str) -> List[Range]:
    """The token ranges of ``pieces`` (the clauses ``cue`` is bound to) that lie in its scope under ``style``,
    read from the dependency parse when the Doc has one."""
    if style not in STYLES:
        raise ValueError(f"unknown scope style {style!r}: choose one of {', '.join(STYLES)}")
    allowed = {i for start, end in pieces for i in range(start, end)} | set(range(cue.start, cue.end))
    tokens = RULES[(style, doc.has_annotation("DEP"))](doc, cue, pieces)
    return _ranges(i for i in tokens if i in allowed)


def narrowed_scope_spans(doc: Doc, cues: Sequence[Span], speakers: Sequence[Span], style: str) -> List[Span]:
    """``clauses.scope_spans`` narrowed by ``style``: the same labels, links (``kb_id``) and entry ids."""
    by_link: Dict[Tuple[str, str], List[Span]] = {}
    for span in scope_spans(doc, cues, speakers):
        by_link.setdefault((span.kb_id_, span.label_), []).append(span)
    narrowed = []
    for cue in cues:
        pieces = by_link.pop((source_link(cue), cue.label_), [])
        if pieces:
            first = pieces[0]
            narrowed += [Span(doc, start, end, label=first.label_, kb_id=first.kb_id_, span_id=first.id_)
                         for start, end in narrow(doc, cue, [(p.start, p.end) for p in pieces], style)]
    return narrowed
