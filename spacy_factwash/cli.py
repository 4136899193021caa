"""The command line: parses arguments, streams, prints. The work happens in the modules it calls."""

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import typer
from tqdm import tqdm

from .api import DEFAULT_MAX_LENGTH
from .pipes.gate.gate import Gate

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="spacy-factwash: find hedges, attributions, negations, conditions and temporal scope in text.",
)


def _show_version(asked: bool) -> None:
    """Print the package, lexicon, spaCy and Python versions and stop (``--version``)."""
    if asked:
        import platform

        import spacy

        from . import __version__
        from .lexicon.frozen import MANIFEST, packaged_lexicon_dir

        lexicon = json.loads((packaged_lexicon_dir() / MANIFEST).read_text(encoding="utf8")).get("version", "?")
        typer.echo(f"spacy-factwash {__version__} (lexicon {lexicon}; spaCy {spacy.__version__}; "
                   f"Python {platform.python_version()})")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                          help="Print the versions and exit.")) -> None:
    """spacy-factwash: find hedges, attributions, negations, conditions and temporal scope in text."""


def _fail(message: str, code: int = 1) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _line_count(path: Path) -> Optional[int]:
    """How many lines a file has, trailing blank lines left out (as every command reads it): the total of a
    progress bar over it (None when it cannot be read)."""
    try:
        with path.open("rb") as lines:
            last = 0
            for number, line in enumerate(lines, 1):
                last = number if line.strip() else last
            return last
    except OSError:
        return None


def _progress(items, desc: str, unit: str, total: Optional[int]):
    """A progress bar with a total and an estimated time left, shown on a terminal only."""
    return tqdm(items, desc=desc, unit=unit, total=total, disable=None)


def _records(path: Path) -> list:
    """A small JSONL file's objects; a clear error naming file and line for the first bad one."""
    from .run.stream import BadInput, read_records

    if not path.is_file():
        _fail(f"{path}: no such file")
    try:
        return read_records(path)
    except BadInput as err:
        _fail(str(err))


def _write(path: Path, text: str, inputs: Sequence[Path] = ()) -> None:
    """Write a whole output file safely (``outputs.write_text``); a one-line error when it cannot be written."""
    from .io.outputs import OutputError, write_text

    try:
        write_text(path, text, inputs)
    except OutputError as err:
        _fail(str(err))


def _write_readme_table(readme: Path, table: str, name: str) -> None:
    """Replace the page's block for table ``name`` with ``table``; a clear error when it cannot."""
    from factwash_dev.evaluation.readme import TableMissing, replace_table

    try:
        text = replace_table(readme.read_text(encoding="utf8"), table, name)
    except (OSError, TableMissing) as err:
        _fail(str(err))
    _write(readme, text)


README_OPTION = typer.Option(None, "--readme", "--doc", help="Also write the table into this page between its markers (each table's page: evaluation.readme.PAGES, most in docs/evaluation.md).")
LEXICON_DIR_OPTION = typer.Option(
    None, "--lexicon-dir", file_okay=False,
    help="A frozen cue lexicon folder to judge with instead of the packaged one (freeze-lexicons makes one; the "
         "factwash_cues/lexicons folder of a saved pipeline is one, its added entries included).",
)


def _pipeline(lexicon_dir: Optional[Path], max_length: Optional[int] = None):
    """The pipeline a command annotates with; a lexicon folder that cannot be used ends the command in one line."""
    from .api import pipeline_on
    from .lexicon.frozen import LexiconError

    try:
        return pipeline_on(lexicon_dir, max_length)
    except LexiconError as err:
        _fail(str(err))


@app.command()
def cues(
    text: str = typer.Argument(..., help="The text to annotate."),
    as_json: bool = typer.Option(False, "--json", help="Print the cues as JSON instead of marked text."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Print TEXT with its cues marked, and one line per cue: offsets, lexicon entry, source."""
    from .io.textfile import surrogate_problem
    from .render.display import cue_rows, mark_cues
    from .run.stream import cue_dicts

    problem = surrogate_problem(text)
    if problem:
        _fail(problem)
    nlp = _pipeline(lexicon_dir)
    if not text.strip():
        typer.echo("empty text: nothing to annotate (no cues)")
        return
    if len(text) > nlp.max_length:
        _fail(f"text of {len(text):,} characters exceeds max_length {nlp.max_length:,}")
    doc = nlp(text)
    found = cue_dicts(doc)
    if as_json:
        component = nlp.get_pipe("factwash_cues")
        typer.echo(json.dumps({"lexicon_version": component.lexicon_version,
                               "lexicon_digest": component.lexicons.digest, "cues": found}))
        return
    typer.echo(mark_cues(doc))
    typer.echo("")
    typer.echo("\n".join(cue_rows(found)) if found else "  (no cues)")
    typer.echo(f"\nlexicon version {nlp.get_pipe('factwash_cues').lexicon_version}")


N_PROCESS_OPTION = typer.Option(1, "--n-process", min=1, help="Worker processes: more than 1 runs the batches on a "
                                                          "local Dask cluster of that many (the dask extra).")
SCHEDULER_OPTION = typer.Option(None, "--scheduler", help="Run on Dask: 'local' (a cluster of --workers processes on "
                                                          "127.0.0.1) or a scheduler address (tcp://host:8786); "
                                                          "OUTPUT_PATH is then a folder of partitions and manifest.json.")
WORKERS_OPTION = typer.Option(2, "--workers", min=1, help="Worker processes of --scheduler local.")
PARTITION_LINES_OPTION = typer.Option(10_000, "--partition-lines", min=1, help="Input lines per partition (--scheduler).")


def _on_cluster(kind: str, input_path: Path, output_path: Path, scheduler: str, **settings) -> None:
    """Run ``annotate`` or ``gate`` on Dask into a folder of partitions; print where, and fail naming every
    partition that failed or stopped."""
    from functools import partial

    from .io.outputs import OutputError
    from .run.dask import ScaleError
    from .run.dask.corpus import default_build, run_corpus

    try:
        run = run_corpus(kind, [input_path], output_path, partial(default_build, settings.pop("max_length", None)),
                         scheduler=scheduler, **settings)
    except (ScaleError, OutputError) as err:
        _fail(str(err))
    done = [entry for entry in run.partitions if entry["status"] == "ok"]
    typer.echo(f"{kind}: {sum(e['records'] for e in run.partitions)} records in {len(done)} of "
               f"{len(run.partitions)} partitions; manifest {run.manifest}", err=True)
    if run.problems():
        _fail("; ".join(run.problems()))


@app.command()
def annotate(
    input_path: Path = typer.Argument(..., help="A .txt file (one text a line) or .jsonl file ({\"text\": ...} a line)."),
    output_path: Path = typer.Argument(..., help="Where to write JSONL: one record per input line."),
    n_process: int = N_PROCESS_OPTION,
    batch_size: int = typer.Option(256, "--batch-size", min=1, help="Texts per batch."),
    skip_bad_lines: bool = typer.Option(False, "--skip-bad-lines", help="Skip and count unusable lines instead of stopping."),
    max_length: int = typer.Option(
        DEFAULT_MAX_LENGTH, "--max-length", min=1, help="Longest text, in characters, to annotate; longer lines are bad lines."
    ),
    scheduler: Optional[str] = SCHEDULER_OPTION,
    workers: int = WORKERS_OPTION,
    partition_lines: int = PARTITION_LINES_OPTION,
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Stream a corpus through the default pipeline and write its cues as JSONL.

    With --scheduler, OUTPUT_PATH is a folder: the input is cut into partitions of --partition-lines lines,
    annotated on a Dask cluster, and each partition written as JSONL and a spaCy DocBin, with manifest.json
    listing them in input order (a partition that fails is retried, then reported; the exit status is 1).
    """
    from .io.outputs import OutputError
    from .run.dask import ScaleError
    from .run.stream import annotate_file

    if not input_path.is_file():
        _fail(f"{input_path}: no such file")
    if not os.access(input_path, os.R_OK):
        _fail(f"{input_path}: not readable")
    if scheduler is not None:
        if lexicon_dir is not None:
            _fail("--lexicon-dir does not reach Dask workers yet: run without --scheduler (or --n-process N)", 2)
        return _on_cluster("annotate", input_path, output_path, scheduler, n_workers=workers, max_length=max_length,
                           batch_size=batch_size, skip_bad_lines=skip_bad_lines, lines_per_partition=partition_lines)
    _pipeline(lexicon_dir, max_length)  # a lexicon folder that cannot be used ends the command here, in one line
    try:
        summary = annotate_file(input_path, output_path, max_length=max_length, batch_size=batch_size,
                                n_process=n_process, skip_bad_lines=skip_bad_lines, lexicon_dir=lexicon_dir,
                                progress=lambda items: _progress(items, "annotate", " lines", _line_count(input_path)))
    except (OutputError, ScaleError) as err:
        _fail(str(err))
    except OSError as err:
        _fail(f"{err.filename or input_path}: {err.strerror}")
    if summary.stop:
        _fail(summary.stop)
    typer.echo(f"wrote {summary.written} records to {output_path} ({summary.empty} empty texts, "
               f"{summary.bad} bad lines skipped)", err=True)


VERDICT_EXIT_CODES = {"pass": 0, "uncheckable": 3, "rewrite": 4, "reject": 5}  # also the verdicts' rank


class FailOn(str, Enum):
    """The verdicts ``gate --fail-on`` can fail on."""

    uncheckable = "uncheckable"
    rewrite = "rewrite"
    reject = "reject"


def failing_status(verdicts: Dict[str, int], fail_on: str) -> int:
    """The exit status of a gate run: the worst verdict's status when it ranks at or above ``fail_on``, else 0."""
    worst = max((v for v, n in verdicts.items() if n), key=VERDICT_EXIT_CODES.__getitem__, default="pass")
    return VERDICT_EXIT_CODES[worst] if VERDICT_EXIT_CODES[worst] >= VERDICT_EXIT_CODES[fail_on] else 0


def _check_text(source_text: Optional[str], source_file: Optional[Path], what: str) -> str:
    """The text given for one side of ``check``: ``--X TEXT`` is the text itself, ``--X-file PATH`` a file's
    contents; exactly one of the two, and never a guess from the string."""
    from .io.textfile import read_text, surrogate_problem

    if (source_text is None) == (source_file is None):
        _fail(f"give --{what} TEXT or --{what}-file PATH (exactly one)", 2)
    if source_file is not None:
        if not source_file.is_file():
            _fail(f"{source_file}: no such file (--{what}-file)")
        try:
            return read_text(source_file)
        except (OSError, ValueError) as err:
            _fail(f"{source_file}: cannot read ({err})")
    if len(source_text) < 4096 and Path(source_text).is_file():
        _fail(f"--{what} takes the text itself, and {source_text!r} names a file: to gate the file's contents, "
              f"pass --{what}-file {source_text}", 2)
    problem = surrogate_problem(source_text, f"--{what}")
    if problem:
        _fail(problem)
    return source_text


MODEL_OPTION = typer.Option("claude-haiku-4-5", "--model", help="Model for --witness/--unsupported (priced in "
                                                               "spacy_factwash/models/prices.json).")
MAX_USD_OPTION = typer.Option(1.0, "--max-usd", min=0.0, help="Budget cap in dollars for model calls in this run.")
CACHE_OPTION = typer.Option(None, "--cache", help="Reply cache file (default: $FACTWASH_MODEL_CACHE or "
                                                  "~/.cache/spacy-factwash/replies.sqlite).")
NO_CACHE_OPTION = typer.Option(False, "--no-cache", help="Keep replies in memory only (a repeat run pays again).")
WITNESS_OPTION = typer.Option(False, "--witness", help="Ask a model witness about flagged hedges and attributions; "
                                                       "it may only lower the verdict (needs ANTHROPIC_API_KEY).")
UNSUPPORTED_OPTION = typer.Option(False, "--unsupported", help="Ask a model whether the source supports each memory "
                                                               "sentence; notes only, never the verdict.")


def _reply_cache(cache: Optional[Path], no_cache: bool):
    """The reply cache a model run uses: in memory with --no-cache, else the given or default file."""
    from .llm.cache import ReplyCache, default_cache_path

    try:
        return ReplyCache(":memory:" if no_cache else (cache or default_cache_path()))
    except (OSError, ValueError) as err:
        _fail(str(err))


def _review(witness: bool, unsupported: bool, model: str, max_usd: float, cache: Optional[Path], no_cache: bool):
    """The model review a command enabled, or None (then nothing model-related is imported or built)."""
    if not (witness or unsupported):
        return None
    from .llm.budget import UnknownPrice, price_of
    from .llm.review import Review

    if not os.environ.get("ANTHROPIC_API_KEY"):
        _fail("--witness and --unsupported call a model: set ANTHROPIC_API_KEY (nothing was sent)")
    try:
        price_of(model)
    except UnknownPrice as err:
        _fail(str(err))
    return Review.build(witness=witness, support=unsupported, model=model, max_usd=max_usd,
                        cache=_reply_cache(cache, no_cache))


def _cost_line(review) -> None:
    """The last line of a run that used a model: calls, cache hits, tokens, dollars, discarded replies."""
    if review is not None:
        typer.echo(review.meter.line() + f", {review.discarded()} reply(ies) discarded", err=True)


@app.command("check")
def check_command(
    source: Optional[str] = typer.Option(None, "--source", help="The source text itself (never read as a path)."),
    memory: Optional[str] = typer.Option(None, "--memory", help="The rewrite (memory) text itself."),
    source_file: Optional[Path] = typer.Option(None, "--source-file", help="A file holding the source."),
    memory_file: Optional[Path] = typer.Option(None, "--memory-file", help="A file holding the rewrite (memory)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    witness: bool = WITNESS_OPTION,
    unsupported: bool = UNSUPPORTED_OPTION,
    model: str = MODEL_OPTION,
    max_usd: float = MAX_USD_OPTION,
    cache: Optional[Path] = CACHE_OPTION,
    no_cache: bool = NO_CACHE_OPTION,
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Gate one rewrite against its source and print the report.

    Each side is given as text (--source, --memory) or as a file (--source-file, --memory-file).
    Exit status: 0 pass, 3 uncheckable, 4 rewrite, 5 reject; 1 for an input error, 2 for a usage error;
    6 when the model budget refused a call the review needed (the report printed is then the one before it).
    With --witness or --unsupported, a cost line ends the run (on stderr).
    """
    import json

    from .api import inspect
    from .run.gating import BUDGET_STOP

    source_text, memory_text = _check_text(source, source_file, "source"), _check_text(memory, memory_file, "memory")
    review = _review(witness, unsupported, model, max_usd, cache, no_cache)
    report = inspect(source_text, memory_text, review=review, nlp=_pipeline(lexicon_dir))
    typer.echo(json.dumps(report.to_dict(), ensure_ascii=False) if as_json else str(report))
    _cost_line(review)
    if review is not None and review.meter.refused:
        _fail("the model budget refused a call this check needed: the model review did not finish "
              "(a higher --max-usd lets it)", BUDGET_STOP)
    raise typer.Exit(VERDICT_EXIT_CODES[report.verdict])


@app.command()
def gate(
    input_path: Path = typer.Argument(..., help='A JSONL file with {"id", "source", "memory"} a line.'),
    output_path: Path = typer.Argument(..., help="Where to write one report per line (JSONL)."),
    n_process: int = N_PROCESS_OPTION,
    batch_size: int = typer.Option(256, "--batch-size", min=1, help="Texts per batch."),
    skip_bad_lines: bool = typer.Option(False, "--skip-bad-lines", help="Skip and count unusable lines instead of stopping."),
    scheduler: Optional[str] = SCHEDULER_OPTION,
    workers: int = WORKERS_OPTION,
    partition_lines: int = PARTITION_LINES_OPTION,
    witness: bool = WITNESS_OPTION,
    unsupported: bool = UNSUPPORTED_OPTION,
    model: str = MODEL_OPTION,
    max_usd: float = MAX_USD_OPTION,
    cache: Optional[Path] = CACHE_OPTION,
    no_cache: bool = NO_CACHE_OPTION,
    resume: bool = typer.Option(False, "--resume", help="Keep the reports already in OUTPUT_PATH (from a stopped run) "
                                                        "after checking each answers the same input line, and gate "
                                                        "only the lines not there, appending each report in place "
                                                        "and forcing it to disk as it is written."),
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on", case_sensitive=False,
                                             help="Exit with the worst verdict's status (3 uncheckable, 4 rewrite, 5 "
                                                  "reject) when a report is this bad or worse (default: exit 0)."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
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
    partitions and manifest.json, as for annotate (no --resume, --witness or --unsupported there).
    """
    from .io.outputs import OutputError
    from .run.dask import ScaleError
    from .run.gating import ResumeMismatch, gate_file

    if not input_path.is_file():
        _fail(f"{input_path}: no such file")
    if scheduler is not None:
        if resume or witness or unsupported or lexicon_dir is not None:
            _fail("--scheduler runs without --resume, --witness, --unsupported and --lexicon-dir", 2)
        return _on_cluster("gate", input_path, output_path, scheduler, n_workers=workers, batch_size=batch_size,
                           skip_bad_lines=skip_bad_lines, lines_per_partition=partition_lines)
    review = _review(witness, unsupported, model, max_usd, cache, no_cache)
    total = _line_count(input_path)  # a resumed run gates only the lines its output does not hold yet
    if resume and total is not None and output_path.is_file():
        total = max(0, total - (_line_count(output_path) or 0))
    try:
        summary = gate_file(input_path, output_path, _pipeline(lexicon_dir), resume=resume, skip_bad_lines=skip_bad_lines,
                            batch_size=batch_size, n_process=n_process, review=review,
                            progress=lambda items: _progress(items, "gate", " pairs", total))
    except (OutputError, ResumeMismatch, ScaleError) as err:
        _fail(str(err))
    except OSError as err:
        _fail(f"{err.filename or input_path}: {err.strerror}")
    resumed = f"; {summary.kept} kept from the earlier run" if resume else ""
    typer.echo(f"gated {sum(summary.verdicts.values())} pairs ({summary.bad} bad lines skipped{resumed})", err=True)
    typer.echo("verdicts: " + ", ".join(f"{v} {summary.verdicts[v]}" for v in VERDICT_EXIT_CODES), err=True)
    typer.echo("changes: " + (", ".join(f"{t} {n}" for t, n in summary.change_types.most_common()) or "none"),
               err=True)
    _cost_line(review)
    if summary.stop:
        _fail(summary.stop, summary.exit_code)
    if fail_on is not None:
        raise typer.Exit(failing_status(summary.verdicts, fail_on.value))


@app.command()
def report(
    input_path: Path = typer.Argument(..., help='A JSONL file with {"id", "source", "memory"} a line.'),
    html_path: Path = typer.Option(..., "--html", help="Where to write the self-contained HTML page."),
    skip_bad_lines: bool = typer.Option(False, "--skip-bad-lines", help="Skip and count unusable lines instead of stopping."),
    witness: bool = WITNESS_OPTION,
    unsupported: bool = UNSUPPORTED_OPTION,
    model: str = MODEL_OPTION,
    max_usd: float = MAX_USD_OPTION,
    cache: Optional[Path] = CACHE_OPTION,
    no_cache: bool = NO_CACHE_OPTION,
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """A page a person can work through, for one pair or thousands: counts per verdict and change type at the top
    (each a filter and a jump link), then each change with the memory sentence beside its source sentence.

    One self-contained HTML file (inline CSS and a small script, nothing fetched). With --witness or
    --unsupported, the model's notes appear under each pair and a cost line ends the run; when the budget
    refuses a call the page needs, nothing is written and the exit status is 6.
    """
    from .io.outputs import OutputError, check_output
    from .render.html import page
    from .run.gating import BUDGET_STOP
    from .run.stream import read_pairs

    if not input_path.is_file():
        _fail(f"{input_path}: no such file")
    try:
        check_output(html_path, [input_path])
    except OutputError as err:
        _fail(str(err))
    review = _review(witness, unsupported, model, max_usd, cache, no_cache)
    nlp = _pipeline(lexicon_dir)
    gate = Gate(nlp)
    written = 0

    def sections():
        """Each good line's (label, source Doc, memory Doc, report), as the page renders them."""
        nonlocal written
        for line in _progress(read_pairs(input_path), "report", " pairs", _line_count(input_path)):
            if line.error is not None:
                if not skip_bad_lines:
                    _fail(f"{input_path}:{line.number}: {line.error} (use --skip-bad-lines to skip it)")
                continue
            source, memory = nlp.pipe([line.source, line.memory])
            report = gate.compare(source, memory)
            if review is not None:
                report = review(report, source, memory)
                if review.meter.refused:
                    _cost_line(review)
                    _fail(f"the model budget was reached at {input_path}:{line.number}; nothing was written (run "
                          "again with a higher --max-usd: replies already paid for are cached)", BUDGET_STOP)
            written += 1
            yield str(line.id if line.id is not None else line.number), source, memory, report

    _write(html_path, page(sections()), [input_path])
    typer.echo(f"wrote {written} pairs to {html_path}", err=True)
    _cost_line(review)


@app.command("confirm")
def confirm_command(
    items_path: Path = typer.Argument(..., help='A JSONL file of {"id", "text"} items (rules and notes).'),
    proposals_path: Path = typer.Argument(..., help="A JSONL file of proposals (type, source_item_id, target_item_id, "
                                                    "quote, scope_terms, confidence)."),
    output_path: Path = typer.Option(Path("confirmations.jsonl"), "--output", help="Where to write the confirmations."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Confirm or refuse each proposal against the items; a summary of confirmed and blocking rules at the end."""
    import json
    from collections import Counter

    from .api import default_confirmer
    from .authority.confirm import Confirmer
    from .io.outputs import OutputError, atomic_output

    items, proposals = _records(items_path), _records(proposals_path)
    bad = [n for n, item in enumerate(items, start=1) if not isinstance(item.get("text"), str) or "id" not in item]
    if bad:
        _fail(f"{items_path}:{bad[0]}: an item needs an id and a string text")
    confirmer = default_confirmer() if lexicon_dir is None else Confirmer(_pipeline(lexicon_dir))
    by_id = {item["id"]: item["text"] for item in items}
    blocked: Counter = Counter()
    confirmed = 0
    try:
        with atomic_output(output_path, [items_path, proposals_path]) as out:
            for proposal in _progress(proposals, "confirm", " proposals", len(proposals)):
                result = confirmer.confirm(proposal, by_id)
                confirmed += result.confirmed
                if result.blocked_by is not None:
                    blocked[f"rule {result.blocked_by.rule} {result.blocked_by.name}"] += 1
                out.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
    except OutputError as err:
        _fail(str(err))
    typer.echo(f"{confirmed} of {len(proposals)} proposals confirmed; blocked: "
               + (", ".join(f"{r} {n}" for r, n in blocked.most_common()) or "none"), err=True)


@app.command("drift")
def drift_command(
    chains_path: Path = typer.Argument(..., help='A JSONL file with {"id", "versions": [v0, v1, ...]} a line.'),
    output_path: Path = typer.Option(Path("drift.jsonl"), "--output", help="Where to write one drift report per chain."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Gate every hop of each rewrite chain and the chain end to end; say on which hop each loss happened."""
    import json

    from .io.outputs import OutputError, atomic_output
    from .memory.drift import drift

    chains = _records(chains_path)
    bad = next((number for number, chain in enumerate(chains, start=1)
                if not isinstance(chain.get("versions"), list) or len(chain["versions"]) < 2
                or not all(isinstance(v, str) for v in chain["versions"])), None)
    if bad is not None:
        _fail(f"{chains_path}:{bad}: 'versions' must be a list of at least two strings")
    gate = Gate(_pipeline(lexicon_dir))
    try:
        with atomic_output(output_path, [chains_path]) as out:
            for number, chain in enumerate(_progress(chains, "drift", " chains", len(chains)), start=1):
                report = drift(chain["versions"], gate)
                out.write(json.dumps({"id": chain.get("id"), **report.to_dict()}, ensure_ascii=False) + "\n")
                losses = ", ".join(f"{loss.type} at hop {loss.hop}" for loss in report.losses) or "no loss"
                lost = "; lost checkability at hop(s) " + ", ".join(map(str, report.uncheckable_hops)) \
                    if report.lost_checkability else ""
                typer.echo(f"{chain.get('id', number)}: end to end {report.end_to_end.verdict}: {losses}{lost}")
    except OutputError as err:
        _fail(str(err))


@app.command()
def bench(
    stimuli_path: Path = typer.Argument(..., help='The stimulus set: {"stimulus_set", "id", "source"} a line.'),
    writes_paths: List[Path] = typer.Argument(..., help='One or more files of writes: {"stimulus_id", "memory"} a line.'),
    readme: Optional[Path] = README_OPTION,
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Score a memory system's writes: flag rate (95% Wilson interval), uncheckable share, abstention, change types."""
    from factwash_dev.evaluation.readme import BENCH

    from .memory.bench import markdown_rows, score_writes

    stimuli = _records(stimuli_path)
    sets = {s.get("stimulus_set") for s in stimuli}
    if len(sets) != 1 or not isinstance(next(iter(sets)), str):
        _fail(f"{stimuli_path}: every stimulus needs the same string 'stimulus_set' (found {sorted(map(str, sets))})")
    if any(not isinstance(s.get("id"), str) or not isinstance(s.get("source"), str) for s in stimuli):
        _fail(f"{stimuli_path}: every stimulus needs a string 'id' and 'source'")
    sources = {s["id"]: s["source"] for s in stimuli}
    gate = Gate(_pipeline(lexicon_dir))
    scores = []
    for path in writes_paths:
        writes = [(w.get("stimulus_id"), w.get("memory")) for w in _records(path)]
        if any(not isinstance(m, str) for _, m in writes):
            _fail(f"{path}: every write needs a string 'memory'")
        try:
            scores.append((path.stem, score_writes(next(iter(sets)), sources, writes, gate, progress=lambda reports: (
                _progress(reports, f"bench {path.stem}", " writes", len(writes))))))
        except ValueError as err:
            _fail(f"{path}: {err}")
    table = "\n".join([
        "| writes | stimulus set | writes | flag rate | 95% interval | uncheckable | abstention |",
        "|---|---|---:|---:|---:|---:|---:|",
        *markdown_rows(scores),
    ]) + "\n"
    typer.echo(table)
    for name, score in scores:
        typer.echo(f"{name} change types: " + (", ".join(f"{t} {n}" for t, n in score.change_types.items()) or "none"))
    if readme is not None:
        _write_readme_table(readme, table, BENCH)


@app.command("freeze-lexicons")
def freeze_lexicons(
    folder: Path = typer.Argument(..., help="The lexicon folder to freeze (holds the class .jsonl files)."),
    version: str = typer.Option(..., "--version", help="The version the frozen set is published under."),
    lexicon_set: str = typer.Option("cues", "--set", help="Which set the folder holds: cues, authority, strength, "
                                                           "gate or sense."),
) -> None:
    """Re-write the folder's manifest with VERSION and the sha256 of every file of the set."""
    from .authority.lexicon import AUTHORITY_FILES
    from .io.outputs import OutputError
    from .lexicon.frozen import CLASS_FILES, LexiconError, freeze
    from .pipes.gate.words import GATE_FILES
    from .pipes.strength.lexicon import STRENGTH_DATA, STRENGTH_FILES
    from .syntax.sense import SENSE_FILES

    sets = {"cues": (CLASS_FILES, ()), "authority": (AUTHORITY_FILES, ()), "strength": (STRENGTH_FILES, STRENGTH_DATA),
            "gate": (GATE_FILES, ()), "sense": (SENSE_FILES, ())}
    if lexicon_set not in sets:
        _fail(f"--set must be one of {', '.join(sets)}, got {lexicon_set!r}")
    try:
        manifest = freeze(folder, version, *sets[lexicon_set])
    except (LexiconError, OutputError) as err:
        _fail(str(err))
    typer.echo(f"froze {len(manifest['files'])} files as version {version}")


review_app = typer.Typer(no_args_is_help=True, help="The review queue: facts the gate held, waiting for a person "
                                                     "to approve or reject them.")
app.add_typer(review_app, name="review")
DATABASE_OPTION = typer.Option(Path("factwash.sqlite"), "--database", help="The write path's SQLite database (what "
                                                                           "wrap(..., database=...) was given).")
HELD_ARGUMENT = typer.Argument(..., help="The id of a held fact, as review list shows it.")
NOTE_OPTION = typer.Option("", "--note", help="Why (recorded with the review).")
REVIEWER_HELP = "Who {} it (recorded{})."


def _queue(database: Path):
    """The review queue of an existing database; a one-line error for a missing or unusable file."""
    from .memory.database import Database, DatabaseError
    from .memory.queue import ReviewQueue

    if not database.is_file():
        _fail(f"{database}: no such database (give the file wrap() was given as database=)")
    try:
        return ReviewQueue(Database(database))
    except DatabaseError as err:
        _fail(str(err))


@review_app.command("list")
def review_list(
    state: str = typer.Option("held", "--state", help="held, approving, approved, rejected, or all."),
    database: Path = DATABASE_OPTION,
) -> None:
    """One line per fact in the queue: id, state, verdict, when it was held, the fact."""
    from .memory.queue import ReviewError

    try:
        rows = _queue(database).list(None if state == "all" else state)
    except ReviewError as err:
        _fail(str(err))
    for row in rows:
        typer.echo(f"{row.id:>4}  {row.state:<9}  {row.verdict:<11}  {row.created_at}  {row.fact}")
    typer.echo(f"{len(rows)} fact(s)", err=True)


@review_app.command("show")
def review_show(held_id: int = HELD_ARGUMENT, database: Path = DATABASE_OPTION) -> None:
    """Everything kept for one held fact, as JSON: source, fact, the gate's report, provenance, scope, state."""
    from .memory.queue import ReviewError

    try:
        typer.echo(json.dumps(_queue(database).show(held_id).to_dict(), indent=1, ensure_ascii=False))
    except ReviewError as err:
        _fail(str(err))


@review_app.command("reject")
def review_reject(
    held_id: int = HELD_ARGUMENT,
    reviewer: str = typer.Option(..., "--reviewer", help=REVIEWER_HELP.format("rejects", "")),
    note: str = NOTE_OPTION,
    database: Path = DATABASE_OPTION,
    audit_log: Optional[Path] = typer.Option(None, "--audit-log", help="Also record the rejection in this audit log."),
) -> None:
    """Reject a held fact: it is never stored; who, when and why are recorded."""
    from .memory.audit import AuditLog
    from .memory.queue import ReviewError, reject_held

    try:
        row = reject_held(_queue(database), held_id, reviewer, note, AuditLog(audit_log) if audit_log else None)
    except (ReviewError, OSError) as err:
        _fail(str(err))
    typer.echo(f"{held_id}: rejected by {row.reviewer} at {row.reviewed_at}")


@review_app.command("approve")
def review_approve(
    held_id: int = HELD_ARGUMENT,
    reviewer: str = typer.Option(..., "--reviewer", help=REVIEWER_HELP.format("approves", ", and in the memory's "
                                                                                          "metadata")),
    note: str = NOTE_OPTION,
    database: Path = DATABASE_OPTION,
    mem0_config: Path = typer.Option(..., "--mem0-config", help="A JSON file of the mem0 configuration "
                                                                "(Memory.from_config) of the store to write to."),
    audit_log: Path = typer.Option(Path("factwash_audit.jsonl"), "--audit-log", help="The wrapped store's audit log."),
) -> None:
    """Approve a held fact: it is written through the gated store, and who and when are recorded."""
    from .api import wrap
    from .memory.queue import ReviewError

    try:
        row = _queue(database).show(held_id)
        if row.state != "held":
            raise ReviewError(f"held fact {held_id} is {row.state}, not held")
        from mem0 import Memory

        memory = Memory.from_config(json.loads(mem0_config.read_text(encoding="utf8")))
        try:
            result = wrap(memory, audit_log=audit_log, database=database).approve(held_id, reviewer, note)
        finally:
            memory.close()
    except ImportError:
        _fail("approving writes to a mem0 store: pip install 'spacy-factwash[mem0]'")
    except (ReviewError, OSError, ValueError) as err:
        _fail(str(err))
    held = result["held"]
    typer.echo(f"{held_id}: approved by {held['reviewer']} at {held['reviewed_at']}; stored as "
               f"{', '.join(held['memory_ids'])}")


def main() -> None:
    """Entry point of ``python -m spacy_factwash`` and the ``spacy-factwash`` script."""
    from .pipes.gate.language import LanguageModelMissing

    try:
        app(prog_name="python -m spacy_factwash")
    except LanguageModelMissing as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    sys.exit(main())
