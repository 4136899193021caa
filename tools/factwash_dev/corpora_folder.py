"""Where the annotated corpora are: ``$FACTWASH_CORPORA`` or a ``--corpora`` option, read once into an absolute path.

A relative path is read against the folder it was given in. That is the shell's working folder (``$PWD``), not
necessarily the current one: ``FACTWASH_CORPORA=../shared/corpora python -m weasel run all training/`` gives the
path in the repository root, while weasel runs every command of the workflow inside ``training/`` and passes the
environment, ``$PWD`` included, on unchanged. A shell keeps ``$PWD`` equal to the folder it runs a command in, so a
path typed at the prompt reads the same either way.

Two kinds of folder hold the corpora: the shared copy (with its ``SOURCES.md``) and the one ``python -m weasel
assets training/`` fetches (``training/assets/corpora``, laid out the same way: ``<corpus>/raw/...``).
"""

import os
from pathlib import Path
from typing import Optional, Union

CORPORA_ENV = "FACTWASH_CORPORA"


def given_in() -> Path:
    """The folder a relative path was given in: ``$PWD`` when it names an existing absolute folder, else the
    current folder."""
    shell = os.environ.get("PWD", "")
    return Path(shell) if shell and os.path.isabs(shell) and os.path.isdir(shell) else Path.cwd()


def absolute(path: Union[str, Path]) -> Path:
    """``path`` as an absolute path, a relative one read against the folder it was given in (``given_in``)."""
    path = Path(path).expanduser()
    return Path(os.path.normpath(path if path.is_absolute() else given_in() / path))


def from_environment() -> Optional[Path]:
    """``$FACTWASH_CORPORA`` as an absolute path (None when it is unset or empty)."""
    value = os.environ.get(CORPORA_ENV, "")
    return absolute(value) if value else None


def problem(root: Path) -> Optional[str]:
    """None when ``root`` is a corpora folder, else why it is not."""
    if (root / "SOURCES.md").is_file() or any(path.is_dir() for path in root.glob("*/raw")):
        return None
    return f"{root}: not the corpora folder (no SOURCES.md, no <corpus>/raw folder)"
