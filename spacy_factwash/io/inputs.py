"""The input files of a run, one line at a time: texts, pairs, and small files of records.

Input is read as ``textfile`` reads every input (a byte-order mark dropped,
trailing blank lines not lines). A text file is plain text (one text a
line) or JSONL (one object a line with a string ``"text"`` and an optional
``"id"``); a pairs file is JSONL with string ``"source"`` and ``"memory"``.
A line that cannot be used (not UTF-8, malformed JSON, a lone surrogate, no
string text, longer than the pipeline accepts) is carried through the
stream as a bad line with its reason, so the caller decides whether to stop
there or skip and count it, and every good line before it (and, when
skipping, after it) is still used. A small file of records is read whole,
and its first unusable line is a ``BadInput``.
"""

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, List, Optional, Tuple

from .textfile import BadInput, decoded_lines, surrogate_problem


def input_file(path: Path) -> Path:
    """An input file's path, once it is known to be a file this process can read (else a ``BadInput``)."""
    if not Path(path).is_file():
        raise BadInput(f"{path}: no such file")
    if not os.access(path, os.R_OK):
        raise BadInput(f"{path}: not readable")
    return Path(path)


@dataclass(frozen=True)
class InputLine:
    """One line of input: its number, its text, its id, or why it is unusable."""

    number: int
    text: str = ""
    id: Any = None
    error: Optional[str] = None


def read_inputs(path: Path, max_length: Optional[int] = None) -> Iterator[InputLine]:
    """Yield the lines of a .txt or .jsonl file one at a time."""
    is_jsonl = path.suffix.lower() in {".jsonl", ".ndjson"}
    for number, line, error in decoded_lines(path):
        if line is None:
            yield InputLine(number, error=error)
            continue
        item = _parse_jsonl(number, line) if is_jsonl else InputLine(number, line)
        if item.error is None and max_length is not None and len(item.text) > max_length:
            item = InputLine(
                number, id=item.id,
                error=f"text of {len(item.text):,} characters exceeds the pipeline's max_length of {max_length:,}",
            )
        yield item


def _json_object(line: str) -> Tuple[Optional[dict], Optional[str]]:
    """A JSONL line's object, or why the line is not one."""
    if not line.strip():
        return None, "blank line, expected a JSON object"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as err:
        return None, f"malformed JSON ({err.msg} at column {err.colno})"
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


def read_pairs(path: Path) -> Iterator[PairLine]:
    """Yield the ``{"id", "source", "memory"}`` lines of a JSONL file one at a time."""
    for number, line, error in decoded_lines(path):
        record, error = _json_object(line) if line is not None else (None, error)
        if record is None:
            yield PairLine(number, error=error, digest=line_digest(line))
            continue
        bad = [key for key in ("source", "memory") if not isinstance(record.get(key), str)]
        if bad:
            yield PairLine(number, record.get("id"), error=f"{' and '.join(bad)} missing or not a string",
                           digest=line_digest(line))
            continue
        yield PairLine(number, record.get("id"), record["source"], record["memory"], digest=line_digest(line))
