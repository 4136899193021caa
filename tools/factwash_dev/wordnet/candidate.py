"""A candidate: one word proposed for one term group, with the WordNet relations that proposed it.

Every extractor (``frames``, ``synonyms``, ``antonyms``, ``derivations``)
returns a flat list of candidates, so the lead can keep or drop words one by
one before ``writer.write_lexicon_set`` turns the kept ones into entries
(one entry per group). A candidates file (``wordnet-candidates``) is JSON:
the extractor, the resource (commit and digest), the seeds it started from,
and one object per candidate; ``read_candidates`` reads it back.
"""

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from spacy_factwash.io.outputs import write_text

from .reader import COMMIT, WordNet, WordNetError

SEEDS = Path(__file__).with_name("seeds.json")
SOURCE = "open-english-wordnet"
REQUIRED = frozenset({"word", "pos", "group", "relation", "synsets"})  # the fields a candidate cannot lack


@dataclass(frozen=True)
class Candidate:
    """One word for one term group, and how WordNet led to it.

    ``synsets`` is the route of synset ids from where the extractor started (a stance's root, a seed's
    synset, one side of an antonym or derivation pair) to the word's own synset; ``relation`` names the
    step ("root", "hyponym", "seed", "synonym", "similar", "antonym", "derivation" ...); ``senses`` are the
    sense keys of a sense relation's two ends. ``value`` is what the group means to a check (a stance, the
    seed a synonym stands for, the opposite group of an antonym); ``kind`` is the extractor's class of the
    group (the word's lexicographer file, a seed class, an affix).
    """

    word: str
    pos: str
    group: str
    relation: str
    synsets: Tuple[str, ...]
    kind: str = ""
    value: Optional[str] = None
    senses: Tuple[str, ...] = ()
    definition: str = ""

    def to_dict(self) -> Dict[str, Any]:
        """The candidate as it is written in a candidates file."""
        data = asdict(self)
        data["synsets"], data["senses"] = list(self.synsets), list(self.senses)
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str) -> "Candidate":
        """A candidate read back from a candidates file; a ``WordNetError`` naming ``where`` when it is not one."""
        names = {f.name for f in fields(cls)}
        if not isinstance(data, dict) or not REQUIRED <= set(data) or not set(data) <= names:
            raise WordNetError(f"{where}: not a candidate (needs {', '.join(sorted(REQUIRED))}; "
                               f"may have {', '.join(sorted(names - REQUIRED))})")
        return cls(**{**data, "synsets": tuple(data["synsets"]), "senses": tuple(data.get("senses", ()))})


# each extractor's section of the seeds: its fields and the type each must have
SEED_FIELDS = {
    "frames": {"lexfiles": list, "depth": int, "stances": dict},
    "synonyms": {"relations": list, "classes": dict},
    "antonyms": {"pos": list, "prefixes": list},
    "derivations": {"pos": list, "relations": list},
}


def load_seeds(path: Union[str, Path] = SEEDS) -> Dict[str, Any]:
    """The extractors' seeds (``seeds.json`` beside this module unless another file is given), each section
    checked for its fields."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise WordNetError(f"{path}: seeds not readable as JSON ({err})") from None
    for section, wanted in SEED_FIELDS.items():
        given = data.get(section) if isinstance(data, dict) else None
        bad = [f"{name} ({kind.__name__})" for name, kind in wanted.items()
               if not isinstance(given, dict) or not isinstance(given.get(name), kind)]
        if bad:
            raise WordNetError(f"{path}: seeds section {section!r} needs {', '.join(bad)}")
    for stance, roots in data["frames"]["stances"].items():
        if not isinstance(roots, list) or not all(isinstance(root, dict) and isinstance(root.get("synset"), str)
                                                  and isinstance(root.get("lemma"), str) for root in roots):
            raise WordNetError(f"{path}: the frame roots of {stance!r} need a 'synset' and a 'lemma' string each")
    return data


def group_count(candidates: Sequence[Candidate]) -> int:
    """How many term groups the candidates fall into."""
    return len({candidate.group for candidate in candidates})


def write_candidates(path: Union[str, Path], extractor: str, candidates: Sequence[Candidate], wordnet: WordNet,
                     seeds: Mapping[str, Any]) -> None:
    """Write one extractor's candidates with their provenance (one candidate a line, for reading and diffs)."""
    head = {"extractor": extractor, "source": SOURCE, "commit": COMMIT, "digest": wordnet.digest, "seeds": seeds,
            "count": len(candidates), "groups": group_count(candidates)}
    lines = ",\n".join("  " + json.dumps(c.to_dict(), ensure_ascii=False, sort_keys=True) for c in candidates)
    text = json.dumps(head, ensure_ascii=False, sort_keys=True)[:-1] + ', "candidates": [\n' + lines + "\n]}\n"
    write_text(path, text)


def read_candidates(path: Union[str, Path]) -> Tuple[str, List[Candidate]]:
    """A candidates file read back: its extractor and its candidates."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise WordNetError(f"{path}: not a candidates file ({err})") from None
    if not isinstance(data, dict) or not isinstance(data.get("extractor"), str) \
            or not isinstance(data.get("candidates"), list):
        raise WordNetError(f"{path}: not a candidates file (needs 'extractor' and a 'candidates' list)")
    return data["extractor"], [Candidate.from_dict(raw, f"{path}: candidate {number}")
                               for number, raw in enumerate(data["candidates"], start=1)]
