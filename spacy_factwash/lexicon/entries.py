"""Lexicon entries: the lines of a frozen set's entry lists, and how each is checked.

Each line of an entry list (a cue class file, ``hedge.jsonl``; a list of the
gate's words, ``lexicons/gate/negative.jsonl``) is one entry::

    {"id": "negation:never", "label": "NEGATION", "role": "cue",
     "pattern": "never", "provenance": {"source": "seed"}}

``pattern`` is a phrase (a string, matched on the lower-cased text), a list
of phrases (inflections or spelling variants, all under the one entry), or a
spaCy token pattern (a list of dicts). ``role`` is ``cue`` (the default) or
``exclusion``: an exclusion is a pseudo-cue ("no doubt", "not only") whose
match removes the cues of the same class it overlaps. An attribution entry
may say where its speaker usually stands: ``"source": "before"`` ("Alice
said") or ``"after"`` ("according to Alice"). An entry of the gate's word
lists may carry a ``value``: what the words mean to a check (a direction
"up", a stance "deny", the id of an antonym's entry).

Entries added at run time (``CueComponent.add_entries``) are validated as
these lines are and carry provenance ``{"source": "user"}``. A malformed
entry is refused with its file and line (or its place in the list given), and
so is one holding a lone surrogate (a JSON escape such as ``"\\ud800"`` that
decodes to no character) or anything standard JSON has not (NaN, an object
that is not JSON, nesting too deep to write): it could be neither matched as
text nor saved.
"""

import json
from collections import abc
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from spacy.schemas import validate_token_pattern

from ..errors import FactwashError
from ..io.strict_json import dumps, loads
from ..io.textfile import SURROGATE, surrogate_problem
from .patterns import token_pattern_problem

ROLES = ("cue", "exclusion")
SOURCE_SIDES = ("before", "after")
USER_SOURCE = "user"


class LexiconError(FactwashError, ValueError):
    """A lexicon file is missing, malformed, or does not match its manifest."""

    code = "E001"


class UnsafePattern(LexiconError):
    """A token pattern whose ``REGEX`` could take exponential time, or that matches every token
    (``patterns.py``)."""

    code = "E017"


@dataclass(frozen=True)
class Entry:
    """One lexicon entry: what it matches, for which class, and where it came from."""

    id: str
    label: str
    pattern: Union[str, Tuple[str, ...], Tuple[Dict[str, Any], ...]]
    role: str = "cue"
    provenance: Mapping[str, Any] = field(default_factory=dict)
    origin: str = ""
    source_side: Optional[str] = None
    value: Optional[str] = None

    @property
    def is_token_pattern(self) -> bool:
        """Whether the pattern is a spaCy token pattern rather than phrases."""
        return bool(self.pattern) and isinstance(self.pattern[0], dict)

    @property
    def phrases(self) -> Tuple[str, ...]:
        """The phrases this entry matches (empty for a token pattern)."""
        if isinstance(self.pattern, str):
            return (self.pattern,)
        return () if self.is_token_pattern else tuple(self.pattern)

    def to_dict(self) -> Dict[str, Any]:
        """The entry as it is written in its JSONL file."""
        pattern = self.pattern if isinstance(self.pattern, str) else list(self.pattern)
        data = {"id": self.id, "label": self.label, "role": self.role, "pattern": pattern}
        if self.source_side is not None:
            data["source"] = self.source_side
        if self.value is not None:
            data["value"] = self.value
        data["provenance"] = dict(self.provenance)
        return data


def unique_entry(entry: Entry, by_id: Dict[str, Entry]) -> Entry:
    """The entry, recorded in ``by_id``; refused, naming where the id first stood, when the set has its id."""
    first = by_id.get(entry.id)
    if first is not None:
        raise LexiconError(f"{entry.origin}: duplicate entry id {entry.id!r} (first at {first.origin})")
    by_id[entry.id] = entry
    return entry


def jsonl_lines(data: bytes, where: str) -> Iterable[Tuple[str, Any]]:
    """Each non-empty line of a JSONL file, decoded, with its ``file:line``."""
    try:
        text = data.decode("utf8")
    except UnicodeDecodeError as err:
        raise LexiconError(f"{where}: not UTF-8 ({err})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        at = f"{where}:{number}"
        try:
            value = loads(line)
        except json.JSONDecodeError as err:
            raise LexiconError(f"{at}: invalid JSON ({err.msg})") from None
        except ValueError as err:  # NaN, a number too large for a float, nested too deeply
            raise LexiconError(f"{at}: invalid JSON ({err})") from None
        yield at, value


def parse_entries(data: bytes, where: str, label: str) -> Iterable[Entry]:
    """Parse one class file, naming file and line for every malformed entry."""
    for at, raw in jsonl_lines(data, where):
        yield _entry_from_dict(raw, at, label)


def user_entries(raw_entries: Iterable[Any], labels: Sequence[str], known: Mapping[str, Entry],
                 where: str = "add_entries") -> List[Entry]:
    """Entries given at run time, validated as a class file's lines are (each named ``where[n]``), with ids new
    to ``known`` and to each other."""
    if isinstance(raw_entries, (str, bytes, dict)) or not isinstance(raw_entries, abc.Iterable):
        raise LexiconError(f"{where}: entries must be a list of entry objects, got {type(raw_entries).__name__}")
    by_id = dict(known)
    return [unique_entry(user_entry(raw, f"{where}[{number}]", labels), by_id)
            for number, raw in enumerate(raw_entries, start=1)]


def user_entry(raw: Any, at: str, labels: Sequence[str]) -> Entry:
    """One user entry: its label one of ``labels``, its provenance ``user`` (given so or left out), and the rest
    checked as in a class file."""
    if not isinstance(raw, dict):
        return _entry_from_dict(raw, at, "")  # refused: not an object
    if raw.get("label") not in labels:
        raise LexiconError(f"{at}: label must be one of {', '.join(labels)}, got {raw.get('label')!r}")
    provenance = raw.get("provenance", {"source": USER_SOURCE})
    if isinstance(provenance, dict) and provenance.get("source", USER_SOURCE) != USER_SOURCE:
        raise LexiconError(f"{at}: an added entry's provenance source is {USER_SOURCE!r}, got "
                           f"{provenance['source']!r}")
    if isinstance(provenance, dict):
        provenance = {**provenance, "source": USER_SOURCE}
    return _entry_from_dict({**raw, "provenance": provenance}, at, raw["label"])


def _entry_from_dict(raw: Any, at: str, label: str) -> Entry:
    """Validate one decoded line and build its Entry."""
    if not isinstance(raw, dict):
        raise LexiconError(f"{at}: an entry must be a JSON object")
    missing = [key for key in ("id", "label", "pattern", "provenance") if key not in raw]
    if missing:
        raise LexiconError(f"{at}: missing {', '.join(missing)}")
    entry_id, entry_label = raw["id"], raw["label"]
    if not isinstance(entry_id, str) or not entry_id.startswith(label.lower() + ":"):
        raise LexiconError(f"{at}: id must be a string starting with '{label.lower()}:', got {entry_id!r}")
    _check_storable(raw, at, entry_id)
    if entry_label != label:
        raise LexiconError(f"{at}: label {entry_label!r} does not belong in this file (expected {label!r})")
    role = raw.get("role", "cue")
    if role not in ROLES:
        raise LexiconError(f"{at}: role must be one of {ROLES}, got {role!r}")
    provenance = raw["provenance"]
    if not isinstance(provenance, dict) or not isinstance(provenance.get("source"), str):
        raise LexiconError(f"{at}: provenance must be an object with a 'source' string")
    source_side = raw.get("source")
    if source_side is not None and source_side not in SOURCE_SIDES:
        raise LexiconError(f"{at}: source must be one of {SOURCE_SIDES}, got {source_side!r}")
    value = raw.get("value")
    if value is not None and (not isinstance(value, str) or not value):
        raise LexiconError(f"{at}: value must be a non-empty string, got {value!r}")
    return Entry(entry_id, label, _check_pattern(raw["pattern"], at), role, provenance, at, source_side, value)


def _check_storable(raw: Dict[str, Any], at: str, entry_id: str) -> None:
    """Refuse an entry that cannot be matched as text or saved as a line of JSON: one holding a lone surrogate (a
    JSON escape such as "\ud800" decodes to no character), a value standard JSON has not (NaN, an object), or
    nesting too deep to write."""
    try:
        written: Union[str, Exception] = dumps(raw)
    except (RecursionError, TypeError, ValueError) as err:
        written = err
    # ``dumps`` writes a lone surrogate as it is, so only an entry whose JSON holds one (or one it refused, whose
    # surrogate is named first) is walked to say where
    if not isinstance(written, str) or SURROGATE.search(written) is not None:
        problem = surrogate_problem(raw, "the entry")
        if problem:
            raise LexiconError(f"{at}: entry {entry_id!r}: {problem}")
    if isinstance(written, RecursionError):
        raise LexiconError(f"{at}: entry {entry_id!r} is nested too deeply to save")
    if isinstance(written, Exception):
        raise LexiconError(f"{at}: entry {entry_id!r} holds a value JSON has not ({written})")


def _check_pattern(pattern: Any, at: str):
    """A phrase, a list of phrases, or a valid spaCy token pattern whose regexes are safe and that does not match
    every token (``patterns.py``)."""
    if isinstance(pattern, str):
        if not pattern.strip():
            raise LexiconError(f"{at}: empty phrase pattern")
        return pattern
    if not isinstance(pattern, list) or not pattern:
        raise LexiconError(f"{at}: pattern must be a phrase, a list of phrases or a token pattern")
    if all(isinstance(p, str) and p.strip() for p in pattern):
        return tuple(pattern)
    if all(isinstance(p, dict) for p in pattern):
        errors = validate_token_pattern(pattern)
        if errors:
            raise LexiconError(f"{at}: invalid token pattern ({'; '.join(errors)})")
        problem = token_pattern_problem(pattern)
        if problem:
            raise UnsafePattern(f"{at}: {problem}")
        return tuple(pattern)
    raise LexiconError(f"{at}: pattern mixes phrases and token dicts, or has an empty phrase")
