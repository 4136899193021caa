"""factwash_compare: the gate's settings in the pipeline config, and compare / pipe over pairs.

The component does nothing to a single Doc (a comparison needs two); it holds
the alignment threshold, the enabled checks, the gate's word lists
(``lexicons/gate/``) and the tables its checks read (the value tables: units
and time names; the syntax tables), so that ``nlp.to_disk`` saves the whole
gate, and it compares Docs the pipeline made (``compare``) or gates a stream
of text pairs (``pipe_pairs``). Like every lexicon-backed component
(``pipes/base.py``) it is built empty and gets its verified sets once: from
``initialize``, from the pipeline it was saved with, or at its first
comparison.

A comparison: both Docs into claims (``claims.py``: clauses, each cue bound
to the claims it qualifies), each memory claim aligned to its best source
claims (``align.py``), the checks run on every aligned pair (``checks/``),
and the verdict policy over the changes (``policy.py``).
"""

import warnings
from functools import partial
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...lexicon.frozen import LexiconSet
from ...lexicon.sets import GATE, SYNTAX, VALUES
from ...memo import cached
from ...syntax.normalise import reading
from ...syntax.sentences import sentences as doc_sentences
from ...syntax.text import doc_text
from ..cues.extensions import LEXICON_DIGEST_KEY, LEXICON_VERSION_KEY
from ..strength.claim import STRENGTH_KEY
from .align import Alignment, align
from .claims import DocClaims, LemmaKey, Reading, build_claims
from .compare import CHECKS, Pair
from .compare.base import excerpt
from .compare.values import values_read
from .gate import Gate
from .language import EnglishWords, english_words, not_english, too_short
from .policy import REJECT, REWRITE, verdict
from ..base import LexiconPipe
from ..names import LEMMAS
from .report import CHANGE_TYPES, INFORMATIONAL_TYPES, Change, Excerpt, LanguageFinding, Report
from .words import GateWords, checked_gate_words

DEFAULT_CONFIG = {
    "lexicon_dir": None,
    "verify_lexicons": True,
    "threshold": 0.25,
    "min_source_values": 2,
    "disabled": [],
    "check_language": True,
    "min_language_score": 0.6,
    "max_english_share": 0.4,
    "min_language_words": 4,
    "windows": None,
    "neighbour_words": None,
}


class CompareComponent(LexiconPipe):
    """Compare a memory Doc with its source Doc and gate it."""

    holds = {"lexicons": GATE, "syntax": SYNTAX, "values": VALUES}

    def __init__(self, nlp: Language, name: str, *, threshold: float, min_source_values: int,
                 disabled: Sequence[str], check_language: bool = True, min_language_score: float = 0.6,
                 max_english_share: float = 0.4, min_language_words: int = 4,
                 retired: Sequence[str] = (), lexicon_dir: Optional[str] = None,
                 verify_lexicons: bool = True) -> None:
        unknown = set(disabled) - set(CHANGE_TYPES) - set(INFORMATIONAL_TYPES)
        if unknown:
            raise ValueError(f"{name}: unknown change types in 'disabled': {sorted(unknown)}")
        if not 0 < threshold <= 1:
            raise ValueError(f"{name}: threshold must be in (0, 1], got {threshold}")
        for setting, value in (("min_language_score", min_language_score), ("max_english_share", max_english_share)):
            if not 0 < value <= 1:
                raise ValueError(f"{name}: {setting} must be in (0, 1], got {value}")
        if min_source_values < 1:
            raise ValueError(f"{name}: min_source_values must be 1 or more, got {min_source_values}")
        for setting in retired:
            warnings.warn(f"{name}: '{setting}' is ignored since the gate binds each qualifier to its claim "
                          "(no sentence windows); drop it from the config", DeprecationWarning, stacklevel=3)
        super().__init__(nlp, name, verify_lexicons=verify_lexicons, folders={"lexicons": lexicon_dir})
        self.nlp = nlp
        self.tokenizer = nlp.tokenizer
        self.threshold = threshold
        self.min_source_values = min_source_values
        self.disabled = tuple(disabled)
        self.check_language = check_language
        self.min_language_score = min_language_score
        self.max_english_share = max_english_share
        self.min_language_words = min_language_words
        self._evidentials: Tuple[Optional[str], FrozenSet[str]] = (None, frozenset())
        self._cue_candidates: Tuple[Optional[tuple], List] = (None, [])  # (the pipeline as read, its candidates)

    def initialize(self, get_examples: Optional[Callable] = None, *, nlp: Optional[Language] = None,
                   lexicon_dir: Optional[str] = None) -> None:
        """Load and compile the gate's word lists (``nlp.initialize()``, ``spacy assemble``): the frozen set in
        ``lexicon_dir`` (the configured folder, or the packaged ``lexicons/gate``, when null), and the packaged
        tables."""
        self.load_sets(lexicons=lexicon_dir)

    def compile(self, sets: Mapping[str, LexiconSet]) -> None:
        """Compile the gate's word lists into their matcher; once per load. (The pipeline's lemma table is taken
        again at the next comparison: ``key``.)"""
        self.words = GateWords(self.vocab, self.tokenizer, checked_gate_words(sets["lexicons"]))
        self.__dict__.pop("key", None)
        self.__dict__.pop("english", None)

    @cached
    def key(self) -> LemmaKey:
        """The content key of a token, from the pipeline's lemma table (``factwash_lemmas``), taken at the first
        comparison after the gate's sets were given: the lemma table is loaded by then."""
        return LemmaKey(self.nlp)

    @cached
    def english(self) -> EnglishWords:
        """The English words the language check counts: those of the pipeline's lemma table (``factwash_lemmas``,
        which a saved pipeline carries), taken as ``key`` is; spacy-lookups-data's for a pipeline without one."""
        if LEMMAS not in self.nlp.pipe_names:
            return english_words()
        lemmas = self.nlp.get_pipe(LEMMAS)
        return EnglishWords(lemmas.lemmas, lemmas.lemma_ids)

    @property
    def evidentials(self) -> FrozenSet[str]:
        """The evidential entries of the cue lexicon the pipeline uses now (entries added at run time count),
        read once per lexicon digest: not when the gate is built, so a pipeline loads its lexicon once."""
        cues = self._cue_component()
        digest = cues.lexicons.digest if cues is not None else None
        if digest != self._evidentials[0]:
            self._evidentials = (digest, evidential_entries(cues))
        return self._evidentials[1]

    def _cue_component(self):
        """``cue_component(self.nlp)``, the components that may be it (``cue_candidates``) found again only when the
        pipeline's components or the disabled ones changed: ``nlp.pipeline`` is a list spaCy builds anew, with a
        formatted error message, at every read (a spaCy without the lists read here is looked through each time)."""
        nlp = self.nlp
        components, disabled = getattr(nlp, "_components", None), getattr(nlp, "_disabled", None)
        if components is None or disabled is None:
            return cue_component(nlp)
        read = (tuple(components), frozenset(disabled))
        if self._cue_candidates[0] != read:
            self._cue_candidates = (read, cue_candidates(nlp))
        return next((pipe for pipe in self._cue_candidates[1] if "ATTRIBUTION" in getattr(pipe, "labels", ())), None)

    def __call__(self, doc: Doc) -> Doc:
        """A single Doc passes through unchanged: comparing needs a pair. (The first one, empty or not, makes a
        component neither initialized nor loaded read its sets, outside any memory zone: ``zones.py``.)"""
        if self._sets is None:
            self.load_sets()
        return doc

    def claims(self, doc: Doc) -> DocClaims:
        """A Doc the pipeline made, as claims with their qualifiers and gate words (read, like the cues, on the
        text as a reader sees it: ``syntax/normalise.py``)."""
        return self._claims(doc, self.evidentials)

    def _claims(self, doc: Doc, evidentials: FrozenSet[str]) -> DocClaims:
        """``claims``, with the cue lexicon's evidentials read by the caller (once per comparison)."""
        if self._sets is None:  # read and compiled at the first comparison when neither initialized nor loaded
            self.load_sets()
        read, shadow = reading(doc, self.words.case_forms, self.nlp.tokenizer)
        return build_claims(doc, self.key, self.words(doc, read, shadow), Reading(read, shadow), evidentials)

    def _pair_changes(self, alignment: Alignment, source: DocClaims, memory: DocClaims,
                      aligned_to: Dict[int, List], aligned_from: Dict[int, Sequence],
                      evidentials: FrozenSet[str]) -> List[Change]:
        """The checks on a memory claim and its best source claims. Tied exact copies of the memory claim: the
        copy that leaves the fewest rejections, then rewrites (the memory copies that one faithfully). Tied
        claims the memory claim merged: every one of them, since the memory answers for all it took."""
        version = memory.doc.user_data.get(LEXICON_VERSION_KEY) or source.doc.user_data.get(LEXICON_VERSION_KEY)
        found = []
        for candidate in _distinct(alignment.candidates, source):
            # an exact copy answers to its own sentence (a copy of "Watch the video:" is not the copy in a
            # sentence with values); claims the memory merged answer together
            tied = (candidate,) if alignment.exact else alignment.candidates
            pair = Pair(alignment.memory, candidate, version, self.words.version, source, memory, aligned_to,
                        aligned_from, self.min_source_values, tied, evidentials)
            found.append([c for check in CHECKS for c in check(pair) if c.type not in self.disabled])
        if alignment.exact:
            return min(found, key=_weight)
        return [change for changes in found for change in changes]

    def compare(self, source: Doc, memory: Doc) -> Report:
        """Claims of both Docs, alignment, the checks on aligned claims, and the verdict policy. The claims read
        here are this call's alone: their caches (whose claim records point back at them) are emptied when it ends,
        so they and their Docs are freed at once, not left as cycles for the garbage collector."""
        evidentials = self.evidentials
        made: List[DocClaims] = []

        def claims_of(doc: Doc, side: str) -> DocClaims:
            made.append(self._claims(doc, evidentials))
            return made[-1]

        try:
            return self.compare_reading(source, memory, claims_of, evidentials)
        finally:
            for claims in made:
                claims.cache.clear()

    def compare_reading(self, source: Doc, memory: Doc, claims_of: Callable[[Doc, str], DocClaims],
                        evidentials: Optional[FrozenSet[str]] = None) -> Report:
        """``compare``, reading a Doc's claims on one side through ``claims_of`` (a batch reads a text it holds
        more than once on the same side once: ``Gate.gate_batch``); ``evidentials``: the cue lexicon's, when the
        caller has read them."""
        version = memory.user_data.get(LEXICON_VERSION_KEY) or source.user_data.get(LEXICON_VERSION_KEY)
        if version is None:
            raise ValueError("compare needs Docs annotated by factwash_cues (no lexicon version on either Doc)")
        digest = memory.user_data.get(LEXICON_DIGEST_KEY) or source.user_data.get(LEXICON_DIGEST_KEY, "")
        texts = [("source", doc_text(source)), ("memory", doc_text(memory))]  # joined once per Doc
        read: Dict[str, DocClaims] = {}

        def claims(doc: Doc, side: str) -> DocClaims:  # each side read once, the memory's when first needed
            if side not in read:
                read[side] = claims_of(doc, side)
            return read[side]

        # a memory that repeats its source word for word washed nothing away, in any language: no guess of the
        # language may decide its verdict (a self-copy read as Low German was uncheckable); the memory's sentences
        # are those its claims were read in
        copied = copies(texts)
        foreign = [] if copied else self.not_english(
            source, memory, texts, lambda: claims(memory, "memory").clauses.sentence_spans)
        if foreign:
            return Report(verdict((), (), not_english=True), [], [], list(CHANGE_TYPES),
                          version, lexicon_digest=digest, not_english=foreign)
        source_claims, memory_claims = claims(source, "source"), claims(memory, "memory")
        alignments = align(source_claims.claims, memory_claims.claims, self.threshold)
        aligned_to: Dict[int, List] = {}
        for alignment in alignments:
            for candidate in alignment.candidates:
                aligned_to.setdefault(candidate.index, []).append(alignment.memory)
        aligned_from = {alignment.memory.index: alignment.candidates for alignment in alignments}
        changes: List[Change] = []
        uncheckable = [excerpt(sentence) for sentence in _uncopied(memory_claims.unclaimed, source_claims)]
        evidentials = self.evidentials if evidentials is None else evidentials
        for alignment in alignments:
            if not alignment.candidates:
                uncheckable.append(alignment.memory.excerpt())
                continue
            changes.extend(self._pair_changes(alignment, source_claims, memory_claims, aligned_to, aligned_from,
                                              evidentials))
        changes = _once(changes)
        verdict_changes = [c for c in changes if c.type in CHANGE_TYPES]
        notes = [c for c in changes if c.type in INFORMATIONAL_TYPES]
        empty = not memory_claims.clauses.view.any_word(0, len(memory))  # no word and no number: nothing was kept
        return Report(
            verdict((c.type for c in verdict_changes), uncheckable, empty_memory=empty),
            verdict_changes, sorted(uncheckable, key=lambda e: e.start_char),
            self._not_checked(source, memory, texts, copied), version, notes, empty,
            len(memory_claims.clauses.sentences), lexicon_digest=digest,
        )

    def not_english(self, source: Doc, memory: Doc, texts: Optional[List[Tuple[str, str]]] = None,
                    sentence_spans: Optional[Callable[[], List[Span]]] = None) -> List[LanguageFinding]:
        """The texts of the pair confidently not in English (``gate/language.py``); none when the config turned
        the check off (``check_language = false``). ``texts``: the pair's (side, text), when already joined;
        ``sentence_spans``: gives the memory's sentences, when the caller has them (else they are read here)."""
        if not self.check_language:
            return []

        def sentences() -> Iterator[Excerpt]:  # the memory's, made only when the language check reads them alone
            if memory.has_annotation("SENT_START"):
                yield from (excerpt(sentence) for sentence in (sentence_spans or partial(doc_sentences, memory))())

        return not_english(texts or [("source", doc_text(source)), ("memory", doc_text(memory))], self.min_language_score,
                           self.max_english_share, self.min_language_words, sentences(), words=self.english)

    def _not_checked(self, source: Doc, memory: Doc, texts: List[Tuple[str, str]], copied: bool) -> List[str]:
        """What no check covered: the checks the config disabled; claim
        strength when the pipeline has no ``factwash_strength`` to read it; the language, when the check is off, the
        memory copies its source (``copied``: ``copies(texts)``) or the pair (``texts``: its (side, text)) is too
        short to tell it."""
        missing = [] if STRENGTH_KEY in source.spans and STRENGTH_KEY in memory.spans else ["strengthened_causality"]
        language = ["language"] if (not self.check_language or copied
                                    or too_short(texts, self.min_language_words)) else []
        return [t for t in self.disabled if t not in missing] + missing + language

    def pipe(self, docs: Iterable[Doc], batch_size: int = 256) -> Iterator[Doc]:
        """spaCy's stream protocol: single Docs pass through unchanged (use ``pipe_pairs`` to gate)."""
        if self._sets is None:
            self.load_sets()
        yield from docs

    def pipe_pairs(self, pairs: Iterable, *, batch_size: int = 256, n_process: int = 1,
                   as_tuples: bool = False) -> Iterator:
        """Gate (source, memory) text pairs in batches, in order (``Gate.pipe`` on this pipeline): each batch is
        annotated and compared inside ``nlp.memory_zone()`` and leaves it as plain reports, so a long stream of new
        words keeps memory flat (past the words kept for good within ``zones.WARM_LEXEMES``). With ``n_process``
        > 1 (the ``dask`` extra), the batches run on that many worker processes, each holding this pipeline;
        results come back in input order. With ``as_tuples``, items are ((source, memory), context) and results
        (report, context). (Named ``pipe_pairs`` because spaCy calls a component's ``pipe`` with its Doc
        stream.)"""
        return Gate(self.nlp, self.name).pipe(pairs, batch_size=batch_size, as_tuples=as_tuples, n_process=n_process)


def cue_component(nlp: Language):
    """The pipeline's cue component that writes attributions, or None."""
    return next((pipe for pipe in cue_candidates(nlp) if "ATTRIBUTION" in getattr(pipe, "labels", ())), None)


def cue_candidates(nlp: Language) -> List:
    """The pipeline's enabled components that may be its cue component, in order: this package's, with a lexicon."""
    return [pipe for name, pipe in nlp.pipeline if hasattr(pipe, "lexicons") and name.startswith("factwash_")]


def evidential_entries(cues) -> FrozenSet[str]:
    """The attribution entries of a cue component's lexicon that name no speaker side: evidentials."""
    if cues is None:
        return frozenset()
    return frozenset(e.id for e in cues.lexicons.for_label("ATTRIBUTION") if e.source_side is None and e.role == "cue")


def _distinct(candidates: Sequence, source: DocClaims) -> List:
    """Tied source claims less repeats: copies with the same words, qualifiers and conditions, in sentences whose
    values read alike (the values check reads the whole sentence), give the same changes, so one of each is checked
    (a source that repeats a sentence a thousand times costs one check)."""
    if len(candidates) < 2:
        return list(candidates)
    seen, kept = set(), []
    for claim in candidates:
        key = (claim.signature, values_read(source, claim))
        if key not in seen:
            seen.add(key)
            kept.append(claim)
    return kept


def copies(texts: Sequence[Tuple[str, str]]) -> bool:
    """Whether the memory repeats its source word for word (the pair's (side, text); whitespace aside)."""
    (_, source), (_, memory) = texts
    return source.split() == memory.split()


def _words(span) -> str:
    return " ".join(token.lower_ for token in span if not (token.is_punct or token.is_space))


def _uncopied(sentences, source: DocClaims) -> list:
    """The memory sentences with no claim ("Said so.") that are not copies of a source sentence: a copy says
    nothing the source does not; anything else cannot be checked."""
    if not sentences:
        return []
    copies = {_words(sentence) for sentence in source.unclaimed}
    return [sentence for sentence in sentences if _words(sentence) not in copies]


def _weight(changes: Sequence[Change]) -> Tuple[int, int, int]:
    """How severe a set of changes is: rejections, then rewrites, then all."""
    types = [c.type for c in changes]
    return sum(t in REJECT for t in types), sum(t in REWRITE for t in types), len(types)


def _once(changes: Sequence[Change]) -> List[Change]:
    """Changes without repeats: a sentence-level finding (dropped values) reached from several claims of one
    memory sentence is reported once."""
    seen, kept = set(), []
    for change in changes:
        key = (change.type, change.message, change.memory_claim.start_char if change.memory_claim else -1,
               change.source_claim.start_char if change.source_claim else -1)
        if change.type == "dropped_values":
            key = (change.type, change.memory.start_char, change.source.start_char if change.source else -1)
        if key not in seen:
            seen.add(key)
            kept.append(change)
    return kept


@Language.factory("factwash_compare", default_config=DEFAULT_CONFIG, requires=["doc.spans"])
def make_compare(nlp: Language, name: str, lexicon_dir: Optional[str], verify_lexicons: bool, threshold: float,
                 min_source_values: int, disabled: List[str], check_language: bool, min_language_score: float,
                 max_english_share: float, min_language_words: int, windows: Optional[Dict[str, int]],
                 neighbour_words: Optional[int]) -> CompareComponent:
    """The gate, its settings from the config (``windows`` and ``neighbour_words`` are retired: accepted, with a
    warning, so a pipeline saved before the claim-level gate still loads). It writes nothing to a Doc, so it
    declares no assigned attributes and no score weights: the gate is scored on pairs."""
    retired = [name for name, value in (("windows", windows), ("neighbour_words", neighbour_words)) if value is not None]
    return CompareComponent(nlp, name, threshold=threshold, min_source_values=min_source_values, disabled=disabled,
                            check_language=check_language, min_language_score=min_language_score,
                            max_english_share=max_english_share, min_language_words=min_language_words,
                            retired=retired, lexicon_dir=lexicon_dir, verify_lexicons=verify_lexicons)
