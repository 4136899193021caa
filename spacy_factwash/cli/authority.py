"""``confirm``: authority-change proposals ("note B supersedes rule A") confirmed or refused against the items."""

from pathlib import Path
from typing import Optional

import typer

from ._util import LEXICON_DIR_OPTION, app, bar


@app.command("confirm")
def confirm_command(
    items_path: Path = typer.Argument(..., help='A JSONL file of {"id", "text"} items (rules and notes).'),
    proposals_path: Path = typer.Argument(..., help="A JSONL file of proposals (type, source_item_id, target_item_id, "
                                                    "quote, scope_terms, confidence)."),
    output_path: Path = typer.Option(Path("confirmations.jsonl"), "--output", help="Where to write the confirmations."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Confirm or refuse each proposal against the items; a summary of confirmed and blocking rules at the end."""
    from ..api import default_confirmer, pipeline_on
    from ..authority.confirm import Confirmer, confirm_file

    confirmer = default_confirmer() if lexicon_dir is None else Confirmer(pipeline_on(lexicon_dir))
    run = confirm_file(confirmer, items_path, proposals_path, output_path, bar(" proposals"))
    typer.echo(f"{run.confirmed} of {run.proposals} proposals confirmed; blocked: "
               + (", ".join(f"{r} {n}" for r, n in run.blocked.most_common()) or "none"), err=True)
