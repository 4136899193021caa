"""``freeze-lexicons``: a lexicon folder's manifest re-written with a version and the digest of every file."""

from pathlib import Path

import typer

from ._util import app, fail, shown


@app.command("freeze-lexicons")
def freeze_lexicons(
    folder: Path = typer.Argument(..., help="The lexicon folder to freeze (holds the class .jsonl files)."),
    version: str = typer.Option(..., "--version", help="The version the frozen set is published under."),
    lexicon_set: str = typer.Option("cues", "--set", help="Which set the folder holds: cues, authority, strength, "
                                                           "gate or sense."),
) -> None:
    """Re-write the folder's manifest with VERSION and the sha256 of every file of the set."""
    from ..authority.lexicon import AUTHORITY_FILES
    from ..lexicon.frozen import CLASS_FILES, freeze
    from ..pipes.gate.words import GATE_FILES
    from ..pipes.strength.lexicon import STRENGTH_DATA, STRENGTH_FILES
    from ..syntax.sense import SENSE_FILES

    sets = {"cues": (CLASS_FILES, ()), "authority": (AUTHORITY_FILES, ()), "strength": (STRENGTH_FILES, STRENGTH_DATA),
            "gate": (GATE_FILES, ()), "sense": (SENSE_FILES, ())}
    if lexicon_set not in sets:
        fail(f"--set must be one of {', '.join(sets)}, got {lexicon_set!r}")
    manifest = freeze(folder, version, *sets[lexicon_set])
    typer.echo(f"froze {len(manifest['files'])} files as version {shown(version)}")
