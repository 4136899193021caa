"""The cue layer's evaluation on the corpora: splits, DocBins, the held-out scores, scope, claim strength, and the
authority confirmer's fixture."""

from pathlib import Path
from typing import List, Optional

import typer

from spacy_factwash.cli._util import CACHE_OPTION, MAX_USD_OPTION, MODEL_OPTION, NO_CACHE_OPTION, cost_line, \
    fail, model_review

from ._util import CORPORA_OPTION, README_OPTION, REPOSITORY, SPLITS_OPTION, app, checked_half, corpora_root, \
    show_table, write_table


@app.command()
def split(
    corpora: Optional[Path] = CORPORA_OPTION,
    out: Path = typer.Option(REPOSITORY / "training" / "splits", "--splits", help="The split files to write."),
    check: bool = typer.Option(False, "--check", help="Only check that the committed files match the rule."),
) -> None:
    """Halve BioScope, Szeged (by a stable hash of each document's title) and claim-strength into dev and test."""
    from ..evaluation.corpora import check_splits, write_splits
    from ..evaluation.split import SplitError

    try:
        written = (check_splits if check else write_splits)(corpora_root(corpora), out)
    except SplitError as err:
        fail(str(err))
    for name, path in written.items():
        typer.echo(f"{name}: {path} matches the rule" if check else f"{name}: {path}")


@app.command()
def convert(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    out: Path = typer.Option(REPOSITORY / "training" / "corpus", "--out", help="Where the DocBins go."),
) -> None:
    """Save each corpus half as a DocBin with gold cues in doc.spans["factwash_gold"]."""
    from ..evaluation.corpora import write_docbins

    for name, count in write_docbins(corpora_root(corpora), splits, out).items():
        typer.echo(f"{name:<16} {count:>6} docs")


@app.command()
def evaluate(
    half: str = typer.Option("test", "--half", help="test (every reported figure) or dev (error analysis)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    corpus: Optional[List[str]] = typer.Option(None, "--corpus", help="Score only this corpus (repeat for more; "
                                                                     "default: every one). The files are named for "
                                                                     "them, so the full table is never replaced."),
    lexicon_dir: Optional[Path] = typer.Option(None, "--lexicon-dir", help="A lexicon folder (default: the packaged one)."),
    output_dir: Path = typer.Option(REPOSITORY / "training" / "metrics", "--output-dir",
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
    from ..evaluation.corpora import CORPORA
    from ..evaluation.evaluate import evaluate as run_evaluation, evaluation_pipeline, save_evaluation

    if checked_half(half) == "test" and errors:
        fail("error lists are for the dev half only: test errors are never looked at")
    if unknown := [name for name in corpus or () if name not in CORPORA]:
        fail(f"--corpus {unknown[0]!r}: no such corpus (one of {', '.join(CORPORA)})")
    named = [name for name in CORPORA if name in (corpus or ())]  # in the table's order, whatever order was given
    nlp = evaluation_pipeline(str(lexicon_dir) if lexicon_dir else None, parse=parse)
    result = run_evaluation(corpora_root(corpora), half, splits, nlp=nlp, errors=errors,
                            corpora=named or tuple(CORPORA))
    name = "-".join([half, *(["parse"] if parse else []), *named])
    typer.echo(save_evaluation(result, output_dir, name))
    if witness:
        evaluate_witness(corpora_root(corpora), splits, nlp, output_dir, per_class,
                         model_review(True, False, model, max_usd, cache, no_cache))


def evaluate_witness(root: Path, splits: Path, nlp, output_dir: Path, per_class: int, review) -> None:
    """Print the metered, resumable witness run's scores (``evaluation.witness_eval.witness_run``), a cost line."""
    from spacy_factwash.llm.budget import BudgetExhausted

    from ..evaluation.witness_eval import score_lines, witness_run

    try:
        scores, run_path = witness_run(root, splits, nlp, review.witness, per_class, output_dir)
    except BudgetExhausted as err:
        cost_line(review)
        fail(str(err), 6)
    typer.echo("\n".join(score_lines(scores)))
    typer.echo(f"results: {run_path}", err=True)
    cost_line(review)


@app.command("readme-table")
def readme_table(
    table: Path = typer.Option(REPOSITORY / "training" / "metrics" / "table-test.md", "--table",
                               help="A table written by evaluate."),
    readme: Path = typer.Option(REPOSITORY / "docs" / "evaluation.md", "--readme", "--doc",
                                help="The page whose held-out table to replace."),
) -> None:
    """Write the measured held-out table into its page (docs/evaluation.md), between its markers."""
    from ..evaluation.readme import HELDOUT

    if not table.is_file():
        fail(f"{table}: no such file (run evaluate first)")
    write_table(readme, table.read_text(encoding="utf8"), HELDOUT)
    typer.echo(f"{readme}: held-out table replaced from {table}")


@app.command("parse-cues")
def parse_cues(
    half: str = typer.Option("test", "--half", help="test (the reported figures) or dev (choosing rules)."),
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Hedge and attribution P/R/F1 by the word lists alone and with the shipped parser's cue sense."""
    from spacy_factwash.syntax.sense import load_sense

    from ..evaluation.evaluate import compare_parse, parse_table
    from ..evaluation.readme import PARSE_CUES

    if checked_half(half) != "test" and readme is not None:
        fail("only the test half's figures go into the README")
    table = parse_table(*compare_parse(corpora_root(corpora), half, splits), load_sense().version)
    show_table(table, readme, PARSE_CUES)


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
    from ..evaluation.readme import SCOPE
    from ..evaluation.scope import evaluate as evaluate_scope, markdown_table

    if (checked_half(half) != "test" or parser is not None) and readme is not None:
        fail("--readme writes the README's table: the test half, without --parser")
    if parser is not None and not parser.is_dir():
        fail(f"{parser}: no such pipeline folder")
    try:
        result = evaluate_scope(corpora_root(corpora), half, splits, str(parser) if parser else None)
    except ValueError as err:  # a corpus file that does not read as its format
        fail(str(err))
    show_table(markdown_table(result), readme, SCOPE)


@app.command("strength-eval")
def strength_eval(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    gate_sets: Path = typer.Option(REPOSITORY / "training" / "gate_sets", "--gate-sets", exists=True,
                                   help="The folder holding strength.jsonl."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Claim strength on the claim-strength test halves, certainty on its test split, step-ups on SummEdits."""
    from ..evaluation.readme import STRENGTH
    from ..evaluation.strength_eval import markdown_table, measure

    show_table(markdown_table(measure(corpora_root(corpora), splits, gate_sets)), readme, STRENGTH)


@app.command("confirm-fixture")
def confirm_fixture(
    fixture: Path = typer.Option(REPOSITORY / "training" / "authority" / "fixture.jsonl", "--fixture", exists=True,
                                 help="The written cases."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Score the authority confirmer on the written fixture, per category."""
    from spacy_factwash.api import default_confirmer

    from ..evaluation.authority_fixture import markdown_table, score_fixture
    from ..evaluation.readme import AUTHORITY

    confirmer = default_confirmer()
    show_table(markdown_table(score_fixture(fixture, confirmer), confirmer.lexicon.version), readme, AUTHORITY)
