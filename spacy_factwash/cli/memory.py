"""``drift`` (rewrite chains, hop by hop) and ``bench`` (a memory system's writes scored on a stimulus set)."""

from pathlib import Path
from typing import List, Optional

import typer

from ._util import LEXICON_DIR_OPTION, app, bar, shown, shown_lines


def drift_line(chain_id, report) -> str:
    """One chain's line: its end-to-end verdict, each loss and its hop, and the hops that lost checkability."""
    losses = ", ".join(f"{loss.type} at hop {loss.hop}" for loss in report.losses) or "no loss"
    lost = ("; lost checkability at hop(s) " + ", ".join(map(str, report.uncheckable_hops))
            if report.lost_checkability else "")
    return f"{shown(chain_id)}: end to end {report.end_to_end.verdict}: {losses}{lost}"


@app.command("drift")
def drift_command(
    chains_path: Path = typer.Argument(..., help='A JSONL file with {"id", "versions": [v0, v1, ...]} a line.'),
    output_path: Path = typer.Option(Path("drift.jsonl"), "--output", help="Where to write one drift report per chain."),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Gate every hop of each rewrite chain and the chain end to end; say on which hop each loss happened."""
    from ..api import pipeline_on
    from ..memory.drift import drift_file
    from ..pipes.gate.gate import Gate

    for chain_id, report in drift_file(chains_path, output_path, Gate(pipeline_on(lexicon_dir)), bar(" chains")):
        typer.echo(drift_line(chain_id, report))


@app.command()
def bench(
    stimuli_path: Path = typer.Argument(..., help='The stimulus set: {"stimulus_set", "id", "source"} a line.'),
    writes_paths: List[Path] = typer.Argument(..., help='One or more files of writes: {"stimulus_id", "memory"} a line.'),
    lexicon_dir: Optional[Path] = LEXICON_DIR_OPTION,
) -> None:
    """Score a memory system's writes: flag rate (95% Wilson interval), uncheckable share, abstention, change types."""
    from ..api import pipeline_on
    from ..memory.bench import bench_table, score_files
    from ..pipes.gate.gate import Gate

    scores = score_files(stimuli_path, writes_paths, Gate(pipeline_on(lexicon_dir)), bar(" writes"))
    typer.echo(shown_lines(bench_table(scores)))
    for name, score in scores:
        typer.echo(f"{shown(name)} change types: " + (", ".join(f"{t} {n}" for t, n in score.change_types.items())
                                                      or "none"))
