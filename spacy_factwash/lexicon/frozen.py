"""Frozen lexicons: the versioned cue lists every detector matches against.

A lexicon set is a folder holding one JSONL file per cue class
(``hedge.jsonl``, ``attribution.jsonl`` ...) and a ``manifest.json`` that
names the set's version and the sha256 of every file. Loading verifies the
manifest, so a list edited without being re-frozen is refused with an error
naming the file; a malformed entry is refused with its file and line.

Each line of a class file is one entry::

    {"id": "negation:never", "label": "NEGATION", "role": "cue",
     "pattern": "never", "provenance": {"source": "seed"}}

``pattern`` is a phrase (a string, matched on the lower-cased text), a list
of phrases (inflections or spelling variants, all under the one entry), or a
spaCy token pattern (a list of dicts). ``role`` is ``cue`` (the default) or
``exclusion``: an exclusion is a pseudo-cue ("no doubt", "not only") whose
match removes the cues of the same class it overlaps. An attribution entry
may say where its speaker usually stands: ``"source": "before"`` ("Alice
said") or ``"after"`` ("according to Alice"). An entry of the gate's word
lists (``lexicons/gate/``) may carry a ``value``: what the words mean to a
check (a direction "up", a stance "deny", the id of an antonym's entry).

Entries added at run time (``CueComponent.add_entries``) are validated as
these lines are, carry provenance ``{"source": "user"}``, and are kept in a
further file, ``user.jsonl`` (one file for every class; each line names its
label). A set holding them lists that file in its manifest beside the
frozen files' digests, under the frozen version suffixed ``+user``: its
digest differs from the frozen set's, so a report tells which lexicon
judged it, and a saved pipeline verifies the added entries like the rest.
"""

import hashlib
import json
from collections import abc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from spacy.schemas import validate_token_pattern

from ..data import data_places
from ..errors import FactwashError
from ..io.outputs import write_text

LABELS = ("HEDGE", "ATTRIBUTION", "NEGATION", "CONDITIONAL", "TEMPORAL")
CLASS_FILES = {
    "hedge.jsonl": "HEDGE",
    "attribution.jsonl": "ATTRIBUTION",
    "negation.jsonl": "NEGATION",
    "conditional.jsonl": "CONDITIONAL",
    "temporal.jsonl": "TEMPORAL",
}
MANIFEST = "manifest.json"
ROLES = ("cue", "exclusion")
SOURCE_SIDES = ("before", "after")
UNFROZEN_SUFFIX = "+unfrozen"
USER_FILE = "user.jsonl"
USER_SUFFIX = "+user"
USER_SOURCE = "user"


class LexiconError(FactwashError, ValueError):
    """A lexicon file is missing, malformed, or does not match its manifest."""

    code = "E001"


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


@dataclass(frozen=True)
class LexiconSet:
    """All class files of one lexicon version, as loaded and verified."""

    version: str
    entries: Tuple[Entry, ...]
    files: Mapping[str, bytes]
    manifest: bytes
    verified: bool = True
    by_id: Mapping[str, Entry] = field(init=False, repr=False, compare=False)
    # a digest of the class files as loaded (not as the manifest claims them), worked out once: two sets that
    # differ in any byte never share it, whatever their version says
    digest: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {entry.id: entry for entry in self.entries})
        object.__setattr__(self, "digest", sha256(b"".join(sha256(self.files[name]).encode("ascii") + name.encode()
                                                           for name in sorted(self.files))))

    def for_label(self, label: str) -> List[Entry]:
        """The entries (cues and exclusions) of one cue class."""
        return [e for e in self.entries if e.label == label]

    def with_entries(self, added: Sequence[Entry]) -> "LexiconSet":
        """This set with user entries appended to its ``user.jsonl``, listed in its manifest under the version
        suffixed ``+user``. The frozen files' digests stay as the manifest had them, so a set loaded unverified
        is not frozen by adding to it."""
        lines = "".join(json.dumps(entry.to_dict(), ensure_ascii=False, sort_keys=True) + "\n" for entry in added)
        user = self.files.get(USER_FILE, b"") + lines.encode("utf8")
        manifest = json.loads(self.manifest.decode("utf8"))
        manifest["files"][USER_FILE] = sha256(user)
        if not manifest["version"].endswith(USER_SUFFIX):
            manifest["version"] += USER_SUFFIX
        version = manifest["version"] + ("" if self.verified else UNFROZEN_SUFFIX)
        return LexiconSet(version, self.entries + tuple(added), {**self.files, USER_FILE: user},
                          (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf8"), self.verified)

    def get(self, entry_id: str) -> Entry:
        """The entry with this id; KeyError when the set has none."""
        return self.by_id[entry_id]



def packaged_lexicon_dir() -> Path:
    """The lexicon folder shipped with the package.

    An installed wheel carries it as ``spacy_factwash/data/lexicons``; a source
    checkout keeps it at the repository's top level, beside the package.
    """
    installed, checkout = data_places("lexicons")
    for folder in (installed, checkout):
        if (folder / MANIFEST).is_file():
            return folder
    raise LexiconError(
        f"No lexicon folder found: looked for {installed / MANIFEST} and "
        f"{checkout / MANIFEST}. The package was installed without its data."
    )


def sha256(data: bytes) -> str:
    """The manifest's digest format for one file's bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def load_lexicons(path: Optional[Union[str, Path]] = None, *, verify: bool = True,
                  class_files: Mapping[str, str] = CLASS_FILES, data_files: Sequence[str] = ()) -> LexiconSet:
    """Read and verify a lexicon folder (the packaged cue lexicons when ``path`` is None).

    ``class_files`` maps each file of the set to its label; other frozen sets
    (the authority confirmer's change words) use the same format and checks.
    ``data_files`` are further files of the set that are not entry lists (the
    claim-strength set's certainty scale): frozen and verified the same way,
    and carried in ``LexiconSet.files``.
    """
    folder = Path(path) if path is not None else packaged_lexicon_dir()
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise LexiconError(f"{manifest_path}: lexicon manifest not found")
    files = {name: _read(folder, name) for name in (*class_files, *data_files)}
    if (folder / USER_FILE).is_file():
        files[USER_FILE] = _read(folder, USER_FILE)
    return lexicons_from_bytes(files, manifest_path.read_bytes(), origin=str(folder), verify=verify,
                               class_files=class_files, data_files=data_files)


def lexicons_from_bytes(
    files: Mapping[str, bytes], manifest: bytes, *, origin: str, verify: bool = True,
    class_files: Mapping[str, str] = CLASS_FILES, data_files: Sequence[str] = (),
) -> LexiconSet:
    """Parse and verify a lexicon set given as file contents (from disk or a pipeline's bytes).

    The user entries (``user.jsonl``) are read when the manifest lists them or the file is there; verified,
    the one needs the other.
    """
    manifest_data = _parse_manifest(manifest, f"{origin}/{MANIFEST}")
    version = manifest_data["version"]
    user = (USER_FILE,) if USER_FILE in files or USER_FILE in manifest_data["files"] else ()
    for name in (*data_files, *user):
        if name not in files:
            raise LexiconError(f"{origin}/{name}: lexicon file not found")
    if verify:
        _verify_digests(files, manifest_data["files"], origin, version, (*class_files, *data_files, *user))
    entries: List[Entry] = []
    by_id: Dict[str, Entry] = {}
    for name, label in class_files.items():
        if name not in files:
            raise LexiconError(f"{origin}/{name}: lexicon file not found")
        for entry in parse_entries(files[name], f"{origin}/{name}", label):
            entries.append(_unique(entry, by_id))
    if user:
        labels = tuple(dict.fromkeys(class_files.values()))
        for at, raw in _lines(files[USER_FILE], f"{origin}/{USER_FILE}"):
            entries.append(_unique(user_entry(raw, at, labels), by_id))
    if not verify:
        version += UNFROZEN_SUFFIX
    return LexiconSet(version, tuple(entries), dict(files), manifest, verified=verify)


def _read(folder: Path, name: str) -> bytes:
    """One file of a lexicon folder; a clear error naming it when it is missing."""
    file_path = folder / name
    if not file_path.is_file():
        raise LexiconError(f"{file_path}: lexicon file not found")
    return file_path.read_bytes()


def _parse_manifest(data: bytes, where: str) -> Dict[str, Any]:
    """The manifest as a dict, checked for its version and file digests."""
    try:
        manifest = json.loads(data.decode("utf8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise LexiconError(f"{where}: not valid JSON ({err})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("version"), str):
        raise LexiconError(f"{where}: manifest needs a string 'version'")
    if not isinstance(manifest.get("files"), dict):
        raise LexiconError(f"{where}: manifest needs a 'files' object of sha256 digests")
    return manifest


def _verify_digests(files: Mapping[str, bytes], digests: Mapping[str, str], origin: str, version: str,
                    names: Iterable[str]) -> None:
    """Refuse any file of the set whose bytes differ from the frozen manifest."""
    for name in names:
        expected = digests.get(name)
        if expected is None:
            raise LexiconError(f"{origin}/{name}: not listed in the manifest (version {version})")
        if name in files and sha256(files[name]) != expected:
            raise LexiconError(
                f"{origin}/{name}: contents do not match the frozen manifest (version {version}). "
                "Re-freeze with `python -m spacy_factwash freeze-lexicons`, or load with "
                "verify_lexicons=False while developing a lexicon."
            )


def _unique(entry: Entry, by_id: Dict[str, Entry]) -> Entry:
    """The entry, recorded in ``by_id``; refused, naming where the id first stood, when the set has its id."""
    first = by_id.get(entry.id)
    if first is not None:
        raise LexiconError(f"{entry.origin}: duplicate entry id {entry.id!r} (first at {first.origin})")
    by_id[entry.id] = entry
    return entry


def _lines(data: bytes, where: str) -> Iterable[Tuple[str, Any]]:
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
            yield at, json.loads(line)
        except json.JSONDecodeError as err:
            raise LexiconError(f"{at}: invalid JSON ({err.msg})") from None


def parse_entries(data: bytes, where: str, label: str) -> Iterable[Entry]:
    """Parse one class file, naming file and line for every malformed entry."""
    for at, raw in _lines(data, where):
        yield _entry_from_dict(raw, at, label)


def user_entries(raw_entries: Iterable[Any], labels: Sequence[str], known: Mapping[str, Entry],
                 where: str = "add_entries") -> List[Entry]:
    """Entries given at run time, validated as a class file's lines are (each named ``where[n]``), with ids new
    to ``known`` and to each other."""
    if isinstance(raw_entries, (str, bytes, dict)) or not isinstance(raw_entries, abc.Iterable):
        raise LexiconError(f"{where}: entries must be a list of entry objects, got {type(raw_entries).__name__}")
    by_id = dict(known)
    return [_unique(user_entry(raw, f"{where}[{number}]", labels), by_id)
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


def _check_pattern(pattern: Any, at: str):
    """A phrase, a list of phrases, or a valid spaCy token pattern."""
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
        return tuple(pattern)
    raise LexiconError(f"{at}: pattern mixes phrases and token dicts, or has an empty phrase")


def freeze(path: Union[str, Path], version: str, class_files: Mapping[str, str] = CLASS_FILES,
           data_files: Sequence[str] = ()) -> Dict[str, Any]:
    """Re-write a folder's manifest with this version and the files' current digests.

    The set is read as a load reads it first (the user entries of ``user.jsonl`` too, when the folder has
    them), so a malformed list or a duplicate id can never be frozen.
    """
    folder = Path(path)
    user = (USER_FILE,) if (folder / USER_FILE).is_file() else ()
    files = {name: _read(folder, name) for name in (*class_files, *data_files, *user)}
    manifest = {"version": version, "files": {name: sha256(data) for name, data in files.items()}}
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    lexicons_from_bytes(files, text.encode("utf8"), origin=str(folder), class_files=class_files, data_files=data_files)
    write_text(folder / MANIFEST, text)
    return manifest
