"""The benches: the cue layer's speed, the gate's, a cold start, processes and Dask workers, the speed table of
docs/speed.md (before and after, one run), and the memory bench's table in docs/memory.md."""

from pathlib import Path
from typing import List, Optional

import typer

from spacy_factwash.cli._util import fail

from ..bench.speed_table import DEFAULTS, PAGE, RECORD
from ._util import CORPORA_ENV, CORPORA_OPTION, README_OPTION, REPOSITORY, SETS_OPTION, SPLITS_OPTION, app, \
    check_table, corpora_root, show_table, write_json


@app.command("bench-speed")
def bench_speed(
    corpus: Optional[Path] = typer.Option(
        None, help=f"BioScope abstracts.xml (default: ${CORPORA_ENV}/bioscope/raw/abstracts.xml)."
    ),
    repeat: int = typer.Option(5, min=1, help="Timed runs per pipeline, interleaved; the best is kept."),
    limit: int = typer.Option(0, min=0, help="Use only the first N sentences (0: all)."),
    sets: Path = SETS_OPTION,
    pairs: bool = typer.Option(True, "--pairs/--no-pairs",
                               help="Also time inspect() once per written pair, without digits and with."),
) -> None:
    """Sentences per second of the cue pipeline and of load() against the tokenizer+sentencizer floor, and
    inspect() once per written pair against the floor on both texts of each pair, each as a ratio to the floor
    measured in the same run."""
    from ..bench.speed import speed_bench

    corpus = corpus or corpora_root(None) / "bioscope" / "raw" / "abstracts.xml"
    if not corpus.is_file():
        fail(f"{corpus}: no such file")
    for line in speed_bench(corpus, repeat, limit, sets if pairs else None):
        typer.echo(line)


@app.command("bench-gate")
def bench_gate(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    sets: Path = SETS_OPTION,
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
    from ..bench.gate import gate_bench

    for line in gate_bench(corpora_root(corpora), splits, sets, polnear_pairs, stream_pairs, long_sentences,
                           growth_from):
        typer.echo(line)


@app.command("bench-start")
def bench_start(
    runs: int = typer.Option(5, "--runs", min=1, help="Fresh interpreters per command (the median is kept)."),
    first_ever: bool = typer.Option(True, "--first-ever/--no-first-ever",
                                    help="Also time a check in an empty cache folder (a machine's first use)."),
) -> None:
    """Cold start of a one-shot check in fresh interpreters, against `python -c "import spacy"` timed in the same
    run: median wall and processor seconds, and their ratios to that floor."""
    from ..bench.start import cold_start, markdown_rows

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
    process, measured in this run; with --repeat, the best of interleaved runs), what a partition's records and
    DocBin cost per Doc beside annotating it, whole annotate runs on a file (one process, --n-process,
    --scheduler local with DocBins and with --no-docbin), the cost of starting Dask workers, and resident memory
    over a stream of distinct pairs (every 10,000; growth after the first reading)."""
    from ..bench.scale import scale_bench

    for line in scale_bench(corpora_root(corpora), texts, pairs, stream_pairs, workers, repeat):
        typer.echo(line)


@app.command("bench-table")
def bench_table(
    before_python: Path = typer.Option(..., "--before-python",
                                       help="The interpreter of the code to compare with (a venv with commit "
                                            "dfa0e77's package installed); this checkout is the after side."),
    corpus: Optional[Path] = typer.Option(
        None, "--corpus", help=f"BioScope abstracts.xml (default: ${CORPORA_ENV}/bioscope/raw/abstracts.xml)."
    ),
    sets: Path = SETS_OPTION,
    repeat: int = typer.Option(DEFAULTS["--repeat"], "--repeat", min=1,
                               help="Runs of each side, taking turns; the best is kept."),
    limit: int = typer.Option(DEFAULTS["--limit"], "--limit", min=0,
                              help="Only the first N sentences, and at most N written pairs without digits and N "
                                   "with (0: all)."),
    dask: bool = typer.Option(True, "--dask/--no-dask", help="Also time the slow rows on worker processes "
                                                             "(pipe_pairs(n_process), annotate on workers)."),
    pairs: int = typer.Option(DEFAULTS["--pairs"], "--pairs", min=1, help="Distinct pairs for the pipe_pairs rows."),
    lines: int = typer.Option(DEFAULTS["--lines"], "--lines", min=1,
                              help="Lines for the annotate rows (BioScope sentences, cycled)."),
    workers: int = typer.Option(DEFAULTS["--workers"], "--workers", min=2, help="Worker processes of those rows."),
    timeout: int = typer.Option(DEFAULTS["--timeout"], "--timeout", min=1,
                                help="Seconds one side's run may take before it is ended (a hung worker)."),
    out: Path = typer.Option(REPOSITORY / RECORD, "--out",
                             help="Where to write the record (every run's seconds, the machine, the commits)."),
    doc: Path = typer.Option(REPOSITORY / PAGE, "--doc", help="The page whose speed table is rewritten from it."),
    instructions: bool = typer.Option(True, "--instructions/--no-instructions",
                                      help="Also count each side's instructions (valgrind; skipped without it)."),
) -> None:
    """The speed table: the floor, factwash_cues, load(), inspect() per call without and with digits, pipe_pairs in
    one process and on workers, annotate on workers vs one process, for the code of --before-python and for this
    checkout, measured in one run (the sides taking turns, each row against its floor timed in the same runs), and
    the instructions of the first five (valgrind's callgrind); writes the record and rewrites the page's table from
    it."""
    from ..bench.speed_table import render, speed_record
    from ..evaluation.readme import SPEED

    corpus = corpus or corpora_root(None) / "bioscope" / "raw" / "abstracts.xml"
    if not corpus.is_file():
        fail(f"{corpus}: no such file")
    check_table(doc, SPEED)
    try:
        record = speed_record(before_python, corpus, sets, out, doc, repeat, limit, dask, pairs, lines, workers,
                              timeout, report=typer.echo, instructions=None if instructions else False)
    except (ValueError, RuntimeError, LookupError) as err:
        fail(str(err))
    write_json(out, record)
    show_table(render(record), doc, SPEED)


@app.command("memory-bench")
def memory_bench(
    stimuli: Path = typer.Option(REPOSITORY / "training" / "bench" / "stimuli.jsonl", "--stimuli",
                                 help="The stimulus set (as for bench)."),
    writes: List[Path] = typer.Option([REPOSITORY / "training" / "bench" / name
                                       for name in ("writes_preserve.jsonl", "writes_launder.jsonl")], "--writes",
                                      help="A file of writes (as for bench); give it once per file."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """The memory bench's table on the worked example (the user command bench, scored on the stimuli and writes),
    written into docs/memory.md with --readme."""
    from spacy_factwash.api import default_gate
    from spacy_factwash.memory.bench import bench_table, score_files

    from ..evaluation.readme import BENCH

    show_table(bench_table(score_files(stimuli, writes, default_gate())), readme, BENCH)
