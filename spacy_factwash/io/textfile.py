"""Reading input files the same way in every command.

Every command reads its files through these functions, so they all agree:
UTF-8, with or without a byte-order mark at the start; a file's trailing
blank lines (whitespace only) are not lines of input, while a blank line
with input after it still is one; a line that is not UTF-8 is named by its
number; and a lone surrogate (a JSON escape such as ``"\\ud800"`` that
decodes to no character) is not text, so a record holding one is named
too, instead of crashing the batch it sits in.
"""

import re
from pathlib import Path
from typing import Any, Iterable, Iterator, List, Optional, Tuple

from ..errors import FactwashError

BOM = "\ufeff"
SURROGATE = re.compile("[\ud800-\udfff]")


class BadInput(FactwashError, ValueError):
    """An input that cannot be used, named by file and line."""

    code = "E003"


def decoded_lines(path: Path, first_line: int = 1) -> Iterator[Tuple[int, Optional[str], Optional[str]]]:
    """(line number, text, None), or (line number, None, why) for a line that is not UTF-8; one at a time, from
    line ``first_line`` on (the lines before it are read, to number the rest, but not yielded).

    A byte-order mark opening the file is dropped; trailing blank lines are not yielded (blank lines are held
    back until a line with text follows them).
    """
    with path.open("rb") as handle:
        yield from (line for line in decoded(handle) if line[0] >= first_line)


def decoded(handle: Iterable[bytes]) -> Iterator[Tuple[int, Optional[str], Optional[str]]]:
    """The lines of an open binary stream as ``decoded_lines`` reads a file's."""
    blanks: List[Tuple[int, str]] = []
    for number, raw in enumerate(handle, start=1):
        try:
            text = raw.decode("utf8").rstrip("\r\n")
        except UnicodeDecodeError as err:
            yield from ((n, line, None) for n, line in blanks)
            blanks = []
            yield number, None, f"not UTF-8 ({err.reason} at byte {err.start})"
            continue
        if number == 1 and text.startswith(BOM):
            text = text[len(BOM):]
        if not text.strip():
            blanks.append((number, text))
            continue
        yield from ((n, line, None) for n, line in blanks)
        blanks = []
        yield number, text, None


def line_count(path: Path) -> int:
    """How many lines of input a file has, counted as they are read (its trailing blank lines are not lines):
    the total of a progress bar over it, and what a corpus run cuts into partitions."""
    last = 0
    for last, _, _ in decoded_lines(path):
        pass
    return last


def read_text(path: Path) -> str:
    """A whole text file as one text, read like every input line: no byte-order mark, no trailing blank lines.

    Raises ``BadInput`` naming the file and line of the first line that is not UTF-8, and ``OSError`` when
    the file cannot be read.
    """
    with path.open("rb") as handle:
        return read_stream(handle, str(path))


def read_stream(handle: Iterable[bytes], name: str = "standard input") -> str:
    """A whole open binary stream as one text, as ``read_text`` reads a file (``name`` says where it came from
    in a ``BadInput``)."""
    lines = []
    for number, text, error in decoded(handle):
        if text is None:
            raise BadInput(f"{name}:{number}: {error}")
        lines.append(text)
    return "\n".join(lines)


def surrogate_problem(value: Any, where: str = "the text") -> Optional[str]:
    """Where a lone surrogate sits in a string, or in any key or string inside a JSON value; None when nowhere.
    (Walked with a stack, not by recursion: a value nested as deep as a reader allows is read to its end.)"""
    stack = [(value, where)]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            found = SURROGATE.search(value)
            if found is not None:
                return (f"{where} holds a lone surrogate (\\u{ord(found.group()):04x}) at character "
                        f"{found.start()}, which is not text")
        elif isinstance(value, dict):
            stack.extend(reversed([part for key, item in value.items()
                                   for part in ((key, "a key"), (item, repr(key)))]))
        elif isinstance(value, list):
            stack.extend(reversed([(item, f"{where}[{index}]") for index, item in enumerate(value)]))
    return None
