"""The cache folder, where what quantulum3 builds slowly is kept between processes, and how a file gets there.

Nothing kept here is needed for an answer: a missing, unreadable or stale file is built again, and a folder that
cannot be written costs the next process its speed, never its result.
"""

import os
from pathlib import Path

CACHE_ENV = "FACTWASH_CACHE"


def cache_folder() -> Path:
    """$FACTWASH_CACHE, else spacy-factwash under $XDG_CACHE_HOME (or ~/.cache)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "spacy-factwash"


def keep(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` whole (a partial file renamed into place, so a reader never sees half of it);
    False when the folder cannot be written."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, path)
    except OSError:
        return False
    return True
