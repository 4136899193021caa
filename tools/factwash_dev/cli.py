"""The developer commands: evaluation, mining, benches, table writers, the parse pipeline's build.

Not in the wheel. Run from a checkout: ``python tools/dev.py COMMAND`` (or
``python -m factwash_dev`` with ``tools/`` on the path; the test suite has it
there). Paths default to the repository's own files.
"""

import json
import os
import sys
from pathlib import Path
from typing import Optional

import typer

from spacy_factwash.cli import (
    CACHE_OPTION,
    MAX_USD_OPTION,
    MODEL_OPTION,
    NO_CACHE_OPTION,
    README_OPTION,
    _cost_line,
    _fail,
    _review,
    _write,
    _write_readme_table,
)
from spacy_factwash.pipes.gate.gate import Gate

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="spacy-factwash developer commands: evaluation, mining, benches, documentation tables.")


CORPORA_ENV = "FACTWASH_CORPORA"


REPOSITORY = Path(__file__).resolve().parents[2]  # the checkout this developer package lives in


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


def _show_table(table: str, readme: Optional[Path], name: str) -> None:
    """Print a measured table, and write it into a documentation page between its markers when one is given."""
    typer.echo(table)
    if readme is not None:
        _write_readme_table(readme, table, name)


CORPORA_OPTION = typer.Option(None, "--corpora", help=f"The corpora folder (default: ${CORPORA_ENV}).")


SPLITS_OPTION = _repository_option("training/splits", "--splits", help="The committed split files.")


@app.command("confirm-fixture")
def confirm_fixture(
    fixture: Path = _repository_option("training/authority/fixture.jsonl", "--fixture", help="The written cases."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Score the authority confirmer on the written fixture, per category."""
    from factwash_dev.evaluation.authority_fixture import markdown_table, score_fixture
    from factwash_dev.evaluation.readme import AUTHORITY

    from .api import default_confirmer

    confirmer = default_confirmer()
    table = markdown_table(score_fixture(fixture, confirmer), confirmer.lexicon.version)
    _show_table(table, readme, AUTHORITY)


@app.command("bench-speed")
def bench_speed(
    corpus: Optional[Path] = typer.Option(
        None, help=f"BioScope abstracts.xml (default: ${CORPORA_ENV}/bioscope/raw/abstracts.xml)."
    ),
    repeat: int = typer.Option(5, min=1, help="Timed runs per pipeline, interleaved; the best is kept."),
    limit: int = typer.Option(0, min=0, help="Use only the first N sentences (0: all)."),
) -> None:
    """Sentences per second of the cue pipeline against the tokenizer+sentencizer floor, and their ratio."""
    from factwash_dev.bench.speed import measure
    from factwash_dev.evaluation.bioscope import read_sentences

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
    from factwash_dev.evaluation.corpora import CORPORA

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

    from factwash_dev.evaluation.corpora import write_docbins

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

    from factwash_dev.evaluation.corpora import write_splits

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
    from factwash_dev.evaluation.mining import mine_round

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

    from factwash_dev.evaluation.evaluate import evaluate as run_evaluation, evaluation_pipeline, markdown_table

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

    from factwash_dev.evaluation.witness_eval import SEED, witness_scores

    from .io.runfile import run_name
    from .llm.budget import BudgetExhausted
    from .llm.client import load_prompt

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
    from factwash_dev.evaluation.evaluate import compare_parse, parse_table
    from factwash_dev.evaluation.readme import PARSE_CUES

    from .syntax.sense import load_sense

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
    from factwash_dev.evaluation.readme import HELDOUT

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
    from factwash_dev.evaluation.gate_sets import markdown_table, score_sets
    from factwash_dev.evaluation.readme import GATE

    from .api import default_pipeline

    table = markdown_table(score_sets(folder, Gate(default_pipeline())))
    _show_table(table, readme, GATE)


@app.command("model-cost")
def model_cost(
    corpora: Optional[Path] = CORPORA_OPTION,
    sets: Path = _repository_option("training/gate_sets", "--sets", help="The folder with the written pair sets."),
    model: str = MODEL_OPTION,
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Model calls per 100 writes and their worst-case cost, on the gate sets and FRANK test; no model is called."""
    from factwash_dev.evaluation.model_cost import cost_table, write_sets
    from factwash_dev.evaluation.readme import MODEL_COST

    from .api import default_pipeline
    from .llm.budget import UnknownPrice

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
    from factwash_dev.evaluation.evaluate import evaluation_pipeline
    from factwash_dev.evaluation.gate_pairs import build_pairs, markdown_table, score_pairs
    from factwash_dev.evaluation.readme import GATE_CORPUS

    from .api import default_pipeline

    if half not in ("dev", "test"):
        _fail(f"--half must be dev or test, not {half!r}", 2)
    if readme is not None and half != "test":
        _fail("the README reports the test half only: --readme needs --half test", 2)
    nlp = evaluation_pipeline()
    pairs = build_pairs(_corpora_root(corpora), splits, nlp, half=half)
    result = score_pairs(pairs, Gate(default_pipeline()))
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
    from factwash_dev.evaluation.readme import SCOPE
    from factwash_dev.evaluation.scope import evaluate as evaluate_scope, markdown_table

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
    from itertools import islice

    from factwash_dev.bench.speed import gate_speed, growth, long_document_speed, per_call_speed, stream_memory
    from factwash_dev.evaluation.evaluate import evaluation_pipeline
    from factwash_dev.evaluation.gate_pairs import iter_pairs
    from factwash_dev.evaluation.gate_sets import written_pairs
    from factwash_dev.evaluation.work import LONG_TEXTS, NAMES

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
    from factwash_dev.bench.start import cold_start, markdown_rows

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
    from factwash_dev.bench.scale import annotation_rates, distinct_pairs, gate_rates, stream_memory, worker_start
    from factwash_dev.evaluation.bioscope import read_sentences

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
    from factwash_dev.evaluation.frank import markdown_table, score
    from factwash_dev.evaluation.readme import FRANK

    from .api import default_pipeline

    if split not in ("valid", "test"):
        _fail(f"--split must be valid or test, not {split!r}", 2)
    if readme is not None and split != "test":
        _fail("the README reports the test split only: --readme needs --split test", 2)
    nlp = default_pipeline()
    result = score(_corpora_root(corpora) / "frank" / "raw", Gate(nlp), split)
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
    from factwash_dev.evaluation.readme import SUMMEDITS
    from factwash_dev.evaluation.summedits import gate_table, measure

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
    from factwash_dev.evaluation.claim_gate import markdown_table, read_before
    from factwash_dev.evaluation.evaluate import evaluation_pipeline
    from factwash_dev.evaluation.frank import score as frank_score
    from factwash_dev.evaluation.gate_pairs import build_pairs, score_pairs
    from factwash_dev.evaluation.gate_sets import score_sets
    from factwash_dev.evaluation.readme import CLAIM_GATE
    from factwash_dev.evaluation.summedits import gate_score
    from factwash_dev.evaluation.work import work_growth

    from .api import default_pipeline

    root, gate = _corpora_root(corpora), Gate(default_pipeline())
    if not before.is_file():
        _fail(f"{before}: no recorded measurement (training/claim_gate/measure_before.py writes it)")
    after = {"lexicon_version": gate.lexicon_version,
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
    from factwash_dev.evaluation.readme import STRENGTH
    from factwash_dev.evaluation.strength_eval import markdown_table, measure

    table = markdown_table(measure(_corpora_root(corpora), splits, gate_sets))
    _show_table(table, readme, STRENGTH)


@app.command("ewt-train")
def ewt_train(
    out: Path = typer.Argument(..., help="Where to write the rebuilt en_ewt-ud-train.conllu."),
    corpora: Optional[Path] = CORPORA_OPTION,
) -> None:
    """Rebuild UD English EWT's official train set from its per-document sources, checked against its README."""
    from factwash_dev.evaluation.ud_ewt import EWTError, rebuild_train

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
    from factwash_dev.evaluation.parser_build import train as train_parser

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
    from factwash_dev.evaluation.parser_build import package
    from factwash_dev.evaluation.ud_ewt import EWTError

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
    from factwash_dev.evaluation.sense_mining import mine_sense

    from .syntax.parse import ewt_parser_dir

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
    from factwash_dev.evaluation.parser_build import figures_table, measure, published_figures
    from factwash_dev.evaluation.readme import PARSER
    from factwash_dev.evaluation.ud_ewt import EWTError

    from .syntax.parse import ewt_parser_dir

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


from .wordnet.command import wordnet_candidates  # noqa: E402  (its own module: tools/factwash_dev/wordnet)

app.command("wordnet-candidates")(wordnet_candidates)


def main() -> None:
    """Run a developer command."""
    app()
