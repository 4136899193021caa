"""Building the shipped parse pipeline: EWT's train set rebuilt, the pipeline trained, packaged and measured."""

import sys
from pathlib import Path
from typing import Optional

import typer

from spacy_factwash.cli._util import fail

from ._util import COMMAND, CORPORA_OPTION, README_OPTION, REPOSITORY, app, corpora_root, write_json, write_table


@app.command("ewt-train")
def ewt_train(
    out: Path = typer.Argument(..., help="Where to write the rebuilt en_ewt-ud-train.conllu."),
    corpora: Optional[Path] = CORPORA_OPTION,
) -> None:
    """Rebuild UD English EWT's official train set from its per-document sources, checked against its README."""
    from ..evaluation.ud_ewt import EWTError, rebuild_train

    try:
        result = rebuild_train(corpora_root(corpora), out)
    except EWTError as err:
        fail(str(err))
    typer.echo(f"{result['release']}")
    for split in ("train", "dev", "test"):
        typer.echo(f"{split:<6} {result[split + '_sentences']:>6,} sentences {result[split + '_words']:>8,} words")
    typer.echo(f"wrote {out} ({result['sha256']})")


@app.command("parser-train")
def parser_train(
    config: Path = typer.Argument(..., exists=True, dir_okay=False,
                                  help="The training config (training/parser/configs/parser.cfg)."),
    output: Path = typer.Argument(..., help="The training output folder (model-best, model-last, train-run.json)."),
    train: Path = typer.Option(..., "--train", exists=True, dir_okay=False, help="The train DocBin."),
    dev: Path = typer.Option(..., "--dev", exists=True, dir_okay=False, help="The dev DocBin."),
) -> None:
    """Train the parse pipeline in this process and record its wall time and settings."""
    from ..evaluation.parser_build import train as train_parser

    run = train_parser(config, train, dev, output, " ".join([COMMAND, *sys.argv[1:]]))
    typer.echo(f"trained in {run['seconds'] / 60:.1f} minutes; {output / 'train-run.json'}")


@app.command("parser-package")
def parser_package(
    trained: Path = typer.Argument(..., help="The training output folder (model-best and train-run.json)."),
    dest: Optional[Path] = typer.Option(None, "--dest", help="Where to write the pipeline (default: the package's)."),
    corpora: Optional[Path] = CORPORA_OPTION,
) -> None:
    """Write the shipped parse pipeline with its licence (CC BY-SA 4.0), README and provenance."""
    from ..evaluation.parser_build import package
    from ..evaluation.ud_ewt import EWTError

    try:
        folder = package(trained, corpora_root(corpora), dest)
    except EWTError as err:
        fail(str(err))
    typer.echo(f"wrote {folder}")


def figure_lines(result) -> str:
    """The parse pipeline's figures to read: each split's scores, then its size and speed against the floor."""
    speed = result["speed"]
    return "\n".join([f"{split:<5} " + "  ".join(f"{name} {value}" for name, value in scores.items())
                      for split, scores in result["scores"].items()]
                     + [f"size {result['size_bytes'] / 2**20:.1f} MB; {speed['sentences']:,} test sentences: floor "
                        f"{speed['floor_seconds']} s, parse {speed['parse_seconds']} s, ratio {speed['ratio']}x "
                        f"({speed['parse_words_per_second']:,} words/s)"])


@app.command("parser-measure")
def parser_measure(
    model: Optional[Path] = typer.Argument(None, help="A parse pipeline folder (default: the shipped one)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    output: Optional[Path] = typer.Option(None, "--output", help="Also write the figures here (JSON)."),
    repeat: int = typer.Option(3, min=1, help="Timed passes per pipeline, interleaved; the best is kept."),
    readme: Optional[Path] = README_OPTION,
    published: Path = typer.Option(REPOSITORY / "training" / "parser" / "published.json", "--published", exists=True,
                                   help="The published EWT figures the README table compares with."),
) -> None:
    """POS, features, UAS and LAS on EWT dev and test (gold words), size on disk, speed against the floor."""
    from spacy_factwash.syntax.parse import ewt_parser_dir

    from ..evaluation.parser_build import figures_table, measure, published_figures
    from ..evaluation.readme import PARSER
    from ..evaluation.ud_ewt import EWTError

    try:
        result = measure(model or ewt_parser_dir(), corpora_root(corpora), repeat=repeat)
    except EWTError as err:
        fail(str(err))
    typer.echo(figure_lines(result))
    if output is not None:
        write_json(output, result)
    if readme is not None:
        write_table(readme, figures_table(result["scores"]["test"], published_figures(published),
                                          model or ewt_parser_dir()), PARSER)
