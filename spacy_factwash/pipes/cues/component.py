"""The cue component: one matcher pass over the frozen lexicons, resolved by the class detectors.

``factwash_cues`` (``factory.py``) runs all five detectors; ``factwash_hedge``
and its siblings (registered beside each detector) run one. Either way the component:

1. is built empty, like spaCy's SpanRuler (``pipes/base.py``), and gets its
   verified sets once: its lexicon set and the tables its functions read
   (the syntax tables: clause words, scope words, look-alike letters; the
   sense lists), from ``initialize``
   (``[initialize.components.factwash_cues]``: ``lexicon_dir`` and
   ``entries``), from ``from_disk``/``from_bytes`` (the sets saved with the
   pipeline, so a saved pipeline needs no source folder), or, for a component
   added and used straight away, from its configured ``lexicon_dir`` (the
   packaged set when null) at its first document; the lexicon is compiled
   once into one matcher (``anchored.py``): phrases on LOWER, token patterns
   run only around their anchors. ``add_entries`` adds user entries at run
   time (validated as the files' lines are) to that matcher;
2. per document, matches on the text as a reader sees it (``normalise.py``:
   shouted words, zero-width and look-alike characters, compatibility forms;
   a text that needs none of it is matched as it is), and hands each class's
   raw matches to its detector;
3. writes the resolved cues to ``doc.spans[spans_key]`` (replacing only its
   own classes, so single-class components compose), attribution sources to
   ``doc.spans["factwash_sources"]`` (always there, empty when no speaker was
   found), and the lexicon version and digest to ``doc.user_data``.

Serialization writes the exact files and manifest of every set into the
pipeline (``lexicons/``, with ``user.jsonl`` when entries were added;
``syntax/``, ``sense/``), so a saved pipeline keeps the lexicon version it
was built with.
"""

from functools import partial
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...lexicon.entries import Entry, user_entries
from ...lexicon.frozen import LexiconSet
from ...lexicon.matcher import AnchoredMatcher, Found, by_class
from ...lexicon.phrases import PhraseWords
from ...lexicon.sets import CUES, SENSE, SYNTAX
from ...syntax.links import source_link
from ...syntax.normalise import Shadow, carry, case_forms, matched_reading
from ...syntax.scope import STYLES, narrowed_scope_spans
from ...syntax.sense import installed_rules
from ..base import LexiconPipe
from .detector import CueDetector
from .extensions import (
    CUES_KEY,
    DEFAULT_PREFIX,
    LEXICON_DIGEST_KEY,
    LEXICON_VERSION_KEY,
    SCOPES_KEY,
    SOURCES_KEY,
    forget_scopes,
    register_extensions,
)
from .scorer import score_cues, span_score_weights

SOURCE_LABEL = "SOURCE"
DEFAULT_CONFIG = {
    "spans_key": CUES_KEY,
    "lexicon_dir": None,
    "verify_lexicons": True,
    "extension_prefix": DEFAULT_PREFIX,
    "scope_style": None,
    "scorer": {"@scorers": "spacy_factwash.cue_scorer.v1"},
}


class CueComponent(LexiconPipe):
    """Match frozen lexicons and resolve the matches into labelled cue spans."""

    holds = {"lexicons": CUES, "syntax": SYNTAX, "sense": SENSE}
    required = ("lexicons",)

    def __init__(
        self,
        nlp: Language,
        name: str,
        detectors: Sequence[CueDetector],
        *,
        spans_key: str = CUES_KEY,
        lexicon_dir: Optional[str] = None,
        verify_lexicons: bool = True,
        extension_prefix: str = DEFAULT_PREFIX,
        scope_style: Optional[str] = None,
        scorer: Optional[Callable] = score_cues,
    ) -> None:
        if not detectors:
            raise ValueError(f"{name}: a cue component needs at least one detector")
        if not spans_key or spans_key == SOURCES_KEY:
            raise ValueError(f"{name}: spans_key must be a non-empty key other than {SOURCES_KEY!r}")
        if scope_style is not None and scope_style not in STYLES:
            raise ValueError(f"{name}: scope_style must be null (the whole clauses) or one of {', '.join(STYLES)}, "
                             f"not {scope_style!r}")
        super().__init__(nlp, name, verify_lexicons=verify_lexicons, folders={"lexicons": lexicon_dir})
        self.tokenizer = nlp.tokenizer
        self.detectors = {detector.label: detector for detector in detectors}
        self.spans_key = spans_key
        self.extension_prefix = extension_prefix
        self.scope_style = scope_style
        self.scorer = partial(scorer, spans_key=spans_key) if scorer is not None else None
        self.extension_names = register_extensions(extension_prefix, spans_key, SOURCES_KEY, SCOPES_KEY)

    @property
    def labels(self) -> Tuple[str, ...]:
        """The cue classes this component writes."""
        return tuple(self.detectors)

    @property
    def lexicon_version(self) -> str:
        """The version of the lexicon set in use (suffixed ``+user`` with added entries, ``+unfrozen`` when not
        verified)."""
        return self.lexicons.version

    @property
    def lexicons(self) -> LexiconSet:
        """The lexicon set in use; a component neither initialized nor loaded reads its configured
        ``lexicon_dir`` (the packaged set when null) the first time it is asked."""
        if self._sets is None:  # not through ``self.sets``: the gate asks for this in every comparison
            self.load_sets()
        return self._sets["lexicons"]

    def initialize(self, get_examples: Optional[Callable] = None, *, nlp: Optional[Language] = None,
                   lexicon_dir: Optional[str] = None, entries: Optional[Iterable[dict]] = None) -> None:
        """Load and compile the lexicon set (``nlp.initialize()``, ``spacy assemble``): the frozen set in
        ``lexicon_dir`` (the component's configured folder, or the packaged set, when null), then ``entries``
        added as by ``add_entries``; and the packaged tables. Settings come from
        ``[initialize.components.<name>]``."""
        self.load_sets(lexicons=lexicon_dir)
        if entries:
            self.add_entries(entries)

    def add_entries(self, entries: Iterable[dict]) -> List[Entry]:
        """Add lexicon entries at run time, as SpanRuler's ``add_patterns``: each a dict written as a line of a
        class file (``id``, ``label``, ``pattern``; ``role``, ``source``, ``value`` optional), validated the same
        way, of a class this component writes, with an id the set does not have. They carry provenance
        ``user``, change the set's digest and version (``+user``), and are saved with the pipeline. Returns the
        entries added."""
        added = user_entries(entries, self.labels, self.lexicons.by_id)
        if not added:
            return added
        self._sets["lexicons"] = self.lexicons.with_entries(added)
        split = PhraseWords(self.tokenizer)  # the tokenizer as it is now
        for entry in added:
            self._compile(entry, split)
        self.case_forms = case_forms(self._sets["lexicons"].entries, split, self.matcher.text_facts)
        return added

    def compile(self, sets: Mapping[str, LexiconSet]) -> None:
        """Compile the matchers for the lexicon set (the tables are read by the functions that use them); done once
        per load, never per document."""
        lexicons = sets["lexicons"]
        # match key (the entry id's hash) -> (label, entry id, is it an exclusion), resolved once here
        self.entries: Dict[int, Tuple[str, str, bool]] = {}
        self.matcher = AnchoredMatcher(self.vocab)
        split = PhraseWords(self.tokenizer)  # each phrase tokenized once, for the matcher and the case forms
        for entry in lexicons.entries:
            if entry.label in self.detectors:
                self._compile(entry, split)
        self.case_forms = case_forms(lexicons.entries, split, self.matcher.text_facts)

    def _compile(self, entry: Entry, split: PhraseWords) -> None:
        """Add one entry to the matcher (its phrases split by ``split``) and remember what its match key stands
        for."""
        key = self.matcher.add_entry(entry, split)
        self.entries[key] = (entry.label, entry.id, entry.role == "exclusion")

    def explain(self, cue: Span) -> Entry:
        """The lexicon entry behind a cue span: its pattern, role and provenance."""
        return self.lexicons.get(cue.id_)

    def __call__(self, doc: Doc) -> Doc:
        """Annotate one document with resolved cues of this component's classes."""
        lexicons = self.lexicons  # read and compiled here when neither initialized nor loaded
        read, shadow, found = self._matches(doc)
        cues: List[Span] = []
        sources: List[Span] = []
        for cue, source in self._resolve(read, found, lexicons) if found else ():
            if shadow is not None:
                carried = carry(doc, shadow, cue)
                cue = Span(doc, carried.start, carried.end, label=cue.label, span_id=cue.id)
                source = source and carry(doc, shadow, source)
            cues.append(cue)
            if source is not None:
                sources.append(Span(doc, source.start, source.end, label=SOURCE_LABEL, kb_id=source_link(cue),
                                    span_id=cue.id))
        self._write(doc, cues, sources, lexicons)
        return doc

    def parse_matters(self, doc: Doc) -> bool:
        """Whether a parse could change this component's cues on ``doc``: a parse only changes how the classes
        whose detectors read it (``reads_parse``) resolve their candidates, and only a one-word candidate whose
        word the sense rules read the parse for (``sense.SenseRules.reads_parse``), so only a Doc where the
        lexicon matches such a candidate. (Lets a caller parse only the Docs where it matters.)"""
        self.lexicons  # read and compiled here when neither initialized nor loaded
        parsed = {label for label, detector in self.detectors.items() if detector.reads_parse}
        read, _, found = self._matches(doc)
        rules = installed_rules()
        for key, start, end in found:
            label, _, is_exclusion = self.entries[key]
            if (label in parsed and not is_exclusion and end - start == 1
                    and rules.reads_parse(read[start].lower_, label)):
                return True
        return False

    def _matches(self, doc: Doc) -> Tuple[Doc, Optional[Shadow], List[Found]]:
        """The Doc the lexicon is matched on (the Doc itself or its shadow), the shadow, and the raw matches on it
        (``normalise.matched_reading``: the case forms keep the matcher's ``text_facts``)."""
        return matched_reading(doc, self.case_forms, self.tokenizer, self.matcher)

    def _resolve(self, doc: Doc, found: List[Found], lexicons: LexiconSet) -> List[Tuple[Span, Optional[Span]]]:
        """Each resolved cue of ``doc`` (the Doc itself or its shadow) from its raw matches ``found``, labelled with
        its class and carrying its entry id as ``span.id_``, with its speaker span."""
        entries = self.entries
        resolved = []
        for detector_label, (candidates, exclusions) in by_class(
                found, lambda key: (entries[key][0], entries[key][2])).items():
            if not candidates:
                continue
            detector = self.detectors[detector_label]
            for start, end, key in detector.resolve(doc, candidates, exclusions):
                label, entry_id, _ = self.entries[key]
                cue = Span(doc, start, end, label=label, span_id=entry_id)
                resolved.append((cue, detector.source_of(doc, cue, lexicons.get(entry_id))))
        return resolved

    def _write(self, doc: Doc, cues: List[Span], sources: List[Span], lexicons: LexiconSet) -> None:
        """Replace this component's classes in the span groups, keeping other classes' spans.

        The sources group is always written (empty when no speaker was found). The scopes group (``clauses.py``:
        the clauses each cue qualifies) is dropped, to be worked out from every cue in the group when first read
        (``extensions.scopes_of``), so single-class components composed in one pipeline give the scopes
        ``factwash_cues`` gives; scopes narrowed by a ``scope_style`` are written now (an empty group when the
        Doc has cues, so that no read works out the unnarrowed ones instead).
        """
        mine = self.detectors
        groups = doc.spans
        if self.spans_key in groups:
            cues += [s for s in groups[self.spans_key] if s.label_ not in mine]
        if len(cues) > 1:
            cues.sort(key=lambda s: (s.start, s.end, s.label_))
        groups[self.spans_key] = cues
        if SOURCES_KEY in groups:
            sources += [s for s in groups[SOURCES_KEY] if s.id_.split(":", 1)[0].upper() not in mine]
        if len(sources) > 1:
            sources.sort(key=lambda s: (s.start, s.end))
        groups[SOURCES_KEY] = sources
        forget_scopes(doc, SCOPES_KEY)
        if self.scope_style is not None:
            scopes = narrowed_scope_spans(doc, cues, sources, self.scope_style)
            if scopes or cues:
                doc.spans[SCOPES_KEY] = scopes
        doc.user_data[LEXICON_VERSION_KEY] = lexicons.version
        doc.user_data[LEXICON_DIGEST_KEY] = lexicons.digest

    def restored(self) -> None:
        """Unpickled in a process (an ``n_process`` worker): register the extensions there."""
        register_extensions(self.extension_prefix, self.spans_key, SOURCES_KEY, SCOPES_KEY)


def register_factory(factory_name: str, detectors: Callable[[], Sequence[CueDetector]]) -> Callable:
    """Register a cue factory whose components run the detectors that ``detectors()`` builds.

    Every cue factory takes the same settings (``DEFAULT_CONFIG``), so they are
    made here once; each class module registers its own single-class factory.
    """

    def make(
        nlp: Language,
        name: str,
        spans_key: str,
        lexicon_dir: Optional[str],
        verify_lexicons: bool,
        extension_prefix: str,
        scope_style: Optional[str],
        scorer: Optional[Callable],
    ) -> CueComponent:
        return CueComponent(
            nlp, name, detectors(), spans_key=spans_key, lexicon_dir=lexicon_dir,
            verify_lexicons=verify_lexicons, extension_prefix=extension_prefix, scope_style=scope_style,
            scorer=scorer,
        )

    make.__name__ = make.__qualname__ = f"make_{factory_name}"
    make.__doc__ = f"Build a {factory_name} component from its config settings."
    return Language.factory(factory_name, default_config=DEFAULT_CONFIG, assigns=["doc.spans", "doc.user_data"],
                            default_score_weights=span_score_weights(CUES_KEY), func=make)

