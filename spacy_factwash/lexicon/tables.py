"""The tables a process reads: one verified version of each table set, given by the components that carry it.

Functions that know no pipeline read tables: the clause and scope words and
the look-alike letters of ``syntax/``, the sense lists, the gate's units and
time names. A component that holds a table set (``pipes/base.py``) installs
it here when it gets it: from ``initialize``, from a saved pipeline
(``from_disk``, ``from_bytes``), when it is unpickled in a worker process, or
at its first document. Those functions then read what the pipeline carries,
and the package's own data are read only when no component gave a set
(``installed``).

A process reads one version of each table set: functions shared by every
pipeline cannot read two. A pipeline that carries another version than the
one installed is refused (``TableConflict``), never mixed in; load it in a
process of its own.
"""

from typing import Any, Dict

from .entries import LexiconError
from .frozen import LexiconSet, decode_json, load_set
from .sets import SETS


class TableConflict(LexiconError):
    """A pipeline carries another version of a table set than the one this process already reads."""

    code = "E020"


_INSTALLED: Dict[str, LexiconSet] = {}


def install(name: str, tables: LexiconSet) -> LexiconSet:
    """Make ``tables`` the set ``name`` this process reads, and return the set in use: the one installed first
    when it has the same bytes; refused when it has other bytes."""
    current = _INSTALLED.setdefault(name, tables)
    if current.digest != tables.digest:
        raise TableConflict(
            f"{tables.origin}: the {name} tables {tables.version} ({tables.digest[:19]}) differ from the "
            f"{current.version} ({current.digest[:19]}, from {current.origin}) this process already reads; a "
            "process reads one version of each table set: load this pipeline in a process of its own")
    return current


def installed(name: str) -> LexiconSet:
    """The table set ``name`` this process reads: the one a component installed, else the packaged one (read,
    verified and installed now)."""
    found = _INSTALLED.get(name)
    return found if found is not None else install(name, load_set(SETS[name]))


def table_text(name: str, file: str) -> str:
    """One file of the table set ``name`` as text."""
    tables = installed(name)
    try:
        return tables.files[file].decode("utf8")
    except UnicodeDecodeError as err:
        raise LexiconError(f"{tables.origin}/{file}: not UTF-8 ({err})") from None


def table_json(name: str, file: str) -> Any:
    """One JSON file of the table set ``name``, decoded."""
    tables = installed(name)
    return decode_json(tables.files[file], f"{tables.origin}/{file}")


def table_origin(name: str, file: str) -> str:
    """Where one file of the table set ``name`` was read from (for an error naming it)."""
    return f"{installed(name).origin}/{file}"
