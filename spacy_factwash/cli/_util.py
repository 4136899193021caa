"""What every command shares: the app, the options several commands take, one-line failures, progress bars, the
model review a run enables, and text made safe for a terminal.

A command parses its arguments, calls one library function and prints. An
error the library raises on purpose (``FactwashError``) or one the system
raises (``OSError``) ends the command in one line, ``error: ...``, with exit
status 1: caught once, here, by the app's command group.

Text a user or a model wrote is printed through ``shown``: a character a
terminal would act on (an escape sequence, a bare carriage return, a newline
forging a row, a bidirectional override) is shown as its escape (``\\x1b``,
``\\n``); JSON through ``json_text``, as JSON escapes (the value is exact).
"""

import functools
import inspect
import json
import os
import re
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional

import typer
from tqdm import tqdm
from typer.core import TyperGroup

from ..errors import FactwashError

COMMAND = "python -m spacy_factwash"
# what a terminal acts on instead of showing: C0, DEL and C1 controls, bidirectional marks, embeddings, overrides and
# isolates, line and paragraph separators
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(found: re.Match) -> str:
    """The visible escape of one character a terminal would act on."""
    char = found.group()
    return NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


def shown(text: Any) -> str:
    """Text for the terminal, one line of it: every character a terminal would act on shown as its escape
    (``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\u202e``), everything else as it is."""
    return UNSAFE.sub(_escape, str(text))


def shown_lines(text: str) -> str:
    """A text of several lines the package composed (a report, a table), each line ``shown``."""
    return "\n".join(shown(line) for line in text.split("\n"))


def json_text(value: Any, **settings: Any) -> str:
    """A value as JSON for the terminal: characters kept, except those ``shown`` escapes, as JSON escapes (the value
    is the same; a newline left is ``indent``'s, since JSON escapes the control characters inside strings)."""
    return UNSAFE.sub(lambda found: found.group() if found.group() == "\n" else f"\\u{ord(found.group()):04x}",
                      json.dumps(value, ensure_ascii=False, **settings))


class Commands(TyperGroup):
    """The command group: whatever a command raises on purpose is printed as its one line, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except FactwashError as err:
            fail(str(err))
        except BrokenPipeError:  # the reader went away (| head): stop quietly, as a pipeline expects
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            raise typer.Exit(141)
        except OSError as err:
            fail(f"{err.filename}: {err.strerror}" if err.filename else str(err))


# help text is printed as written: Rich's markup would eat the [brackets] of "[v0, v1, ...]"
SETTINGS = dict(cls=Commands, add_completion=False, no_args_is_help=True, rich_markup_mode=None)
app = typer.Typer(**SETTINGS, help="spacy-factwash: find hedges, attributions, negations, conditions and temporal "
                                   "scope in text, and gate rewrites that wash them away.")


def fail(message: str, code: int = 1) -> NoReturn:
    """End the command: ``error: MESSAGE`` on stderr and exit status ``code`` (1 an input error, 2 a usage error)."""
    typer.echo(f"error: {shown(message)}", err=True)
    raise typer.Exit(code)


def bar(unit: str):
    """A progress bar for a run to wrap its work in (``io.progress``): total and time left, on a terminal only."""
    return lambda items, total=None, desc=None: tqdm(items, desc=desc, unit=unit, total=total, disable=None)


def model_review(witness: bool, unsupported: bool, model: str, max_usd: float, cache: Optional[Path],
                 no_cache: bool):
    """The model review the options enable, or None (then nothing model-related is imported or built); refused
    before any call without an API key or a price for the model."""
    if not (witness or unsupported):
        return None
    from ..llm.budget import price_of
    from ..llm.review import Review

    if not os.environ.get("ANTHROPIC_API_KEY"):
        fail("--witness and --unsupported call a model: set ANTHROPIC_API_KEY (nothing was sent)")
    price_of(model)
    return Review.build(witness=witness, support=unsupported, model=model, max_usd=max_usd,
                        cache=reply_cache(cache, no_cache))


def with_model_options(command: Callable) -> Callable:
    """A command that takes the model options (``MODEL_OPTIONS``, after its own) in place of its ``review``
    parameter, which is given the review they enable (``model_review``: None without --witness or --unsupported)."""
    own = [p for p in inspect.signature(command).parameters.values() if p.name != "review"]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
             for name, (kind, option) in MODEL_OPTIONS.items()]

    @functools.wraps(command)
    def with_review(**arguments):
        return command(review=model_review(*(arguments.pop(name) for name in MODEL_OPTIONS)), **arguments)

    with_review.__signature__ = inspect.signature(command).replace(parameters=own + added)
    return with_review


def reply_cache(cache: Optional[Path], no_cache: bool):
    """The reply cache a model run uses: in memory with --no-cache, else the given or default file."""
    from ..llm.cache import ReplyCache, default_cache_path

    try:
        return ReplyCache(":memory:" if no_cache else (cache or default_cache_path()))
    except ValueError as err:  # a file that is not a reply cache
        fail(str(err))


def cost_line(review) -> None:
    """The last line of a run that used a model: calls, cache hits, tokens, dollars, discarded replies."""
    if review is not None:
        typer.echo(review.meter.line() + f", {review.discarded()} reply(ies) discarded", err=True)


LEXICON_DIR_OPTION = typer.Option(
    None, "--lexicon-dir", file_okay=False,
    help="A frozen cue lexicon folder to judge with instead of the packaged one (freeze-lexicons makes one; the "
         "factwash_cues/lexicons folder of a saved pipeline is one, its added entries included).",
)
BATCH_SIZE_OPTION = typer.Option(256, "--batch-size", min=1, help="Texts per batch.")
SKIP_BAD_LINES_OPTION = typer.Option(False, "--skip-bad-lines", help="Skip and count unusable lines instead of "
                                                                     "stopping.")
N_PROCESS_OPTION = typer.Option(1, "--n-process", min=1, help="Worker processes: more than 1 runs the batches on a "
                                                          "local Dask cluster of that many (the dask extra).")
SCHEDULER_OPTION = typer.Option(None, "--scheduler", help="Run on Dask: 'local' (a cluster of --workers processes on "
                                                          "127.0.0.1) or a scheduler address (tcp://host:8786); "
                                                          "OUTPUT_PATH is then a folder of partitions and manifest.json.")
WORKERS_OPTION = typer.Option(2, "--workers", min=1, help="Worker processes of --scheduler local.")
PARTITION_LINES_OPTION = typer.Option(10_000, "--partition-lines", min=1, help="Input lines per partition (--scheduler).")
MODEL_OPTION = typer.Option("claude-haiku-4-5", "--model", help="Model for --witness/--unsupported (priced in "
                                                               "spacy_factwash/llm/prices.json).")
MAX_USD_OPTION = typer.Option(1.0, "--max-usd", min=0.0, help="Budget cap in dollars for model calls in this run.")
CACHE_OPTION = typer.Option(None, "--cache", help="Reply cache file (default: $FACTWASH_MODEL_CACHE or "
                                                  "~/.cache/spacy-factwash/replies.sqlite).")
NO_CACHE_OPTION = typer.Option(False, "--no-cache", help="Keep replies in memory only (a repeat run pays again).")
WITNESS_OPTION = typer.Option(False, "--witness", help="Ask a model witness about flagged hedges and attributions; "
                                                       "it may only lower the verdict (needs ANTHROPIC_API_KEY).")
UNSUPPORTED_OPTION = typer.Option(False, "--unsupported", help="Ask a model whether the source supports each memory "
                                                               "sentence; notes only, never the verdict.")
MODEL_OPTIONS = {"witness": (bool, WITNESS_OPTION), "unsupported": (bool, UNSUPPORTED_OPTION), "model": (str, MODEL_OPTION),
                 "max_usd": (float, MAX_USD_OPTION), "cache": (Optional[Path], CACHE_OPTION),
                 "no_cache": (bool, NO_CACHE_OPTION)}


def corpus_run_summary(kind: str, run) -> None:
    """Print where a cluster run (``run.dask``) wrote its partitions; fail naming each that failed or stopped."""
    done = [entry for entry in run.partitions if entry["status"] == "ok"]
    typer.echo(f"{kind}: {sum(e['records'] for e in run.partitions)} records in {len(done)} of "
               f"{len(run.partitions)} partitions; manifest {shown(run.manifest)}", err=True)
    if run.problems():
        fail("; ".join(run.problems()))


def print_versions(asked: bool) -> None:
    """Print the package, lexicon, spaCy and Python versions and stop (``--version``)."""
    if asked:
        import platform

        import spacy

        from .. import __version__
        from ..lexicon.frozen import MANIFEST, packaged_lexicon_dir

        lexicon = json.loads((packaged_lexicon_dir() / MANIFEST).read_text(encoding="utf8")).get("version", "?")
        typer.echo(f"spacy-factwash {__version__} (lexicon {lexicon}; spaCy {spacy.__version__}; "
                   f"Python {platform.python_version()})")
        raise typer.Exit()


@app.callback()
def options(version: bool = typer.Option(False, "--version", callback=print_versions, is_eager=True,
                                         help="Print the versions and exit.")) -> None:
    """spacy-factwash: find hedges, attributions, negations, conditions and temporal scope in text, and gate
    rewrites that wash them away."""
