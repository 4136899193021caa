"""The gate's measurements: on the written pair sets, on pairs built from the corpora, on FRANK and SummEdits, the
claim-level before/after, and what the model components would cost."""

from pathlib import Path
from typing import Optional

import typer

from spacy_factwash.cli._util import MODEL_OPTION, fail

from ._util import CORPORA_OPTION, README_OPTION, REPOSITORY, SETS_OPTION, SPLITS_OPTION, app, checked_half, \
    corpora_root, show_table


@app.command("gate-sets")
def gate_sets(folder: Path = SETS_OPTION, readme: Optional[Path] = README_OPTION) -> None:
    """Score the gate on the written should-pass and flagging pair sets (per-type P/R, verdict confusion)."""
    from spacy_factwash.api import default_gate

    from ..evaluation.gate_sets import markdown_table, score_sets
    from ..evaluation.readme import GATE

    show_table(markdown_table(score_sets(folder, default_gate())), readme, GATE)


@app.command("gate-eval")
def gate_eval(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    half: str = typer.Option("test", "--half", help="dev (to choose rules on) or test (to report; the README's)."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Score the whole gate on pairs built from the corpora's annotation (one half)."""
    from spacy_factwash.api import default_gate

    from ..evaluation.evaluate import evaluation_pipeline
    from ..evaluation.gate_pairs import build_pairs, markdown_table, score_pairs
    from ..evaluation.readme import GATE_CORPUS

    if checked_half(half) != "test" and readme is not None:
        fail("the README reports the test half only: --readme needs --half test", 2)
    nlp = evaluation_pipeline()
    result = score_pairs(build_pairs(corpora_root(corpora), splits, nlp, half=half), default_gate())
    show_table(markdown_table(result, nlp.get_pipe("factwash_cues").lexicon_version, half), readme, GATE_CORPUS)


@app.command("gate-frank")
def gate_frank(
    corpora: Optional[Path] = CORPORA_OPTION,
    split: str = typer.Option("test", "--split", help="valid (to choose rules on) or test (to report; the README's)."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Flag rates of the gate on FRANK summaries: fully factual vs with circumstance errors, and the lift."""
    from spacy_factwash.api import default_gate

    from ..evaluation.frank import markdown_table, score
    from ..evaluation.readme import FRANK

    if split not in ("valid", "test"):
        fail(f"--split must be valid or test, not {split!r}", 2)
    if readme is not None and split != "test":
        fail("the README reports the test split only: --readme needs --split test", 2)
    gate = default_gate()
    result = score(corpora_root(corpora) / "frank" / "raw", gate, split)
    show_table(markdown_table(result, gate.lexicon_version), readme, FRANK)
    for group, counts in result["groups"].items():
        typer.echo(f"{group} change types: " + ", ".join(f"{t} {n}" for t, n in counts["change_types"].items()))


@app.command("gate-summedits")
def gate_summedits(corpora: Optional[Path] = CORPORA_OPTION, readme: Optional[Path] = README_OPTION) -> None:
    """The gate on SummEdits' real LLM edits (development data), without and with the parse: verdicts on
    consistent and inconsistent edits, the uncheckable share, and each change type's rate."""
    from ..evaluation.readme import SUMMEDITS
    from ..evaluation.summedits import gate_table, measure

    show_table(gate_table(measure(corpora_root(corpora))), readme, SUMMEDITS)


@app.command("claim-gate-eval")
def claim_gate_eval(
    corpora: Optional[Path] = CORPORA_OPTION,
    splits: Path = SPLITS_OPTION,
    sets: Path = SETS_OPTION,
    before: Path = typer.Option(REPOSITORY / "training" / "claim_gate" / "before.json", "--before",
                                help="The recorded measurement of the gate before the claim level."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Before and after the claim-level gate: the written sets, the corpus pairs (test halves), FRANK test,
    SummEdits and the growth of the work of comparing, the old gate's figures beside this gate's."""
    from spacy_factwash.api import default_gate

    from ..evaluation.claim_gate import markdown_table, measure_after, read_before
    from ..evaluation.readme import CLAIM_GATE

    if not before.is_file():
        fail(f"{before}: no recorded measurement (training/claim_gate/measure_before.py writes it)")
    after = measure_after(corpora_root(corpora), splits, sets, default_gate())
    show_table(markdown_table(read_before(before), after), readme, CLAIM_GATE)


@app.command("claim-records-eval")
def claim_records_eval(
    corpora: Optional[Path] = CORPORA_OPTION,
    before: Path = typer.Option(REPOSITORY / "training" / "claim_records" / "before.json", "--before",
                                help="The recorded measurement of the gate before the claim records."),
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Before and after claim records: the claim-record pair sets by kind and SummEdits' dev domains, the
    recorded gate's figures beside this gate's."""
    from spacy_factwash.api import default_gate

    from ..evaluation.claim_records import FOLDER, markdown_table, measure, read_before
    from ..evaluation.readme import CLAIM_RECORDS

    if not before.is_file():
        fail(f"{before}: no recorded measurement (training/claim_records/measure_before.py writes it)")
    after = measure(corpora_root(corpora), default_gate(), REPOSITORY / FOLDER)
    show_table(markdown_table(read_before(before), after), readme, CLAIM_RECORDS)


@app.command("model-cost")
def model_cost(
    corpora: Optional[Path] = CORPORA_OPTION,
    sets: Path = SETS_OPTION,
    model: str = MODEL_OPTION,
    readme: Optional[Path] = README_OPTION,
) -> None:
    """Model calls per 100 writes and their worst-case cost, on the gate sets and FRANK test; no model is called."""
    from spacy_factwash.api import default_pipeline

    from ..evaluation.model_cost import cost_table, write_sets
    from ..evaluation.readme import MODEL_COST

    sets_by_name = write_sets(sets, corpora_root(corpora) / "frank" / "raw")
    show_table(cost_table(sets_by_name, default_pipeline(), model), readme, MODEL_COST)
