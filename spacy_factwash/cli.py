"""The command line: parses arguments, streams, prints. The work happens in the modules it calls."""

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import typer
from tqdm import tqdm

from .pipeline import DEFAULT_MAX_LENGTH

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="spacy-factwash: find hedges, attributions, negations, conditions and temporal scope in text.",
)
CORPORA_ENV = "FACTWASH_CORPORA"


def _show_version(asked: bool) -> None:
    """Print the package, lexicon, spaCy and Python versions and stop (``--version``)."""
    if asked:
        import platform

        import spacy

        from . import __version__
        from .lexicon import MANIFEST, packaged_lexicon_dir

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


REPOSITORY = Path(__file__).resolve().parent.parent  # the checkout, when the package runs from one


def _in_repository(ctx: typer.Context, param: typer.CallbackParam, path: Path, output: bool = False) -> Path:
    """A developer command's path into the repository (the pair sets, the splits, the fixture...), found from
    any folder: as given when it is there, else (the option's default) the same path in the checkout this
    package runs from. A one-line error when an input is nowhere, or the package runs from no checkout (an
    installed wheel)."""
    if ctx.resilient_parsing or path.exists():
        return path
    if path != param.default:
        if output:
            return path
        _fail(f"{path}: no such file or folder")
    if (REPOSITORY / "training").is_dir() and (REPOSITORY / path).parent.is_dir():
        return REPOSITORY / path
    _fail(f"{path}: not here, and this package does not run from a checkout of the repository: developer "
          f"commands read the repository's files (run them in a checkout, or give the path)")


def _repository_option(default: str, *flags: str, output: bool = False, **settings):
    """A path option whose default lies in the repository (``_in_repository`` finds it from any folder); an
    input must exist, an output may be new."""
    return typer.Option(Path(default), *flags, callback=lambda ctx, param, path: _in_repository(
        ctx, param, path, output), **settings)


def _corpora_root(corpora: Optional[Path]) -> Path:
    """The corpora folder: the option, else $FACTWASH_CORPORA; a clear error when neither is there."""
    if corpora is None:
        root = os.environ.get(CORPORA_ENV)
        if not root:
            _fail(f"give --corpora or set {CORPORA_ENV} to the corpora folder")
        corpora = Path(root)
    if not (corpora / "SOURCES.md").is_file():
        _fail(f"{corpora}: not the corpora folder (no SOURCES.md)")
    return corpora


def _records(path: Path) -> list:
    """A small JSONL file's objects; a clear error naming file and line for the first bad one."""
    from .stream import BadInput, read_records

    if not path.is_file():
        _fail(f"{path}: no such file")
    try:
        return read_records(path)
    except BadInput as err:
        _fail(str(err))


def _write(path: Path, text: str, inputs: Sequence[Path] = ()) -> None:
    """Write a whole output file safely (``outputs.write_text``); a one-line error when it cannot be written."""
    from .outputs import OutputError, write_text

    try:
        write_text(path, text, inputs)
    except OutputError as err:
        _fail(str(err))


def _show_table(table: str, readme: Optional[Path], name: str) -> None:
    """Print a measured table, and write it into a documentation page between its markers when one is given."""
    typer.echo(table)
    if readme is not None:
        _write_readme_table(readme, table, name)


def _write_readme_table(readme: Path, table: str, name: str) -> None:
    """Replace the page's block for table ``name`` with ``table``; a clear error when it cannot."""
    from .evaluation.readme import TableMissing, replace_table

    try:
        text = replace_table(readme.read_text(encoding="utf8"), table, name)
    except (OSError, TableMissing) as err:
        _fail(str(err))
    _write(readme, text)


CORPORA_OPTION = typer.Option(None, "--corpora", help=f"The corpora folder (default: ${CORPORA_ENV}).")
README_OPTION = typer.Option(None, "--readme", "--doc", help="Also write the table into this page between its markers (each table's page: evaluation.readme.PAGES, most in docs/evaluation.md).")
SPLITS_OPTION = _repository_option("training/splits", "--splits", help="The committed split files.")
LEXICON_DIR_OPTION = typer.Option(
    None, "--lexicon-dir", file_okay=False,
    help="A frozen cue lexicon folder to judge with instead of the packaged one (freeze-lexicons makes one; the "
         "factwash_cues/lexicons folder of a saved pipeline is one, its added entries included).",
)


def _pipeline(lexicon_dir: Optional[Path], max_length: Optional[int] = None):
    """The pipeline a command annotates with; a lexicon folder that cannot be used ends the command in one line."""
    from .lexicon import LexiconError
    from .pipeline import pipeline_on

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
    from .cues.display import cue_rows, mark_cues
    from .stream import cue_dicts

    from .textfile import surrogate_problem

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

    from .outputs import OutputError
    from .scale import ScaleError
    from .scale.corpus import default_build, run_corpus

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
    from .outputs import OutputError
    from .scale import ScaleError
    from .stream import annotate_file

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
    from .textfile import read_text, surrogate_problem

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
    from .models.cache import ReplyCache, default_cache_path

    try:
        return ReplyCache(":memory:" if no_cache else (cache or default_cache_path()))
    except (OSError, ValueError) as err:
        _fail(str(err))


def _review(witness: bool, unsupported: bool, model: str, max_usd: float, cache: Optional[Path], no_cache: bool):
    """The model review a command enabled, or None (then nothing model-related is imported or built)."""
    if not (witness or unsupported):
        return None
    from .models.budget import UnknownPrice, price_of
    from .models.review import Review

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

    from .gating import BUDGET_STOP
    from .pipeline import inspect

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
    from .gating import ResumeMismatch, gate_file
    from .outputs import OutputError
    from .scale import ScaleError

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
    from .gating import BUDGET_STOP
    from .html_report import page
    from .outputs import OutputError, check_output
    from .stream import read_pairs

    if not input_path.is_file():
        _fail(f"{input_path}: no such file")
    try:
        check_output(html_path, [input_path])
    except OutputError as err:
        _fail(str(err))
    review = _review(witness, unsupported, model, max_usd, cache, no_cache)
    nlp = _pipeline(lexicon_dir)
    gate = nlp.get_pipe("factwash_compare")
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

    from .authority.confirm import Confirmer
    from .outputs import OutputError, atomic_output
    from .pipeline import default_confirmer

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


@app.command("confirm-fixture")
def confirm_fixture(
    fixture: Path = _repository_option("training/authority/fixture.jsonl", "--fixture", help="The written cases."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Score the authority confirmer on the written fixture, per category."""
    from .evaluation.authority_fixture import markdown_table, score_fixture
    from .evaluation.readme import AUTHORITY
    from .pipeline import default_confirmer

    confirmer = default_confirmer()
    table = markdown_table(score_fixture(fixture, confirmer), confirmer.lexicon.version)
    _show_table(table, readme, AUTHORITY)


@app.command("drift")
def drift_command(
    chains_path: Path = typer.Argument(..., help='A JSONL file with {"id", "versions": [v0, v1, ...]} a line.'),
    output_path: Path = typer.Option(Path("drift.jsonl"), "--output", help="Where to write one drift report per chain."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Gate every hop of each rewrite chain and the chain end to end; say on which hop each loss happened."""
    import json

    from .memory.drift import drift
    from .outputs import OutputError, atomic_output

    chains = _records(chains_path)
    bad = next((number for number, chain in enumerate(chains, start=1)
                if not isinstance(chain.get("versions"), list) or len(chain["versions"]) < 2
                or not all(isinstance(v, str) for v in chain["versions"])), None)
    if bad is not None:
        _fail(f"{chains_path}:{bad}: 'versions' must be a list of at least two strings")
    gate = _pipeline(lexicon_dir).get_pipe("factwash_compare")
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
    from .evaluation.readme import BENCH
    from .memory.bench import markdown_rows, score_writes

    stimuli = _records(stimuli_path)
    sets = {s.get("stimulus_set") for s in stimuli}
    if len(sets) != 1 or not isinstance(next(iter(sets)), str):
        _fail(f"{stimuli_path}: every stimulus needs the same string 'stimulus_set' (found {sorted(map(str, sets))})")
    if any(not isinstance(s.get("id"), str) or not isinstance(s.get("source"), str) for s in stimuli):
        _fail(f"{stimuli_path}: every stimulus needs a string 'id' and 'source'")
    sources = {s["id"]: s["source"] for s in stimuli}
    gate = _pipeline(lexicon_dir).get_pipe("factwash_compare")
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


@app.command("bench-speed")
def bench_speed(
    corpus: Optional[Path] = typer.Option(
        None, help=f"BioScope abstracts.xml (default: ${CORPORA_ENV}/bioscope/raw/abstracts.xml)."
    ),
    repeat: int = typer.Option(5, min=1, help="Timed runs per pipeline, interleaved; the best is kept."),
    limit: int = typer.Option(0, min=0, help="Use only the first N sentences (0: all)."),
) -> None:
    """Sentences per second of the cue pipeline against the tokenizer+sentencizer floor, and their ratio."""
    from .evaluation.bioscope import read_sentences
    from .speed import measure

    if corpus is None:
        corpus = _corpora_root(None) / "bioscope" / "raw" / "abstracts.xml"
    if not corpus.is_file():
        _fail(f"{corpus}: no such file")
    sentences = read_sentences(corpus)
    if limit:
        sentences = sentences[:limit]
    typer.echo(f"{len(sentences):,} sentences from {corpus}, best of {repeat} runs each")
    for result in measure(sentences, repeat=repeat):
        typer.echo(f"  {result.name:<42} {result.sentences_per_second:>9,.0f} sentences/s   ratio {result.ratio_to_floor:.2f}")


@app.command("check-corpora")
def check_corpora(corpora: Optional[Path] = CORPORA_OPTION) -> None:
    """Check that every corpus is in place, and say where each comes from."""
    from .evaluation.corpora import CORPORA

    root = _corpora_root(corpora)
    problems = [problem for corpus in CORPORA.values() if (problem := corpus.check(root))]
    for corpus in CORPORA.values():
        typer.echo(f"{corpus.name:<10} {root / corpus.raw}  (from {corpus.origin})")
    if problems:
        _fail("; ".join(problems))


@app.command()
def convert(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    out: Path = _repository_option("training/corpus", "--out", output=True, help="Where the DocBins go."),
) -> None:
    """Save each corpus half as a DocBin with gold cues in doc.spans["factwash_gold"]."""
    import spacy

    from .evaluation.corpora import write_docbins

    nlp = spacy.blank("en")
    nlp.max_length = 10_000_000
    for name, count in write_docbins(_corpora_root(corpora), splits, out, nlp).items():
        typer.echo(f"{name:<16} {count:>6} docs")


@app.command()
def split(
    corpora: Optional[Path] = CORPORA_OPTION,
    out: Path = _repository_option("training/splits", "--splits", output=True, help="The split files to write."),
    check: bool = typer.Option(False, "--check", help="Only check that the committed files match the rule."),
) -> None:
    """Halve BioScope, Szeged (by a stable hash of each document's title) and claim-strength into dev and test."""
    import tempfile

    from .evaluation.corpora import write_splits

    root = _corpora_root(corpora)
    if not check:
        for name, path in write_splits(root, out).items():
            typer.echo(f"{name}: {path}")
        return
    with tempfile.TemporaryDirectory() as scratch:
        for name, path in write_splits(root, Path(scratch)).items():
            committed = out / path.name
            if not committed.is_file() or committed.read_bytes() != path.read_bytes():
                _fail(f"{committed}: differs from the split rule's output; the committed split has drifted")
            typer.echo(f"{name}: {committed} matches the rule")


@app.command()
def mine(
    round_number: int = typer.Option(..., "--round", min=1, help="The mining round's number."),
    lexicon_in: Path = typer.Option(..., "--lexicon-in", help="The lexicon folder the round starts from."),
    lexicon_out: Path = typer.Option(..., "--lexicon-out", help="Where the round writes the next version."),
    version: str = typer.Option(..., "--version", help="The version of the lexicon the round writes."),
    report: Path = typer.Option(..., "--report", help="Where to write the round report (JSON)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
) -> None:
    """One mining round on the dev half, under the rule in training/MINING.md."""
    from .evaluation.mining import mine_round

    result = mine_round(_corpora_root(corpora), splits, lexicon_in, lexicon_out, round_number, version, report)
    for label in result["added"]:
        typer.echo(f"{label:<12} +{len(result['added'][label])} -{len(result['removed'][label])}")
    typer.echo(f"wrote {lexicon_out} (version {version}) and {report}")


@app.command()
def evaluate(
    half: str = typer.Option("test", "--half", help="test (every reported figure) or dev (error analysis)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    lexicon_dir: Optional[Path] = typer.Option(None, "--lexicon-dir", help="A lexicon folder (default: the packaged one)."),
    output_dir: Path = _repository_option("training/metrics", "--output-dir", output=True,
                                          help="Where metrics JSON and table go."),
    errors: int = typer.Option(0, "--errors", min=0, help="Top false-firing entries and missed gold texts (dev only)."),
    parse: bool = typer.Option(False, "--parse", help="Run the shipped tagger and parser first, so the detectors "
                                                     "read cue sense from the parse (files get a -parse suffix)."),
    witness: bool = typer.Option(False, "--witness", help="Also score the model witness (needs ANTHROPIC_API_KEY) "
                                                          "beside the word list on a stratified test sample."),
    per_class: int = typer.Option(200, "--per-class", min=2, help="Sentences per class in the witness sample."),
    model: str = MODEL_OPTION,
    max_usd: float = MAX_USD_OPTION,
    cache: Optional[Path] = CACHE_OPTION,
    no_cache: bool = NO_CACHE_OPTION,
) -> None:
    """Score every detector on a corpus half: a Markdown table and a JSON file."""
    import json

    from .evaluation.evaluate import evaluate as run_evaluation
    from .evaluation.evaluate import evaluation_pipeline, markdown_table

    if half not in ("dev", "test"):
        _fail("--half must be dev or test")
    if errors and half == "test":
        _fail("error lists are for the dev half only: test errors are never looked at")
    nlp = evaluation_pipeline(str(lexicon_dir) if lexicon_dir else None, parse=parse)
    result = run_evaluation(_corpora_root(corpora), half, splits, nlp=nlp, errors=errors)
    output_dir.mkdir(parents=True, exist_ok=True)
    name = f"{half}-parse" if parse else half
    _write(output_dir / f"metrics-{name}.json", json.dumps(result, indent=1) + "\n")
    table = markdown_table(result)
    _write(output_dir / f"table-{name}.md", table)
    typer.echo(table)
    if witness:
        _evaluate_witness(_corpora_root(corpora), splits, nlp, output_dir, per_class,
                          _review(True, False, model, max_usd, cache, no_cache))


def _evaluate_witness(root: Path, splits: Path, nlp, output_dir: Path, per_class: int, review) -> None:
    """The metered, resumable witness run: results in a run file named for its lineage, scores, a cost line."""
    import json

    from .evaluation.witness_eval import SEED, witness_scores
    from .models.budget import BudgetExhausted
    from .models.client import load_prompt
    from .models.runfile import run_name

    name = run_name("witness-eval", review.witness.model,
                    {"per_class": per_class, "prompt": load_prompt("witness").id}, SEED)
    run_path = output_dir / "model-runs" / name
    try:
        scores = witness_scores(root, splits, nlp, review.witness, per_class, run_path)
    except BudgetExhausted as err:
        _cost_line(review)
        _fail(f"{err}. Results so far are in {run_path}; run again with a higher --max-usd to continue.", 6)
    _write(output_dir / f"{run_path.stem}.scores.json", json.dumps(scores, indent=1) + "\n")
    missing = sum(result["missing"] for result in scores.values())
    if missing:
        typer.echo(f"{missing} sentence(s) got no reply (failed calls); they are not scored; run again to ask "
                   "them", err=True)
    for label, result in scores.items():
        for name in ("word_list", "witness"):
            s = result[name]
            typer.echo(f"{label:<12} {name:<10} P {s['p']:.2f}  R {s['r']:.2f}  F1 {s['f1']:.2f}"
                       + (f"  discarded {s['discarded']}" if "discarded" in s else ""))
    typer.echo(f"results: {run_path}", err=True)
    _cost_line(review)


@app.command("parse-cues")
def parse_cues(
    half: str = typer.Option("test", "--half", help="test (the reported figures) or dev (choosing rules)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Hedge and attribution P/R/F1 by the word lists alone and with the shipped parser's cue sense."""
    from .cues.sense import load_sense
    from .evaluation.evaluate import compare_parse, parse_table
    from .evaluation.readme import PARSE_CUES

    if half not in ("dev", "test"):
        _fail("--half must be dev or test")
    if readme is not None and half != "test":
        _fail("only the test half's figures go into the README")
    table = parse_table(*compare_parse(_corpora_root(corpora), half, splits), load_sense().version)
    _show_table(table, readme, PARSE_CUES)


@app.command("readme-table")
def readme_table(
    table: Path = _repository_option("training/metrics/table-test.md", "--table", help="A table written by evaluate."),
    readme: Path = _repository_option("docs/evaluation.md", "--readme", "--doc",
                                      help="The page whose held-out table to replace."),
) -> None:
    """Write the measured held-out table into its page (docs/evaluation.md), between its markers."""
    from .evaluation.readme import HELDOUT

    if not table.is_file():
        _fail(f"{table}: no such file (run evaluate first)")
    _write_readme_table(readme, table.read_text(encoding="utf8"), HELDOUT)
    typer.echo(f"{readme}: held-out table replaced from {table}")


@app.command("gate-sets")
def gate_sets(
    folder: Path = _repository_option("training/gate_sets", "--sets", help="The folder with the pair sets."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Score the gate on the written should-pass and flagging pair sets (per-type P/R, verdict confusion)."""
    from .evaluation.gate_sets import markdown_table, score_sets
    from .evaluation.readme import GATE
    from .pipeline import default_pipeline

    table = markdown_table(score_sets(folder, default_pipeline().get_pipe("factwash_compare")))
    _show_table(table, readme, GATE)


@app.command("model-cost")
def model_cost(
    corpora: Optional[Path] = CORPORA_OPTION,
    sets: Path = _repository_option("training/gate_sets", "--sets", help="The folder with the written pair sets."),
    model: str = MODEL_OPTION,
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Model calls per 100 writes and their worst-case cost, on the gate sets and FRANK test; no model is called."""
    from .evaluation.model_cost import cost_table, write_sets
    from .evaluation.readme import MODEL_COST
    from .models.budget import UnknownPrice
    from .pipeline import default_pipeline

    try:
        table = cost_table(write_sets(sets, _corpora_root(corpora) / "frank" / "raw"), default_pipeline(), model)
    except UnknownPrice as err:
        _fail(str(err))
    _show_table(table, readme, MODEL_COST)


@app.command("gate-eval")
def gate_eval(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    half: str = typer.Option("test", "--half", help="dev (to choose rules on) or test (to report; the README's)."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Score the whole gate on pairs built from the corpora's annotation (one half)."""
    from .evaluation.evaluate import evaluation_pipeline
    from .evaluation.gate_pairs import build_pairs, markdown_table, score_pairs
    from .evaluation.readme import GATE_CORPUS
    from .pipeline import default_pipeline

    if half not in ("dev", "test"):
        _fail(f"--half must be dev or test, not {half!r}", 2)
    if readme is not None and half != "test":
        _fail("the README reports the test half only: --readme needs --half test", 2)
    nlp = evaluation_pipeline()
    pairs = build_pairs(_corpora_root(corpora), splits, nlp, half=half)
    result = score_pairs(pairs, default_pipeline().get_pipe("factwash_compare"))
    table = markdown_table(result, nlp.get_pipe("factwash_cues").lexicon_version, half)
    _show_table(table, readme, GATE_CORPUS)


@app.command("scope-eval")
def scope_eval(
    half: str = typer.Option("dev", "--half", help="dev (choose rules here) or test (only reported)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    parser: Optional[Path] = typer.Option(None, "--parser", help="A spaCy pipeline with a dependency parser (a "
                                                                   "folder): score the scope rules on its parse."),
    readme: Optional[Path] = typer.Option(None, "--readme", help="Also write the table into this page (test "
                                                                   "half, no --parser: the table docs/evaluation.md holds)."),
) -> None:
    """Score cue scope on BioScope and CD-SCO: scope tokens P/R/F1 and PCS, given gold cues and end to end."""
    from .evaluation.readme import SCOPE
    from .evaluation.scope import evaluate as evaluate_scope
    from .evaluation.scope import markdown_table

    if half not in ("dev", "test"):
        _fail("--half must be dev or test")
    if readme is not None and (half != "test" or parser is not None):
        _fail("--readme writes the README's table: the test half, without --parser")
    if parser is not None and not parser.is_dir():
        _fail(f"{parser}: no such pipeline folder")
    try:
        result = evaluate_scope(_corpora_root(corpora), half, splits, str(parser) if parser else None)
    except (OSError, ValueError) as err:
        _fail(str(err))
    table = markdown_table(result)
    _show_table(table, readme, SCOPE)


@app.command("bench-gate")
def bench_gate(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    sets: Path = _repository_option("training/gate_sets", "--sets", help="The written pair sets."),
    polnear_pairs: int = typer.Option(10_000, "--polnear-pairs", min=0, help="How many PolNeAR test pairs to time."),
    stream_pairs: int = typer.Option(100_000, "--stream-pairs", min=0, help="Pairs in the memory-flatness stream."),
    long_sentences: int = typer.Option(5_000, "--long-sentences", min=0,
                                       help="Source sentences of the long-document pair (its memory takes every 10th)."),
    growth_from: int = typer.Option(2_000, "--growth-from", min=1,
                                    help="Sentences of the first repetitive source in the growth rows, doubled twice "
                                         "(the cue-dense text has four times as many words)."),
) -> None:
    """Pairs per second of the gate in one process, peak memory, memory over a long stream, and one long document
    against the time to annotate it (processes and Dask workers: bench-scale)."""
    from .evaluation.evaluate import evaluation_pipeline
    from itertools import islice

    from .evaluation.gate_pairs import iter_pairs
    from .evaluation.gate_sets import written_pairs
    from .evaluation.work import LONG_TEXTS, NAMES
    from .speed import gate_speed, growth, long_document_speed, per_call_speed, stream_memory

    written = written_pairs(sets)
    # speed only: the dev half has enough distinct PolNeAR pairs that no text repeats (no cache helps)
    polnear = [(p.source, p.memory) for p in islice(iter_pairs(_corpora_root(corpora), splits, evaluation_pipeline(),
                                                               rows=[("polnear", "ATTRIBUTION")], half="dev"),
                                                    polnear_pairs)]
    has_number = lambda pair: any(ch.isdigit() for ch in pair[0] + pair[1])  # noqa: E731
    named = {
        "written sets": written,
        "PolNeAR pairs": polnear,
        "PolNeAR pairs, no digits": [p for p in polnear if not has_number(p)],
        "PolNeAR pairs with digits": [p for p in polnear if has_number(p)],
    }
    for result in gate_speed(named, n_processes=(1,)):
        typer.echo(f"  {result.name:<28} {result.pairs:>6} pairs  n_process={result.n_process}  "
                   f"{result.pairs_per_second:>7,.0f} pairs/s   peak RSS {result.peak_rss_mb:,.0f} MB")
    if stream_pairs:
        readings = stream_memory(written + polnear[:1000], stream_pairs, max(stream_pairs // 10, 1))
        typer.echo("  resident memory while streaming: " + ", ".join(f"{n:,}: {mb:,.0f} MB" for n, mb in readings))
        typer.echo(f"  growth from the first to the last reading: {readings[-1][1] - readings[0][1]:+,.0f} MB")
    per_call, floor_rate = per_call_speed(written)
    typer.echo(f"  inspect() once per pair on the written sets: {per_call:,.0f} pairs/s; annotating the same texts in "
               f"one stream: {floor_rate:,.0f} pairs/s ({floor_rate / per_call:.1f}x the per-call time)")
    if long_sentences:
        sources = [source for source, _ in polnear[:long_sentences]]
        floor, total = long_document_speed(" ".join(sources), " ".join(sources[::10]))
        typer.echo(f"  long document: {len(sources):,} source sentences, {len(sources[::10]):,} memory sentences: "
                   f"annotated in {floor:.2f} s, annotated and gated in {total:.2f} s ({total / floor:.1f}x the floor)")
        for texts, first in (("repetitive_document", growth_from), ("dense_text", 4 * growth_from)):
            name, sizes = NAMES[texts], (first, 2 * first, 4 * first)
            rows = growth(LONG_TEXTS[texts], sizes)
            steps = ", ".join(f"{size:,}: annotate {a:.2f} s, compare {c:.2f} s" for size, a, c in rows)
            doubling = rows[-1][2] / rows[-2][2] if rows[-2][2] else float("nan")
            typer.echo(f"  {name}: {steps}; compare time x{doubling:.1f} for the last doubling (linear: x2)")


@app.command("bench-start")
def bench_start(
    runs: int = typer.Option(5, "--runs", min=1, help="Fresh interpreters per command (the median is kept)."),
    first_ever: bool = typer.Option(True, "--first-ever/--no-first-ever",
                                    help="Also time a check in an empty cache folder (a machine's first use)."),
) -> None:
    """Cold start of a one-shot check in fresh interpreters, against `python -c "import spacy"` timed in the same
    run: median wall and processor seconds, and their ratios to that floor."""
    from .start_speed import cold_start, markdown_rows

    typer.echo(markdown_rows(cold_start(runs, first_ever), runs))


@app.command("bench-scale")
def bench_scale(
    corpora: Optional[Path] = CORPORA_OPTION,
    texts: int = typer.Option(20_000, "--texts", min=1, help="Sentences to annotate (BioScope, cycled if fewer)."),
    pairs: int = typer.Option(10_000, "--pairs", min=1, help="Pairs to gate."),
    stream_pairs: int = typer.Option(100_000, "--stream-pairs", min=0, help="Distinct pairs in the memory stream."),
    workers: int = typer.Option(2, "--workers", min=2, help="Processes for spaCy n_process and Dask workers."),
    repeat: int = typer.Option(1, "--repeat", min=1, help="Timed runs of each way, interleaved; the best is kept."),
) -> None:
    """Sentences/s and pairs/s in one process, with spaCy's n_process and on a local Dask cluster (ratios to one
    process, measured in this run; with --repeat, the best of interleaved runs), the cost of starting Dask workers,
    and resident memory over a stream of distinct pairs (every 10,000; growth after the first reading)."""
    from .evaluation.bioscope import read_sentences
    from .scale.bench import annotation_rates, distinct_pairs, gate_rates, stream_memory, worker_start

    root = _corpora_root(corpora) / "bioscope" / "raw"
    sentences = read_sentences(root / "abstracts.xml") + read_sentences(root / "full_papers.xml")
    sample = [sentences[i % len(sentences)] for i in range(texts)]
    pair_sample = list(distinct_pairs(sentences, pairs))
    typer.echo(f"{texts:,} sentences ({min(texts, len(sentences)):,} distinct, BioScope), {pairs:,} distinct pairs, "
               f"{workers} processes")
    up, built, resident = worker_start(workers)
    typer.echo(f"  Dask start: {up:.1f} s for {workers} worker processes, then {built:.1f} s to build the pipeline "
               f"on each (in parallel), {resident:,.0f} MB resident per worker; in the Dask rows' whole-run figures")
    for what, rates in (("sentences", annotation_rates(sample, workers, repeat=repeat)),
                        ("pairs", gate_rates(pair_sample, workers, repeat=repeat))):
        for rate in rates:
            typer.echo(f"  {what:<9} {rate.name:<30} {rate.per_second:>8,.0f} {what}/s  {rate.seconds:>6.1f} s  "
                       f"ratio to 1 process {rate.ratio:.2f};  after the first batch {rate.steady_per_second:>8,.0f}"
                       f" {what}/s, ratio {rate.steady_ratio:.2f}")
    if stream_pairs:
        readings = stream_memory(distinct_pairs(sentences, stream_pairs), 10_000)
        typer.echo("  resident memory, distinct pairs: " + ", ".join(f"{n:,}: {mb:,.0f} MB" for n, mb in readings))
        if readings:
            first, last = readings[0][1], readings[-1][1]
            typer.echo(f"  growth after the first reading: {last - first:+,.0f} MB ({(last - first) / first:+.1%})")


@app.command("gate-frank")
def gate_frank(
    corpora: Optional[Path] = CORPORA_OPTION,
    split: str = typer.Option("test", "--split", help="valid (to choose rules on) or test (to report; the README's)."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Flag rates of the gate on FRANK summaries: fully factual vs with circumstance errors, and the lift."""
    from .evaluation.frank import markdown_table, score
    from .evaluation.readme import FRANK
    from .pipeline import default_pipeline

    if split not in ("valid", "test"):
        _fail(f"--split must be valid or test, not {split!r}", 2)
    if readme is not None and split != "test":
        _fail("the README reports the test split only: --readme needs --split test", 2)
    nlp = default_pipeline()
    result = score(_corpora_root(corpora) / "frank" / "raw", nlp.get_pipe("factwash_compare"), split)
    table = markdown_table(result, nlp.get_pipe("factwash_cues").lexicon_version)
    typer.echo(table)
    for group, counts in result["groups"].items():
        typer.echo(f"{group} change types: " + ", ".join(f"{t} {n}" for t, n in counts["change_types"].items()))
    if readme is not None:
        _write_readme_table(readme, table, FRANK)


@app.command("gate-summedits")
def gate_summedits(
    corpora: Optional[Path] = CORPORA_OPTION,
    readme: Optional[Path] = README_OPTION,
) -> None:
    """The gate on SummEdits' real LLM edits (development data), without and with the parse: verdicts on
    consistent and inconsistent edits, the uncheckable share, and each change type's rate."""
    from .evaluation.readme import SUMMEDITS
    from .evaluation.summedits import gate_table, measure

    try:
        table = gate_table(measure(_corpora_root(corpora)))
    except FileNotFoundError as err:
        _fail(str(err))
    _show_table(table, readme, SUMMEDITS)


@app.command("claim-gate-eval")
def claim_gate_eval(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    sets: Path = _repository_option("training/gate_sets", "--sets", help="The folder with the written pair sets."),
    before: Path = _repository_option("training/claim_gate/before.json", "--before",
                                      help="The recorded measurement of the gate before the claim level."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Before and after the claim-level gate: the written sets, the corpus pairs (test halves), FRANK test,
    SummEdits and the growth of the work of comparing, the old gate's figures beside this gate's."""
    from .evaluation.claim_gate import markdown_table, read_before
    from .evaluation.evaluate import evaluation_pipeline
    from .evaluation.frank import score as frank_score
    from .evaluation.gate_pairs import build_pairs, score_pairs
    from .evaluation.gate_sets import score_sets
    from .evaluation.readme import CLAIM_GATE
    from .evaluation.summedits import gate_score
    from .evaluation.work import work_growth
    from .pipeline import default_pipeline

    root, gate = _corpora_root(corpora), default_pipeline().get_pipe("factwash_compare")
    if not before.is_file():
        _fail(f"{before}: no recorded measurement (training/claim_gate/measure_before.py writes it)")
    after = {"lexicon_version": gate.nlp.get_pipe("factwash_cues").lexicon_version,
             "sets": score_sets(sets, gate)["sets"],
             "corpus": score_pairs(build_pairs(root, splits, evaluation_pipeline()), gate),
             "frank": frank_score(root / "frank" / "raw", gate), "summedits": gate_score(root, gate),
             "work": work_growth()}
    table = markdown_table(read_before(before), after)
    _show_table(table, readme, CLAIM_GATE)


@app.command("strength-eval")
def strength_eval(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    gate_sets: Path = _repository_option("training/gate_sets", "--gate-sets",
                                         help="The folder holding strength.jsonl."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Claim strength on the claim-strength test halves, certainty on its test split, step-ups on SummEdits."""
    from .evaluation.readme import STRENGTH
    from .evaluation.strength_eval import markdown_table, measure

    table = markdown_table(measure(_corpora_root(corpora), splits, gate_sets))
    _show_table(table, readme, STRENGTH)


@app.command("freeze-lexicons")
def freeze_lexicons(
    folder: Path = typer.Argument(..., help="The lexicon folder to freeze (holds the class .jsonl files)."),
    version: str = typer.Option(..., "--version", help="The version the frozen set is published under."),
    lexicon_set: str = typer.Option("cues", "--set", help="Which set the folder holds: cues, authority, strength, "
                                                           "gate or sense."),
) -> None:
    """Re-write the folder's manifest with VERSION and the sha256 of every file of the set."""
    from .authority.lexicon import AUTHORITY_FILES
    from .cues.sense import SENSE_FILES
    from .gate.words import GATE_FILES
    from .lexicon import CLASS_FILES, LexiconError, freeze
    from .outputs import OutputError
    from .strength.lexicon import STRENGTH_DATA, STRENGTH_FILES

    sets = {"cues": (CLASS_FILES, ()), "authority": (AUTHORITY_FILES, ()), "strength": (STRENGTH_FILES, STRENGTH_DATA),
            "gate": (GATE_FILES, ()), "sense": (SENSE_FILES, ())}
    if lexicon_set not in sets:
        _fail(f"--set must be one of {', '.join(sets)}, got {lexicon_set!r}")
    try:
        manifest = freeze(folder, version, *sets[lexicon_set])
    except (LexiconError, OutputError) as err:
        _fail(str(err))
    typer.echo(f"froze {len(manifest['files'])} files as version {version}")


@app.command("ewt-train")
def ewt_train(
    out: Path = typer.Argument(..., help="Where to write the rebuilt en_ewt-ud-train.conllu."),
    corpora: Optional[Path] = CORPORA_OPTION,
) -> None:
    """Rebuild UD English EWT's official train set from its per-document sources, checked against its README."""
    from .evaluation.ud_ewt import EWTError, rebuild_train

    try:
        result = rebuild_train(_corpora_root(corpora), out)
    except EWTError as err:
        _fail(str(err))
    typer.echo(f"{result['release']}")
    for split in ("train", "dev", "test"):
        typer.echo(f"{split:<6} {result[split + '_sentences']:>6,} sentences {result[split + '_words']:>8,} words")
    typer.echo(f"wrote {out} ({result['sha256']})")


@app.command("parser-train")
def parser_train(
    config: Path = typer.Argument(..., help="The training config (training/parser/configs/parser.cfg)."),
    output: Path = typer.Argument(..., help="The training output folder (model-best, model-last, train-run.json)."),
    train: Path = typer.Option(..., "--train", help="The train DocBin."),
    dev: Path = typer.Option(..., "--dev", help="The dev DocBin."),
) -> None:
    """Train the parse pipeline in this process and record its wall time and settings."""
    from .evaluation.parser_build import train as train_parser

    for path in (config, train, dev):
        if not path.is_file():
            _fail(f"{path}: no such file")
    run = train_parser(config, train, dev, output, " ".join(["python -m spacy_factwash", *sys.argv[1:]]))
    typer.echo(f"trained in {run['seconds'] / 60:.1f} minutes; {output / 'train-run.json'}")


@app.command("parser-package")
def parser_package(
    trained: Path = typer.Argument(..., help="The training output folder (model-best and train-run.json)."),
    dest: Optional[Path] = typer.Option(None, "--dest", help="Where to write the pipeline (default: the package's)."),
    corpora: Optional[Path] = CORPORA_OPTION,
) -> None:
    """Write the shipped parse pipeline with its licence (CC BY-SA 4.0), README and provenance."""
    from .evaluation.parser_build import package
    from .evaluation.ud_ewt import EWTError

    try:
        folder = package(trained, _corpora_root(corpora), dest)
    except (EWTError, OSError) as err:
        _fail(str(err))
    typer.echo(f"wrote {folder}")


@app.command("mine-sense")
def mine_sense_command(
    out: Path = typer.Argument(..., help="The folder to write the sense lists into (lexicons/sense)."),
    version: str = typer.Option(..., "--version", help="The version the frozen lists are published under."),
    model: Optional[Path] = typer.Option(None, "--model", help="A parse pipeline folder (default: the shipped one)."),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write every count here (JSON)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
) -> None:
    """Choose the words of each cue-sense rule on the dev halves (training/parser/SENSE.md) and freeze the lists."""
    from .evaluation.sense_mining import mine_sense
    from .parse import ewt_parser_dir

    chosen = mine_sense(model or ewt_parser_dir(), _corpora_root(corpora), splits, out, version, report)
    for rule, words in chosen.items():
        typer.echo(f"{rule:<9} " + (", ".join(f"{w['label'].lower()}:{w['word']} ({w['wrong']}/{w['right']})"
                                               for w in words) or "-"))
    typer.echo(f"froze {out} as version {version}")


@app.command("parser-measure")
def parser_measure(
    model: Optional[Path] = typer.Argument(None, help="A parse pipeline folder (default: the shipped one)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    output: Optional[Path] = typer.Option(None, "--output", help="Also write the figures here (JSON)."),
    repeat: int = typer.Option(3, min=1, help="Timed passes per pipeline, interleaved; the best is kept."),
    readme: Optional[Path] = README_OPTION,
    published: Path = _repository_option("training/parser/published.json", "--published",
                                         help="The published EWT figures the README table compares with."),
) -> None:
    """POS, features, UAS and LAS on EWT dev and test (gold words), size on disk, speed against the floor."""
    from .evaluation.parser_build import figures_table, measure, published_figures
    from .evaluation.readme import PARSER
    from .evaluation.ud_ewt import EWTError
    from .parse import ewt_parser_dir

    model = model or ewt_parser_dir()
    try:
        result = measure(model, _corpora_root(corpora), repeat=repeat)
    except (EWTError, OSError) as err:
        _fail(str(err))
    for split, scores in result["scores"].items():
        typer.echo(f"{split:<5} " + "  ".join(f"{name} {value}" for name, value in scores.items()))
    speed = result["speed"]
    typer.echo(f"size {result['size_bytes'] / 2**20:.1f} MB; {speed['sentences']:,} test sentences: floor "
               f"{speed['floor_seconds']} s, parse {speed['parse_seconds']} s, ratio {speed['ratio']}x "
               f"({speed['parse_words_per_second']:,} words/s)")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(result, indent=1) + "\n", encoding="utf8")
    if readme is not None:
        _write_readme_table(readme, figures_table(result["scores"]["test"], published_figures(published), model), PARSER)


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
    from .memory.queue import ReviewError
    from .pipeline import wrap

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
    from .gate.language import LanguageModelMissing

    try:
        app(prog_name="python -m spacy_factwash")
    except LanguageModelMissing as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    sys.exit(main())
