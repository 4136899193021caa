"""Growing the lexicons from dev data: a cue mining round, and the cue-sense lists chosen on the parse."""

from pathlib import Path
from typing import Optional

import typer

from ._util import CORPORA_OPTION, SPLITS_OPTION, app, corpora_root


@app.command()
def mine(
    round_number: int = typer.Option(..., "--round", min=1, help="The mining round's number."),
    lexicon_in: Path = typer.Option(..., "--lexicon-in", help="The lexicon folder the round starts from."),
    lexicon_out: Path = typer.Option(..., "--lexicon-out", help="Where the round writes the next version."),
    version: str = typer.Option(..., "--version", help="The version of the lexicon the round writes."),
    report: Path = typer.Option(..., "--report", help="Where to write the round report (JSON)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
) -> None:
    """One mining round on the dev half, under the rule in training/MINING.md."""
    from ..evaluation.mining import mine_round

    result = mine_round(corpora_root(corpora), splits, lexicon_in, lexicon_out, round_number, version, report)
    for label in result["added"]:
        typer.echo(f"{label:<12} +{len(result['added'][label])} -{len(result['removed'][label])}")
    typer.echo(f"wrote {lexicon_out} (version {version}) and {report}")


@app.command("mine-sense")
def mine_sense_command(
    out: Path = typer.Argument(..., help="The folder to write the sense lists into (lexicons/sense)."),
    version: str = typer.Option(..., "--version", help="The version the frozen lists are published under."),
    model: Optional[Path] = typer.Option(None, "--model", help="A parse pipeline folder (default: the shipped one)."),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write every count here (JSON)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
) -> None:
    """Choose the words of each cue-sense rule on the dev halves (training/parser/SENSE.md) and freeze the lists."""
    from spacy_factwash.syntax.parse import ewt_parser_dir

    from ..evaluation.sense_mining import mine_sense

    chosen = mine_sense(model or ewt_parser_dir(), corpora_root(corpora), splits, out, version, report)
    for rule, words in chosen.items():
        typer.echo(f"{rule:<9} " + (", ".join(f"{w['label'].lower()}:{w['word']} ({w['wrong']}/{w['right']})"
                                               for w in words) or "-"))
    typer.echo(f"froze {out} as version {version}")
