"""Scoring the witness as a cue detector beside the word list, on the same stratified held-out sample.

Per class (HEDGE, ATTRIBUTION), sentences are drawn from the test halves,
half gold-positive and half gold-negative, with a fixed seed. The word list
(``factwash_cues``) and the witness answer for the identical sentences; a
witness reply that was discarded counts as a "no" (a miss on a positive).
"""

import random
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from .corpora import read_half
from .gold import META_KEY, GOLD_KEY, to_doc
from .scoring import f1, ratio, units_of

SOURCES = {"HEDGE": ("bioscope", "szeged"), "ATTRIBUTION": ("polnear",)}
FLAG = {"HEDGE": "hedges", "ATTRIBUTION": "attributes"}


def stratified(units: Sequence[Tuple[str, bool]], per_class: int, seed: int = 0) -> List[Tuple[str, bool]]:
    """``per_class`` sentences: half gold-positive, half gold-negative, drawn with a fixed seed."""
    rng = random.Random(seed)
    positives = [u for u in units if u[1]]
    negatives = [u for u in units if not u[1]]
    half = per_class // 2
    if len(positives) < half or len(negatives) < half:
        raise ValueError(f"not enough sentences for a sample of {per_class}")
    return rng.sample(positives, half) + rng.sample(negatives, half)


def score_sample(label: str, sample: Sequence[Tuple[str, bool]], nlp, witness) -> Dict[str, Dict[str, float]]:
    """P/R/F1 of the word list and of the witness on the same sentences, and the witness's discarded replies."""
    counts = {"word_list": [0, 0, 0], "witness": [0, 0, 0]}  # tp, fp, fn
    discarded = 0
    docs = nlp.pipe(text for text, _ in sample)
    for (text, gold), doc in zip(sample, docs):
        answer = witness.ask(text)
        discarded += not answer.usable
        predictions = {
            "word_list": any(s.label_ == label for s in doc.spans.get("factwash_cues", [])),
            "witness": answer.usable and getattr(answer, FLAG[label]),
        }
        for name, predicted in predictions.items():
            c = counts[name]
            c[0] += predicted and gold
            c[1] += predicted and not gold
            c[2] += gold and not predicted
    result: Dict[str, Dict[str, float]] = {}
    for name, (tp, fp, fn) in counts.items():
        p, r = ratio(tp, tp + fp), ratio(tp, tp + fn)
        result[name] = {"tp": tp, "fp": fp, "fn": fn, "p": p, "r": r, "f1": f1(p, r)}
    result["witness"]["discarded"] = discarded
    return result


def witness_scores(root: Path, splits: Path, nlp, witness, per_class: int) -> dict:
    """The witness and the word list on the same stratified test sample, per class."""
    scores = {}
    for label, corpora in SOURCES.items():
        units = []
        for corpus in corpora:
            docs = nlp.pipe(to_doc(nlp, item) for item in read_half(root, corpus, "test", splits))
            for doc in docs:
                skip = tuple(doc.user_data[META_KEY]["skip_labels"])
                units += [(u.text, any(g[2] == label for g in u.gold)) for u in units_of(doc, [GOLD_KEY])
                          if label not in skip and u.text.strip()]
        scores[label] = score_sample(label, stratified(units, per_class), nlp, witness)
    return scores
