"""The cache folder, where what quantulum3 builds slowly is kept between processes, and how a file gets there.

Nothing kept here is needed for an answer: a missing, unreadable or stale file is built again, and a folder that
cannot be written costs the next process its speed, never its result.
"""

import os
from pathlib import Path
from typing import Optional

CACHE_ENV = "FACTWASH_CACHE"
NO_CACHE_ENV = "FACTWASH_NO_CACHE"  # set (to anything but "" or "0"): nothing is read from or kept in the folder


def cache_folder() -> Optional[Path]:
    """$FACTWASH_CACHE, else spacy-factwash under $XDG_CACHE_HOME (or ~/.cache); None when $FACTWASH_NO_CACHE is set,
    and quantulum3 is then built as it ships, every process."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
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
