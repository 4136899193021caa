"""The ``factwash_strength`` component: one pass of the frozen strength lexicon over each Doc.

Like the cue component (``cues/component.py``), it lives as spaCy's
SpanRuler does (``pipes/base.py``): built empty, given its verified lexicon
set (and the syntax tables its text reading uses) once by ``initialize``,
``from_disk``/``from_bytes`` or at its first document, saved with the
pipeline; it compiles the set once into an ``AnchoredMatcher`` (its token patterns checked in C where their
anchor word places them: ``lexicon/fixed.py``), resolves each class's raw matches with a ``CueDetector``
(exclusions, then the longest of overlapping matches; a Doc's lone match needs neither), and
writes the survivors to ``doc.spans[spans_key]`` labelled ``CAUSAL``,
``ASSOCIATION`` or ``MODAL`` with the lexicon entry as ``span.id_``. The
lexicon version goes to ``doc.user_data["factwash_strength_lexicon_version"]``
and the configured modal reach to ``doc.user_data["factwash_strength_modal_reach"]``
(a string and an int, so the Doc says how it is to be read). Deciding a claim's strength is left to ``claim_strength``,
which reads the group on whatever span it is given.
"""

from functools import partial
from typing import Callable, Dict, List, Mapping, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...lexicon.entries import Entry
from ...lexicon.frozen import LexiconSet
from ...lexicon.matcher import AnchoredMatcher, Found, by_class
from ...lexicon.phrases import PhraseWords
from ...lexicon.sets import STRENGTH, STRENGTH_FILES, SYNTAX
from ...syntax.normalise import carry, case_forms, reading
from ..base import LexiconPipe
from ..cues.detector import CueDetector
from ..cues.extensions import CUES_KEY, DEFAULT_PREFIX
from ..cues.scorer import score_cues, span_score_weights
from .certainty import remember_scale
from .claim import DEFAULT_MODAL_REACH, MODAL_REACH_KEY, STRENGTH_KEY, STRENGTH_VERSION_KEY
from .extensions import register_strength_extensions
from .lexicon import scale_of

DEFAULT_CONFIG = {
    "spans_key": STRENGTH_KEY,
    "cues_key": CUES_KEY,
    "lexicon_dir": None,
    "verify_lexicons": True,
    "extension_prefix": DEFAULT_PREFIX,
    "modal_reach": DEFAULT_MODAL_REACH,
    "scorer": {"@scorers": "spacy_factwash.cue_scorer.v1"},
}


class StrengthClass(CueDetector):
    """Resolve the matches of one strength class: its exclusions, then the longest of overlapping matches."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.name = label.lower()


class StrengthComponent(LexiconPipe):
    """Match the frozen strength lexicon and write its cue spans to a span group."""

    holds = {"lexicons": STRENGTH, "syntax": SYNTAX}
    required = ("lexicons",)

    def __init__(
        self,
        nlp: Language,
        name: str,
        *,
        spans_key: str = STRENGTH_KEY,
        cues_key: str = CUES_KEY,
        lexicon_dir: Optional[str] = None,
        verify_lexicons: bool = True,
        extension_prefix: str = DEFAULT_PREFIX,
        modal_reach: int = DEFAULT_MODAL_REACH,
        scorer: Optional[Callable] = score_cues,
    ) -> None:
        if not spans_key or spans_key == cues_key:
            raise ValueError(f"{name}: spans_key must be a non-empty key other than the cue group {cues_key!r}")
        if isinstance(modal_reach, bool) or not isinstance(modal_reach, int) or modal_reach < 0:
            raise ValueError(f"{name}: modal_reach must be a whole number of tokens >= 0, got {modal_reach!r}")
        super().__init__(nlp, name, verify_lexicons=verify_lexicons, folders={"lexicons": lexicon_dir})
        self.tokenizer = nlp.tokenizer
        self.spans_key = spans_key
        self.cues_key = cues_key
        self.extension_prefix = extension_prefix
        self.modal_reach = modal_reach
        self.scorer = partial(scorer, spans_key=spans_key) if scorer is not None else None
        self.extension_names = register_strength_extensions(extension_prefix, spans_key, cues_key)

    @property
    def labels(self) -> Tuple[str, ...]:
        """The cue classes this component writes."""
        return tuple(STRENGTH_FILES.values())

    @property
    def lexicon_version(self) -> str:
        """The version of the strength lexicon in use (suffixed ``+unfrozen`` when not verified)."""
        return self.lexicons.version

    @property
    def lexicons(self) -> LexiconSet:
        """The strength lexicon set in use (its configured ``lexicon_dir``, the packaged set when null, read the
        first time it is asked when the component was neither initialized nor loaded)."""
        return self.sets["lexicons"]

    def initialize(self, get_examples: Optional[Callable] = None, *, nlp: Optional[Language] = None,
                   lexicon_dir: Optional[str] = None) -> None:
        """Load and compile the strength lexicon set (``nlp.initialize()``, ``spacy assemble``): the frozen set in
        ``lexicon_dir`` (the configured folder, or the packaged set, when null), and the packaged tables."""
        self.load_sets(lexicons=lexicon_dir)

    def compile(self, sets: Mapping[str, LexiconSet]) -> None:
        """Compile the matcher and read the certainty scale of the lexicon set; done once, never per document."""
        lexicons = sets["lexicons"]
        self.scale = scale_of(lexicons)
        remember_scale(lexicons.version, self.scale)
        self.classes = {label: StrengthClass(label) for label in self.labels}
        self.entries: Dict[int, Tuple[str, bool]] = {}
        self.matcher = AnchoredMatcher(self.vocab)
        split = PhraseWords(self.tokenizer)  # each phrase tokenized once, for the matcher and the case forms
        for entry in lexicons.entries:
            self.entries[self.matcher.add_entry(entry, split)] = (entry.label, entry.role == "exclusion")
        self.case_forms = case_forms(lexicons.entries, split)

    def restored(self) -> None:
        """Unpickled in a process: register the extensions and the certainty scale there."""
        self.extension_names = register_strength_extensions(self.extension_prefix, self.spans_key, self.cues_key)
        remember_scale(self.lexicon_version, self.scale)

    def explain(self, cue: Span) -> Entry:
        """The lexicon entry behind a strength cue span."""
        return self.lexicons.get(cue.id_)

    def matches(self, doc: Doc) -> List[Found]:
        """The raw matches of every strength entry on a Doc (the one it is read as: ``syntax/normalise.py``), as
        (key, start, end) in no set order, exclusions among them."""
        return self.matcher(doc)

    def resolved(self, doc: Doc, found: List[Found]) -> List[Tuple[int, int, str, int]]:
        """The cues that survive among a Doc's raw matches, as (start, end, label, key) in span order: each class's
        candidates without its exclusions and the longest of its overlapping candidates (a lone candidate is
        kept as it is: no strength class rejects one)."""
        if len(found) == 1:
            key, start, end = found[0]
            label, is_exclusion = self.entries[key]
            return [] if is_exclusion else [(start, end, label, key)]
        cues = [(start, end, label, key)
                for label, (candidates, exclusions) in by_class(found, self.entries.__getitem__).items() if candidates
                for start, end, key in self.classes[label].resolve(doc, candidates, exclusions)]
        cues.sort()
        return cues

    def __call__(self, doc: Doc) -> Doc:
        """Write the resolved strength cues of one document to its span group (matched, like the cues, on the
        text as a reader sees it: ``syntax/normalise.py``); a Doc with no match gets an empty group."""
        version = self.lexicon_version  # the lexicon read and compiled here when neither initialized nor loaded
        read, shadow = reading(doc, self.case_forms, self.tokenizer)
        found = self.matches(read)
        spans = []
        if found:
            for start, end, label, key in self.resolved(read, found):
                if shadow is not None:
                    carried = carry(doc, shadow, read[start:end])
                    start, end = carried.start, carried.end
                spans.append(Span(doc, start, end, label=label, span_id=key))
            if shadow is not None and len(spans) > 1:  # carried spans may stand in another order
                spans.sort(key=lambda s: (s.start, s.end, s.label_))
        doc.spans[self.spans_key] = spans
        doc.user_data[STRENGTH_VERSION_KEY] = version
        doc.user_data[MODAL_REACH_KEY] = self.modal_reach
        return doc


@Language.factory("factwash_strength", default_config=DEFAULT_CONFIG, requires=["doc.spans"],
                  assigns=["doc.spans", "doc.user_data"], default_score_weights=span_score_weights(STRENGTH_KEY))
def make_strength(
    nlp: Language,
    name: str,
    spans_key: str,
    cues_key: str,
    lexicon_dir: Optional[str],
    verify_lexicons: bool,
    extension_prefix: str,
    modal_reach: int,
    scorer: Optional[Callable],
) -> StrengthComponent:
    """Build a factwash_strength component from its config settings."""
    return StrengthComponent(
        nlp, name, spans_key=spans_key, cues_key=cues_key, lexicon_dir=lexicon_dir, verify_lexicons=verify_lexicons,
        extension_prefix=extension_prefix, modal_reach=modal_reach, scorer=scorer,
    )
