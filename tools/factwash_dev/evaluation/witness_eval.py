"""Scoring the witness as a cue detector beside the word list, on the same stratified held-out sample.

Per class (HEDGE, ATTRIBUTION), sentences are drawn from the test halves,
half gold-positive and half gold-negative, with a fixed seed. The word list
(``factwash_cues``) and the witness answer for the identical sentences; a
witness reply that was discarded counts as a "no" (a miss on a positive).
The run is metered and resumable: each sentence's result is appended to a
run file as it arrives (``models.runfile``), so a re-run after a kill or an
exhausted budget asks only what is missing, and the scores are computed from
the run file. A call that got no reply at all (network, timeout) is not
recorded: it is counted as missing and asked again on the next run.
"""

import hashlib
import random
from dataclasses import asdict
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from spacy_factwash.io.runfile import RunFile, resume
from spacy_factwash.pipes.cues.scorer import f1, ratio, units_of
from spacy_factwash.syntax.sentences import sentencizer_only

from .corpora import read_half
from .gold import GOLD_KEY, META_KEY, to_doc

SOURCES = {"HEDGE": ("bioscope", "szeged"), "ATTRIBUTION": ("polnear",)}
FLAG = {"HEDGE": "hedges", "ATTRIBUTION": "attributes"}
SEED = 0


def stratified(units: Sequence[Tuple[str, bool]], per_class: int, seed: int = SEED) -> List[Tuple[str, bool]]:
    """``per_class`` sentences: half gold-positive, half gold-negative, drawn with a fixed seed."""
    rng = random.Random(seed)
    positives = [u for u in units if u[1]]
    negatives = [u for u in units if not u[1]]
    half = per_class // 2
    if len(positives) < half or len(negatives) < half:
        raise ValueError(f"not enough sentences for a sample of {per_class}")
    return rng.sample(positives, half) + rng.sample(negatives, half)


def samples(root: Path, splits: Path, nlp, per_class: int, seed: int = SEED) -> Dict[str, List[Tuple[str, bool]]]:
    """The stratified test sample of each class: (sentence, gold) pairs. Drawing needs sentences and their gold
    only, so of the pipeline only its sentencizer runs here (the drawn sentences are annotated when scored)."""
    drawn = {}
    with sentencizer_only(nlp):
        for label, corpora in SOURCES.items():
            units = []
            for corpus in corpora:
                for doc in nlp.pipe(to_doc(nlp, item) for item in read_half(root, corpus, "test", splits)):
                    skip = tuple(doc.user_data[META_KEY]["skip_labels"])
                    units += [(u.text, any(g[2] == label for g in u.gold)) for u in units_of(doc, [GOLD_KEY])
                              if label not in skip and u.text.strip()]
            drawn[label] = stratified(units, per_class, seed)
    return drawn


def sentence_key(label: str, text: str) -> str:
    """A run-file key for one sampled sentence of one class."""
    return f"{label}:{hashlib.sha256(text.encode('utf8')).hexdigest()[:16]}"


def run_sample(drawn: Dict[str, List[Tuple[str, bool]]], nlp, witness, run: RunFile) -> int:
    """Ask the word list and the witness about every sentence not yet in ``run``; how many were added."""
    def items() -> Iterable[Tuple[str, Tuple[str, str, bool]]]:
        for label, sample in drawn.items():
            for text, gold in sample:
                yield sentence_key(label, text), (label, text, gold)

    def work(item: Tuple[str, str, bool]) -> Optional[dict]:
        label, text, gold = item
        answer = witness.ask(text)
        if answer.failed_call:  # no reply to score: left out of the run file, asked again on a re-run
            return None
        doc = nlp(text)
        word_list = any(s.label_ == label for s in doc.spans.get("factwash_cues", []))
        return {"label": label, "text": text, "gold": gold, "word_list": word_list, "witness": asdict(answer)}

    return resume(run, items(), work)


def score_records(records: Iterable[dict], drawn: Dict[str, List[Tuple[str, bool]]]) -> Dict[str, dict]:
    """P/R/F1 of the word list and of the witness on the sample, from the run file's records."""
    by_key = {r["key"]: r for r in records}
    scores: Dict[str, dict] = {}
    for label, sample in drawn.items():
        counts = {"word_list": [0, 0, 0], "witness": [0, 0, 0]}  # tp, fp, fn
        discarded = missing = 0
        for text, gold in sample:
            record = by_key.get(sentence_key(label, text))
            if record is None:
                missing += 1
                continue
            answer = record["witness"]
            discarded += not answer["usable"]
            predictions = {"word_list": record["word_list"], "witness": answer["usable"] and answer[FLAG[label]]}
            for name, predicted in predictions.items():
                c = counts[name]
                c[0] += predicted and gold
                c[1] += predicted and not gold
                c[2] += gold and not predicted
        result: Dict[str, dict] = {}
        for name, (tp, fp, fn) in counts.items():
            p, r = ratio(tp, tp + fp), ratio(tp, tp + fn)
            result[name] = {"tp": tp, "fp": fp, "fn": fn, "p": p, "r": r, "f1": f1(p, r)}
        result["witness"]["discarded"] = discarded
        result["missing"] = missing
        scores[label] = result
    return scores


def witness_scores(root: Path, splits: Path, nlp, witness, per_class: int, run_path: Path,
                   seed: int = SEED) -> Dict[str, dict]:
    """The witness and the word list on the same stratified test sample, per class, kept in ``run_path``.

    An exhausted budget stops the run with ``BudgetExhausted``; the results so
    far stay in the run file and a re-run continues from them.
    """
    return score_sample(samples(root, splits, nlp, per_class, seed), nlp, witness, run_path)


def score_sample(drawn: Dict[str, List[Tuple[str, bool]]], nlp, witness, run_path: Path) -> Dict[str, dict]:
    """The witness and the word list on a drawn sample, asking only what ``run_path`` does not hold yet."""
    with RunFile(run_path) as run:
        run_sample(drawn, nlp, witness, run)
        return score_records(run, drawn)


def witness_run(root: Path, splits: Path, nlp, witness, per_class: int,
                output_dir: Path) -> Tuple[Dict[str, dict], Path]:
    """``witness_scores`` kept in a run file under ``output_dir/model-runs`` named for its lineage (operation,
    model, sample size, prompt, seed), the scores written beside it as ``<run>.scores.json``; the scores and the
    run file. An exhausted budget stops it with a ``BudgetExhausted`` that says where the results so far are."""
    import json

    from spacy_factwash.io.outputs import write_text
    from spacy_factwash.io.runfile import run_name
    from spacy_factwash.llm.budget import BudgetExhausted
    from spacy_factwash.llm.client import load_prompt

    name = run_name("witness-eval", witness.model, {"per_class": per_class, "prompt": load_prompt("witness").id}, SEED)
    run_path = output_dir / "model-runs" / name
    try:
        scores = witness_scores(root, splits, nlp, witness, per_class, run_path)
    except BudgetExhausted as err:
        raise BudgetExhausted(f"{err.message}. Results so far are in {run_path}; run again with a higher --max-usd "
                              "to continue.") from err
    write_text(output_dir / f"{run_path.stem}.scores.json", json.dumps(scores, indent=1) + "\n")
    return scores, run_path


def score_lines(scores: Dict[str, dict]) -> List[str]:
    """The scores as lines to read: per class, the word list's and the witness's P, R and F1 (and the witness's
    discarded replies), after a line counting the sentences that got no reply, if any did."""
    missing = sum(result["missing"] for result in scores.values())
    lines = [f"{missing} sentence(s) got no reply (failed calls); they are not scored; run again to ask them"
             ] if missing else []
    return lines + [f"{label:<12} {name:<10} P {s['p']:.2f}  R {s['r']:.2f}  F1 {s['f1']:.2f}"
                    + (f"  discarded {s['discarded']}" if "discarded" in s else "")
                    for label, result in scores.items() for name, s in ((n, result[n]) for n in ("word_list", "witness"))]
