"""The cue component: one matcher pass over the frozen lexicons, resolved by the class detectors.

``factwash_cues`` (``factory.py``) runs all five detectors; ``factwash_hedge``
and its siblings (registered beside each detector) run one. Either way the component:

1. is built empty, like spaCy's SpanRuler, and gets its verified lexicon set
   once: from ``initialize`` (``[initialize.components.factwash_cues]``:
   ``lexicon_dir`` and ``entries``), from ``from_disk``/``from_bytes`` (the
   set saved with the pipeline, so a saved pipeline needs no source folder),
   or, for a component added and used straight away, from its configured
   ``lexicon_dir`` (the packaged set when null) at its first document; the
   set is compiled once into one matcher (``anchored.py``): phrases on LOWER,
   token patterns run only around their anchors. ``add_entries`` adds user
   entries at run time (validated as the files' lines are) to that matcher;
2. per document, matches on the text as a reader sees it (``normalise.py``:
   shouted words, zero-width and look-alike characters, compatibility forms;
   a text that needs none of it is matched as it is), and hands each class's
   raw matches to its detector;
3. writes the resolved cues to ``doc.spans[spans_key]`` (replacing only its
   own classes, so single-class components compose), attribution sources to
   ``doc.spans["factwash_sources"]`` (always there, empty when no speaker was
   found), and the lexicon version and digest to ``doc.user_data``.

Serialization writes the exact lexicon files and manifest into the pipeline
(with ``user.jsonl`` when entries were added), so a saved pipeline keeps the
lexicon version it was built with.
"""

from functools import partial
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import srsly
from spacy import util
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span
from spacy.util import SimpleFrozenList

from ...lexicon.frozen import (
    CLASS_FILES,
    MANIFEST,
    USER_FILE,
    Entry,
    LexiconSet,
    lexicons_from_bytes,
    load_lexicons,
    user_entries,
)
from ...lexicon.matcher import AnchoredMatcher
from ...syntax.clauses import scope_spans
from ...syntax.normalise import carry, case_forms, reading
from ...syntax.scope import STYLES, narrowed_scope_spans
from .detector import CueDetector, Match
from .extensions import (
    CUES_KEY,
    DEFAULT_PREFIX,
    LEXICON_DIGEST_KEY,
    LEXICON_VERSION_KEY,
    SCOPES_KEY,
    SOURCES_KEY,
    register_extensions,
    source_link,
)
from .scorer import score_cues

SOURCE_LABEL = "SOURCE"
LEXICON_SUBDIR = "lexicons"
DEFAULT_CONFIG = {
    "spans_key": CUES_KEY,
    "lexicon_dir": None,
    "verify_lexicons": True,
    "extension_prefix": DEFAULT_PREFIX,
    "scope_style": None,
    "scorer": {"@scorers": "spacy_factwash.cue_scorer.v1"},
}


class CueComponent(Pipe):
    """Match frozen lexicons and resolve the matches into labelled cue spans."""

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
        self.name = name
        self.vocab = nlp.vocab
        self.tokenizer = nlp.tokenizer
        self.detectors = {detector.label: detector for detector in detectors}
        self.spans_key = spans_key
        self.verify_lexicons = verify_lexicons
        self.extension_prefix = extension_prefix
        self.scope_style = scope_style
        self.scorer = partial(scorer, spans_key=spans_key) if scorer is not None else None
        self.extension_names = register_extensions(extension_prefix, spans_key, SOURCES_KEY, SCOPES_KEY)
        self.lexicon_dir = lexicon_dir
        self._lexicons: Optional[LexiconSet] = None  # set by initialize, from_disk/from_bytes, or the first document

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
        if self._lexicons is None:
            self.set_lexicons(load_lexicons(self.lexicon_dir, verify=self.verify_lexicons))
        return self._lexicons

    def initialize(self, get_examples: Optional[Callable] = None, *, nlp: Optional[Language] = None,
                   lexicon_dir: Optional[str] = None, entries: Optional[Iterable[dict]] = None) -> None:
        """Load and compile the lexicon set (``nlp.initialize()``, ``spacy assemble``): the frozen set in
        ``lexicon_dir`` (the component's configured folder, or the packaged set, when null), then ``entries``
        added as by ``add_entries``. Settings come from ``[initialize.components.<name>]``."""
        self.set_lexicons(load_lexicons(lexicon_dir or self.lexicon_dir, verify=self.verify_lexicons))
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
        self._lexicons = self.lexicons.with_entries(added)
        for entry in added:
            self._compile(entry)
        self.case_forms = case_forms(self._lexicons.entries, self.tokenizer)
        return added

    def set_lexicons(self, lexicons: LexiconSet) -> None:
        """Compile the matchers for a lexicon set; done once, never per document."""
        self._lexicons = lexicons
        # match key (the entry id's hash) -> (label, entry id, is it an exclusion), resolved once here
        self.entries: Dict[int, Tuple[str, str, bool]] = {}
        self.matcher = AnchoredMatcher(self.vocab)
        for entry in lexicons.entries:
            if entry.label in self.detectors:
                self._compile(entry)
        self.case_forms = case_forms(lexicons.entries, self.tokenizer)

    def _compile(self, entry: Entry) -> None:
        """Add one entry to the matcher and remember what its match key stands for."""
        key = self.matcher.add_entry(entry, self.tokenizer)
        self.entries[key] = (entry.label, entry.id, entry.role == "exclusion")

    def explain(self, cue: Span) -> Entry:
        """The lexicon entry behind a cue span: its pattern, role and provenance."""
        return self.lexicons.get(cue.id_)

    def __call__(self, doc: Doc) -> Doc:
        """Annotate one document with resolved cues of this component's classes."""
        lexicons = self.lexicons  # read and compiled here when neither initialized nor loaded
        read, shadow = reading(doc, self.case_forms, self.tokenizer)
        found = self._resolve(read, lexicons)
        cues: List[Span] = []
        sources: List[Span] = []
        for cue, entry_id, source in found:
            if shadow is not None:
                cue, source = carry(doc, shadow, cue), source and carry(doc, shadow, source)
            cues.append(Span(doc, cue.start, cue.end, label=cue.label, span_id=entry_id))
            if source is not None:
                sources.append(Span(doc, source.start, source.end, label=SOURCE_LABEL, kb_id=source_link(cues[-1]),
                                    span_id=entry_id))
        self._write(doc, cues, sources, lexicons)
        return doc

    def parse_matters(self, doc: Doc) -> bool:
        """Whether a parse could change this component's cues on ``doc``: a parse only changes how the classes
        whose detectors read it (``reads_parse``) resolve their candidates, so only a Doc where the lexicon
        matches a candidate of such a class. (Lets a caller parse only the Docs where it matters.)"""
        self.lexicons  # read and compiled here when neither initialized nor loaded
        read, _ = reading(doc, self.case_forms, self.tokenizer)
        parsed = {label for label, detector in self.detectors.items() if detector.reads_parse}
        return any(label in parsed and not is_exclusion
                   for label, _, is_exclusion in (self.entries[key] for key, _, _ in self.matcher(read)))

    def _resolve(self, doc: Doc, lexicons: LexiconSet) -> List[Tuple[Span, str, Optional[Span]]]:
        """Each resolved cue of ``doc`` (the Doc itself or its shadow) with its entry id and speaker span."""
        raw: Dict[str, Tuple[List[Match], List[Match]]] = {}
        for key, start, end in self.matcher(doc):
            label, _, is_exclusion = self.entries[key]
            bucket = raw.get(label)
            if bucket is None:
                bucket = raw[label] = ([], [])
            bucket[is_exclusion].append(Match(start, end, key))
        found = []
        for detector_label, (candidates, exclusions) in raw.items():
            detector = self.detectors[detector_label]
            for start, end, key in detector.resolve(doc, candidates, exclusions):
                label, entry_id, _ = self.entries[key]
                cue = Span(doc, start, end, label=label)
                found.append((cue, entry_id, detector.source_of(doc, cue, lexicons.get(entry_id))))
        return found

    def _write(self, doc: Doc, cues: List[Span], sources: List[Span], lexicons: LexiconSet) -> None:
        """Replace this component's classes in the span groups, keeping other classes' spans.

        The sources group is always written (empty when no speaker was found). The scopes group (``clauses.py``:
        the clauses each cue qualifies) is worked out again from every cue in the group, so single-class
        components composed in one pipeline give the scopes ``factwash_cues`` gives.
        """
        mine = self.detectors
        if self.spans_key in doc.spans:
            cues += [s for s in doc.spans[self.spans_key] if s.label_ not in mine]
        if len(cues) > 1:
            cues.sort(key=lambda s: (s.start, s.end, s.label_))
        doc.spans[self.spans_key] = cues
        if SOURCES_KEY in doc.spans:
            sources += [s for s in doc.spans[SOURCES_KEY] if s.id_.split(":", 1)[0].upper() not in mine]
        doc.spans[SOURCES_KEY] = sorted(sources, key=lambda s: (s.start, s.end))
        if self.scope_style is None:
            scopes = scope_spans(doc, cues, sources)
        else:
            scopes = narrowed_scope_spans(doc, cues, sources, self.scope_style)
        if scopes or SCOPES_KEY in doc.spans:
            doc.spans[SCOPES_KEY] = scopes
        doc.user_data[LEXICON_VERSION_KEY] = lexicons.version
        doc.user_data[LEXICON_DIGEST_KEY] = lexicons.digest

    # -- serialization: the lexicon files travel with the pipeline ---------------------------

    def _lexicon_payload(self) -> Dict[str, bytes]:
        return {**self.lexicons.files, MANIFEST: self.lexicons.manifest}

    def _load_payload(self, payload: Dict[str, bytes], origin: str) -> None:
        files = {name: payload[name] for name in (*CLASS_FILES, USER_FILE) if name in payload}
        if MANIFEST not in payload:
            raise ValueError(f"{origin}: the saved component has no lexicon manifest")
        self.set_lexicons(lexicons_from_bytes(files, payload[MANIFEST], origin=origin, verify=self.verify_lexicons))

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialize the component's lexicon files and manifest."""
        return util.to_bytes({"lexicons": lambda: srsly.msgpack_dumps(self._lexicon_payload())}, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()) -> "CueComponent":
        """Load lexicon files from bytes, verifying them against their manifest."""
        loaders = {"lexicons": lambda b: self._load_payload(srsly.msgpack_loads(b), f"<bytes of {self.name}>")}
        util.from_bytes(bytes_data, loaders, exclude)
        return self

    def to_disk(self, path, *, exclude: Iterable[str] = SimpleFrozenList()) -> None:
        """Write the lexicon files and manifest, byte for byte, into ``path/lexicons``."""
        folder = Path(path) / LEXICON_SUBDIR
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in self._lexicon_payload().items():
            (folder / name).write_bytes(data)

    def from_disk(self, path, *, exclude: Iterable[str] = SimpleFrozenList()) -> "CueComponent":
        """Load the lexicon set saved with the pipeline, verifying its manifest."""
        self.set_lexicons(load_lexicons(Path(path) / LEXICON_SUBDIR, verify=self.verify_lexicons))
        return self

    def __reduce__(self):
        """Pickle by attributes, so that unpickling (an ``n_process`` worker) re-registers the extensions."""
        return (_unpickle_component, (type(self), self.name, dict(self.__dict__)))


def _unpickle_component(cls, name: str, state: dict) -> CueComponent:
    """Rebuild a pickled cue component and register its extensions in this process."""
    component = cls.__new__(cls)
    component.name = name
    component.__dict__.update(state)
    register_extensions(component.extension_prefix, component.spans_key, SOURCES_KEY, SCOPES_KEY)
    return component


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
    return Language.factory(factory_name, default_config=DEFAULT_CONFIG, assigns=["doc.spans"], func=make)
