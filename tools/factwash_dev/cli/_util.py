"""What the developer commands share: the app, the repository's own files as defaults, the corpora folder, and
writing a measured table into its page.

The developer commands live in the checkout (``tools/`` is not in the wheel), so every path they default to is
an absolute path under the repository root: they run the same from any folder.
"""

import json
from pathlib import Path
from typing import Optional

import typer

from spacy_factwash.cli._util import SETTINGS, fail

from ..corpora_folder import CORPORA_ENV, absolute, from_environment, problem

REPOSITORY = Path(__file__).resolve().parents[3]  # tools/factwash_dev/cli/_util.py -> the checkout
COMMAND = "python tools/dev.py"

app = typer.Typer(**SETTINGS, help="spacy-factwash developer commands: evaluation, mining, benches, documentation "
                                   f"tables ({COMMAND} COMMAND, from a checkout).")


def corpora_root(corpora: Optional[Path]) -> Path:
    """The corpora folder as an absolute path: the option, else $FACTWASH_CORPORA, a relative one read against the
    folder it was given in (``corpora_folder``); a clear error when neither is there."""
    root = absolute(corpora) if corpora is not None else from_environment()
    if root is None:
        fail(f"give --corpora or set {CORPORA_ENV} to the corpora folder")
    if (found := problem(root)) is not None:
        fail(found)
    return root


def checked_half(half: str, option: str = "--half") -> str:
    """A corpus half named on the command line: dev or test (anything else ends the command in one line)."""
    if half not in ("dev", "test"):
        fail(f"{option} must be dev or test, not {half!r}")
    return half


def write_table(readme: Path, table: str, name: str) -> None:
    """Replace the page's block for table ``name`` (``evaluation.readme``) with ``table``."""
    from spacy_factwash.io.outputs import write_text

    from ..evaluation.readme import TableMissing, replace_table

    try:
        write_text(readme, replace_table(readme.read_text(encoding="utf8"), table, name))
    except TableMissing as err:
        fail(f"{readme}: {err}")


def check_table(page: Path, name: str) -> None:
    """End the command in one line unless ``page`` holds the markers of table ``name`` (before a long measurement
    that would then find nowhere to write)."""
    from ..evaluation.readme import TableMissing, extract_table

    try:
        extract_table(page.read_text(encoding="utf8"), name)
    except (OSError, TableMissing) as err:
        fail(f"{page}: {err}")


def show_table(table: str, readme: Optional[Path], name: str) -> None:
    """Print a measured table, and write it into a documentation page between its markers when one is given."""
    typer.echo(table)
    if readme is not None:
        write_table(readme, table, name)


def write_json(path: Path, data) -> None:
    """Write a measurement as indented JSON (its folder made when missing)."""
    from spacy_factwash.io.outputs import write_text

    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(data, indent=1) + "\n")


CORPORA_OPTION = typer.Option(None, "--corpora", help=f"The corpora folder (default: ${CORPORA_ENV}).")
SPLITS_OPTION = typer.Option(REPOSITORY / "training" / "splits", "--splits", exists=True,
                             help="The committed split files.")
SETS_OPTION = typer.Option(REPOSITORY / "training" / "gate_sets", "--sets", exists=True,
                           help="The folder with the written pair sets.")
README_OPTION = typer.Option(None, "--readme", "--doc", help="Also write the table into this page between its "
                                                            "markers (each table's page: evaluation.readme.PAGES, "
                                                            "most in docs/evaluation.md).")
