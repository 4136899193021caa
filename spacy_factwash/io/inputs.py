"""The input files of a run, one line at a time: texts, pairs, and small files of records.

Input is read as ``textfile`` reads every input (a byte-order mark dropped,
trailing blank lines not lines). A text file is plain text (one text a
line) or JSONL (one object a line with a string ``"text"`` and an optional
``"id"``); a pairs file is JSONL with string ``"source"`` and ``"memory"``.
A line that cannot be used (not UTF-8, malformed JSON, a lone surrogate, no
string text, longer than the pipeline accepts, NaN or a number too
large, nested too deeply to read) is carried through the
stream as a bad line with its reason, so the caller decides whether to stop
there or skip and count it, and every good line before it (and, when
skipping, after it) is still used. A small file of records is read whole,
and its first unusable line is a ``BadInput``.
"""

import hashlib
import json
import os
import stat
from dataclasses import dataclass
from itertools import starmap
from pathlib import Path
from typing import Any, Iterator, List, Optional, Tuple

from ..errors import FactwashError
from .outputs import kind_of
from .strict_json import loads
from .textfile import BadInput, decoded_lines, surrogate_problem


def input_file(path: Path, given_as: str = "") -> Path:
    """An input file's path, once it is known to be a regular file this process can read (else a ``BadInput``
    saying what it is: missing, a directory, a pipe or a device, which would never end, or unreadable; and the
    option it was ``given_as``, when named)."""
    try:
        mode, problem = os.stat(path).st_mode, None
    except OSError as err:
        mode, problem = None, "no such file" if isinstance(err, FileNotFoundError) else err.strerror
    if mode is not None and not stat.S_ISREG(mode):
        problem = f"is {kind_of(mode)}, not a file (give a file path)"
    elif mode is not None and not os.access(path, os.R_OK):
        problem = "not readable"
    if problem:
        raise BadInput(f"{path}: {problem}" + (f" ({given_as})" if given_as else ""))
    return Path(path)


def read_json(path: Path) -> Any:
    """A whole JSON file's value (a configuration); a ``BadInput`` naming the file when it is not standard JSON."""
    try:
        return loads(input_file(path).read_bytes().decode("utf8"))
    except ValueError as err:  # not UTF-8, not JSON, NaN, nested too deeply
        raise BadInput(f"{path}: not a JSON file ({err})") from None


@dataclass(frozen=True)
class InputLine:
    """One line of input: its number, its text, its id, or why it is unusable."""

    number: int
    text: str = ""
    id: Any = None
    error: Optional[str] = None


@dataclass(frozen=True)
class InputFile:
    """The lines of a .txt or .jsonl file from line ``first_line`` on (the lines before it are not parsed), a text
    longer than ``max_length`` a bad line. Iterated, its InputLines, read one at a time; a process handing the
    lines to others can send its decoded lines (``decoded``) instead, for each to be parsed there (``parse``)."""

    path: Path
    max_length: Optional[int] = None
    first_line: int = 1

    def __iter__(self) -> Iterator[InputLine]:
        return starmap(self.parse, self.decoded())

    def decoded(self) -> Iterator[Tuple[int, Optional[str], Optional[str]]]:
        """The file's lines as ``decoded_lines`` reads them: (number, text, None), or (number, None, why)."""
        return decoded_lines(self.path, self.first_line)

    def parse(self, number: int, line: Optional[str], error: Optional[str]) -> InputLine:
        """One decoded line as its InputLine, or a bad line saying what is wrong."""
        if line is None:
            return InputLine(number, error=error)
        is_jsonl = self.path.suffix.lower() in {".jsonl", ".ndjson"}
        item = _parse_jsonl(number, line) if is_jsonl else InputLine(number, line)
        error = too_long(item.text, self.max_length) if item.error is None else None
        return InputLine(number, id=item.id, error=error) if error else item


def read_inputs(path: Path, max_length: Optional[int] = None, first_line: int = 1) -> Iterator[InputLine]:
    """Yield the lines of a .txt or .jsonl file one at a time, from line ``first_line`` on (``InputFile``)."""
    return iter(InputFile(path, max_length, first_line))


def _json_object(line: str) -> Tuple[Optional[dict], Optional[str]]:
    """A JSONL line's object, or why the line is not one."""
    if not line.strip():
        return None, "blank line, expected a JSON object"
    try:
        record = loads(line)
    except json.JSONDecodeError as err:
        return None, f"malformed JSON ({err.msg} at column {err.colno})"
    except ValueError as err:  # NaN, an infinite number, nesting too deep: not JSON another reader takes
        return None, f"not standard JSON ({err})"
    if not isinstance(record, dict):
        return None, f"expected a JSON object, got {type(record).__name__}"
    problem = surrogate_problem(record)
    if problem:
        return None, problem
    return record, None


def _parse_jsonl(number: int, line: str) -> InputLine:
    """One JSONL line as an InputLine, or a bad line saying what is wrong."""
    record, error = _json_object(line)
    if record is None:
        return InputLine(number, error=error)
    text = record.get("text")
    if not isinstance(text, str):
        got = "no 'text' field" if "text" not in record else f"'text' is {type(text).__name__}, not a string"
        return InputLine(number, id=record.get("id"), error=got)
    return InputLine(number, text, record.get("id"))


def read_records(path: Path) -> List[dict]:
    """Every line of a small JSONL file as an object; the first unusable line is a BadInput naming file and line
    (and a missing file one naming the file)."""
    records = []
    for number, line, error in decoded_lines(input_file(path)):
        record, error = _json_object(line) if line is not None else (None, error)
        if record is None:
            raise BadInput(f"{path}:{number}: {error}")
        records.append(record)
    return records


@dataclass(frozen=True)
class PairLine:
    """One line of a pairs file: its number, id, source and memory, or why it is unusable; and the line's digest."""

    number: int
    id: Any = None
    source: str = ""
    memory: str = ""
    error: Optional[str] = None
    digest: str = ""


def line_digest(line: Optional[str]) -> str:
    """The sha256 of one input line as read (a line that is not UTF-8 has none): what a resumed run checks."""
    return "" if line is None else "sha256:" + hashlib.sha256(line.encode("utf8")).hexdigest()


class TextTooLong(FactwashError, ValueError):
    """A text longer than the pipeline's ``max_length``: refused by every entry point before spaCy sees it."""

    code = "E031"


def too_long(text: str, max_length: Optional[int], what: str = "text") -> Optional[str]:
    """Why a text is longer than a pipeline takes (``max_length`` characters), or None."""
    if max_length is None or len(text) <= max_length:
        return None
    return f"{what} of {len(text):,} characters exceeds the pipeline's max_length of {max_length:,}"


def checked_text(text: Any, max_length: Optional[int], what: str = "the text", function: str = "") -> str:
    """A text given to an entry point, once it is one the pipeline reads: a ``TypeError`` for anything but a
    str, a ``BadInput`` for a lone surrogate, a ``TextTooLong`` over ``max_length`` (each message after
    ``function:``, when given; both are ``ValueError``)."""
    prefix = f"{function}: " if function else ""
    if not isinstance(text, str):
        raise TypeError(f"{prefix}{what} must be a str, got {type(text).__name__}")
    problem = surrogate_problem(text, what)
    if problem:
        raise BadInput(prefix + problem)
    error = too_long(text, max_length, what)
    if error:
        raise TextTooLong(f"{prefix}{error} (a longer limit: load(max_length=N), or nlp.max_length = N)")
    return text


def read_pairs(path: Path, max_length: Optional[int] = None, first_line: int = 1) -> Iterator[PairLine]:
    """Yield the ``{"id", "source", "memory"}`` lines of a JSONL file one at a time, from line ``first_line`` on
    (a side longer than ``max_length``, when given, makes a bad line)."""
    for number, line, error in decoded_lines(path, first_line):
        record, error = _json_object(line) if line is not None else (None, error)
        if record is None:
            yield PairLine(number, error=error, digest=line_digest(line))
            continue
        bad = [key for key in ("source", "memory") if not isinstance(record.get(key), str)]
        error = (f"{' and '.join(bad)} missing or not a string" if bad else
                 too_long(record["source"], max_length, "the source") or too_long(record["memory"], max_length,
                                                                                  "the memory"))
        if error:
            yield PairLine(number, record.get("id"), error=error, digest=line_digest(line))
            continue
        yield PairLine(number, record.get("id"), record["source"], record["memory"], digest=line_digest(line))
