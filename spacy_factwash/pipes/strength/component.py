"""The ``factwash_strength`` component: one pass of the frozen strength lexicon over each Doc.

Like the cue component (``cues/matcher.py``), it compiles a verified lexicon
set once into an ``AnchoredMatcher``, resolves each class's raw matches with
a ``CueDetector`` (exclusions, then the longest of overlapping matches), and
writes the survivors to ``doc.spans[spans_key]`` labelled ``CAUSAL``,
``ASSOCIATION`` or ``MODAL`` with the lexicon entry as ``span.id_``. The
lexicon version goes to ``doc.user_data["factwash_strength_lexicon_version"]``
and the configured modal reach to ``doc.user_data["factwash_strength_modal_reach"]``
(a string and an int, so the Doc says how it is to be read). Deciding a claim's strength is left to ``claim_strength``,
which reads the group on whatever span it is given.
"""

from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import srsly
from spacy import util
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span
from spacy.util import SimpleFrozenList

from ...lexicon.frozen import MANIFEST, Entry, LexiconSet, lexicons_from_bytes
from ...lexicon.matcher import AnchoredMatcher
from ...syntax.normalise import carry, case_forms, reading
from ..cues.detector import CueDetector, Match
from ..cues.extensions import CUES_KEY, DEFAULT_PREFIX
from ..cues.scorer import score_cues
from .certainty import remember_scale
from .claim import DEFAULT_MODAL_REACH, MODAL_REACH_KEY, STRENGTH_KEY, STRENGTH_VERSION_KEY
from .extensions import register_strength_extensions
from .lexicon import STRENGTH_DATA, STRENGTH_FILES, load_strength_lexicon, scale_of

LEXICON_SUBDIR = "lexicons"
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


class StrengthComponent(Pipe):
    """Match the frozen strength lexicon and write its cue spans to a span group."""

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
        self.name = name
        self.vocab = nlp.vocab
        self.tokenizer = nlp.tokenizer
        self.spans_key = spans_key
        self.cues_key = cues_key
        self.verify_lexicons = verify_lexicons
        self.extension_prefix = extension_prefix
        self.modal_reach = modal_reach
        self.scorer = partial(scorer, spans_key=spans_key) if scorer is not None else None
        self.set_lexicons(load_strength_lexicon(lexicon_dir, verify=verify_lexicons))

    @property
    def labels(self) -> Tuple[str, ...]:
        """The cue classes this component writes."""
        return tuple(STRENGTH_FILES.values())

    @property
    def lexicon_version(self) -> str:
        """The version of the strength lexicon in use (suffixed ``+unfrozen`` when not verified)."""
        return self.lexicons.version

    def set_lexicons(self, lexicons: LexiconSet) -> None:
        """Compile the matcher and read the certainty scale of a lexicon set; done once, never per document."""
        self.scale = scale_of(lexicons)
        remember_scale(lexicons.version, self.scale)
        self.lexicons = lexicons
        self.classes = {label: StrengthClass(label) for label in self.labels}
        self.entries: Dict[int, Tuple[str, bool]] = {}
        self.matcher = AnchoredMatcher(self.vocab)
        for entry in lexicons.entries:
            self.entries[self.matcher.add_entry(entry, self.tokenizer)] = (entry.label, entry.role == "exclusion")
        self.case_forms = case_forms(lexicons.entries, self.tokenizer)
        self.extension_names = register_strength_extensions(
            self.extension_prefix, self.spans_key, self.cues_key
        )

    def explain(self, cue: Span) -> Entry:
        """The lexicon entry behind a strength cue span."""
        return self.lexicons.get(cue.id_)

    def __call__(self, doc: Doc) -> Doc:
        """Write the resolved strength cues of one document to its span group (matched, like the cues, on the
        text as a reader sees it: ``cues/normalise.py``)."""
        read, shadow = reading(doc, self.case_forms, self.tokenizer)
        raw: Dict[str, Tuple[List[Match], List[Match]]] = {label: ([], []) for label in self.labels}
        for key, start, end in self.matcher(read):
            label, is_exclusion = self.entries[key]
            raw[label][is_exclusion].append(Match(start, end, key))
        spans = []
        for label, (candidates, exclusions) in raw.items():
            for start, end, key in self.classes[label].resolve(read, candidates, exclusions) if candidates else ():
                span = read[start:end] if shadow is None else carry(doc, shadow, read[start:end])
                spans.append(Span(doc, span.start, span.end, label=label, span_id=key))
        spans.sort(key=lambda s: (s.start, s.end, s.label_))
        doc.spans[self.spans_key] = spans
        doc.user_data[STRENGTH_VERSION_KEY] = self.lexicon_version
        doc.user_data[MODAL_REACH_KEY] = self.modal_reach
        return doc

    # -- serialization: the lexicon files and the scale travel with the pipeline ---------------

    def _payload(self) -> Dict[str, bytes]:
        return {**self.lexicons.files, MANIFEST: self.lexicons.manifest}

    def _load(self, payload: Dict[str, Any], origin: str) -> None:
        if MANIFEST not in payload:
            raise ValueError(f"{origin}: the saved {self.name} component has no lexicon manifest")
        self.set_lexicons(lexicons_from_bytes(
            {name: data for name, data in payload.items() if name != MANIFEST}, payload[MANIFEST], origin=origin,
            verify=self.verify_lexicons, class_files=STRENGTH_FILES, data_files=STRENGTH_DATA,
        ))

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialize the lexicon files, scale and manifest."""
        return util.to_bytes({"lexicons": lambda: srsly.msgpack_dumps(self._payload())}, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()) -> "StrengthComponent":
        """Load the lexicon files from bytes, verifying them against their manifest."""
        util.from_bytes(bytes_data, {"lexicons": lambda b: self._load(srsly.msgpack_loads(b), f"<bytes of {self.name}>")},
                        exclude)
        return self

    def to_disk(self, path, *, exclude: Iterable[str] = SimpleFrozenList()) -> None:
        """Write the lexicon files, scale and manifest, byte for byte, into ``path/lexicons``."""
        folder = Path(path) / LEXICON_SUBDIR
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in self._payload().items():
            (folder / name).write_bytes(data)

    def from_disk(self, path, *, exclude: Iterable[str] = SimpleFrozenList()) -> "StrengthComponent":
        """Load the lexicon set saved with the pipeline, verifying its manifest."""
        self.set_lexicons(load_strength_lexicon(Path(path) / LEXICON_SUBDIR, verify=self.verify_lexicons))
        return self

    def __reduce__(self):
        """Pickle by settings and lexicon bytes, so that unpickling (an ``n_process`` worker) re-registers the extensions."""
        return (_unpickle, (type(self), self.name, self._settings(), self._payload()))

    def _settings(self) -> Dict[str, Any]:
        return {"vocab": self.vocab, "tokenizer": self.tokenizer, "spans_key": self.spans_key,
                "cues_key": self.cues_key, "verify_lexicons": self.verify_lexicons,
                "extension_prefix": self.extension_prefix, "modal_reach": self.modal_reach, "scorer": self.scorer}


def _unpickle(cls, name: str, settings: Dict[str, Any], payload: Dict[str, bytes]) -> StrengthComponent:
    """Rebuild a pickled strength component (and its extensions) in this process."""
    component = cls.__new__(cls)
    component.name = name
    component.__dict__.update(settings)
    component._load(payload, f"<pickle of {name}>")
    return component


@Language.factory("factwash_strength", default_config=DEFAULT_CONFIG, assigns=["doc.spans"])
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
