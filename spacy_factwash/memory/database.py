"""The embedded database of the write path: the review queue and the provenance graph, in one SQLite file.

Stdlib ``sqlite3`` in WAL mode, so readers never wait for the writer and
several threads and processes can share one file; every write is one
``BEGIN IMMEDIATE`` transaction (committed with ``synchronous=FULL``), so a
kill or a full disk leaves each row either written or not. Each thread (and
each process after a fork) opens its own connection. The schema, version 1:

``held``: one row per fact held for review (a ``rewrite`` verdict, whatever
the policy routes to ``hold``, or a write interrupted before the store
confirmed it): ``id``, ``decision`` (its id in the audit log), ``created_at``,
``operation`` (``add`` or ``update``), ``memory_id`` (the memory an update
would change), ``path`` (the write path that held it), ``source``, ``fact``,
``verdict``, ``reason``, ``report`` (the gate's report, JSON), ``provenance``
(``factwash_verification`` and ``factwash_source``, JSON), ``scope``
(``user_id`` / ``agent_id`` / ``run_id``, JSON), ``metadata`` (the caller's,
JSON), ``state`` (``held``, ``approving`` while an approval is being written,
``approved``, ``rejected``), ``reviewer``, ``reviewed_at``, ``note`` and
``memory_ids`` (what approving stored, JSON).

Unless given a path, the write path keeps its database in the user's data
folder (``default_database_path``), never in the folder a program happens
to run in.

``items`` and ``edges``: the provenance graph (``provenance.SQLiteStore``):
one row per item (``id``, ``text``, ``source_class``, ``source_handle``,
``subject``, ``time``, ``verification``; ``seq`` keeps the order they were
added) and one row per derivation edge (``item_id`` derived from ``input_id``).
"""

import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Sequence, Union

from ..errors import FactwashError

DATABASE_ENV = "FACTWASH_DATABASE"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS held (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    decision TEXT UNIQUE NOT NULL,
    created_at TEXT NOT NULL,
    operation TEXT NOT NULL CHECK (operation IN ('add', 'update')),
    memory_id TEXT,
    path TEXT NOT NULL,
    source TEXT NOT NULL,
    fact TEXT NOT NULL,
    verdict TEXT NOT NULL,
    reason TEXT NOT NULL,
    report TEXT,
    provenance TEXT NOT NULL,
    scope TEXT NOT NULL,
    metadata TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('held', 'approving', 'approved', 'rejected')),
    reviewer TEXT,
    reviewed_at TEXT,
    note TEXT,
    memory_ids TEXT
);
CREATE INDEX IF NOT EXISTS held_state ON held (state);
CREATE TABLE IF NOT EXISTS items (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT UNIQUE NOT NULL,
    text TEXT NOT NULL,
    source_class TEXT NOT NULL,
    source_handle TEXT NOT NULL,
    subject TEXT NOT NULL,
    time TEXT NOT NULL,
    verification TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS edges (
    item_id TEXT NOT NULL,
    input_id TEXT NOT NULL,
    PRIMARY KEY (item_id, input_id)
);
"""


class DatabaseError(FactwashError, RuntimeError):
    """The database file cannot be used (not SQLite, a newer schema, a folder that does not exist)."""

    code = "E013"


def default_database_path() -> Path:
    """Where the write path's database is when no path is given: $FACTWASH_DATABASE, else
    spacy-factwash/factwash.sqlite under $XDG_DATA_HOME (or ~/.local/share), its folder made when missing."""
    if os.environ.get(DATABASE_ENV):
        return Path(os.environ[DATABASE_ENV])
    folder = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "spacy-factwash"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DatabaseError(f"{folder}: cannot make the data folder for the default database ({err.strerror}); "
                            "give a database path") from err
    return folder / "factwash.sqlite"


class Database:
    """One SQLite file shared by threads and processes, each thread on its own connection."""

    def __init__(self, path: Union[str, Path]) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"the database must be a path, got {type(path).__name__}")
        self.path = Path(path)
        if self.path.exists() and not self.path.is_file():
            raise DatabaseError(f"{self.path}: is not a file; give the path of a database file")
        self._local = threading.local()
        if not self.path.parent.is_dir():
            raise DatabaseError(f"{self.path}: the folder {self.path.parent} does not exist")
        try:
            connection = self.connection()
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise DatabaseError(f"{self.path}: schema version {version} is newer than this package's "
                                    f"({SCHEMA_VERSION})")
            connection.executescript(SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION};")
        except sqlite3.DatabaseError as err:
            raise DatabaseError(f"{self.path}: not a usable factwash database ({err})") from err

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (opened on first use, and again in a forked child)."""
        connection = getattr(self._local, "connection", None)
        if connection is None or self._local.pid != os.getpid():
            connection = sqlite3.connect(str(self.path), timeout=60, isolation_level=None, check_same_thread=False)
            connection.row_factory = sqlite3.Row
            connection.execute("PRAGMA busy_timeout = 60000")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = FULL")
            self._local.connection, self._local.pid = connection, os.getpid()
        return connection

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends, rolled back when it raises."""
        connection = self.connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                try:
                    connection.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # a full disk may refuse even that; the transaction ends with the connection
            raise

    def read(self, sql: str, parameters: Sequence = ()) -> List[sqlite3.Row]:
        """The rows of one query."""
        return self.connection().execute(sql, parameters).fetchall()
