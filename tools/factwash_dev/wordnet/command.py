"""``python tools/dev.py wordnet-candidates``: every extractor's candidates from Open English WordNet, one JSON
file each (``frames.json``, ``synonyms.json``, ``antonyms.json``, ``derivations.json``), into a folder.

Registered on the developer command line by one line in ``factwash_dev/cli.py``. It proposes; it admits
nothing: the candidates earn their place on dev data under training/MINING.md's rule.
"""

import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

import typer

from spacy_factwash.cli import _fail
from spacy_factwash.io.outputs import OutputError

from .cache import default_cache_dir
from .candidate import SEEDS, Candidate, group_count, load_seeds, write_candidates
from .frames import frame_candidates
from .pairs import antonym_candidates, derivation_candidates
from .reader import WordNet, WordNetError
from .synonyms import synonym_candidates

CORPORA_ENV = "FACTWASH_CORPORA"
EXTRACTORS: Dict[str, Callable[[WordNet, dict], List[Candidate]]] = {
    "frames": frame_candidates,
    "synonyms": synonym_candidates,
    "antonyms": antonym_candidates,
    "derivations": derivation_candidates,
}


def wordnet_candidates(
    out: Path = typer.Option(..., "--out", help="A folder to write the candidate files into (made when missing; "
                                                "a file already there is never overwritten)."),
    corpora: Optional[Path] = typer.Option(None, "--corpora", envvar=CORPORA_ENV,
                                           help=f"The corpora folder (default: ${CORPORA_ENV})."),
    cache: Optional[Path] = typer.Option(None, "--cache", help=f"Where parsed WordNet files are kept (default: "
                                                               f"{default_cache_dir()})."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Parse every file needed, and keep nothing."),
    seeds: Path = typer.Option(SEEDS, "--seeds", help="The extractors' seeds (roots, seed words, parts of speech)."),
) -> None:
    """Mine candidate equivalence lists from Open English WordNet: reporting verbs by stance, synonym sets of
    time, degree, certainty and polarity words, antonym pairs, derivations. Each candidate keeps its synsets."""
    if corpora is None:
        _fail(f"give --corpora or set {CORPORA_ENV} to the corpora folder")
    targets = {name: out / f"{name}.json" for name in EXTRACTORS}
    for path in targets.values():
        if path.exists():
            _fail(f"{path}: is there already; nothing was written (give a new --out folder)")
    try:
        seed_data = load_seeds(seeds)
        wordnet = WordNet.from_corpora(corpora, cache_dir=False if no_cache else cache)
        out.mkdir(parents=True, exist_ok=True)
        for name, extract in EXTRACTORS.items():
            started = time.perf_counter()
            candidates = extract(wordnet, seed_data[name])
            write_candidates(targets[name], name, candidates, wordnet, seed_data[name])
            typer.echo(f"{name:<12} {len(candidates):>6} candidates in {group_count(candidates):>6} groups "
                       f"({time.perf_counter() - started:.1f} s) -> {targets[name]}")
    except (WordNetError, OutputError, OSError) as err:
        _fail(str(err))
    typer.echo(f"WordNet {wordnet.digest[:12]}: {len(wordnet.parsed)} file(s) parsed, {wordnet.cache.read} read "
               f"from the cache" + (f"; {wordnet.cache.failed}" if wordnet.cache.failed else ""))
