"""Streaming a corpus through a pipeline: read lines, keep order, never load the whole file.

Input is either plain text (one text a line) or JSONL (one object a line
with a string ``"text"`` and an optional ``"id"``), read as ``textfile``
reads every input (a byte-order mark dropped, trailing blank lines not
lines). A line that cannot be used (not UTF-8, malformed JSON, a lone
surrogate, no string text, longer than the pipeline accepts) is carried
through the stream as a bad line with its reason, so the caller decides
whether to stop there or skip and count it, and every good line before it
(and, when skipping, after it) is still written.
"""

import hashlib
import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import minibatch

from ..errors import FactwashError
from ..executors import executor_for
from ..io.textfile import decoded_lines, surrogate_problem
from ..pipes.cues.extensions import CUES_KEY, LEXICON_DIGEST_KEY, LEXICON_VERSION_KEY, SOURCES_KEY, source_link
from ..zones import zone


class BadInput(FactwashError, ValueError):
    """An input line that cannot be annotated, named by file and line."""

    code = "E003"


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
    """Every line of a small JSONL file as an object; the first unusable line is a BadInput naming file and line."""
    records = []
    for number, line, error in decoded_lines(path):
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


def annotate_lines(
    nlp: Language, items: Iterable[InputLine], *, batch_size: int = 256, n_process: int = 1
) -> Iterator[Tuple[InputLine, Doc]]:
    """Pipe the lines through ``nlp`` in order; a bad line passes through as an empty Doc."""
    pairs = ((item.text if item.error is None else "", item) for item in items)
    yield from ((item, doc) for doc, item in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size, n_process=n_process))


def annotate_batch(nlp: Language, batch: List[InputLine], docbin=None,
                   skip_bad_lines: bool = True) -> List[Tuple[InputLine, Optional[Dict]]]:
    """One batch of lines as output records (None for a bad line), annotated inside ``nlp.memory_zone()`` (``zones.zone``).

    Everything that leaves the zone is plain data (strings and numbers), so the
    words of the batch are forgotten when it ends and a long stream of new
    words keeps memory flat. With a ``DocBin``, the good lines' Docs are added
    to it inside the zone too (without ``skip_bad_lines``, none after the
    first bad line: a run stops there).
    """
    with zone(nlp):
        results = []
        for item, doc in annotate_lines(nlp, batch, batch_size=len(batch) or 1):
            if item.error is not None:
                results.append((item, None))
                docbin = docbin if skip_bad_lines else None
                continue
            results.append((item, output_record(item, doc)))
            if docbin is not None:
                docbin.add(doc)
        return results


def annotate_records(nlp: Language, items: Iterable[InputLine], *, batch_size: int = 256, docbin=None,
                     skip_bad_lines: bool = True) -> Iterator[Tuple[InputLine, Optional[Dict]]]:
    """The lines as output records in order (None for a bad line), a batch at a time, each in a memory zone."""
    for batch in minibatch(items, batch_size):
        yield from annotate_batch(nlp, batch, docbin, skip_bad_lines)



@dataclass
class AnnotateSummary:
    """What an annotation run wrote: records, empty texts, bad lines skipped, and why it stopped early, if it did."""

    written: int = 0
    empty: int = 0
    bad: int = 0
    stop: Optional[str] = None


def write_records(write: Callable[[str], None], results: Iterable[Tuple[InputLine, Optional[Dict]]],
                  input_path: Path, skip_bad_lines: bool) -> AnnotateSummary:
    """Write each record as a JSONL line, in order; stop at the first bad line unless skipping (then count it)."""
    summary = AnnotateSummary()
    for item, record in results:
        if record is None:
            if not skip_bad_lines:
                summary.stop = f"{input_path}:{item.number}: {item.error} (use --skip-bad-lines to skip it)"
                break
            summary.bad += 1
            continue
        summary.empty += record["status"] == "empty"
        write(json.dumps(record, ensure_ascii=False) + "\n")
        summary.written += 1
    return summary


def span_dict(span: Span) -> Dict[str, Any]:
    """A span's text and character offsets."""
    return {"text": span.text, "start_char": span.start_char, "end_char": span.end_char}


def cue_dicts(doc: Doc, spans_key: str = CUES_KEY) -> list:
    """The resolved cues of a Doc as JSON-safe dicts: label, text, offsets, entry and source."""
    sources = {s.kb_id_: s for s in doc.spans.get(SOURCES_KEY, [])}
    cues = []
    for span in doc.spans.get(spans_key, []):
        source = sources.get(source_link(span))
        cues.append(
            {"label": span.label_, **span_dict(span), "entry": span.id_,
             "source": span_dict(source) if source is not None else None}
        )
    return cues


def output_record(item: InputLine, doc: Doc) -> Dict[str, Any]:
    """The JSONL record written for one good input line."""
    return {
        "line": item.number,
        "id": item.id,
        "status": "ok" if doc.text.strip() else "empty",
        "lexicon_version": doc.user_data.get(LEXICON_VERSION_KEY),
        "lexicon_digest": doc.user_data.get(LEXICON_DIGEST_KEY),
        "cues": cue_dicts(doc),
    }


def annotate_file(input_path: Path, output_path: Path, *, max_length: int, batch_size: int = 256,
                  n_process: int = 1, skip_bad_lines: bool = False, lexicon_dir: Optional[Path] = None,
                  progress: Callable[[Iterable], Iterable] = iter) -> AnnotateSummary:
    """Annotate every line of ``input_path`` with the default pipeline (on ``lexicon_dir``'s cue lexicon when
    given) into one JSONL file, in order.

    The output is written through ``outputs.atomic_output`` (never over the
    input; renamed into place when the run ends, the records before a stop
    kept). With ``n_process`` > 1 the batches are annotated on a local Dask
    cluster of that many worker processes (the ``dask`` extra), each building
    the pipeline once; records come back in input order.
    """
    from ..api import load
    from ..io.outputs import atomic_output

    items = read_inputs(input_path, max_length)
    if n_process > 1:
        results = executor_for("dask").annotate(partial(load, max_length, lexicon_dir=lexicon_dir), items,
                                                batch_size=batch_size, n_workers=n_process)
    else:
        results = annotate_records(load(max_length=max_length, lexicon_dir=lexicon_dir), items, batch_size=batch_size)
    with atomic_output(output_path, [input_path]) as out:
        return write_records(out.write, progress(results), input_path, skip_bad_lines)
