"""Scoring claim strength and certainty, and the README block that reports them.

Each claim-strength corpus sentence is one claim: the strength of the whole
Doc is compared with the gold label. Rules are chosen on the dev half; the
README reports the test half only, next to the fine-tuned BioBERT figures
the corpus's own README gives (5-fold cross-validation over the whole file,
so not the same sentences: an anchor, not a head-to-head). The same block
gives the certainty level's rank correlation on the certainty corpus's test
split, the step-up rates on SummEdits edits, and the written pair set.
"""

import json
from collections import Counter
from pathlib import Path
from typing import Dict, List, Sequence

import spacy
from spacy.language import Language

from spacy_factwash.pipes.cues.scorer import f1, ratio
from spacy_factwash.pipes.names import COMPARE
from spacy_factwash.pipes.strength.claim import STRENGTHS, claim_strength

from . import certainty_eval, summedits
from .claim_strength import FILES, read_half

PAIR_SET = "strength.jsonl"

# macro-F1 and per-class F1 of fine-tuned BioBERT, 5-fold CV, from the corpus repository's README
# (junwang4/correlation-to-causation-exaggeration @ 00337f3, raw/README.md, STEP 2.3 and 3.3)
PUBLISHED = {
    "pubmed": {"macro_f1": 0.878, "f1": {"none": 0.908, "correlational": 0.909, "conditional_causal": 0.830,
                                         "direct_causal": 0.863}},
    "eureka": {"macro_f1": 0.892, "f1": {"none": 0.827, "correlational": 0.903, "conditional_causal": 0.936,
                                         "direct_causal": 0.903}},
}


def strength_pipeline() -> Language:
    """Blank English with the cue and strength components: one corpus sentence is one claim."""
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues")
    nlp.add_pipe("factwash_strength")
    return nlp


def sentence_pipeline() -> Language:
    """The default pipeline (it holds the strength component): texts of several claims, aligned claim by claim."""
    from spacy_factwash.api import load

    return load()


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


def score_pair_set(path: Path, nlp: Language) -> List[Dict[str, object]]:
    """Each written pair: whether a step-up to direct causal was expected and whether one was found."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf8").splitlines(), start=1):
        pair = json.loads(line)
        if not all(isinstance(pair.get(k), str) for k in ("id", "source", "memory")) or not isinstance(
                pair.get("expect"), list):
            raise ValueError(f"{path}:{number}: needs string id, source, memory and an expect list")
        source, memory = nlp(pair["source"]), nlp(pair["memory"])
        rows.append({"id": pair["id"], "expected": "strengthened_causality" in pair["expect"],
                     "found": bool(summedits.step_ups(nlp.get_pipe(COMPARE), source, memory))})
    return rows


def measure(root: Path, split_dir: Path, gate_sets: Path) -> Dict[str, object]:
    """Every figure of the README block: claim strength (test halves), certainty (test), SummEdits, the pair set."""
    corpus_nlp = strength_pipeline()
    sentence_nlp = sentence_pipeline()
    return {
        "lexicon_version": corpus_nlp.get_pipe("factwash_strength").lexicon_version,
        "claim_strength": score(root, split_dir, "test", corpus_nlp),
        "certainty": certainty_eval.score(root, corpus_nlp, ("test",)),
        "summedits": summedits.score(root, sentence_nlp),
        "pairs": score_pair_set(gate_sets / PAIR_SET, sentence_nlp),
    }


def _f(value: float) -> str:
    return f"{value:.2f}"


def markdown_table(measured: Dict[str, object]) -> str:
    """The README block: the claim-strength, certainty, SummEdits and pair-set tables."""
    return "\n".join([
        strength_table(measured["claim_strength"], measured["lexicon_version"]),
        certainty_table(measured["certainty"]),
        summedits_table(measured["summedits"]),
        pairs_line(measured["pairs"]),
    ])


def strength_table(result: Dict[str, Dict[str, object]], lexicon_version: str, half: str = "test") -> str:
    """Per-class P/R/F1 and macro-F1 on each file's half, beside the published BioBERT F1."""
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


def certainty_table(result: Dict[str, object]) -> str:
    """Spearman's rho of the certainty rank against the gold score on the certainty test split, and each level."""
    levels = ", ".join(f"{name} {result['levels'][name]['n']} (mean gold {result['levels'][name]['mean_gold']:.2f})"
                       for name in result["order"])
    return "\n".join([
        "Certainty level on the test split of the sentence-level certainty corpus (Pei & Jurgens 2021; gold 1-6, "
        "scale chosen on train and val): Spearman's rho between the level's rank and the gold score. "
        f"Findings per level: {levels}.",
        "",
        "| corpus | split | findings | Spearman rho |",
        "|---|---|---:|---:|",
        f"| sentence-level certainty | test | {result['n']} | {_f(result['spearman'])} |",
        "",
    ])


def summedits_table(result: Dict[str, Dict[str, Dict[str, int]]]) -> str:
    """Per SummEdits domain: the share of consistent and inconsistent edits with a step-up to direct causal."""
    lines = [
        "SummEdits (development data, all four domains): edits in which an aligned sentence goes from correlational "
        "or conditional causal to direct causal, counting any weaker seed sentence, and only seeds whose evidence is "
        "an association or a modal (not a bare comparison such as \"a rise in\"). On consistent edits this is the "
        "false-flag rate a `strengthened_causality` check would have.",
        "",
        "| domain | edits | pairs | any weaker seed | rate | association or modal seed | rate |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    totals = {group: {"pairs": 0, "any": 0, "association": 0} for group in ("consistent", "inconsistent")}
    rows = [(domain, group, counts) for domain, groups in result.items() for group, counts in groups.items()]
    for domain, group, counts in rows:
        for key in totals[group]:
            totals[group][key] += counts[key]
    for domain, group, counts in rows + [("all", group, counts) for group, counts in totals.items()]:
        lines.append(f"| {domain} | {group} | {counts['pairs']} | {counts['any']} | {_f(ratio(counts['any'], counts['pairs']))} "
                     f"| {counts['association']} | {_f(ratio(counts['association'], counts['pairs']))} |")
    return "\n".join(lines) + "\n"


def pairs_line(rows: List[Dict[str, object]]) -> str:
    """One line on the written research-finding -> summary pairs: step-ups found where expected, and not elsewhere."""
    washed = [r for r in rows if r["expected"]]
    faithful = [r for r in rows if not r["expected"]]
    missed = ", ".join(r["id"] for r in washed if not r["found"]) or "none"
    flagged = ", ".join(r["id"] for r in faithful if r["found"]) or "none"
    return (f"Written pairs (`training/gate_sets/{PAIR_SET}`): step-up found on "
            f"{sum(r['found'] for r in washed)} of {len(washed)} pairs that wash correlation into causation "
            f"(missed: {missed}); on {sum(r['found'] for r in faithful)} of {len(faithful)} faithful pairs "
            f"(flagged: {flagged}).\n")
