"""quantulum3's large regular expressions compiled once and kept, so a new process does not compile them again.

Used by ``quantulum.py``, which hands quantulum3's ``regex`` module the stand-in for ``re`` made here.

quantulum3 joins every unit name and symbol it knows into one alternation of about 150,000 characters; Python's
``re`` takes a fifth of a second to compile it, in every process, on its first value. Python keeps no compiled
pattern between processes, so the compiled program (what ``re`` hands its C engine) is kept here, in the cache
folder, under a digest of the pattern, its flags and the Python version, and handed to the engine directly the
next time. The engine checks every program it is given; anything missing, unreadable or refused is compiled
afresh, so the pattern is always the one ``re.compile`` gives (the two compare equal: same pattern, flags and
program).
"""

import _sre
import hashlib
import json
import re
import sys
import types
from array import array
from pathlib import Path
from typing import List, Tuple

from .cache_files import keep

try:
    from re import _compiler, _parser
except ImportError:  # Python before 3.11
    import sre_compile as _compiler
    import sre_parse as _parser

LARGE = 20_000  # characters: shorter patterns compile in a few milliseconds and are left to ``re``
CODE_TYPE = "I"  # the engine's program word, kept where it has the engine's size
KEPT = array(CODE_TYPE).itemsize == _sre.CODESIZE


def program_path(folder: Path, pattern: str, flags: int) -> Path:
    """Where the compiled program of ``pattern`` is kept: a digest of it, its flags, the Python and engine."""
    key = f"{sys.version}\0{_sre.MAGIC}\0{int(flags)}\0{pattern}"
    return folder / f"regex-{hashlib.sha256(key.encode('utf8', 'surrogatepass')).hexdigest()[:32]}.bin"


def _program(pattern: str, flags: int) -> Tuple[dict, List[int]]:
    """What ``re.compile`` hands the engine: the final flags, group count and group names, and the program."""
    parsed = _parser.parse(pattern, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    header = {"flags": int(flags | parsed.state.flags), "groups": parsed.state.groups - 1, "groupindex": groupindex,
              "indexgroup": indexgroup}
    return header, list(_compiler._code(parsed, flags))


def _engine_pattern(pattern: str, header: dict, code: List[int]) -> re.Pattern:
    """The engine's pattern from a compiled program (the engine refuses a malformed one)."""
    return _sre.compile(pattern, header["flags"], code, header["groups"], header["groupindex"],
                        tuple(header["indexgroup"]))


def _read(path: Path) -> Tuple[dict, List[int]]:
    """A kept program: one JSON line of flags and groups, then the program as 4-byte words."""
    data = path.read_bytes()
    line, _, words = data.partition(b"\n")
    code = array(CODE_TYPE)
    code.frombytes(words)
    return json.loads(line), code.tolist()


def _write(path: Path, header: dict, code: List[int]) -> None:
    """Keep a program for later processes."""
    keep(path, json.dumps(header).encode("utf8") + b"\n" + array(CODE_TYPE, code).tobytes())


def compile_kept(folder: Path, pattern, flags: int = 0) -> re.Pattern:
    """``re.compile(pattern, flags)``, with the program of a large pattern read from ``folder`` when kept there,
    else compiled and kept; a folder that cannot be written costs the next process its speed, never its pattern."""
    if not KEPT or not isinstance(pattern, str) or len(pattern) < LARGE:
        return re.compile(pattern, flags)
    path = program_path(folder, pattern, flags)
    try:
        return _engine_pattern(pattern, *_read(path))
    except (OSError, ValueError, TypeError, KeyError, RuntimeError, OverflowError):
        pass
    header, code = _program(pattern, flags)
    _write(path, header, code)
    return _engine_pattern(pattern, header, code)


def keeping_compiled(folder: Path) -> types.ModuleType:
    """A stand-in for ``re`` in a module's namespace (quantulum3's ``regex``) whose ``compile`` keeps large
    programs in ``folder``; every other name is ``re``'s."""
    module = types.ModuleType("re")
    module.__dict__.update(re.__dict__)
    module.compile = lambda pattern, flags=0: compile_kept(folder, pattern, flags)
    return module
