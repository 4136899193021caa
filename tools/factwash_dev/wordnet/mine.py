"""The WordNet steps the developer commands run: every extractor's candidates into a folder, and the equivalence
round that admits candidates into the gate's word lists (``admit.py``) on dev data.

``python tools/dev.py wordnet-candidates`` and ``python tools/dev.py wordnet-admit`` (``factwash_dev/cli/wordnet.py``)
call these and print what they return.
"""

import json
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List

from spacy_factwash.io.outputs import write_text

from . import admit
from .candidate import Candidate, group_count, load_seeds, read_candidates, write_candidates
from .frames import frame_candidates
from .pairs import antonym_candidates, derivation_candidates
from .reader import WordNet, WordNetError
from .synonyms import synonym_candidates

EXTRACTORS: Dict[str, Callable[[WordNet, dict], List[Candidate]]] = {
    "frames": frame_candidates,
    "synonyms": synonym_candidates,
    "antonyms": antonym_candidates,
    "derivations": derivation_candidates,
}


def write_all_candidates(out: Path, corpora: Path, seeds: Path, cache_dir=None) -> List[str]:
    """Every extractor's candidates as ``out/<extractor>.json``, refused before anything is written when a file is
    there; one line per extractor, then one about the parse, for the command to print."""
    targets = {name: out / f"{name}.json" for name in EXTRACTORS}
    for path in targets.values():
        if path.exists():
            raise WordNetError(f"{path}: is there already; nothing was written (give a new --out folder)")
    seed_data = load_seeds(seeds)
    wordnet = WordNet.from_corpora(corpora, cache_dir=cache_dir)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, extract in EXTRACTORS.items():
        started = time.perf_counter()
        candidates = extract(wordnet, seed_data[name])
        write_candidates(targets[name], name, candidates, wordnet, seed_data[name])
        lines.append(f"{name:<12} {len(candidates):>6} candidates in {group_count(candidates):>6} groups "
                     f"({time.perf_counter() - started:.1f} s) -> {targets[name]}")
    lines.append(f"WordNet {wordnet.digest[:12]}: {len(wordnet.parsed)} file(s) parsed, {wordnet.cache.read} read "
                 f"from the cache" + (f"; {wordnet.cache.failed}" if wordnet.cache.failed else ""))
    return lines


def equivalence_round(corpora: Path, candidates_dir: Path, out: Path, report: Path, seeds: Path) -> List[str]:
    """Run the equivalence round (training/MINING.md, revision 4) from the candidates in ``candidates_dir`` (the
    antonyms file: the affixal pairs), and write the admitted lists as the gate set's files into ``out`` (the
    other files of the set copied beside them, unfrozen) and the round's report; lines to print."""
    _, antonyms = read_candidates(candidates_dir / "antonyms.json")
    lists = admit.candidates(corpora, load_seeds(seeds)["frames"], antonyms)
    proposed = {label: len(words) for label, words in lists.items()}
    pairs = admit.dev_pairs(corpora)
    with tempfile.TemporaryDirectory() as work:
        kept, removed = admit.admit(admit.gate_builder(Path(work)), lists, pairs)
    admit.write_lists(out, kept)
    write_text(report, json.dumps({"rule": "training/MINING.md, revision 4", "dev_pairs": len(pairs),
                                   "proposed": proposed, "admitted": {k: len(v) for k, v in kept.items()},
                                   "taken_out": removed}, indent=1, ensure_ascii=False) + "\n")
    return [f"{label:<9} {proposed[label]:>5} proposed, {len(kept[label]):>5} admitted -> {out / admit.FILES[label]}"
            for label in kept] + [f"{len(removed)} taken out at a dev cost; the report: {report}"]
