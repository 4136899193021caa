"""A persistent cache of model replies keyed by the whole request, so a repeat costs nothing.

Replies are kept in one SQLite file; each write is its own transaction, so
a run killed mid-call leaves every earlier reply readable. The key is a
digest of everything a call sends (model, ``max_tokens``, system prompt text,
the strict tool, tool choice, messages), and each row keeps the request it
answered: a row is used only when its request equals the one being made, so
a row copied or written under another request's key is a miss, not a reply.
The reply kept is the raw tool input (or the note that there was none),
never our reading of it: validation runs again on a cached reply exactly as
on a fresh one. (Rows of the earlier cache layout, keyed by a few fields
only, are never read.)
"""

import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any, Mapping, Optional, Union

CACHE_ENV = "FACTWASH_MODEL_CACHE"


def default_cache_path() -> Path:
    """$FACTWASH_MODEL_CACHE, else spacy-factwash/replies.sqlite under $XDG_CACHE_HOME (or ~/.cache)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "spacy-factwash" / "replies.sqlite"


def canonical(request: Mapping[str, Any]) -> str:
    """The request as one canonical JSON text (sorted keys, no spaces): what is keyed and compared."""
    return json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def cache_key(request: Mapping[str, Any]) -> str:
    """The key of one request: a digest of everything it sends."""
    return hashlib.sha256(canonical(request).encode("ascii")).hexdigest()


class ReplyCache:
    """Replies on disk, one row per request key."""

    def __init__(self, path: Union[str, Path]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(self.path), check_same_thread=False)  # callers serialise their calls
            self._db.execute("CREATE TABLE IF NOT EXISTS requests (key TEXT PRIMARY KEY, request TEXT NOT NULL, "
                             "model TEXT, prompt TEXT, reply TEXT NOT NULL)")
        except sqlite3.DatabaseError as err:
            raise ValueError(f"{self.path}: not a usable reply cache ({err}); delete it or pass another path") from err

    def get(self, request: Mapping[str, Any]) -> Optional[Any]:
        """The stored reply to exactly this request (a dict), or None when it was never answered."""
        text = canonical(request)
        row = self._db.execute("SELECT request, reply FROM requests WHERE key = ?", (cache_key(request),)).fetchone()
        return json.loads(row[1]) if row and row[0] == text else None

    def put(self, request: Mapping[str, Any], prompt_id: str, reply: Any) -> None:
        """Keep one reply with the request it answers, committed at once."""
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO requests VALUES (?, ?, ?, ?, ?)",
                             (cache_key(request), canonical(request), request.get("model"), prompt_id,
                              json.dumps(reply)))

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM requests").fetchone()[0]
