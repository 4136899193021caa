"""The command line: parses arguments, streams, prints. The work happens in the modules it calls."""

import json
import os
import sys
from pathlib import Path
from typing import Optional

import typer
from tqdm import tqdm

from .pipeline import DEFAULT_MAX_LENGTH

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="spacy-factwash: find hedges, attributions, negations, conditions and temporal scope in text.",
)
CORPORA_ENV = "FACTWASH_CORPORA"


def _fail(message: str, code: int = 1) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@app.command()
def cues(
    text: str = typer.Argument(..., help="The text to annotate."),
    as_json: bool = typer.Option(False, "--json", help="Print the cues as JSON instead of marked text."),
) -> None:
    """Print TEXT with its cues marked, and one line per cue: offsets, lexicon entry, source."""
    from .cues.display import cue_rows, mark_cues
    from .pipeline import load
    from .stream import cue_dicts

    nlp = load()
    if not text.strip():
        typer.echo("empty text: nothing to annotate (no cues)")
        return
    if len(text) > nlp.max_length:
        _fail(f"text of {len(text):,} characters exceeds max_length {nlp.max_length:,}")
    doc = nlp(text)
    found = cue_dicts(doc)
    if as_json:
        typer.echo(json.dumps({"lexicon_version": nlp.get_pipe("factwash_cues").lexicon_version, "cues": found}))
        return
    typer.echo(mark_cues(doc))
    typer.echo("")
    typer.echo("\n".join(cue_rows(found)) if found else "  (no cues)")
    typer.echo(f"\nlexicon version {nlp.get_pipe('factwash_cues').lexicon_version}")


@app.command()
def annotate(
    input_path: Path = typer.Argument(..., help="A .txt file (one text a line) or .jsonl file ({\"text\": ...} a line)."),
    output_path: Path = typer.Argument(..., help="Where to write JSONL: one record per input line."),
    n_process: int = typer.Option(1, "--n-process", min=1, help="Worker processes for nlp.pipe."),
    batch_size: int = typer.Option(256, "--batch-size", min=1, help="Texts per batch."),
    skip_bad_lines: bool = typer.Option(False, "--skip-bad-lines", help="Skip and count unusable lines instead of stopping."),
    max_length: int = typer.Option(
        DEFAULT_MAX_LENGTH, "--max-length", min=1, help="Longest text, in characters, to annotate; longer lines are bad lines."
    ),
) -> None:
    """Stream a corpus through the default pipeline and write its cues as JSONL."""
    from .pipeline import load
    from .stream import annotate_lines, output_record, read_inputs

    if not input_path.is_file():
        _fail(f"{input_path}: no such file")
    if not os.access(input_path, os.R_OK):
        _fail(f"{input_path}: not readable")
    nlp = load(max_length=max_length)
    written = bad = empty = 0
    try:
        with output_path.open("w", encoding="utf8") as out:
            lines = annotate_lines(
                nlp, read_inputs(input_path, nlp.max_length), batch_size=batch_size, n_process=n_process
            )
            for item, doc in tqdm(lines, unit=" lines", desc="annotate", disable=None):
                if item.error is not None:
                    if not skip_bad_lines:
                        out.flush()
                        _fail(f"{input_path}:{item.number}: {item.error} (use --skip-bad-lines to skip it)")
                    bad += 1
                    continue
                record = output_record(item, doc)
                empty += record["status"] == "empty"
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                written += 1
    except OSError as err:
        _fail(f"{err.filename or input_path}: {err.strerror}")
    typer.echo(f"wrote {written} records to {output_path} ({empty} empty texts, {bad} bad lines skipped)", err=True)


@app.command("bench-speed")
def bench_speed(
    corpus: Optional[Path] = typer.Option(
        None, help=f"BioScope abstracts.xml (default: ${CORPORA_ENV}/bioscope/raw/abstracts.xml)."
    ),
    repeat: int = typer.Option(3, min=1, help="Timed runs per pipeline; the best is kept."),
    limit: int = typer.Option(0, min=0, help="Use only the first N sentences (0: all)."),
) -> None:
    """Sentences per second of the cue pipeline against the tokenizer+sentencizer floor, and their ratio."""
    from .evaluation.bioscope import read_sentences
    from .speed import measure

    if corpus is None:
        root = os.environ.get(CORPORA_ENV)
        if not root:
            _fail(f"give --corpus or set {CORPORA_ENV} to the corpora folder")
        corpus = Path(root) / "bioscope" / "raw" / "abstracts.xml"
    if not corpus.is_file():
        _fail(f"{corpus}: no such file")
    sentences = read_sentences(corpus)
    if limit:
        sentences = sentences[:limit]
    typer.echo(f"{len(sentences):,} sentences from {corpus}, best of {repeat} runs each")
    for result in measure(sentences, repeat=repeat):
        typer.echo(f"  {result.name:<42} {result.sentences_per_second:>9,.0f} sentences/s   ratio {result.ratio_to_floor:.2f}")


@app.command("freeze-lexicons")
def freeze_lexicons(
    folder: Path = typer.Argument(..., help="The lexicon folder to freeze (holds the class .jsonl files)."),
    version: str = typer.Option(..., "--version", help="The version the frozen set is published under."),
) -> None:
    """Re-write the folder's manifest with VERSION and the sha256 of every class file."""
    from .lexicon import LexiconError, freeze

    try:
        manifest = freeze(folder, version)
    except LexiconError as err:
        _fail(str(err))
    typer.echo(f"froze {len(manifest['files'])} files as version {version}")


def main() -> None:
    """Entry point of ``python -m spacy_factwash`` and the ``spacy-factwash`` script."""
    app(prog_name="python -m spacy_factwash")


if __name__ == "__main__":
    sys.exit(main())
