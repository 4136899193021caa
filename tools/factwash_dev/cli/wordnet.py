"""Mining the gate's equivalence lists from Open English WordNet: the candidates, and the round that admits them."""

from pathlib import Path
from typing import Optional

import typer

from ..wordnet.cache import default_cache_dir
from ..wordnet.candidate import SEEDS
from ._util import CORPORA_OPTION, REPOSITORY, app, corpora_root

SEEDS_OPTION = typer.Option(SEEDS, "--seeds", help="The extractors' seeds (roots, seed words, parts of speech).")


@app.command("wordnet-candidates")
def wordnet_candidates(
    out: Path = typer.Option(..., "--out", help="A folder to write the candidate files into (made when missing; "
                                                "a file already there is never overwritten)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    cache: Optional[Path] = typer.Option(None, "--cache", help=f"Where parsed WordNet files are kept (default: "
                                                               f"{default_cache_dir()})."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Parse every file needed, and keep nothing."),
    seeds: Path = SEEDS_OPTION,
) -> None:
    """Mine candidate equivalence lists from Open English WordNet: reporting verbs by stance, synonym sets of
    time, degree, certainty and polarity words, antonym pairs, derivations. Each candidate keeps its synsets."""
    from ..wordnet.mine import write_all_candidates

    for line in write_all_candidates(out, corpora_root(corpora), seeds, cache_dir=False if no_cache else cache):
        typer.echo(line)


@app.command("wordnet-admit")
def wordnet_admit(
    candidates: Path = typer.Option(..., "--candidates", exists=True, file_okay=False,
                                    help="The folder wordnet-candidates wrote."),
    out: Path = typer.Option(..., "--out", help="The folder to write the admitted lists into (the gate set's "
                                                "files; freeze it with freeze-lexicons --set gate)."),
    report: Path = typer.Option(REPOSITORY / "training" / "rounds" / "equivalence-1.json", "--report",
                                help="Where the round's report goes."),
    corpora: Optional[Path] = CORPORA_OPTION,
    seeds: Path = SEEDS_OPTION,
) -> None:
    """The equivalence round (training/MINING.md, revision 4): admit WordNet candidates into the gate's synonym,
    frame and affixal-negation lists where they cost no dev pair."""
    from ..wordnet.mine import equivalence_round

    for line in equivalence_round(corpora_root(corpora), candidates, out, report, seeds):
        typer.echo(line)
