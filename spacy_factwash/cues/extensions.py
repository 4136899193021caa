"""Doc and Span extensions for the cue layer, registered once and never clobbered.

With the default prefix ``factwash`` a Doc, a sentence or any Span gets:

- ``._.factwash_hedged``, ``._.factwash_attributed``, ``._.factwash_negated``,
  ``._.factwash_conditional``, ``._.factwash_temporal``: whether a resolved
  cue of that class lies inside it;
- ``._.factwash_cues``: those cue spans, in text order;

and a cue span gets ``._.factwash_source``: the span naming who is speaking,
for an attribution cue where one was found (else None).

All of these are getters over span groups, so nothing lives in ``user_data``
but plain strings, and the values survive pickling, ``DocBin`` and
``n_process`` without special handling.
"""

from typing import Callable, Dict, List, Optional, Tuple

from spacy.tokens import Doc, Span

DEFAULT_PREFIX = "factwash"
CUES_KEY = "factwash_cues"
SOURCES_KEY = "factwash_sources"
LEXICON_VERSION_KEY = "factwash_lexicon_version"
LEXICON_DIGEST_KEY = "factwash_lexicon_digest"
FLAG_NAMES = {
    "HEDGE": "hedged",
    "ATTRIBUTION": "attributed",
    "NEGATION": "negated",
    "CONDITIONAL": "conditional",
    "TEMPORAL": "temporal",
}
_OWNER = "_spacy_factwash_settings"


def source_link(cue: Span) -> str:
    """The key a source span carries (in ``kb_id_``) to point back at its cue."""
    return f"cue:{cue.start}-{cue.end}"


def _cues_within(container, spans_key: str) -> List[Span]:
    """Cue spans of the group whose tokens lie inside a Doc or Span."""
    doc = container if isinstance(container, Doc) else container.doc
    if spans_key not in doc.spans:
        return []
    if isinstance(container, Doc):
        return sorted(doc.spans[spans_key], key=lambda s: (s.start, s.end))
    start, end = container.start, container.end
    return sorted(
        (s for s in doc.spans[spans_key] if s.start >= start and s.end <= end),
        key=lambda s: (s.start, s.end),
    )


def _flag_getter(label: str, spans_key: str) -> Callable:
    def getter(container) -> bool:
        return any(span.label_ == label for span in _cues_within(container, spans_key))

    return getter


def _source_getter(sources_key: str) -> Callable:
    def getter(cue: Span) -> Optional[Span]:
        if sources_key not in cue.doc.spans:
            return None
        link = source_link(cue)
        for source in cue.doc.spans[sources_key]:
            if source.kb_id_ == link:
                return source
        return None

    return getter


def extension_names(prefix: str) -> Dict[str, str]:
    """The extension attribute names for a prefix, keyed by what they report."""
    names = {label: f"{prefix}_{flag}" for label, flag in FLAG_NAMES.items()}
    names["cues"] = f"{prefix}_cues"
    names["source"] = f"{prefix}_source"
    return names


def register_extensions(
    prefix: str = DEFAULT_PREFIX, spans_key: str = CUES_KEY, sources_key: str = SOURCES_KEY
) -> Dict[str, str]:
    """Register the cue extensions under ``prefix``; safe to call any number of times.

    An attribute already registered by another package, or by this package for
    other span keys, is never overwritten: that is an error asking for another
    prefix.
    """
    settings: Tuple[str, str] = (spans_key, sources_key)
    names = extension_names(prefix)
    wanted = []
    for label in FLAG_NAMES:
        getter = _flag_getter(label, spans_key)
        wanted += [(Doc, names[label], getter), (Span, names[label], getter)]
    cues_getter = lambda container: _cues_within(container, spans_key)  # noqa: E731
    wanted += [(Doc, names["cues"], cues_getter), (Span, names["cues"], cues_getter)]
    wanted.append((Span, names["source"], _source_getter(sources_key)))
    for cls, name, getter in wanted:
        if cls.has_extension(name):
            existing = cls.get_extension(name)[2]
            owner = getattr(existing, _OWNER, None)
            if owner != settings:
                raise ValueError(
                    f"{cls.__name__} extension '{name}' is already registered "
                    f"({'by another package' if owner is None else f'for spans keys {owner}'}); "
                    "choose another extension_prefix for this factwash component."
                )
            continue
        setattr(getter, _OWNER, settings)
        cls.set_extension(name, getter=getter)
    return names
