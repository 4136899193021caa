"""A persistent cache of model replies keyed by (model, prompt version, tool, content), so a repeat costs nothing.

Replies are kept in one SQLite file; each write is its own transaction, so
a run killed mid-call leaves every earlier reply readable. The reply kept is
the raw tool input (or the note that there was none), never our reading of
it: validation runs again on a cached reply exactly as on a fresh one.
"""

import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any, Optional, Union

CACHE_ENV = "FACTWASH_MODEL_CACHE"


def default_cache_path() -> Path:
    """$FACTWASH_MODEL_CACHE, else spacy-factwash/replies.sqlite under $XDG_CACHE_HOME (or ~/.cache)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "spacy-factwash" / "replies.sqlite"


def cache_key(model: str, prompt_id: str, tool: str, content: str) -> str:
    """The key of one request: a digest of the model, prompt version, tool name and the content sent."""
    return hashlib.sha256(json.dumps([model, prompt_id, tool, content]).encode("utf8")).hexdigest()


class ReplyCache:
    """Replies on disk, one row per request key."""

    def __init__(self, path: Union[str, Path]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(self.path))
            self._db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT, prompt TEXT, "
                             "reply TEXT NOT NULL)")
        except sqlite3.DatabaseError as err:
            raise ValueError(f"{self.path}: not a usable reply cache ({err}); delete it or pass another path") from err

    def get(self, key: str) -> Optional[Any]:
        """The stored reply for ``key`` (a dict), or None when the request was never answered."""
        row = self._db.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, model: str, prompt_id: str, reply: Any) -> None:
        """Keep one reply, committed at once."""
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?)",
                             (key, model, prompt_id, json.dumps(reply)))

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]
