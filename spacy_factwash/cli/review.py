"""``review list|show|reject|approve``: the review queue of facts the gate held, in the write path's database."""

from pathlib import Path
from typing import Optional

import typer

from ._util import SETTINGS, app, fail, json_text, shown

review_app = typer.Typer(**SETTINGS, help="The review queue: facts the gate held, waiting for a person to approve "
                                          "or reject them.")
app.add_typer(review_app, name="review")
DATABASE_OPTION = typer.Option(None, "--database", help="The write path's SQLite database: what wrap(..., "
                                                        "database=...) was given (default: the one wrap() uses "
                                                        "without it, $FACTWASH_DATABASE or ~/.local/share/"
                                                        "spacy-factwash/factwash.sqlite).")
HELD_ARGUMENT = typer.Argument(..., help="The id of a held fact, as review list shows it.")
NOTE_OPTION = typer.Option("", "--note", help="Why (recorded with the review).")
REVIEWER_HELP = "Who {} it (recorded{})."


def database_path(database: Optional[Path]) -> Path:
    """The database a review command reads: the one given, else the default wrap() writes to."""
    from ..memory.database import default_database_path

    return default_database_path() if database is None else database


def open_queue(database: Optional[Path]):
    """The review queue of an existing database (a one-line error for a missing file)."""
    from ..memory.database import Database
    from ..memory.queue import ReviewQueue

    path = database_path(database)
    if not path.is_file():
        fail(f"{path}: no such database (give the file wrap() was given as database=" +
             (")" if database is not None else "; this is the default, where wrap() writes without one)"))
    return ReviewQueue(Database(path))


def mem0_store(config: Path):
    """The mem0 store a JSON configuration file describes (``Memory.from_config``); one line naming the file for a
    configuration that is not JSON or that mem0 refuses."""
    from ..io.inputs import read_json

    settings = read_json(config)
    try:
        from mem0 import Memory
    except ImportError:
        fail("approving writes to a mem0 store: pip install 'spacy-factwash[mem0]'")
    try:
        return Memory.from_config(settings)
    except (ValueError, TypeError) as err:  # mem0's validation error takes many lines
        fail(f"{config}: mem0 refused the configuration: {' '.join(str(err).split())[:300]}")


@review_app.command("list")
def review_list(
    state: str = typer.Option("held", "--state", help="held, approving, approved, rejected, or all."),
    database: Optional[Path] = DATABASE_OPTION,
) -> None:
    """One line per fact in the queue: id, state, verdict, when it was held, the fact (control characters in it
    shown escaped, so a fact can neither drive the terminal nor forge a row)."""
    rows = open_queue(database).list(None if state == "all" else state)
    for row in rows:
        typer.echo(f"{row.id:>4}  {shown(row.state):<9}  {shown(row.verdict):<11}  {shown(row.created_at)}  "
                   f"{shown(row.fact)}")
    typer.echo(f"{len(rows)} fact(s) in {shown(database_path(database))}", err=True)


@review_app.command("show")
def review_show(held_id: int = HELD_ARGUMENT, database: Optional[Path] = DATABASE_OPTION) -> None:
    """Everything kept for one held fact, as JSON: source, fact, the gate's report, provenance, scope, state."""
    typer.echo(json_text(open_queue(database).show(held_id).to_dict(), indent=1))


@review_app.command("reject")
def review_reject(
    held_id: int = HELD_ARGUMENT,
    reviewer: str = typer.Option(..., "--reviewer", help=REVIEWER_HELP.format("rejects", "")),
    note: str = NOTE_OPTION,
    database: Optional[Path] = DATABASE_OPTION,
    audit_log: Optional[Path] = typer.Option(None, "--audit-log", help="Also record the rejection in this audit log."),
) -> None:
    """Reject a held fact: it is never stored; who, when and why are recorded."""
    from ..memory.audit import AuditLog
    from ..memory.queue import reject_held

    row = reject_held(open_queue(database), held_id, reviewer, note, AuditLog(audit_log) if audit_log else None)
    typer.echo(f"{held_id}: rejected by {shown(row.reviewer)} at {row.reviewed_at} "
               f"(in {shown(database_path(database))})")


@review_app.command("approve")
def review_approve(
    held_id: int = HELD_ARGUMENT,
    reviewer: str = typer.Option(..., "--reviewer", help=REVIEWER_HELP.format("approves", ", and in the memory's "
                                                                                          "metadata")),
    note: str = NOTE_OPTION,
    database: Optional[Path] = DATABASE_OPTION,
    mem0_config: Path = typer.Option(..., "--mem0-config", help="A JSON file of the mem0 configuration "
                                                                "(Memory.from_config) of the store to write to."),
    audit_log: Path = typer.Option(Path("factwash_audit.jsonl"), "--audit-log", help="The wrapped store's audit log."),
) -> None:
    """Approve a held fact: it is written through the gated store, and who and when are recorded."""
    from ..api import wrap
    from ..memory.audit import AuditLog
    from ..memory.queue import ReviewError

    database = database_path(database)
    row = open_queue(database).show(held_id)
    if row.state != "held":  # refused before the store is opened
        raise ReviewError(f"held fact {held_id} is {row.state}, not held")
    AuditLog(audit_log)  # every path checked before the store is opened
    memory = mem0_store(mem0_config)
    try:
        held = wrap(memory, audit_log=audit_log, database=database).approve(held_id, reviewer, note)["held"]
    except ValueError as err:
        fail(str(err))
    finally:
        memory.close()
    typer.echo(f"{held_id}: approved by {shown(held['reviewer'])} at {held['reviewed_at']}; stored as "
               f"{shown(', '.join(held['memory_ids']))} (in {shown(database)})")
