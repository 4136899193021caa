"""Scoring claim strength on the claim-strength corpus, per class and macro, beside the published anchors.

Each corpus sentence is one claim: the strength of the whole Doc is compared
with the gold label. Rules are chosen on the dev half; the README reports the
test half only, next to the fine-tuned BioBERT figures the corpus's own
README gives (5-fold cross-validation over the whole file, so not the same
sentences: an anchor, not a head-to-head).
"""

from collections import Counter
from pathlib import Path
from typing import Dict, List, Sequence

import spacy
from spacy.language import Language

from ..strength.claim import STRENGTHS, claim_strength
from .claim_strength import FILES, read_half
from .scoring import f1, ratio

# macro-F1 and per-class F1 of fine-tuned BioBERT, 5-fold CV, from the corpus repository's README
# (junwang4/correlation-to-causation-exaggeration @ 00337f3, raw/README.md, STEP 2.3 and 3.3)
PUBLISHED = {
    "pubmed": {"macro_f1": 0.878, "f1": {"none": 0.908, "correlational": 0.909, "conditional_causal": 0.830,
                                         "direct_causal": 0.863}},
    "eureka": {"macro_f1": 0.892, "f1": {"none": 0.827, "correlational": 0.903, "conditional_causal": 0.936,
                                         "direct_causal": 0.903}},
}
SUBSET_NAMES = {"pubmed": "research papers (PubMed conclusions)", "eureka": "press releases (EurekAlert)"}


def strength_pipeline() -> Language:
    """Blank English with the cue and strength components: one corpus sentence is one claim."""
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues")
    nlp.add_pipe("factwash_strength")
    return nlp


def predict(nlp: Language, texts: Sequence[str]) -> List[str]:
    """The strength label of each text, read over the whole Doc."""
    return [claim_strength(doc).label for doc in nlp.pipe(texts)]


def class_scores(gold: Sequence[str], predicted: Sequence[str]) -> Dict[str, object]:
    """Per-class precision, recall, F1 and support, macro-F1, accuracy and the confusion counts."""
    pairs = Counter(zip(gold, predicted))
    per_class = {}
    for label in STRENGTHS:
        tp = pairs[(label, label)]
        predicted_n = sum(n for (_, p), n in pairs.items() if p == label)
        support = sum(n for (g, _), n in pairs.items() if g == label)
        precision, recall = ratio(tp, predicted_n), ratio(tp, support)
        per_class[label] = {"precision": precision, "recall": recall, "f1": f1(precision, recall), "support": support}
    return {
        "classes": per_class,
        "macro_f1": sum(c["f1"] for c in per_class.values()) / len(per_class),
        "accuracy": ratio(sum(pairs[(label, label)] for label in STRENGTHS), len(gold)),
        "confusion": {f"{g}->{p}": n for (g, p), n in sorted(pairs.items())},
        "n": len(gold),
    }


def score(root: Path, split_dir: Path, half: str = "test", nlp: Language = None) -> Dict[str, Dict[str, object]]:
    """Class scores of the strength detector on one half of each corpus file."""
    nlp = nlp or strength_pipeline()
    result = {}
    for subset, items in read_half(root, half, split_dir).items():
        result[subset] = class_scores([i.label for i in items], predict(nlp, [i.text for i in items]))
    return result


def _f(value: float) -> str:
    return f"{value:.2f}"


def markdown_table(result: Dict[str, Dict[str, object]], lexicon_version: str, half: str = "test") -> str:
    """The README table: per-class P/R/F1 and macro-F1 on each file's half, beside the published BioBERT F1."""
    lines = [
        f"Claim strength on the {half} half of each claim-strength file, strength lexicon {lexicon_version}: "
        "the deterministic detector's precision, recall and F1 per class, beside fine-tuned BioBERT's F1 "
        "(5-fold cross-validation over the whole file, from the corpus README).",
        "",
        "| corpus | class | sentences | P | R | F1 | BioBERT F1 |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for subset in FILES:
        scores, published = result[subset], PUBLISHED[subset]
        for label, c in scores["classes"].items():
            lines.append(f"| {subset} | {label} | {c['support']} | {_f(c['precision'])} | {_f(c['recall'])} "
                         f"| {_f(c['f1'])} | {published['f1'][label]:.3f} |")
        lines.append(f"| {subset} | macro | {scores['n']} | | | {_f(scores['macro_f1'])} | {published['macro_f1']:.3f} |")
    return "\n".join(lines) + "\n"
