"""Gating a file of pairs: into a file of reports (``gate``) or into an HTML page (``report``).

Both walk the pairs the same way (``gated_pairs``): each good line's report,
in order, reviewed by the model components when a run enabled them; a bad
line stops the walk unless bad lines are skipped (then counted), and so does
a call the model budget refused (exit status 6).

Each good input line gives one report line ``{"line", "id", "input_sha256",
...report}``; ``input_sha256`` is the digest of the input line it answers.
A fresh run writes through ``outputs.atomic_output``: the reports appear
under the output's name only when the run ends, and a run that fails leaves
the old output as it was. A run that stops on purpose (a bad line, or the
model budget reached) keeps the reports of every line before the stop,
which ``--resume`` continues. A resumed run appends to the output in place,
each report forced to disk as it is written, and first checks that every
report it keeps answers the same line of the same input (by digest): an
output written for other input is refused before anything is gated. A page
is written only when every pair it shows was gated.
"""

from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, NamedTuple, Optional, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc

from ..errors import FactwashError, batch_size_of
from ..executors import Executor
from ..io.inputs import PairLine, input_file, read_pairs
from ..io.outputs import atomic_output, check_output, write_text
from ..io.progress import Progress, quiet
from ..io.runfile import RunFile
from ..io.strict_json import dumps
from ..io.textfile import line_count
from ..pipes.gate.gate import Gate
from ..pipes.gate.policy import EXIT_STATUS, RANKING, worst
from ..pipes.gate.report import Report
from ..pipes.names import COMPARE
from ..render.html import page
from .local import executor_of
from .records import DIGEST, report_record

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

    @classmethod
    def of_partitions(cls, entries: Iterable[Dict[str, Any]]) -> "GateSummary":
        """The counts of a corpus run's gate partitions (their manifest entries), as one process counts its run
        (the partitions that stopped or failed are the run's ``problems``)."""
        summary = cls()
        for entry in entries:
            summary.verdicts.update(entry.get("verdicts", {}))
            summary.change_types.update(entry.get("change_types", {}))
            summary.bad += entry["bad_lines"]
        return summary

    def status(self, fail_on: Optional[str] = None) -> int:
        """The exit status of a finished run: the worst verdict's (``policy.EXIT_STATUS``) when it ranks at or
        above ``fail_on``, else 0."""
        bad = worst(v for v, n in self.verdicts.items() if n)
        return EXIT_STATUS[bad] if fail_on is not None and RANKING.index(bad) >= RANKING.index(fail_on) else 0


class Gated(NamedTuple):
    """One good pair gated: its input line, its report, and (when the walk keeps them) its two Docs."""

    line: PairLine
    report: Report
    source: Optional[Doc] = None
    memory: Optional[Doc] = None


def _batched(lines: Iterable[PairLine], nlp: Language, batch_size: int, n_process: int,
             executor) -> Iterator[Tuple[Report, PairLine, Tuple]]:
    """(report, line, no Docs) for every line, in batches on the executor (a bad line is gated as empty texts)."""
    items = (((line.source, line.memory), line) for line in lines)
    results = executor_of(executor, n_process).gate(nlp, items, batch_size=batch_size, n_workers=n_process,
                                                    name=COMPARE)
    return ((report, line, ()) for report, line in results)


def _with_docs(lines: Iterable[PairLine], nlp: Language) -> Iterator[Tuple[Optional[Report], PairLine, Tuple]]:
    """(report, line, (source Doc, memory Doc)) one pair at a time, the Docs kept for the caller (no zone)."""
    gate = Gate(nlp)
    for line in lines:
        if line.error is not None:
            yield None, line, ()
            continue
        source, memory = nlp.pipe([line.source, line.memory])
        yield gate.compare(source, memory), line, (source, memory)


def gated_pairs(lines: Iterable[PairLine], nlp: Language, summary: GateSummary, where: Path, *,
                skip_bad_lines: bool = False, batch_size: int = 256, n_process: int = 1,
                executor: Union[Executor, str, None] = None, review=None, docs: bool = False,
                progress: Callable[[Iterable], Iterable] = iter) -> Iterator[Gated]:
    """Each good line's report, in order, counted in ``summary``: reviewed by ``review`` when given; with
    ``docs``, with the two Docs a page renders (gated one pair at a time), else gated in batches on the
    executor (``executor``, by default this process or, for ``n_process`` > 1, Dask). ``progress`` wraps the
    stream of results, one per line. A bad line of ``where`` stops the walk (unless skipping it: it is counted),
    and so does a call the model budget refused, that line's report not yielded; ``summary`` says why."""
    results = _with_docs(lines, nlp) if docs else _batched(lines, nlp, batch_size, n_process, executor)
    for report, line, pair in progress(results):
        if line.error is not None:
            if not skip_bad_lines:
                summary.stop, summary.exit_code = (f"{where}:{line.number}: {line.error} "
                                                   "(use --skip-bad-lines to skip it)"), 1
                return
            summary.bad += 1
            continue
        if review is not None:
            refused = review.meter.refused
            report = review(report, *pair) if docs else review.texts(nlp, report, line.source, line.memory)
            if review.meter.refused > refused:
                summary.stop, summary.exit_code = f"the model budget was reached at {where}:{line.number}", BUDGET_STOP
                return
        summary.verdicts[report.verdict] += 1
        summary.change_types.update(change.type for change in report.changes)
        yield Gated(line, report, *pair)


def gate_lines(write: Callable[[Dict[str, Any]], None], lines: Iterable[PairLine], where: Path, nlp: Language,
               summary: GateSummary, **settings) -> None:
    """``write`` the record of each report ``gated_pairs`` yields for the lines of ``where`` (``settings`` as
    there); a stop on the model budget says that the lines from there on were not written."""
    for gated in gated_pairs(lines, nlp, summary, where, **settings):
        write(report_record(gated.line, gated.report))
    if summary.exit_code == BUDGET_STOP:
        summary.stop += (": it and the lines after it were not written; run again with --resume and a higher "
                         "--max-usd to continue")


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
    return lambda record: out.write(dumps(record) + "\n")


def gate_file(input_path: Path, output_path: Path, nlp: Language, *, resume: bool = False,
              skip_bad_lines: bool = False, batch_size: int = 256, n_process: int = 1,
              executor: Union[Executor, str, None] = None, review=None, progress: Progress = quiet) -> GateSummary:
    """Gate every pair of ``input_path`` into ``output_path`` (with ``resume``, only the lines it does not answer
    yet); raises ``OutputError`` or ``ResumeMismatch`` before anything is written when the output must not be
    written. ``executor`` and ``n_process`` as for ``gated_pairs``."""
    batch_size_of(batch_size, "gate_file")
    input_file(input_path)
    summary = GateSummary()
    settings = dict(skip_bad_lines=skip_bad_lines, batch_size=batch_size, n_process=n_process, executor=executor,
                    review=review)
    if not resume:
        with atomic_output(output_path, [input_path]) as out:
            gate_lines(jsonl_writer(out), read_pairs(input_path, nlp.max_length), input_path, nlp, summary,
                       progress=partial(progress, total=line_count(input_path), desc="gate"), **settings)
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
        lines = (line for line in read_pairs(input_path, nlp.max_length) if line.number not in run.done)
        total = max(0, line_count(input_path) - summary.kept)
        gate_lines(run.append, lines, input_path, nlp, summary, progress=partial(progress, total=total, desc="gate"),
                   **settings)
    return summary


def report_file(input_path: Path, html_path: Path, nlp: Language, *, skip_bad_lines: bool = False, review=None,
                progress: Progress = quiet) -> GateSummary:
    """Gate every pair of ``input_path`` into one self-contained HTML page (``render.html.page``); the page is
    written only when every pair was gated (a stop writes nothing). Raises ``OutputError`` before anything is
    gated when the page must not be written."""
    check_output(html_path, [input_file(input_path)])
    summary = GateSummary()
    walk = gated_pairs(read_pairs(input_path, nlp.max_length), nlp, summary, input_path,
                       skip_bad_lines=skip_bad_lines,
                       review=review, docs=True,
                       progress=partial(progress, total=line_count(input_path), desc="report"))
    text = page((str(g.line.id if g.line.id is not None else g.line.number), g.source, g.memory, g.report)
                for g in walk)
    if summary.exit_code == BUDGET_STOP:
        summary.stop += ("; nothing was written (run again with a higher --max-usd: replies already paid for are "
                         "cached)")
    if summary.stop is None:
        write_text(html_path, text, [input_path])
    return summary
