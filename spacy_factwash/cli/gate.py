"""``check`` (one pair), ``gate`` (a file of pairs to JSONL reports) and ``report`` (a file of pairs to one HTML page)."""

from enum import Enum
from pathlib import Path
from typing import NoReturn, Optional

import typer

from ..pipes.gate.policy import EXIT_STATUS, RANKING
from ._util import (BATCH_SIZE_OPTION, LEXICON_DIR_OPTION, N_PROCESS_OPTION, PARTITION_LINES_OPTION,
                    SCHEDULER_OPTION, SKIP_BAD_LINES_OPTION, WORKERS_OPTION, app, bar, cost_line, corpus_run_summary,
                    fail, json_text, shown, shown_lines, with_model_options)

FailOn = Enum("FailOn", [(verdict, verdict) for verdict in RANKING[1:]], type=str)  # what gate --fail-on takes
PAIRS_ARGUMENT = typer.Argument(..., help='A JSONL file with {"id", "source", "memory"} a line.')


def text_or_file(text: Optional[str], path: Optional[Path], what: str) -> str:
    """One side of ``check``: ``--X TEXT`` the text itself, ``--X-file PATH`` a file's contents (exactly one)."""
    from ..io.inputs import input_file
    from ..io.textfile import read_text, surrogate_problem

    if (text is None) == (path is None):
        fail(f"give --{what} TEXT or --{what}-file PATH (exactly one)", 2)
    if path is not None:
        return read_text(input_file(path, f"--{what}-file"))
    if len(text) < 4096 and Path(text).is_file():
        fail(f"--{what} takes the text itself, and {text!r} names a file: to gate the file's contents, pass "
             f"--{what}-file {text}", 2)
    problem = surrogate_problem(text, f"--{what}")
    if problem:
        fail(problem)
    return text


def summary_lines(summary, resume: bool) -> str:
    """What a gate run did, in three lines: pairs gated and bad lines skipped, verdicts, change types."""
    resumed = f"; {summary.kept} kept from the earlier run" if resume else ""
    return (f"gated {sum(summary.verdicts.values())} pairs ({summary.bad} bad lines skipped{resumed})\n"
            "verdicts: " + ", ".join(f"{v} {summary.verdicts[v]}" for v in RANKING) + "\nchanges: "
            + (", ".join(f"{t} {n}" for t, n in sorted(summary.change_types.items(), key=lambda c: (-c[1], c[0])))
               or "none"))


def gate_on_cluster(input_path: Path, output_path: Path, fail_on: Optional[str], **settings) -> NoReturn:
    """``gate --scheduler``: the run on Dask (``run.dask.gate_corpus``), then the summary and exit status one process
    gives, and the partitions that failed or stopped."""
    from ..run.dask import gate_corpus
    from ..run.gate import GateSummary

    run = gate_corpus([input_path], output_path, **settings)
    summary = GateSummary.of_partitions(run.partitions)
    typer.echo(summary_lines(summary, False), err=True)
    corpus_run_summary("gate", run)
    raise typer.Exit(summary.status(fail_on))


@app.command("check")
@with_model_options
def check_command(
    source: Optional[str] = typer.Option(None, "--source", help="The source text itself (never read as a path)."),
    memory: Optional[str] = typer.Option(None, "--memory", help="The rewrite (memory) text itself."),
    source_file: Optional[Path] = typer.Option(None, "--source-file", help="A file holding the source."),
    memory_file: Optional[Path] = typer.Option(None, "--memory-file", help="A file holding the rewrite (memory)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
    review=None,
) -> None:
    """Gate one rewrite against its source and print the report.

    Each side is given as text (--source, --memory) or as a file (--source-file, --memory-file).
    Exit status: 0 pass, 3 uncheckable, 4 rewrite, 5 reject; 1 for an input error, 2 for a usage error;
    6 when the model budget refused a call the review needed (the report printed is then the one before it).
    With --witness or --unsupported, a cost line ends the run (on stderr).
    """
    from ..api import inspect, pipeline_on
    from ..run.gate import BUDGET_STOP

    source_text, memory_text = text_or_file(source, source_file, "source"), text_or_file(memory, memory_file, "memory")
    report = inspect(source_text, memory_text, review=review, nlp=pipeline_on(lexicon_dir))
    typer.echo(json_text(report.to_dict()) if as_json else shown_lines(str(report)))
    cost_line(review)
    if review is not None and review.meter.refused:
        fail("the model budget refused a call this check needed: the model review did not finish "
             "(a higher --max-usd lets it)", BUDGET_STOP)
    raise typer.Exit(EXIT_STATUS[report.verdict])


@app.command()
@with_model_options
def gate(
    input_path: Path = PAIRS_ARGUMENT,
    output_path: Path = typer.Argument(..., help="Where to write one report per line (JSONL)."),
    n_process: int = N_PROCESS_OPTION,
    batch_size: int = BATCH_SIZE_OPTION,
    skip_bad_lines: bool = SKIP_BAD_LINES_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    workers: int = WORKERS_OPTION,
    partition_lines: int = PARTITION_LINES_OPTION,
    resume: bool = typer.Option(False, "--resume", help="Keep the reports already in OUTPUT_PATH (from a stopped run) "
                                                        "after checking each answers the same input line, and gate "
                                                        "only the lines not there, appending each report in place "
                                                        "and forcing it to disk as it is written."),
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on", case_sensitive=False,
                                             help="Exit with the worst verdict's status (3 uncheckable, 4 rewrite, 5 "
                                                  "reject) when a report is this bad or worse (default: exit 0)."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
    review=None,
) -> None:
    """Gate a stream of (source, memory) pairs; a summary of verdicts and change types at the end.

    Exit status: 0 when the run finished; with --fail-on, the worst verdict's (3 uncheckable, 4 rewrite,
    5 reject) when it is as bad as --fail-on or worse (the verdicts rank pass < uncheckable < rewrite < reject);
    1 for an input error or a bad line, 2 for a usage error, 6 when the model budget stopped the run.

    Without --resume the reports are written to a temporary file beside OUTPUT_PATH and renamed over it when
    the run ends; a run that stops at a bad line (exit 1) or at the model budget (exit 6) keeps the reports
    before the stop. With --witness or --unsupported, each report is reviewed by the model as it
    is written (replies cached by default, so a repeated run pays only for
    what was not yet asked) and a cost line ends the run. With --scheduler, OUTPUT_PATH is a folder of
    partitions and manifest.json, as for annotate (no --resume, --witness or --unsupported there), and the
    same summary and exit status as one process.

    One run at a time writes an OUTPUT_PATH: a second run on it (a second --resume, say) is refused at once,
    without waiting, and nothing is done twice.
    """
    from ..api import pipeline_on
    from ..run.gate import gate_file

    if scheduler is not None:
        if resume or review is not None or lexicon_dir is not None:
            fail("--scheduler runs without --resume, --witness, --unsupported and --lexicon-dir", 2)
        gate_on_cluster(input_path, output_path, fail_on, scheduler=scheduler, n_workers=workers,
                        batch_size=batch_size, skip_bad_lines=skip_bad_lines, lines_per_partition=partition_lines)
    summary = gate_file(input_path, output_path, pipeline_on(lexicon_dir), resume=resume, skip_bad_lines=skip_bad_lines,
                        batch_size=batch_size, n_process=n_process, review=review, progress=bar(" pairs"))
    typer.echo(summary_lines(summary, resume), err=True)
    cost_line(review)
    if summary.stop:
        fail(summary.stop, summary.exit_code)
    raise typer.Exit(summary.status(fail_on))


@app.command()
@with_model_options
def report(
    input_path: Path = PAIRS_ARGUMENT,
    html_path: Path = typer.Option(..., "--html", help="Where to write the self-contained HTML page."),
    skip_bad_lines: bool = SKIP_BAD_LINES_OPTION,
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
    review=None,
) -> None:
    """A page a person can work through, for one pair or thousands: counts per verdict and change type at the top
    (each a filter and a jump link), then each change with the memory sentence beside its source sentence.

    One self-contained HTML file (inline CSS and a small script, nothing fetched). With --witness or
    --unsupported, the model's notes appear under each pair and a cost line ends the run; when the budget
    refuses a call the page needs, nothing is written and the exit status is 6.
    """
    from ..api import pipeline_on
    from ..run.gate import report_file

    summary = report_file(input_path, html_path, pipeline_on(lexicon_dir), skip_bad_lines=skip_bad_lines,
                          review=review, progress=bar(" pairs"))
    if not summary.stop:
        typer.echo(f"wrote {sum(summary.verdicts.values())} pairs to {shown(html_path)}", err=True)
    cost_line(review)
    if summary.stop:
        fail(summary.stop, summary.exit_code)
