"""The corpora: where they are, whether each holds its pinned commit's files, and the weasel assets that fetch them
(training/project.yml)."""

from pathlib import Path
from typing import Optional

import typer

from spacy_factwash.cli._util import fail

from ._util import CORPORA_OPTION, REPOSITORY, app, corpora_root

PROJECT = REPOSITORY / "training" / "project.yml"


@app.command("check-corpora")
def check_corpora(corpora: Optional[Path] = CORPORA_OPTION) -> None:
    """Check that every corpus is in place, holding the pinned commits' files (the checksums of the assets in
    training/project.yml), and say where each comes from."""
    from weasel.util import load_project_config

    from ..corpus_assets import differences
    from ..evaluation.corpora import CORPORA

    root = corpora_root(corpora)
    for corpus in CORPORA.values():
        typer.echo(f"{corpus.name:<10} {root / corpus.raw}  (from {corpus.origin})")
    problems = [problem for corpus in CORPORA.values() if (problem := corpus.check(root))]
    problems += differences(load_project_config(PROJECT.parent), root)
    if problems:
        fail("; ".join(problems))


@app.command("corpus-assets")
def corpus_assets(
    corpora: Optional[Path] = CORPORA_OPTION,
    project: Path = typer.Option(PROJECT, "--project", exists=True, help="The weasel project file to write."),
) -> None:
    """Write the corpora's weasel assets (public source, pinned commit, checksums read from the corpora folder) into
    the project file between its markers."""
    from spacy_factwash.io.outputs import write_text

    from ..corpus_assets import replace_block

    try:
        text = replace_block(project.read_text(encoding="utf8"), corpora_root(corpora))
    except ValueError as err:
        fail(f"{project}: {err}")
    write_text(project, text)
    typer.echo(f"{project}: corpus assets written")
