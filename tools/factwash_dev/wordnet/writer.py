"""Turning chosen candidates into a frozen lexicon set in the project's format.

One JSONL file per extractor (``frame.jsonl`` of label ``FRAME``,
``synonym.jsonl``, ``antonym.jsonl``, ``derivation.jsonl``), one entry per
term group, and a ``manifest.json`` written by
``spacy_factwash.lexicon.frozen.freeze`` (which reads the set back as a
load would before it writes the manifest). An entry's pattern is its
group's words, lower-cased, a verb's with its inflected forms (from
spaCy's English lemma lookup table, read backwards: "deny" -> "denies",
"denied", "denying"); its value is the group's (a stance, the seed a
synonym stands for, the id of the opposite antonym entry); its provenance
names the resource, its commit, the synsets and relations that proposed
the words, and each word's routes. Which candidates to choose is the
admission's business (training/MINING.md), not this module's; it writes
into a folder of its own, never over a file that is there.
"""

import json
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Mapping, Sequence, Tuple, Union

from spacy.util import load_language_data, registry

from spacy_factwash.io.outputs import write_text
from spacy_factwash.lexicon.frozen import MANIFEST, LexiconError, freeze, lexicons_from_bytes, sha256

from .candidate import SOURCE, Candidate
from .reader import COMMIT, WordNetError

LABELS = {"frames": "FRAME", "synonyms": "SYNONYM", "antonyms": "ANTONYM", "derivations": "DERIVATION"}


def class_file(label: str) -> str:
    """The file a label's entries are written in (``FRAME`` -> ``frame.jsonl``)."""
    return f"{label.lower()}.jsonl"


@lru_cache(maxsize=1)
def _inflections() -> Dict[str, Tuple[str, ...]]:
    """Lemma -> the word forms spaCy's English lookup table gives it (the table read backwards)."""
    forms: Dict[str, List[str]] = defaultdict(list)
    for form, lemma in load_language_data(registry.lookups.get("en")["lemma_lookup"]).items():
        if form != lemma:
            forms[lemma].append(form)
    return {lemma: tuple(sorted(found)) for lemma, found in forms.items()}


def word_forms(word: str, pos: str) -> List[str]:
    """The phrases a word is matched by: itself, lower-cased, and for a verb its inflections (a phrasal verb
    inflects its first word: "put forward" -> "puts forward")."""
    word = word.lower()
    if pos != "v":
        return [word]
    head, _, rest = word.partition(" ")
    return [word] + [f"{form} {rest}" if rest else form for form in _inflections().get(head, ())]


def entries(label: str, candidates: Sequence[Candidate], commit: str = COMMIT) -> List[Dict[str, Any]]:
    """One entry per group of the candidates, in the order the groups first appear."""
    groups: Dict[str, List[Candidate]] = defaultdict(list)
    for candidate in candidates:
        groups[candidate.group].append(candidate)
    return [_entry(label, group, members, commit) for group, members in groups.items()]


def _entry(label: str, group: str, members: Sequence[Candidate], commit: str) -> Dict[str, Any]:
    """The entry of one group: its words' forms, its value, and where every word came from."""
    values = {candidate.value for candidate in members}
    if len(values) > 1:
        raise WordNetError(f"group {group!r}: its candidates disagree on the value ({sorted(map(str, values))})")
    pattern: Dict[str, None] = {}
    routes: Dict[str, List[str]] = defaultdict(list)
    for candidate in members:
        pattern.update(dict.fromkeys(word_forms(candidate.word, candidate.pos)))
        route = ">".join(candidate.synsets)
        if route not in routes[candidate.word]:
            routes[candidate.word].append(route)
    provenance = {"source": SOURCE, "commit": commit,
                  "synsets": sorted({synset for candidate in members for synset in candidate.synsets}),
                  "relation": "; ".join(sorted({candidate.relation for candidate in members})),
                  "paths": dict(routes)}
    senses = sorted({sense for candidate in members for sense in candidate.senses})
    if senses:
        provenance["senses"] = senses
    entry = {"id": f"{label.lower()}:{group}", "label": label, "role": "cue", "pattern": list(pattern)}
    value = values.pop()
    if value is not None:
        entry["value"] = f"{label.lower()}:{value}" if label == "ANTONYM" else value
    entry["provenance"] = provenance
    return entry


def write_lexicon_set(folder: Union[str, Path], chosen: Mapping[str, Sequence[Candidate]], version: str,
                      commit: str = COMMIT) -> Dict[str, Any]:
    """Write the chosen candidates of each extractor (``frames``, ``synonyms``, ``antonyms``, ``derivations``)
    as a frozen lexicon set in ``folder`` (made when missing) and return its manifest. Refused, with nothing
    written, when a file it would write is there or an antonym's opposite was not chosen with it."""
    folder = Path(folder)
    unknown = sorted(set(chosen) - set(LABELS))
    if unknown:
        raise WordNetError(f"no lexicon label for extractor(s) {', '.join(unknown)} (known: {', '.join(LABELS)})")
    files = {class_file(LABELS[name]): entries(LABELS[name], candidates, commit) for name, candidates in chosen.items()}
    for path in [folder / name for name in (*files, MANIFEST)]:
        if path.exists():
            raise WordNetError(f"{path}: is there already; nothing was written (give a new folder)")
    ids = {entry["id"] for entry in files.get(class_file("ANTONYM"), ())}
    for entry in files.get(class_file("ANTONYM"), ()):
        if entry.get("value") not in ids:
            raise WordNetError(f"{entry['id']}: its opposite {entry.get('value')!r} was not chosen; nothing was "
                               "written (choose both sides of an antonym pair)")
    texts = {name: "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in written)
             for name, written in files.items()}
    class_files = {class_file(LABELS[name]): LABELS[name] for name in chosen}
    manifest = {"version": version, "files": {name: sha256(text.encode("utf8")) for name, text in texts.items()}}
    try:  # read back as a load would, before anything is written
        lexicons_from_bytes({name: text.encode("utf8") for name, text in texts.items()},
                            json.dumps(manifest).encode("utf8"), origin=str(folder), class_files=class_files)
    except LexiconError as err:
        raise WordNetError(f"{err.message}; nothing was written") from None
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        write_text(folder / name, text)
    return freeze(folder, version, class_files)
