"""Confirm or refuse a proposal such as "note B supersedes rule A": a quote is not a relation until it names one.

The rules run in order, each a numbered step of ``Confirmer.confirm`` that
passes or fails with its reason; the first failure ends the check. Only a proposal whose quote, in
one claim (a clause: ``syntax/clauses.py``), holds an un-negated change word next to a scope term the two
items share, with no restatement or mention around it, is confirmed
(tier ``textual``); every other proposal rests on the proposer alone
(``proposer_only``) and is for a person to review. Implicit contradictions
(no change word) are never confirmed.
"""

import math
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from ..io.inputs import read_records
from ..io.outputs import atomic_output, check_output
from ..io.strict_json import dumps
from ..io.progress import Progress, quiet
from ..io.textfile import BadInput
from ..lexicon.matcher import AnchoredMatcher
from ..lexicon.phrases import PhraseWords
from ..pipes.cues.extensions import CUES_KEY, SOURCES_KEY
from ..pipes.gate.report import Excerpt
from ..pipes.names import LEMMAS
from ..syntax.clauses import doc_clauses
from ..syntax.parse import relation
from ..syntax.sentences import sentences
from .lexicon import load_authority_lexicon

TYPES = ("supersedes", "narrows_scope", "transfers_authority", "contradicts")
MIN_CONFIDENCE = 0.60
NEGATION_REACH = 3  # tokens before a change word in which a negation cue negates it
WEAK_CHANGE = {"change:only", "change:now"}
ITEM_NEEDS = "an item needs an id (a string or a whole number) and a string text"
# dependency labels (ClearNLP and Universal Dependencies) of a verb's or noun's arguments
ARGUMENT_DEPS = {"nsubj", "nsubjpass", "csubj", "dobj", "obj", "iobj", "attr", "agent", "prep", "pobj", "obl",
                 "dative", "oprd", "npadvmod", "nmod", "compound", "poss", "acl", "relcl", "xcomp", "ccomp"}
# an adverbial change word ("no longer", "now", "only") and the phrases it may sit in on the way up to its verb
ADVERBIAL_DEPS = frozenset({"advmod", "neg", "fixed"})
PHRASE_DEPS = frozenset({"obl", "nmod", "pobj", "prep", "npadvmod", "case"})
COORDINATED_DEPS = frozenset({"conj", "parataxis", "cc"})


@dataclass(frozen=True)
class Reason:
    """One rule's outcome: its number, name, whether it passed (None: not applicable), and why."""

    rule: int
    name: str
    passed: Optional[bool]
    detail: str


@dataclass
class Confirmation:
    """The confirmer's answer for one proposal."""

    proposal_id: Any
    confirmed: bool
    tier: str
    reasons: List[Reason] = field(default_factory=list)
    evidence: Optional[Excerpt] = None

    @property
    def blocked_by(self) -> Optional[Reason]:
        """The rule that refused the proposal, if one did."""
        return next((r for r in self.reasons if r.passed is False), None)

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


def normalise(text: str) -> str:
    """Case- and whitespace-normalised text; punctuation is kept and must match."""
    return " ".join(text.lower().split())


def quote_offsets(quote: str, text: str) -> Optional[Tuple[int, int]]:
    """Where a quote stands in a text under the normalisation, or None."""
    words = quote.split()
    if not words:
        return None
    match = re.search(r"\s+".join(re.escape(w) for w in words), text, flags=re.IGNORECASE)
    return (match.start(), match.end()) if match else None


class Confirmer:
    """Apply the rules to proposals over a set of items, with a spaCy pipeline and the frozen lexicon."""

    def __init__(self, nlp: Language, lexicon_dir: Optional[str] = None) -> None:
        self.nlp = nlp
        self.lexicon = load_authority_lexicon(lexicon_dir)
        self.matcher = AnchoredMatcher(nlp.vocab)
        self.labels: Dict[int, Tuple[str, str]] = {}
        split = PhraseWords(nlp.tokenizer)
        for entry in self.lexicon.entries:
            self.labels[self.matcher.add_entry(entry, split)] = (entry.label, entry.id)
        self.lemmatizer = nlp.get_pipe(LEMMAS) if nlp.has_pipe(LEMMAS) else None

    def _marks(self, span: Span) -> Dict[str, List[Tuple[int, int, str]]]:
        """Lexicon matches inside a span, by label: (start, end, entry id) token offsets."""
        found: Dict[str, List[Tuple[int, int, str]]] = {}
        for key, start, end in self.matcher(span.doc):
            if span.start <= start and end <= span.end:
                label, entry_id = self.labels[key]
                found.setdefault(label, []).append((start, end, entry_id))
        return found

    def _lemmas(self, doc: Doc) -> List[str]:
        """Lower-cased lemmas, looked up on the lower-cased word so a capital does not hide one."""
        if self.lemmatizer is not None:
            return [self.lemmatizer.lemma_of(t.text) for t in doc]
        return [(t.lemma_ or t.lower_).lower() for t in doc]

    def _scope_terms(self, proposal: Mapping, target: Doc) -> List[Tuple[str, ...]]:
        """The proposal's scope terms as lemma sequences, else the target rule's own content words."""
        terms = proposal.get("scope_terms") or []
        if terms:
            return [tuple(self._lemmas(doc)) for doc in self.nlp.pipe(t.lower() for t in terms if t.strip())]
        change_words = {p.lower() for e in self.lexicon.for_label("CHANGE") for p in e.phrases}
        return [(lemma,) for t, lemma in zip(target, self._lemmas(target))
                if t.is_alpha and not t.is_stop and t.lower_ not in change_words]

    @staticmethod
    def _occurs(term: Tuple[str, ...], lemmas: Sequence[str], start: int = 0, end: Optional[int] = None) -> bool:
        end = len(lemmas) if end is None else end
        return any(tuple(lemmas[i:i + len(term)]) == term for i in range(start, end - len(term) + 1))

    def confirm(self, proposal: Mapping, items: Mapping[str, str]) -> Confirmation:
        """Apply rules 1-8 in order; the first that fails ends the check."""
        reasons: List[Reason] = []

        def refuse(rule: int, name: str, detail: str) -> Confirmation:
            reasons.append(Reason(rule, name, False, detail))
            return Confirmation(proposal.get("id"), False, "proposer_only", reasons)

        # 1. well-formed
        kind, source_id, target_id = proposal.get("type"), proposal.get("source_item_id"), proposal.get("target_item_id")
        confidence = proposal.get("confidence")
        if kind not in TYPES:
            return refuse(1, "well_formed", f"unknown type {kind!r}")
        if source_id not in items or target_id not in items:
            return refuse(1, "well_formed", f"item {source_id if source_id not in items else target_id!r} not found")
        if (isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not math.isfinite(confidence)
                or confidence < MIN_CONFIDENCE):
            return refuse(1, "well_formed", f"confidence {confidence!r} is not a finite number >= {MIN_CONFIDENCE}")
        reasons.append(Reason(1, "well_formed", True, f"{kind}, both items exist, confidence {confidence}"))

        # 2. the quote is in the source item
        quote = proposal.get("quote")
        if not isinstance(quote, str) or not quote.strip() or normalise(quote) not in normalise(items[source_id]):
            return refuse(2, "quote_in_source", f"the quote does not occur in item {source_id!r}")
        start_char, end_char = quote_offsets(quote, items[source_id]) or (0, 0)
        reasons.append(Reason(2, "quote_in_source", True, f"found at characters {start_char}-{end_char}"))

        # 3. a scope shared by both items
        source, target = self.nlp(items[source_id]), self.nlp(items[target_id])
        source_lemmas, target_lemmas = self._lemmas(source), self._lemmas(target)
        shared = [t for t in self._scope_terms(proposal, target)
                  if self._occurs(t, source_lemmas) and self._occurs(t, target_lemmas)]
        if not shared:
            return refuse(3, "shared_scope", "no scope term occurs in both items")
        reasons.append(Reason(3, "shared_scope", True, "shared: " + ", ".join(" ".join(t) for t in shared)))

        # 4-7, claim by claim of the quote: a change word and the scope term in one clause
        candidates = []  # (sentence, its marks, the change words of a claim that also holds a shared scope term)
        for sentence, pieces in quoted_clauses(source, start_char, end_char):
            marks = self._marks(sentence)
            changes = [m for m in marks.get("CHANGE", []) if any(a <= m[0] and m[1] <= b for a, b in pieces)]
            if changes and any(self._occurs(t, source_lemmas, a, b) for t in shared for a, b in pieces):
                candidates.append((sentence, marks, changes))
        if not candidates:
            what = "an implicit contradiction: no change word" if kind == "contradicts" else "no change word"
            return refuse(4, "relation_span", f"{what} beside a shared scope term in one claim of the quote")
        reasons.append(Reason(4, "relation_span", True, f"{len(candidates)} quoted claim(s) name a change"))

        negation = [s for s in source.spans.get(CUES_KEY, []) if s.label_ == "NEGATION"]
        live = []
        for sent, marks, changes in candidates:
            kept = [c for c in changes if c[2] == "change:no_longer" or not any(
                n.end <= c[0] and c[0] - n.end <= NEGATION_REACH and n.start >= sent.start for n in negation)]
            if kept:
                live.append((sent, marks, kept))
        if not live:
            return refuse(5, "negation_window", "every change word is negated (\"has not been superseded\")")
        reasons.append(Reason(5, "negation_window", True, "a change word is not negated"))

        if kind in ("supersedes", "narrows_scope"):
            live = [(s, m, c) for s, m, c in live
                    if not (m.get("RESTATEMENT") and all(entry in WEAK_CHANGE for _, _, entry in c))]
            if not live:
                return refuse(6, "restatement", "the sentence restates the rule; its only change words are "
                                                "\"only\" or \"now\" (the proximity trap)")
        reasons.append(Reason(6, "restatement", True, "no restatement blocks the change word"))

        live = [(s, m, c) for s, m, c in live if not m.get("MENTION") and not _inside_quotes(s, c)]
        if not live:
            return refuse(7, "mention_not_use", "the change word is mentioned (a version, a draft, meeting "
                                                "minutes, a quotation), not used of the rule")
        reasons.append(Reason(7, "mention_not_use", True, "the change word is used, not mentioned"))

        sent = live[0][0]
        if not source.has_annotation("DEP"):
            reasons.append(Reason(8, "argument_resolution", None,
                                  "no dependency parser in the pipeline: arguments not resolved, stopped at rule 7"))
        else:
            resolved = [s for s, _, changes in live for change in changes
                        if self._argument_holds_scope(source, change, shared, source_lemmas)]
            if not resolved:
                return refuse(8, "argument_resolution", "no argument of the change word is the target rule's scope")
            sent = resolved[0]
            reasons.append(Reason(8, "argument_resolution", True, "an argument of the change word is the shared scope"))
        return Confirmation(proposal.get("id"), True, "textual", reasons,
                            Excerpt(sent.text, sent.start_char, sent.end_char))

    def _argument_holds_scope(self, doc: Doc, change: Tuple[int, int, str], shared: Sequence[Tuple[str, ...]],
                              lemmas: Sequence[str]) -> bool:
        """Whether a shared scope term lies in an argument of the change word (rule 8).

        The arguments of a change verb are its subject, object, agent,
        prepositional phrases ... An adverbial change word ("no longer",
        "now", "only") changes the clause it modifies, so that clause counts
        (without the clauses coordinated with it); a participle modifying a
        noun ("sign-off transferred to the team") has that noun phrase as an
        argument too.
        """
        head = doc[change[0]:change[1]].root
        regions: List[Set[int]] = []
        if relation(head) in ADVERBIAL_DEPS:
            clause = _clause_of(head)
            others = {t.i for child in clause.children if relation(child) in COORDINATED_DEPS for t in child.subtree}
            regions.append({t.i for t in clause.subtree} - others)
        if relation(head) == "acl":
            regions.append(set(range(head.head.left_edge.i, head.left_edge.i)))
        heads = [head] + [t for t in head.children if relation(t) in ("aux", "auxpass")]
        regions += [{t.i for t in argument.subtree} for governor in heads
                    for argument in governor.children if relation(argument) in ARGUMENT_DEPS]
        return any(_occurs_within(term, lemmas, region) for region in regions for term in shared)


def _occurs_within(term: Tuple[str, ...], lemmas: Sequence[str], region: Set[int]) -> bool:
    """Whether the term's lemmas occur on consecutive tokens that all lie in the region."""
    return any(all(i + k in region for k in range(len(term))) and tuple(lemmas[i:i + len(term)]) == term
               for i in region)


def _clause_of(token: Token) -> Token:
    """The verb (or the root) an adverbial hangs from, through the phrases between ("only between 6 and 9")."""
    while relation(token) in ADVERBIAL_DEPS | PHRASE_DEPS and token.head is not token and not token.tag_.startswith("VB"):
        token = token.head
    return token


def quoted_clauses(doc: Doc, start_char: int, end_char: int) -> List[Tuple[Span, Tuple[Tuple[int, int], ...]]]:
    """Every clause (``syntax/clauses.py``) of the sentences a quote touches, as (its sentence, its pieces): rule 4
    looks for the change word and the scope term in one clause; restatements and mentions (rules 6-7) are read
    on the whole sentence, where a frame such as "As before," or "Agenda item 3:" stands."""
    clauses = doc_clauses(doc, list(doc.spans.get(CUES_KEY, [])), list(doc.spans.get(SOURCES_KEY, [])))
    return [(sentence, clause.ranges) for sentence, in_sentence in zip(sentences(doc), clauses.sentences)
            if sentence.start_char < end_char and start_char < sentence.end_char for clause in in_sentence]


def _inside_quotes(sent: Span, changes: Iterable[Tuple[int, int, str]]) -> bool:
    """Whether every change word stands between quotation marks within its sentence."""
    marks = {'"', "“", "”", "'", "‘", "’"}

    def quoted(index: int) -> bool:
        before = sum(1 for t in sent if t.i < index and t.text in marks)
        return before % 2 == 1

    return all(quoted(start) for start, _, _ in changes)


@dataclass
class ConfirmRun:
    """What a run of the confirmer over a file of proposals did: how many it confirmed of how many, and how many
    each rule blocked."""

    confirmed: int = 0
    proposals: int = 0
    blocked: Counter = field(default_factory=Counter)


def is_item(item: Any) -> bool:
    """Whether an item is ``{"id", "text"}`` with an id that is a string or a whole number and a string text."""
    return (isinstance(item, dict) and isinstance(item.get("text"), str) and isinstance(item.get("id"), (str, int))
            and not isinstance(item["id"], bool))


def items_by_id(items: Any, where: str = "") -> Dict[Any, str]:
    """The items a proposal is confirmed against, as id -> text: a mapping as it is, or a list of ``{"id",
    "text"}``; a ``TypeError`` (after ``where``) naming the first that is not an item."""
    if isinstance(items, dict):
        return items
    if isinstance(items, (str, bytes)) or not isinstance(items, (list, tuple)):
        raise TypeError(f"{where}items must be a mapping id -> text or a list of {{id, text}}, got "
                        f"{type(items).__name__}")
    bad = next((n for n, item in enumerate(items) if not is_item(item)), None)
    if bad is not None:
        raise TypeError(f"{where}item {bad}: {ITEM_NEEDS}")
    return {item["id"]: item["text"] for item in items}


def confirm_file(confirmer: Confirmer, items_path: Path, proposals_path: Path, output_path: Path,
                 progress: Progress = quiet) -> ConfirmRun:
    """Confirm every proposal of ``proposals_path`` against the ``{id, text}`` items of ``items_path`` (both
    read whole first; a ``BadInput`` names an unusable line) and write one confirmation per proposal to
    ``output_path`` through ``outputs.atomic_output``."""
    check_output(output_path, [items_path, proposals_path])  # every path checked before the files are read
    items, proposals = read_records(items_path), read_records(proposals_path)
    bad = next((n for n, item in enumerate(items, start=1) if not is_item(item)), None)
    if bad is not None:
        raise BadInput(f"{items_path}:{bad}: {ITEM_NEEDS}")
    by_id = items_by_id(items)
    run = ConfirmRun(proposals=len(proposals))
    with atomic_output(output_path, [items_path, proposals_path]) as out:
        for proposal in progress(proposals, total=len(proposals), desc="confirm"):
            result = confirmer.confirm(proposal, by_id)
            run.confirmed += result.confirmed
            if result.blocked_by is not None:
                run.blocked[f"rule {result.blocked_by.rule} {result.blocked_by.name}"] += 1
            out.write(dumps(result.to_dict()) + "\n")
    return run
