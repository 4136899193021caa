"""Reading Open English WordNet from its YAML sources, one file at a time, as a query needs it.

The resource's own source format (``github:globalwordnet/english-wordnet``,
``src/yaml``; ``$FACTWASH_CORPORA/open-english-wordnet/raw/src/yaml``):

- ``entries-<letter>.yaml``: lemma -> part of speech (n, v, a, r) -> its
  ``sense`` list (and ``form``, ``pronunciation``). Each sense has an ``id``
  (its sense key, ``deny%2:32:00::``), the ``synset`` it belongs to, and its
  sense relations (``antonym``, ``derivation``, ``pertainym``,
  ``participle``, ``exemplifies`` ...), each a list of sense keys. A lemma
  is in the file of its first letter, lower-cased (``entries-0`` for any
  other first character).
- ``<pos>.<lexfile>.yaml`` (``verb.communication``, ``adj.all`` ...):
  synset id (``00818217-v``; ``-s`` for a satellite adjective) -> its
  ``members``, ``definition``, ``partOfSpeech`` and synset relations
  (``hypernym``, ``similar``, ``also``, ``entails``, ``attribute`` ...),
  each a list of synset ids. Hyponyms are not written down: they are the
  inverse of ``hypernym`` over the files a query names.

Nothing reads WordNet at run time; this is developer tooling for mining
candidate lists (``candidates.py``). A file is parsed (PyYAML's C loader
when it is built) the first time a query needs it and kept in the parse
cache (``cache.py``), so a second run reads pickles. A file that is not
valid YAML, or not shaped as above, is a ``WordNetError`` naming it.
"""

import hashlib
import re
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import yaml

from spacy_factwash.errors import FactwashError

from .cache import ParseCache, default_cache_dir

WORDNET_DIR = "open-english-wordnet/raw/src/yaml"
COMMIT = "d94538ad0df3d7a4c77837bde6af69d7a6592c32"  # the snapshot $FACTWASH_CORPORA holds (SOURCES.md)
ENTRIES_PREFIX = "entries-"
NOT_SYNSETS = ("frames.yaml",)  # the verb frames' templates: neither entries nor synsets
POS_PREFIX = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}  # a synset's pos -> its files' prefix
SYNSET_ID = re.compile(rb"^(\d{8}-[nvasr]):", re.M)
# the fields of a sense and of a synset that are not relations (every other field is a list of ids)
SENSE_FIELDS = frozenset({"id", "synset", "subcat", "sent", "adjposition"})
SYNSET_FIELDS = frozenset({"members", "definition", "example", "partOfSpeech", "ili", "wikidata", "source"})
DEFAULT_DEPTH = 12
Route = Tuple[str, ...]  # synset ids from where a walk started to where it arrived

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class WordNetError(FactwashError, ValueError):
    """The WordNet sources are missing or malformed, or a query names what they do not hold."""

    code = "E017"


@dataclass(frozen=True)
class Sense:
    """One sense of a lemma: its sense key, the synset it belongs to, and its sense relations."""

    id: str
    lemma: str
    pos: str  # the entry's part of speech: n, v, a (satellites included) or r
    synset: str
    relations: Mapping[str, Tuple[str, ...]]  # relation -> sense keys

    def related(self, relation: str) -> Tuple[str, ...]:
        """The sense keys this sense is linked to by ``relation`` (none when it has no such link)."""
        return self.relations.get(relation, ())


@dataclass(frozen=True)
class Synset:
    """One synset: its members, where it is filed, what it means, and its synset relations."""

    id: str
    pos: str  # n, v, a, s (a satellite adjective) or r
    lexfile: str  # the lexicographer file it is written in: verb.communication, adj.all ...
    members: Tuple[str, ...]
    definition: str
    relations: Mapping[str, Tuple[str, ...]]  # relation -> synset ids

    def related(self, relation: str) -> Tuple[str, ...]:
        """The synsets this synset is linked to by ``relation``."""
        return self.relations.get(relation, ())


def entries_file(lemma: str) -> str:
    """The entries file a lemma (or a sense key, which starts with its lemma) is written in."""
    first = lemma[:1].lower()
    return f"{ENTRIES_PREFIX}{first if 'a' <= first <= 'z' else '0'}.yaml"


def pos_matches(pos: Optional[str], synset_or_entry_pos: str) -> bool:
    """Whether a part of speech asked for (None: any) is this one; "a" takes satellites ("s") in."""
    return pos is None or synset_or_entry_pos == pos or (pos == "a" and synset_or_entry_pos == "s")


class WordNet:
    """Open English WordNet's YAML sources, parsed file by file as queries need them.

    ``cache_dir`` is where parsed files are kept (default: ``default_cache_dir()``); ``False`` keeps none.
    """

    def __init__(self, folder: Union[str, Path], cache_dir: Union[None, bool, str, Path] = None) -> None:
        self.folder = Path(folder)
        names = sorted(p.name for p in self.folder.glob("*.yaml")) if self.folder.is_dir() else []
        if not any(name.startswith(ENTRIES_PREFIX) for name in names):
            raise WordNetError(f"{self.folder}: no WordNet YAML sources here (no entries-*.yaml)")
        self.names = tuple(names)
        self.lexfiles = tuple(name[:-5] for name in names if not name.startswith(ENTRIES_PREFIX)
                              and name not in NOT_SYNSETS)
        self.cache = ParseCache(None if cache_dir is False else (cache_dir or default_cache_dir()), self.digest)
        self.parsed: List[str] = []  # the files parsed from YAML by this instance (not read from the cache)
        self._files: Dict[str, Any] = {}
        self._sense_index: Dict[str, Dict[str, Tuple[str, str, Mapping[str, Any]]]] = {}
        self._hyponyms: Dict[str, Dict[str, List[str]]] = {}

    @classmethod
    def from_corpora(cls, corpora: Union[str, Path], cache_dir: Union[None, bool, str, Path] = None) -> "WordNet":
        """The WordNet snapshot of a corpora folder (``open-english-wordnet/raw/src/yaml``)."""
        return cls(Path(corpora) / WORDNET_DIR, cache_dir)

    @cached_property
    def digest(self) -> str:
        """The sha256 over every YAML file's name and bytes: what names this version of the resource."""
        total = hashlib.sha256()
        for name in self.names:
            total.update(name.encode("utf8") + b"\0" + hashlib.sha256((self.folder / name).read_bytes()).digest())
        return total.hexdigest()

    # -- files ------------------------------------------------------------------------------------------------

    def _file(self, name: str) -> Dict[str, Any]:
        """One YAML file as parsed (from the cache when it holds it), checked for its shape."""
        if name not in self._files:
            if name not in self.names:
                raise WordNetError(f"{self.folder / name}: no such WordNet file")
            data = self.cache.get(name)
            if data is None:
                data = parse_file(self.folder / name)
                self.parsed.append(name)
                self.cache.put(name, data)
            self._files[name] = data
        return self._files[name]

    @cached_property
    def _lexfile_of(self) -> Dict[str, str]:
        """Every synset id -> its lexicographer file, found by scanning the synset files' top-level keys (no
        YAML parse), and cached."""
        index = self.cache.get("index")
        if index is None:
            index = {}
            for lexfile in self.lexfiles:
                for match in SYNSET_ID.finditer((self.folder / f"{lexfile}.yaml").read_bytes()):
                    index[match.group(1).decode("ascii")] = lexfile
            self.cache.put("index", index)
        return index

    # -- senses -----------------------------------------------------------------------------------------------

    def senses(self, lemma: str, pos: Optional[str] = None) -> List[Sense]:
        """The senses of a lemma (as WordNet spells it: "say", "put forth", "S"), in WordNet's order; only
        those of one part of speech (n, v, a, r) when ``pos`` is given; none when WordNet lacks the lemma."""
        entry = self._file(entries_file(lemma)).get(lemma, {})
        return [_sense(raw, lemma, entry_pos) for entry_pos, data in entry.items() if pos_matches(pos, entry_pos)
                for raw in data.get("sense", ())]

    def synsets(self, lemma: str, pos: Optional[str] = None) -> List[str]:
        """The synset ids of a lemma's senses, in WordNet's order."""
        return [sense.synset for sense in self.senses(lemma, pos)]

    def sense(self, sense_id: str) -> Sense:
        """The sense with this sense key; a ``WordNetError`` when WordNet has none."""
        name = entries_file(sense_id)
        if name not in self._sense_index:
            self._sense_index[name] = {raw["id"]: (lemma, entry_pos, raw)
                                       for lemma, entry in self._file(name).items()
                                       for entry_pos, data in entry.items() for raw in data.get("sense", ())}
        found = self._sense_index[name].get(sense_id)
        if found is None:
            raise WordNetError(f"{self.folder / name}: no sense {sense_id!r}")
        lemma, entry_pos, raw = found
        return _sense(raw, lemma, entry_pos)

    def related_senses(self, sense_id: str, relation: str) -> List[Sense]:
        """The senses a sense is linked to by a sense relation (antonym, derivation, pertainym ...)."""
        return [self.sense(other) for other in self.sense(sense_id).related(relation)]

    def antonyms(self, sense_id: str) -> List[Sense]:
        """The senses WordNet gives as this sense's antonyms."""
        return self.related_senses(sense_id, "antonym")

    def derivations(self, sense_id: str) -> List[Sense]:
        """The senses WordNet gives as derivationally related to this one (deny -> denial, denier)."""
        return self.related_senses(sense_id, "derivation")

    def lemmas(self, pos: Optional[str] = None) -> Iterator[Tuple[str, List[Sense]]]:
        """Every lemma with its senses (of one part of speech when ``pos`` is given), file by file: this
        reads every entries file."""
        for name in self.names:
            if name.startswith(ENTRIES_PREFIX):
                for lemma, entry in self._file(name).items():
                    senses = [_sense(raw, lemma, entry_pos) for entry_pos, data in entry.items()
                              if pos_matches(pos, entry_pos) for raw in data.get("sense", ())]
                    if senses:
                        yield lemma, senses

    # -- synsets ----------------------------------------------------------------------------------------------

    def lexfile(self, synset_id: str) -> str:
        """The lexicographer file a synset is written in (``verb.communication``)."""
        lexfile = self._lexfile_of.get(synset_id)
        if lexfile is None:
            raise WordNetError(f"{self.folder}: no synset {synset_id!r}")
        return lexfile

    def synset(self, synset_id: str) -> Synset:
        """The synset with this id; a ``WordNetError`` when WordNet has none."""
        lexfile = self.lexfile(synset_id)
        raw = self._file(f"{lexfile}.yaml")[synset_id]
        return Synset(synset_id, raw["partOfSpeech"], lexfile, tuple(raw["members"]),
                      "; ".join(raw.get("definition", ())), _relations(raw, SYNSET_FIELDS))

    def members(self, synset_id: str) -> Tuple[str, ...]:
        """The lemmas of a synset, in WordNet's order."""
        return self.synset(synset_id).members

    def similar(self, synset_id: str) -> Tuple[str, ...]:
        """An adjective synset's ``similar`` synsets (a head's satellites, a satellite's head)."""
        return self.synset(synset_id).related("similar")

    def also(self, synset_id: str) -> Tuple[str, ...]:
        """A synset's ``also`` ("see also") synsets."""
        return self.synset(synset_id).related("also")

    def synsets_in(self, lexfile: str) -> List[str]:
        """The ids of every synset written in one lexicographer file."""
        return list(self._file(f"{lexfile}.yaml"))

    def hypernyms(self, synset_id: str, depth: int = DEFAULT_DEPTH) -> Dict[str, Route]:
        """Every synset above this one up to ``depth`` hypernym steps, each with its shortest path from
        ``synset_id`` (the synset itself first)."""
        return self._walk(synset_id, lambda s: self.synset(s).related("hypernym"), depth)

    def hyponyms(self, synset_id: str, depth: int = DEFAULT_DEPTH,
                 lexfiles: Optional[Sequence[str]] = None) -> Dict[str, Route]:
        """Every synset below this one up to ``depth`` hyponym steps, each with its shortest path from
        ``synset_id``. Only synsets written in ``lexfiles`` are walked (default: every file of the synset's
        part of speech); hyponyms are the inverse of ``hypernym`` over those files."""
        below = self.hyponym_index(lexfiles or self._pos_lexfiles(synset_id))
        return self._walk(synset_id, lambda s: below.get(s, ()), depth)

    def hyponym_index(self, lexfiles: Iterable[str]) -> Dict[str, List[str]]:
        """Synset id -> the synsets of ``lexfiles`` whose hypernym it is."""
        below: Dict[str, List[str]] = {}
        for lexfile in lexfiles:
            if lexfile not in self._hyponyms:
                inverse: Dict[str, List[str]] = {}
                for synset_id, raw in self._file(f"{lexfile}.yaml").items():
                    for above in raw.get("hypernym", ()):
                        inverse.setdefault(above, []).append(synset_id)
                self._hyponyms[lexfile] = inverse
            for above, under in self._hyponyms[lexfile].items():
                below.setdefault(above, []).extend(under)
        return below

    def _pos_lexfiles(self, synset_id: str) -> List[str]:
        """The lexicographer files of a synset's part of speech."""
        prefix = POS_PREFIX[synset_id[-1]] + "."
        return [lexfile for lexfile in self.lexfiles if lexfile.startswith(prefix)]

    def _walk(self, start: str, step, depth: int) -> Dict[str, Route]:
        """Breadth first from ``start`` along ``step`` for up to ``depth`` steps: each synset reached, with its
        shortest path (the first found among equals, in WordNet's order)."""
        self.lexfile(start)  # an unknown synset is an error, not an empty walk
        paths: Dict[str, Route] = {start: (start,)}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if len(paths[here]) > depth:  # a route of depth steps holds depth + 1 synsets
                continue
            for there in step(here):
                if there not in paths:
                    paths[there] = paths[here] + (there,)
                    queue.append(there)
        del paths[start]
        return paths


def parse_file(path: Path) -> Dict[str, Any]:
    """One WordNet YAML file, parsed and checked for its shape; a one-line ``WordNetError`` naming the file
    (and the line, for invalid YAML) when it is not a WordNet file."""
    try:
        with open(path, "rb") as handle:
            data = yaml.load(handle, Loader=Loader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err)
        raise WordNetError(f"{path}: not valid YAML ({where}{' '.join(str(problem).split())})") from None
    except OSError as err:
        raise WordNetError(f"{path}: cannot be read ({err.strerror})") from None
    check = _check_entries if path.name.startswith(ENTRIES_PREFIX) else _check_synsets
    problem = check(data)
    if problem:
        raise WordNetError(f"{path}: not a WordNet {'entries' if check is _check_entries else 'synset'} file "
                           f"({problem})")
    return data


def _is_ids(value: Any) -> bool:
    """Whether a relation's value is what WordNet writes: a list of id strings."""
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _check_entries(data: Any) -> Optional[str]:
    """What is wrong with a parsed entries file, or None: lemma -> pos -> {sense: [{id, synset, relations}]}."""
    if not isinstance(data, dict):
        return "the top level is not a mapping of lemmas"
    for lemma, entry in data.items():
        if not isinstance(lemma, str) or not isinstance(entry, dict):
            return f"entry {lemma!r} is not a lemma mapped to its parts of speech"
        for pos, part in entry.items():
            senses = part.get("sense", []) if isinstance(part, dict) else None
            if not isinstance(senses, list):
                return f"{lemma!r} {pos!r}: no list of senses"
            for raw in senses:
                if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) \
                        or not isinstance(raw.get("synset"), str):
                    return f"{lemma!r} {pos!r}: a sense without a string id and synset"
                bad = [key for key, value in raw.items() if key not in SENSE_FIELDS and not _is_ids(value)]
                if bad:
                    return f"{lemma!r} {raw['id']!r}: relation {bad[0]!r} is not a list of sense keys"
    return None


def _check_synsets(data: Any) -> Optional[str]:
    """What is wrong with a parsed synset file, or None: synset id -> {members, partOfSpeech, relations}."""
    if not isinstance(data, dict):
        return "the top level is not a mapping of synset ids"
    for synset_id, raw in data.items():
        if not isinstance(synset_id, str) or not SYNSET_ID.match(synset_id.encode("utf8") + b":"):
            return f"key {synset_id!r} is not a synset id"
        if not isinstance(raw, dict) or not _is_ids(raw.get("members")) or not isinstance(raw.get("partOfSpeech"),
                                                                                          str):
            return f"{synset_id}: no list of members and part of speech"
        if not _is_ids(raw.get("definition", [])):
            return f"{synset_id}: definition is not a list of strings"
        bad = [key for key, value in raw.items() if key not in SYNSET_FIELDS and not _is_ids(value)]
        if bad:
            return f"{synset_id}: relation {bad[0]!r} is not a list of synset ids"
    return None


def _relations(raw: Mapping[str, Any], fields: frozenset) -> Dict[str, Tuple[str, ...]]:
    """The relation fields of a parsed sense or synset, as tuples."""
    return {key: tuple(value) for key, value in raw.items() if key not in fields}


def _sense(raw: Mapping[str, Any], lemma: str, pos: str) -> Sense:
    """A parsed sense as a ``Sense``."""
    return Sense(raw["id"], lemma, pos, raw["synset"], _relations(raw, SENSE_FIELDS))
