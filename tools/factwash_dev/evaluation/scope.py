"""Scope resolution scored on the scopes the corpora annotate: BioScope and *SEM 2012 CD-SCO.

A *resolver* takes a Doc, its cues and its speakers and returns scope spans,
each linked to its cue by ``kb_id`` (``cue:START-END``), as
``clauses.scope_spans`` does for ``doc.spans["factwash_scopes"]``; from them,
``scope_of(cue)`` is the set of token indices linked to the cue (and of its
class: two cues of one span share the link). The resolvers scored
(``RESOLVERS``): ``sentence``, the cue's whole sentence (the baseline: what a
cue reached before the claim level), ``clause``, the whole clauses each cue is bound to (what
``cue._.factwash_scope`` gives by default), and ``narrowed``, those clauses
narrowed by ``cues/scope.py`` in the style of the corpus's convention (what
``scope_style`` gives). Two settings:

- **gold cues** (the usual "scope resolution given gold cues"): every gold
  cue is handed to the resolver, beside the pipeline's own cues that overlap
  no gold cue (they still tell clauses from frames);
- **predicted cues** (end to end): the pipeline's own NEGATION cues (and
  HEDGE cues for BioScope speculation) are matched one to one to gold cues
  of their class by token overlap, as the *SEM 2012 script's "no cue match"
  measures do; a gold cue left unmatched counts its whole scope as missed, a
  predicted cue left unmatched its whole scope as false.

Scores per corpus view, class and setting: scope tokens (precision, recall,
F1 over the tokens of all scopes, as the *SEM 2012 "scope tokens" measure)
and PCS, the percentage of gold scopes (cues with a non-empty gold scope)
whose token set the resolver got exactly. Given gold cues, the *ceiling* is
the PCS of the gold scope cut to the clauses the cue is bound to: the best
any narrowing inside those clauses could do, so what falls short of it is
lost by the clause segmentation, not by the narrowing.

What is converted before comparing, and nothing else:

- BioScope's scopes hold their cue, so the cue's tokens are added to the
  predicted scope. CD-SCO's scopes leave the cue out, so the cue's tokens
  are removed from it, except a token an affixal cue is only part of
  ("unconventional": "conventional" is in the gold scope; the token counts
  when predicted, as the whole word cannot be split here).
- Punctuation is left out on both sides, as in the official *SEM 2012
  script (``eval.cd-sco.pl`` v2.2 by R. Morante, 1 April 2012, as vendored
  in github.com/FilipStefaniuk/UIO-INF5820-Assignment4: "punctuation tokens
  are *not* taken into account"; a token is punctuation when its gold
  part-of-speech tag holds no word character or is ``-LRB-``/``-RRB-``). CD-SCO is scored on its own
  tokens and tags; BioScope, which has neither, on spaCy's tokens, with
  spaCy's ``is_punct``. A token is in a BioScope scope when its characters
  overlap the ``<xcope>`` element's.
"""

import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from spacy_factwash.pipes.cues.extensions import CUES_KEY, SOURCES_KEY
from spacy_factwash.pipes.cues.scorer import f1, ratio
from spacy_factwash.syntax.clauses import scope_spans
from spacy_factwash.syntax.links import source_link
from spacy_factwash.syntax.scope import narrowed_scope_spans
from spacy_factwash.syntax.sentences import set_sentence_starts

from .corpora import read_half
from .gold import GoldText

Resolver = Callable[[Doc, Sequence[Span], Sequence[Span]], List[Span]]
ResolverFor = Callable[[str], Resolver]  # the resolver to use on a corpus (its style follows the corpus)
GOLD, PREDICTED = "gold cues", "predicted cues"
SETTINGS = (GOLD, PREDICTED)
# (name, corpus, subsets or None for all, classes scored)
VIEWS = (
    ("BioScope abstracts", "bioscope", ("abstracts",), ("NEGATION", "HEDGE")),
    ("BioScope full papers", "bioscope", ("full_papers",), ("NEGATION", "HEDGE")),
    ("CD-SCO", "cdsco", None, ("NEGATION",)),
)
CLASS_NAMES = {"NEGATION": "negation", "HEDGE": "speculation"}
CEILING = "ceiling"
STYLE_OF = {"bioscope": "bioscope", "cdsco": "cdsco"}  # the scope style that follows each corpus's convention


def sentence_scope_spans(doc: Doc, cues: Sequence[Span], speakers: Sequence[Span]) -> List[Span]:
    """What a cue reached before the claim level: its whole sentence (the sentence-level gate of dfa0e77 let any
    cue of a sentence qualify all of it), the baseline the clause and narrowed scopes are read against."""
    return [Span(doc, cue.sent.start, cue.sent.end, label=cue.label_, kb_id=source_link(cue)) for cue in cues]


RESOLVERS: Dict[str, ResolverFor] = {
    "sentence": lambda corpus: sentence_scope_spans,
    "clause": lambda corpus: scope_spans,
    "narrowed": lambda corpus: partial(narrowed_scope_spans, style=STYLE_OF[corpus]),
}
_WORD = re.compile(r"\w")


@dataclass
class ScopeCounts:
    """Token counts and exact scope matches for one view, class, setting and resolver."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    gold_cues: int = 0
    gold_scopes: int = 0
    correct: int = 0
    predicted_cues: int = 0
    matched: int = 0

    def add(self, gold: Optional[Set[int]], predicted: Optional[Set[int]]) -> None:
        """Count one gold scope against one predicted scope (None: no cue on that side)."""
        gold_tokens, predicted_tokens = gold or set(), predicted or set()
        self.tp += len(gold_tokens & predicted_tokens)
        self.fp += len(predicted_tokens - gold_tokens)
        self.fn += len(gold_tokens - predicted_tokens)
        self.gold_cues += gold is not None
        self.predicted_cues += predicted is not None
        self.matched += gold is not None and predicted is not None
        if gold_tokens:
            self.gold_scopes += 1
            self.correct += predicted is not None and gold_tokens == predicted_tokens

    def to_dict(self) -> Dict[str, float]:
        p, r = ratio(self.tp, self.tp + self.fp), ratio(self.tp, self.tp + self.fn)
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "p": p, "r": r, "f1": f1(p, r),
                "gold_cues": self.gold_cues, "predicted_cues": self.predicted_cues, "matched": self.matched,
                "gold_scopes": self.gold_scopes, "correct": self.correct, "pcs": ratio(self.correct, self.gold_scopes)}


@dataclass
class GoldCue:
    """A gold cue on a Doc: its class, tokens (every part), its first part as a span, and its gold scope."""

    label: str
    tokens: Set[int]
    span: Span
    scope: Set[int]
    partial: Set[int] = field(default_factory=set)  # tokens an affixal cue is only part of


def scope_doc(nlp: Language, item: GoldText) -> Doc:
    """The item as one sentence, on the corpus's own tokens when it gives them, before the pipeline runs."""
    if item.words:
        doc = Doc(nlp.vocab, words=list(item.words), spaces=[True] * (len(item.words) - 1) + [False])
    else:
        doc = nlp.make_doc(item.text)
    set_sentence_starts(doc, [i == 0 for i in range(len(doc))])
    return doc


def _overlapping(doc: Doc, ranges: Iterable[Tuple[int, int]]) -> Set[int]:
    """Indices of the tokens whose characters overlap any of the character ranges."""
    found = set()
    for start, end in ranges:
        for token in doc:
            if token.idx < end and start < token.idx + len(token):
                found.add(token.i)
    return found


def punctuation(doc: Doc, item: GoldText) -> Set[int]:
    """The tokens the comparison leaves out: by the corpus's tags as the *SEM 2012 script reads them, else
    spaCy's ``is_punct``."""
    if item.tags:
        return {i for i, tag in enumerate(item.tags) if not _WORD.search(tag) or tag in ("-LRB-", "-RRB-")}
    return {token.i for token in doc if token.is_punct}


def gold_cues(doc: Doc, item: GoldText) -> List[GoldCue]:
    """The item's gold cues on ``doc``, with their gold scopes (punctuation left out)."""
    ignored = punctuation(doc, item)
    cues = []
    for gold in item.scopes:
        tokens = _overlapping(doc, gold.cue)
        if not tokens:
            continue
        first = min(tokens)
        end = first + 1
        while end in tokens:
            end += 1
        partial = {i for i in tokens if gold.affixal and
                   not any(start <= doc[i].idx and doc[i].idx + len(doc[i]) <= stop for start, stop in gold.cue)}
        cues.append(GoldCue(gold.label, tokens, Span(doc, first, end, label=gold.label),
                            _overlapping(doc, gold.scope) - ignored, partial))
    return cues


def in_convention(corpus: str, tokens: Set[int], cue: Set[int], partial: Set[int], ignored: Set[int]) -> Set[int]:
    """A predicted scope in the corpus's convention: BioScope's holds the cue, CD-SCO's leaves it out (but for a
    word an affixal cue is part of); punctuation never counts."""
    if corpus == "bioscope":
        tokens = tokens | cue
    else:
        tokens = tokens - (cue - partial)
    return tokens - ignored


Scopes = Dict[Tuple[str, str], Set[int]]


def linked_scopes(spans: Sequence[Span]) -> Scopes:
    """Token indices per cue (its link, ``kb_id``, and class: two cues of one span differ by class) of a
    resolver's scope spans."""
    linked: Scopes = {}
    for span in spans:
        linked.setdefault((span.kb_id_, span.label_), set()).update(range(span.start, span.end))
    return linked


def _scope_of(scopes: Scopes, cue: Span) -> Set[int]:
    return scopes.get((source_link(cue), cue.label_), set())


def _overlaps_any(span: Span, cues: Sequence[GoldCue]) -> bool:
    return any(span.start <= i < span.end for cue in cues for i in cue.tokens)


def _score_gold_cues(doc: Doc, corpus: str, golds: Sequence[GoldCue], scopes: Scopes,
                     ignored: Set[int], count: Callable[[str], ScopeCounts], ceiling: bool = False) -> None:
    """Count every gold cue's gold scope against the scope linked to it; with ``ceiling``, against the gold
    scope cut to what was linked (the best any narrowing of those clauses could do)."""
    for cue in golds:
        predicted = in_convention(corpus, _scope_of(scopes, cue.span), cue.tokens, cue.partial,
                                  ignored)
        count(cue.label).add(cue.scope, predicted & cue.scope if ceiling else predicted)


def _score_found_cues(corpus: str, label: str, golds: Sequence[GoldCue], found: Sequence[Span],
                      scopes: Scopes, ignored: Set[int], score: ScopeCounts) -> None:
    """Match the pipeline's cues of one class to the gold cues one to one by token overlap, and count them."""
    unmatched = [c for c in found if c.label_ == label]
    for cue in (g for g in golds if g.label == label):
        match = next((c for c in unmatched if any(c.start <= i < c.end for i in cue.tokens)), None)
        if match is None:
            score.add(cue.scope, None)
            continue
        unmatched.remove(match)
        score.add(cue.scope, in_convention(corpus, _scope_of(scopes, match),
                                           set(range(match.start, match.end)), set(), ignored))
    for cue in unmatched:
        score.add(None, in_convention(corpus, _scope_of(scopes, cue), set(range(cue.start, cue.end)),
                                      set(), ignored))


def score_doc(doc: Doc, item: GoldText, corpus: str, classes: Sequence[str],
              resolvers: Dict[str, Resolver], counts: Dict[Tuple[str, str, str], ScopeCounts]) -> None:
    """Add one annotated Doc's scopes, in both settings and for every resolver, to ``counts`` (keyed by class,
    setting and resolver name); and, given gold cues, the clause ceiling (``CEILING``)."""
    ignored = punctuation(doc, item)
    golds = [cue for cue in gold_cues(doc, item) if cue.label in classes]
    found = list(doc.spans.get(CUES_KEY, []))
    speakers = list(doc.spans.get(SOURCES_KEY, []))
    given = sorted([cue.span for cue in golds] + [c for c in found if not _overlaps_any(c, golds)],
                   key=lambda s: (s.start, s.end))

    def counter(setting: str, name: str) -> Callable[[str], ScopeCounts]:
        return lambda label: counts.setdefault((label, setting, name), ScopeCounts())

    _score_gold_cues(doc, corpus, golds, linked_scopes(scope_spans(doc, given, speakers)), ignored,
                     counter(GOLD, CEILING), ceiling=True)
    for name, resolve in resolvers.items():
        _score_gold_cues(doc, corpus, golds, linked_scopes(resolve(doc, given, speakers)), ignored,
                         counter(GOLD, name))
        scopes = linked_scopes(resolve(doc, found, speakers))
        for label in classes:
            _score_found_cues(corpus, label, golds, found, scopes, ignored, counter(PREDICTED, name)(label))


def _items(root: Path, half: str, split_dir: Path) -> Iterator[Tuple[str, str, Sequence[str], GoldText]]:
    """(view name, corpus, classes, item) for every sentence of every view's half."""
    for name, corpus, subsets, classes in VIEWS:
        for item in read_half(root, corpus, half, split_dir):
            if subsets is None or item.subset in subsets:
                yield name, corpus, classes, item


def scope_pipeline(parser: Optional[str] = None) -> Language:
    """The pipeline scored: blank English, or a spaCy pipeline with a dependency parser loaded from ``parser``
    (a path), with ``factwash_cues`` added. Sentence boundaries come from the corpus."""
    nlp = spacy.load(parser) if parser else spacy.blank("en")
    if parser and "parser" not in nlp.pipe_names:
        raise ValueError(f"{parser}: this pipeline has no dependency parser (its components: "
                         f"{', '.join(nlp.pipe_names) or 'none'})")
    nlp.add_pipe("factwash_cues")
    return nlp


def annotated(root: Path, half: str, split_dir: Path, nlp: Language,
              batch_size: int = 256) -> Iterator[Tuple[str, str, Sequence[str], GoldText, Doc]]:
    """(view name, corpus, classes, item, Doc the pipeline annotated) for every sentence of one half."""
    items = list(_items(root, half, split_dir))
    docs = nlp.pipe((scope_doc(nlp, item) for _, _, _, item in items), batch_size=batch_size)
    for (view, corpus, classes, item), doc in zip(items, docs):
        yield view, corpus, classes, item, doc


def score(docs: Iterable[Tuple[str, str, Sequence[str], GoldText, Doc]], half: str,
          resolvers: Optional[Dict[str, ResolverFor]] = None) -> Dict[str, object]:
    """Score every resolver (by name: the resolver for a corpus; default ``RESOLVERS``) on annotated sentences;
    JSON-safe result."""
    resolvers = RESOLVERS if resolvers is None else resolvers
    per_view: Dict[str, Dict[Tuple[str, str, str], ScopeCounts]] = {}
    parsed = False
    for view, corpus, classes, item, doc in docs:
        parsed = parsed or doc.has_annotation("DEP")
        score_doc(doc, item, corpus, classes, {name: make(corpus) for name, make in resolvers.items()},
                  per_view.setdefault(view, {}))
    rows = []
    for view, corpus, _, classes in VIEWS:
        for label in classes:
            for setting in SETTINGS:
                row = {"view": view, "corpus": corpus, "label": label, "setting": setting}
                for name in list(resolvers) + [CEILING]:
                    row[name] = per_view.get(view, {}).get((label, setting, name), ScopeCounts()).to_dict()
                rows.append(row)
    return {"half": half, "parsed": parsed, "resolvers": list(resolvers), "rows": rows}


def evaluate(root: Path, half: str, split_dir: Path, parser: Optional[str] = None) -> Dict[str, object]:
    """Score the pipeline's scopes (without a parser, or with the one at ``parser``) on one half."""
    nlp = scope_pipeline(parser)
    result = score(annotated(root, half, split_dir, nlp), half)
    result["lexicon_version"] = nlp.get_pipe("factwash_cues").lexicon_version
    result["parser"] = parser
    return result


def markdown_table(result: Dict[str, object]) -> str:
    """The scope table: per corpus, class and setting, the sentence (before the claim level), the clause scope
    and the narrowed scope."""
    parse = "with the dependency parser given" if result["parsed"] else "without a dependency parse"
    lines = [
        f"Scope resolution on the **{result['half']}** halves, lexicon {result['lexicon_version']}, {parse}: "
        "scope-token precision, recall and F1, and PCS (the share of gold scopes matched exactly); "
        "punctuation left out as in *SEM 2012. `sentence`: the cue's whole sentence, what a cue reached before the "
        "claim level; `clause`: the clauses each cue is bound to "
        "(`cue._.factwash_scope`); `narrowed`: `scope_style` set to the corpus's convention; `ceiling`: "
        "the best PCS any narrowing of the bound clauses could reach.",
        "",
        "| corpus | class | cues | gold scopes | sentence F1 | sentence PCS | clause F1 | clause PCS | narrowed P | "
        "narrowed R | narrowed F1 | narrowed PCS | ceiling PCS |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in result["rows"]:
        sentence, clause, narrowed = row["sentence"], row["clause"], row["narrowed"]
        ceiling = f"{row[CEILING]['pcs']:.2f}" if row["setting"] == GOLD else "-"
        lines.append(
            f"| {row['view']} | {CLASS_NAMES[row['label']]} | {row['setting'].split()[0]} | "
            f"{narrowed['gold_scopes']} | {sentence['f1']:.2f} | {sentence['pcs']:.2f} | "
            f"{clause['f1']:.2f} | {clause['pcs']:.2f} | {narrowed['p']:.2f} | "
            f"{narrowed['r']:.2f} | {narrowed['f1']:.2f} | {narrowed['pcs']:.2f} | {ceiling} |")
    return "\n".join(lines) + "\n"
