"""Gating a file of pairs into a file of reports: the work behind ``gate``.

Each good input line gives one report line ``{"line", "id", "input_sha256",
...report}``; ``input_sha256`` is the digest of the input line it answers.
A fresh run writes through ``outputs.atomic_output``: the reports appear
under the output's name only when the run ends, and a run that fails leaves
the old output as it was. A run that stops on purpose (a bad line, or the
model budget reached) keeps the reports of every line before the stop,
which ``--resume`` continues. A resumed run appends to the output in place,
each report forced to disk as it is written, and first checks that every
report it keeps answers the same line of the same input (by digest): an
output written for other input is refused before anything is gated.
"""

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Optional

from spacy.language import Language

from ..errors import FactwashError
from ..io.outputs import atomic_output, check_output
from ..io.runfile import RunFile
from ..pipes.gate.gate import Gate
from .stream import PairLine, read_pairs

DIGEST = "input_sha256"
BUDGET_STOP = 6  # the exit status of a run stopped by its model budget


class ResumeMismatch(FactwashError, ValueError):
    """The output a resumed run would continue was written for other input."""

    code = "E004"


@dataclass
class GateSummary:
    """What a gate run did: verdicts and change types of the reports written, bad lines, reports kept from an
    earlier run, and why it stopped early (with the exit status that says so), if it did."""

    verdicts: Counter = field(default_factory=Counter)
    change_types: Counter = field(default_factory=Counter)
    bad: int = 0
    kept: int = 0
    stop: Optional[str] = None
    exit_code: int = 0


def resume_mismatch(input_path: Path, digests: Dict[Any, Any]) -> Optional[str]:
    """Why the reports of an earlier run (line number -> input digest) do not answer this input, or None."""
    remaining = dict(digests)
    for line in read_pairs(input_path):
        if line.number in remaining and remaining.pop(line.number) != line.digest:
            return (f"its report for line {line.number} was written for another line "
                    f"(the input's line {line.number} has changed)")
    if remaining:
        return f"it holds reports for line(s) {sorted(remaining)[:5]} that {input_path} does not have"
    return None


def jsonl_writer(out) -> Callable[[Dict[str, Any]], None]:
    """A function writing one record as a JSONL line to the output ``out``."""
    return lambda record: out.write(json.dumps(record, ensure_ascii=False) + "\n")


def gate_file(input_path: Path, output_path: Path, nlp: Language, *, resume: bool = False,
              skip_bad_lines: bool = False, batch_size: int = 256, n_process: int = 1, review=None,
              progress: Callable[[Iterable], Iterable] = iter) -> GateSummary:
    """Gate every pair of ``input_path`` into ``output_path``; raises ``OutputError`` or ``ResumeMismatch``
    before anything is written when the output must not be written."""
    summary = GateSummary()
    if not resume:
        with atomic_output(output_path, [input_path]) as out:
            gate_lines(jsonl_writer(out), read_pairs(input_path), input_path, nlp, summary, skip_bad_lines, batch_size,
                       n_process, review, progress)
        return summary
    target = check_output(output_path, [input_path])
    try:
        run = RunFile(target, key="line", durable=True, check=DIGEST)
    except ValueError as err:
        raise ResumeMismatch(f"{err} (use --resume only on a file gate wrote)") from err
    with run:
        problem = resume_mismatch(input_path, run.checks)
        if problem:
            raise ResumeMismatch(f"{output_path}: not resumed, {problem}; move it aside or gate without --resume")
        summary.kept = len(run.done)
        lines = (line for line in read_pairs(input_path) if line.number not in run.done)
        gate_lines(run.append, lines, input_path, nlp, summary, skip_bad_lines, batch_size, n_process, review,
                   progress)
    return summary


def gate_lines(write: Callable[[Dict[str, Any]], None], lines: Iterable[PairLine], input_path: Path, nlp: Language,
               summary: GateSummary, skip_bad_lines: bool, batch_size: int, n_process: int = 1, review=None,
               progress: Callable[[Iterable], Iterable] = iter) -> None:
    """Gate the lines of ``input_path`` given and ``write`` each report; stop at a bad line (unless skipping) or
    when the model budget refused a call a report needed, without writing that report."""
    gate = Gate(nlp)
    items = (((line.source, line.memory), line) for line in lines)
    results = gate.pipe(items, batch_size=batch_size, n_process=n_process, as_tuples=True)
    for report, line in progress(results):
        if line.error is not None:
            if not skip_bad_lines:
                summary.stop, summary.exit_code = (f"{input_path}:{line.number}: {line.error} "
                                                   "(use --skip-bad-lines to skip it)"), 1
                return
            summary.bad += 1
            continue
        if review is not None:
            refused = review.meter.refused
            report = review.texts(nlp, report, line.source, line.memory)
            if review.meter.refused > refused:
                summary.stop, summary.exit_code = (
                    f"the model budget was reached at {input_path}:{line.number}: it and the lines after it were "
                    "not written; run again with --resume and a higher --max-usd to continue"), BUDGET_STOP
                return
        summary.verdicts[report.verdict] += 1
        summary.change_types.update(change.type for change in report.changes)
        write({"line": line.number, "id": line.id, DIGEST: line.digest, **report.to_dict()})
