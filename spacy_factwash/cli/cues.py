"""``cues`` (one text, its cues shown) and ``annotate`` (a file of texts to JSONL records)."""

import sys
from pathlib import Path
from typing import Optional

import typer

from ..api import DEFAULT_MAX_LENGTH
from ._util import (BATCH_SIZE_OPTION, LEXICON_DIR_OPTION, N_PROCESS_OPTION, PARTITION_LINES_OPTION,
                    SCHEDULER_OPTION, SKIP_BAD_LINES_OPTION, WORKERS_OPTION, app, bar, corpus_run_summary, fail,
                    json_text, shown)


def given_text(text: Optional[str], path: Optional[Path]) -> str:
    """The text ``cues`` annotates: TEXT itself, standard input for ``-``, or the file ``--file`` names (read as
    every input is: UTF-8, no byte-order mark, no trailing blank lines); exactly one of TEXT and ``--file``."""
    from ..io.inputs import input_file
    from ..io.textfile import read_stream, read_text

    if (text is None) == (path is None):
        fail("give TEXT, - (standard input) or --file PATH (exactly one)", 2)
    if path is not None:
        return read_text(input_file(path))
    return read_stream(sys.stdin.buffer) if text == "-" else text


@app.command()
def cues(
    text: Optional[str] = typer.Argument(None, help="The text to annotate; - reads it from standard input."),
    text_file: Optional[Path] = typer.Option(None, "--file", help="A file holding the text to annotate."),
    as_json: bool = typer.Option(False, "--json", help="Print the cues as JSON instead of marked text."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Print TEXT with its cues marked, and one line per cue: offsets, lexicon entry, source.

    The text is the argument itself, standard input when it is - (for a long text, or one from a pipe), or a
    file with --file. Control characters in the text are shown escaped (\\x1b, \\n), never sent to the terminal.
    """
    from ..api import pipeline_on
    from ..io.inputs import checked_text
    from ..pipes.names import CUES
    from ..render.display import cue_rows, mark_cues
    from ..run.records import cue_dicts

    text = given_text(text, text_file)
    nlp = pipeline_on(lexicon_dir)
    checked_text(text, nlp.max_length)
    if not text.strip():
        return typer.echo("empty text: nothing to annotate (no cues)")
    doc, component = nlp(text), nlp.get_pipe(CUES)
    if as_json:
        return typer.echo(json_text({"lexicon_version": component.lexicon_version,
                                     "lexicon_digest": component.lexicons.digest, "cues": cue_dicts(doc)}))
    typer.echo(shown(mark_cues(doc)) + "\n\n" + ("\n".join(map(shown, cue_rows(cue_dicts(doc)))) or "  (no cues)"))
    typer.echo(f"\nlexicon version {component.lexicon_version}")


@app.command()
def annotate(
    input_path: Path = typer.Argument(..., help="A .txt file (one text a line) or .jsonl file ({\"text\": ...} a line)."),
    output_path: Path = typer.Argument(..., help="Where to write JSONL: one record per input line."),
    n_process: int = N_PROCESS_OPTION,
    batch_size: int = BATCH_SIZE_OPTION,
    skip_bad_lines: bool = SKIP_BAD_LINES_OPTION,
    max_length: int = typer.Option(
        DEFAULT_MAX_LENGTH, "--max-length", min=1, help="Longest text, in characters, to annotate; longer lines are bad lines."
    ),
    scheduler: Optional[str] = SCHEDULER_OPTION,
    workers: int = WORKERS_OPTION,
    partition_lines: int = PARTITION_LINES_OPTION,
    docbin: bool = typer.Option(True, "--docbin/--no-docbin",
                                help="With --scheduler: also write each partition's Docs as a spaCy DocBin "
                                     "(part-NNNNN.spacy); --no-docbin writes the JSONL records only."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Stream a corpus through the default pipeline and write its cues as JSONL.

    With --scheduler, OUTPUT_PATH is a folder: the input is cut into partitions of --partition-lines lines,
    annotated on a Dask cluster, and each partition written as JSONL and (unless --no-docbin) a spaCy DocBin,
    with manifest.json listing them in input order and the files each has (a partition that fails is retried,
    then reported; the exit status is 1).
    """
    from ..io.ending import end_at_once
    from ..run.annotate import annotate_file

    end_at_once()  # every file it writes is closed and on disk when it returns (``io.outputs.atomic_output``)
    if scheduler is not None:
        if lexicon_dir is not None:
            fail("--lexicon-dir does not reach Dask workers yet: run without --scheduler (or --n-process N)", 2)
        from ..run.dask import annotate_corpus

        return corpus_run_summary("annotate", annotate_corpus(
            [input_path], output_path, scheduler=scheduler, n_workers=workers, max_length=max_length, docbin=docbin,
            batch_size=batch_size, skip_bad_lines=skip_bad_lines, lines_per_partition=partition_lines))
    summary = annotate_file(input_path, output_path, max_length=max_length, batch_size=batch_size, n_process=n_process,
                            skip_bad_lines=skip_bad_lines, lexicon_dir=lexicon_dir, progress=bar(" lines"))
    if summary.stop:
        fail(summary.stop)
    typer.echo(f"wrote {summary.written} records to {shown(output_path)} ({summary.empty} empty texts, "
               f"{summary.bad} bad lines skipped)", err=True)
