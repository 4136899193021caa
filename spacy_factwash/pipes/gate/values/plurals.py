"""quantulum3's plurals from a table recorded once, so reading a value does not import inflect (for ``quantulum.py``).

quantulum3 imports inflect for one thing on the gate's path: the plural of each unit name and number word, asked
while it builds its unit tables and regexes. inflect 7 checks its own types with typeguard, which recompiles each
of its functions when it is imported: well over a second, most of a one-shot ``check``. The plurals inflect gives
are recorded the first time a process reads a value, kept in the cache folder under the versions of quantulum3 and
inflect, and read back by later processes, which then never import inflect. A word the table lacks is asked of
inflect there and then, so every plural is inflect's own.
"""

import json
import sys
import types
from contextlib import contextmanager
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Dict, Iterator, Optional

from .cache_files import keep


def table_path(folder: Path) -> Optional[Path]:
    """The plural table of the installed quantulum3 and inflect in ``folder``: a new version of either is a new
    table; None when either's version cannot be read (an install without package metadata gets no table)."""
    try:
        return folder / f"plurals-quantulum3-{version('quantulum3')}-inflect-{version('inflect')}.json"
    except PackageNotFoundError:
        return None


@lru_cache(maxsize=1)
def _inflect() -> types.ModuleType:
    """inflect itself, imported on the first plural the table lacks."""
    import inflect

    return inflect


@lru_cache(maxsize=1)
def _engine():
    """inflect's engine, made once."""
    return _inflect().engine()


def _key(text: str, count) -> str:
    """A table key: the count quantulum3 asked with, and the word."""
    return f"{count!r}\t{text}"


class TablePlurals:
    """What quantulum3 asks of inflect's engine, answered from the table; anything the table lacks from inflect."""

    def __init__(self, table: Dict[str, str]) -> None:
        self.table = table
        self.added = False  # the table gained a plural since it was read

    def plural(self, text: str, count=None) -> str:
        """inflect's plural of ``text``, from the table when it holds it."""
        key = _key(text, count)
        if key not in self.table:
            self.table[key] = _engine().plural(text, count)
            self.added = True
        return self.table[key]

    def __getattr__(self, name: str):
        return getattr(_engine(), name)


def read_table(path: Path) -> Dict[str, str]:
    """The recorded plurals at ``path``; empty when there is none or it cannot be read (it is then recorded again)."""
    try:
        table = json.loads(path.read_text(encoding="utf8"))
    except (OSError, ValueError):
        return {}
    return table if isinstance(table, dict) and all(isinstance(v, str) for v in table.values()) else {}


def write_table(plurals: TablePlurals, path: Path) -> None:
    """Keep the plurals for later processes."""
    if keep(path, json.dumps(plurals.table, sort_keys=True).encode("utf8")):
        plurals.added = False


def _stand_in(plurals: TablePlurals) -> types.ModuleType:
    """A module that answers quantulum3's ``import inflect``: its engine is the table; any other name is inflect's."""
    module = types.ModuleType("inflect")
    module.engine = lambda: plurals
    module.__getattr__ = lambda name: getattr(_inflect(), name)
    return module


@contextmanager
def plurals_from_table(path: Optional[Path]) -> Iterator[Optional[TablePlurals]]:
    """While quantulum3's language module is imported, ``import inflect`` gives the table read from ``path``
    (None: inflect itself). Yields the table (None when inflect is already imported, and so costs nothing)."""
    if path is None or "inflect" in sys.modules:
        yield None
        return
    plurals = TablePlurals(read_table(path))
    stand_in = sys.modules["inflect"] = _stand_in(plurals)
    try:
        yield plurals
    finally:
        if sys.modules.get("inflect") is stand_in:
            del sys.modules["inflect"]
