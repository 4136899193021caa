"""Frozen sets: folders of lexicons and tables, each frozen under a manifest that names its version and digests.

A set (``sets.py`` names every kind the package ships) is a folder of files
and a ``manifest.json`` naming the set's version and the sha256 of every
file. Loading verifies the manifest, so a file edited without being
re-frozen is refused with an error naming the file; a malformed entry of an
entry list is refused with its file and line (``entries.py``), a data file
that should be JSON and is not, with its file.

Entries added at run time (``CueComponent.add_entries``) are kept in a
further file, ``user.jsonl`` (one file for every class; each line names its
label). A set holding them lists that file in its manifest beside the
frozen files' digests, under the frozen version suffixed ``+user``: its
digest differs from the frozen set's, so a report tells which lexicon
judged it, and a saved pipeline verifies the added entries like the rest.

A component saves the sets it holds with the pipeline, byte for byte
(``write_set``, ``LexiconSet.payload``), and reads them back verified
(``load_set``, ``set_from_payload``).
"""

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ..data import data_places
from ..io.outputs import write_text
from ..io.strict_json import loads
from ..io.textfile import surrogate_problem
from .entries import Entry, LexiconError, jsonl_lines, parse_entries, unique_entry, user_entries, user_entry
from .sets import CLASS_FILES, CUES, LABELS, SETS, SetKind

MANIFEST = "manifest.json"
UNFROZEN_SUFFIX = "+unfrozen"
USER_FILE = "user.jsonl"
USER_SUFFIX = "+user"
# names other modules have always imported from here
__all__ = ["CLASS_FILES", "LABELS", "MANIFEST", "USER_FILE", "Entry", "LexiconError", "LexiconSet", "freeze",
           "freeze_set", "lexicons_from_bytes", "load_lexicons", "load_set", "packaged_folder", "packaged_lexicon_dir",
           "parse_entries", "set_from_payload", "sha256", "user_entries", "write_set"]


@dataclass(frozen=True)
class LexiconSet:
    """All files of one set's version, as loaded and verified, and where they were read from (``origin``)."""

    version: str
    entries: Tuple[Entry, ...]
    files: Mapping[str, bytes]
    manifest: bytes
    verified: bool = True
    origin: str = field(default="", compare=False)
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
                          (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf8"), self.verified,
                          self.origin)

    def get(self, entry_id: str) -> Entry:
        """The entry with this id; KeyError when the set has none."""
        return self.by_id[entry_id]

    def payload(self) -> Dict[str, bytes]:
        """The set's files and its manifest, by file name: what a pipeline saves of it."""
        return {**self.files, MANIFEST: self.manifest}


def packaged_folder(kind: SetKind) -> Path:
    """The folder of a set shipped with the package.

    An installed wheel carries its data as ``spacy_factwash/data/...``; a
    source checkout keeps the lexicons at the repository's top level, beside
    the package (the tables live inside it, ``spacy_factwash/data/tables``).
    """
    if not kind.place:
        raise LexiconError(f"the {kind.name} set is not shipped with the package; it is saved with a pipeline")
    places = [folder.joinpath(*kind.place[1:]) for folder in data_places(kind.place[0])]
    for folder in places:
        if (folder / MANIFEST).is_file():
            return folder
    raise LexiconError(f"No {kind.name} set found: looked for {places[0] / MANIFEST} and {places[1] / MANIFEST}. "
                       "The package was installed without its data.")


def packaged_lexicon_dir() -> Path:
    """The cue lexicon folder shipped with the package."""
    return packaged_folder(CUES)


def sha256(data: bytes) -> str:
    """The manifest's digest format for one file's bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _set_folder(path: Any, where: str) -> Path:
    """The folder a set is read from or frozen in, as a Path; refused in one line, naming the call ``where``, when
    it is not a path (a number, bytes, a list) or holds a lone surrogate."""
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(text, str):
        raise LexiconError(f"{where}: the set's folder must be a path, got {type(path).__name__}")
    problem = surrogate_problem(text, "the folder path")
    if problem:
        raise LexiconError(f"{where}: {problem}")
    return Path(path)


def load_lexicons(path: Optional[Union[str, Path]] = None, *, verify: bool = True,
                  class_files: Mapping[str, str] = CLASS_FILES, data_files: Sequence[str] = ()) -> LexiconSet:
    """Read and verify a lexicon folder (the packaged cue lexicons when ``path`` is None).

    ``class_files`` maps each file of the set to its label; other frozen sets
    (the authority confirmer's change words) use the same format and checks.
    ``data_files`` are further files of the set that are not entry lists (the
    claim-strength set's certainty scale): frozen and verified the same way,
    and carried in ``LexiconSet.files``.
    """
    folder = _set_folder(path, "load_lexicons") if path is not None else packaged_lexicon_dir()
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
            entries.append(unique_entry(entry, by_id))
    if user:
        labels = tuple(dict.fromkeys(class_files.values()))
        for at, raw in jsonl_lines(files[USER_FILE], f"{origin}/{USER_FILE}"):
            entries.append(unique_entry(user_entry(raw, at, labels), by_id))
    for name in data_files:
        if name.endswith(".json"):
            decode_json(files[name], f"{origin}/{name}")
    if not verify:
        version += UNFROZEN_SUFFIX
    return LexiconSet(version, tuple(entries), dict(files), manifest, verified=verify, origin=origin)


def _read(folder: Path, name: str) -> bytes:
    """One file of a lexicon folder; a clear error naming it when it is missing."""
    file_path = folder / name
    if not file_path.is_file():
        raise LexiconError(f"{file_path}: lexicon file not found")
    return file_path.read_bytes()


def decode_json(data: bytes, where: str) -> Any:
    """A JSON file of a set, decoded; a clear error naming it when it is not standard JSON (NaN, nested too
    deeply)."""
    try:
        return loads(data.decode("utf8"))
    except ValueError as err:  # not UTF-8, not JSON, NaN, nested too deeply
        raise LexiconError(f"{where}: not valid JSON ({err})") from None


def _parse_manifest(data: bytes, where: str) -> Dict[str, Any]:
    """The manifest as a dict, checked for its version and file digests."""
    manifest = decode_json(data, where)
    if not isinstance(manifest, dict) or not isinstance(manifest.get("version"), str):
        raise LexiconError(f"{where}: manifest needs a string 'version'")
    problem = surrogate_problem(manifest["version"], "its version")  # a report names the version: it must be text
    if problem:
        raise LexiconError(f"{where}: {problem}")
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


def freeze(path: Union[str, Path], version: str, class_files: Mapping[str, str] = CLASS_FILES,
           data_files: Sequence[str] = ()) -> Dict[str, Any]:
    """Re-write a folder's manifest with this version and the files' current digests.

    The set is read as a load reads it first (the user entries of ``user.jsonl`` too, when the folder has
    them), so a malformed list or a duplicate id can never be frozen.
    """
    folder = _set_folder(path, "freeze")
    user = (USER_FILE,) if (folder / USER_FILE).is_file() else ()
    files = {name: _read(folder, name) for name in (*class_files, *data_files, *user)}
    manifest = {"version": version, "files": {name: sha256(data) for name, data in files.items()}}
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    lexicons_from_bytes(files, text.encode("utf8"), origin=str(folder), class_files=class_files, data_files=data_files)
    write_text(folder / MANIFEST, text)
    return manifest


def load_set(kind: SetKind, path: Optional[Union[str, Path]] = None, *, verify: bool = True) -> LexiconSet:
    """Read and verify a set of this kind from ``path`` (the packaged set when None)."""
    folder = _set_folder(path, "load_set") if path is not None else packaged_folder(kind)
    return load_lexicons(folder, verify=verify, class_files=kind.class_files, data_files=kind.data_files)


def set_from_payload(kind: SetKind, payload: Mapping[str, bytes], *, origin: str, verify: bool = True) -> LexiconSet:
    """A set of this kind given as its files and manifest by name (``LexiconSet.payload``: a pipeline's bytes, a
    pickle), verified."""
    if MANIFEST not in payload:
        raise LexiconError(f"{origin}/{MANIFEST}: lexicon manifest not found")
    files = {name: data for name, data in payload.items() if name != MANIFEST}
    return lexicons_from_bytes(files, payload[MANIFEST], origin=origin, verify=verify,
                               class_files=kind.class_files, data_files=kind.data_files)


def write_set(folder: Union[str, Path], lexicons: LexiconSet) -> None:
    """Write a set's files and manifest, byte for byte, into ``folder`` (made when missing)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in lexicons.payload().items():
        (folder / name).write_bytes(data)


def freeze_set(folder: Union[str, Path], version: str, set_name: str) -> Dict[str, Any]:
    """Freeze a folder holding a set of the kind ``set_name`` names (one of ``SETS``: cues, authority, strength,
    gate, sense, syntax, values) under ``version``: the manifest ``freeze`` writes."""
    kind = SETS.get(set_name)
    if kind is None:
        raise LexiconError(f"the set must be one of {', '.join(SETS)}, got {set_name!r}")
    return freeze(folder, version, kind.class_files, kind.data_files)
