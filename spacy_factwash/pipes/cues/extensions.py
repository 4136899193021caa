"""Doc and Span extensions for the cue layer, registered once and never clobbered.

With the default prefix ``factwash`` a Doc, a sentence or any Span gets:

- ``._.factwash_hedged``, ``._.factwash_attributed``, ``._.factwash_negated``,
  ``._.factwash_conditional``, ``._.factwash_temporal``: whether a resolved
  cue of that class lies inside it or (for a Span) it lies inside the scope
  of one, as negspacy's ``._.negex`` reads for an entity;
- ``._.factwash_cues``: those cue spans, in text order;

and a cue span gets ``._.factwash_source``: the span naming who is speaking,
for an attribution cue where one was found (else None), and
``._.factwash_scope``: the clauses it qualifies (``clauses.py``).

All of these are getters over span groups (``factwash_cues``,
``factwash_sources``, and ``factwash_scopes``, which links each scope span
to its cue by ``kb_id``), so nothing lives in ``user_data`` but plain
strings, and the values survive pickling, ``DocBin`` and ``n_process``
without special handling.

The scopes are worked out when first read, not when the cues are written
(``scopes_of``): most Docs are annotated for their cues and never asked for
a scope, and segmenting clauses costs more than finding the cues. The first
read of a scope (a flag on a Span, ``._.factwash_scope``, or ``scopes_of``)
writes the ``factwash_scopes`` group from the Doc's cues, speakers and
sentences, so a Doc read once and then saved keeps its group, and a Doc
saved before any read (a ``DocBin``, a Doc from another process) works its
scopes out again, the same, when they are read.
"""

from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple
from weakref import WeakSet

from spacy.tokens import Doc, Span

from ...syntax.clauses import scope_spans
from ...syntax.links import source_link

DEFAULT_PREFIX = "factwash"
CUES_KEY = "factwash_cues"
SOURCES_KEY = "factwash_sources"
SCOPES_KEY = "factwash_scopes"
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
_UNSCOPED: "WeakSet[Doc]" = WeakSet()  # Docs whose scopes were worked out and are none (no group is written)


def scopes_of(doc: Doc, spans_key: str = CUES_KEY, sources_key: str = SOURCES_KEY,
              scopes_key: str = SCOPES_KEY) -> Sequence[Span]:
    """The scope spans of a Doc (``clauses.scope_spans``), sorted by start: the ``scopes_key`` group when the Doc
    has one, else worked out now from its cues and speakers and written to that group (a Doc no cue component
    annotated has none)."""
    if scopes_key in doc.spans:
        return doc.spans[scopes_key]
    if spans_key not in doc.spans or LEXICON_VERSION_KEY not in doc.user_data or doc in _UNSCOPED:
        return ()
    scopes = scope_spans(doc, list(doc.spans[spans_key]), list(doc.spans.get(sources_key, ())))
    if not scopes:
        _UNSCOPED.add(doc)
        return ()
    doc.spans[scopes_key] = scopes
    return doc.spans[scopes_key]


def forget_scopes(doc: Doc, scopes_key: str = SCOPES_KEY) -> None:
    """Drop a Doc's scopes (its cues changed): they are worked out again when next read. (Asked before it is
    dropped: ``SpanGroups.pop`` of a missing key raises and catches a KeyError, and ``WeakSet.discard`` makes a
    weak reference, on every Doc the cue component annotates.)"""
    if scopes_key in doc.spans:
        del doc.spans[scopes_key]
    if _UNSCOPED:
        _UNSCOPED.discard(doc)


def _first_at(group, start: int) -> int:
    """The index of the first span of a group (sorted by start) starting at or after token ``start``."""
    lo, hi = 0, len(group)
    while lo < hi:
        mid = (lo + hi) // 2
        if group[mid].start < start:
            lo = mid + 1
        else:
            hi = mid
    return lo


def spans_within(container, spans_key: str) -> List[Span]:
    """Spans of the group ``spans_key`` whose tokens lie inside a Doc or Span, in text order.

    The factwash components write their groups sorted by start, so the spans inside a Span are found by
    bisection (a pipeline reading every sentence's flags stays linear in the Doc's length).
    """
    doc = container if isinstance(container, Doc) else container.doc
    if spans_key not in doc.spans:
        return []
    group = doc.spans[spans_key]
    if isinstance(container, Doc):
        return list(group)
    found = []
    for i in range(_first_at(group, container.start), len(group)):
        span = group[i]
        if span.start >= container.end:
            break
        if span.end <= container.end:
            found.append(span)
    return found


def _in_scope(container: Span, label: str, spans_key: str, sources_key: str, scopes_key: str) -> bool:
    """Whether a Span lies inside the scope of a cue of one class: scopes are clause pieces, written sorted by
    start, so only those starting in the container's sentence before it are read."""
    group = scopes_of(container.doc, spans_key, sources_key, scopes_key)
    if not group:
        return False
    sentence_start = container[0].sent.start if len(container) and container.doc.has_annotation("SENT_START") else 0
    for i in range(_first_at(group, container.start + 1) - 1, -1, -1):
        scope = group[i]
        if scope.start < sentence_start:
            break
        if scope.label_ == label and scope.start <= container.start and container.end <= scope.end:
            return True
    return False


def _flag_getter(label: str, spans_key: str, sources_key: str, scopes_key: str) -> Callable:
    def getter(container) -> bool:
        if any(span.label_ == label for span in spans_within(container, spans_key)):
            return True
        if isinstance(container, Doc):
            return False
        return _in_scope(container, label, spans_key, sources_key, scopes_key)

    return getter


def _linked_getter(group: Callable[[Doc], Sequence[Span]], same_class: bool = False) -> Callable:
    """The spans of a group (``group(doc)``) that point back at a cue (by ``kb_id``; with ``same_class``, only
    those labelled with the cue's class too, since two cues of one span, "suggest" as HEDGE and ATTRIBUTION,
    share the link)."""

    def getter(cue: Span) -> List[Span]:
        link = source_link(cue)
        return [span for span in group(cue.doc)
                if span.kb_id_ == link and (not same_class or span.label_ == cue.label_)]

    return getter


def _source_getter(sources_key: str) -> Callable:
    linked = _linked_getter(lambda doc: doc.spans.get(sources_key, ()))

    def getter(cue: Span) -> Optional[Span]:
        found = linked(cue)
        return found[0] if found else None

    return getter


def extension_names(prefix: str) -> Dict[str, str]:
    """The extension attribute names for a prefix, keyed by what they report."""
    names = {label: f"{prefix}_{flag}" for label, flag in FLAG_NAMES.items()}
    names["cues"] = f"{prefix}_cues"
    names["source"] = f"{prefix}_source"
    names["scope"] = f"{prefix}_scope"
    return names


def set_extensions(wanted: Iterable[Tuple[type, str, Callable]], settings: Tuple[str, ...]) -> None:
    """Register getter extensions ``(Doc or Span, name, getter)`` made for ``settings`` (the span keys they read).

    An extension this package already registered for the same settings is
    kept; one registered by another package, or for other span keys, is never
    overwritten: that is an error asking for another prefix.
    """
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


def register_extensions(
    prefix: str = DEFAULT_PREFIX, spans_key: str = CUES_KEY, sources_key: str = SOURCES_KEY,
    scopes_key: str = SCOPES_KEY,
) -> Dict[str, str]:
    """Register the cue extensions under ``prefix``; safe to call any number of times.

    An attribute already registered by another package, or by this package for
    other span keys, is never overwritten: that is an error asking for another
    prefix.
    """
    settings: Tuple[str, str, str] = (spans_key, sources_key, scopes_key)
    names = extension_names(prefix)
    wanted = []
    for label in FLAG_NAMES:
        getter = _flag_getter(label, spans_key, sources_key, scopes_key)
        wanted += [(Doc, names[label], getter), (Span, names[label], getter)]
    cues_getter = lambda container: spans_within(container, spans_key)  # noqa: E731
    wanted += [(Doc, names["cues"], cues_getter), (Span, names["cues"], cues_getter)]
    wanted.append((Span, names["source"], _source_getter(sources_key)))
    scopes = lambda doc: scopes_of(doc, spans_key, sources_key, scopes_key)  # noqa: E731
    wanted.append((Span, names["scope"], _linked_getter(scopes, same_class=True)))
    set_extensions(wanted, settings)
    return names
