"""``review list|show|reject|approve``: the review queue of facts the gate held, in the write path's database."""

import json
from pathlib import Path
from typing import Optional

import typer

from ._util import SETTINGS, app, fail

review_app = typer.Typer(**SETTINGS, help="The review queue: facts the gate held, waiting for a person to approve "
                                          "or reject them.")
app.add_typer(review_app, name="review")
DATABASE_OPTION = typer.Option(Path("factwash.sqlite"), "--database", help="The write path's SQLite database (what "
                                                                           "wrap(..., database=...) was given).")
HELD_ARGUMENT = typer.Argument(..., help="The id of a held fact, as review list shows it.")
NOTE_OPTION = typer.Option("", "--note", help="Why (recorded with the review).")
REVIEWER_HELP = "Who {} it (recorded{})."


def open_queue(database: Path):
    """The review queue of an existing database (a one-line error for a missing file)."""
    from ..memory.database import Database
    from ..memory.queue import ReviewQueue

    if not database.is_file():
        fail(f"{database}: no such database (give the file wrap() was given as database=)")
    return ReviewQueue(Database(database))


@review_app.command("list")
def review_list(
    state: str = typer.Option("held", "--state", help="held, approving, approved, rejected, or all."),
    database: Path = DATABASE_OPTION,
) -> None:
    """One line per fact in the queue: id, state, verdict, when it was held, the fact."""
    rows = open_queue(database).list(None if state == "all" else state)
    for row in rows:
        typer.echo(f"{row.id:>4}  {row.state:<9}  {row.verdict:<11}  {row.created_at}  {row.fact}")
    typer.echo(f"{len(rows)} fact(s)", err=True)


@review_app.command("show")
def review_show(held_id: int = HELD_ARGUMENT, database: Path = DATABASE_OPTION) -> None:
    """Everything kept for one held fact, as JSON: source, fact, the gate's report, provenance, scope, state."""
    typer.echo(json.dumps(open_queue(database).show(held_id).to_dict(), indent=1, ensure_ascii=False))


@review_app.command("reject")
def review_reject(
    held_id: int = HELD_ARGUMENT,
    reviewer: str = typer.Option(..., "--reviewer", help=REVIEWER_HELP.format("rejects", "")),
    note: str = NOTE_OPTION,
    database: Path = DATABASE_OPTION,
    audit_log: Optional[Path] = typer.Option(None, "--audit-log", help="Also record the rejection in this audit log."),
) -> None:
    """Reject a held fact: it is never stored; who, when and why are recorded."""
    from ..memory.audit import AuditLog
    from ..memory.queue import reject_held

    row = reject_held(open_queue(database), held_id, reviewer, note, AuditLog(audit_log) if audit_log else None)
    typer.echo(f"{held_id}: rejected by {row.reviewer} at {row.reviewed_at}")


@review_app.command("approve")
def review_approve(
    held_id: int = HELD_ARGUMENT,
    reviewer: str = typer.Option(..., "--reviewer", help=REVIEWER_HELP.format("approves", ", and in the memory's "
                                                                                          "metadata")),
    note: str = NOTE_OPTION,
    database: Path = DATABASE_OPTION,
    mem0_config: Path = typer.Option(..., "--mem0-config", help="A JSON file of the mem0 configuration "
                                                                "(Memory.from_config) of the store to write to."),
    audit_log: Path = typer.Option(Path("factwash_audit.jsonl"), "--audit-log", help="The wrapped store's audit log."),
) -> None:
    """Approve a held fact: it is written through the gated store, and who and when are recorded."""
    from ..api import wrap
    from ..memory.queue import ReviewError

    row = open_queue(database).show(held_id)
    if row.state != "held":  # refused before the store is opened
        raise ReviewError(f"held fact {held_id} is {row.state}, not held")
    try:
        from mem0 import Memory
    except ImportError:
        fail("approving writes to a mem0 store: pip install 'spacy-factwash[mem0]'")
    try:  # a configuration that is not JSON, or that mem0 refuses
        memory = Memory.from_config(json.loads(mem0_config.read_text(encoding="utf8")))
        try:
            held = wrap(memory, audit_log=audit_log, database=database).approve(held_id, reviewer, note)["held"]
        finally:
            memory.close()
    except ValueError as err:
        fail(str(err))
    typer.echo(f"{held_id}: approved by {held['reviewer']} at {held['reviewed_at']}; stored as "
               f"{', '.join(held['memory_ids'])}")
