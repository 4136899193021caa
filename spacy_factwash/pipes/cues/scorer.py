"""The cue scorers spaCy's ``nlp.evaluate`` uses, and the counting behind them: sentence level (does the sentence hold a cue of the class?) and cue level.

A *unit* is one sentence: its gold spans and its predicted cues, as
character offsets. Sentence level counts a unit positive when it holds at
least one gold span of the class, predicted positive when at least one cue
of the class was resolved. Cue level is token overlap: a predicted cue is
correct when it overlaps a gold span of its class, a gold span is found when
a predicted cue of its class overlaps it.

Registered scorers: ``spacy_factwash.cue_scorer.v1`` (labelled span P/R/F,
overlap allowed: the cue components' default) and
``spacy_factwash.sentence_scorer.v1`` (sentence-level P/R/F per class, the
counting the corpus evaluation reports).
"""

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.pipeline.span_ruler import overlapping_labeled_spans_score
from spacy.tokens import Doc
from spacy.util import registry

from ...lexicon.frozen import LABELS
from ...syntax.sentences import sentences
from .extensions import CUES_KEY

Gold = Tuple[int, int, str]  # start_char, end_char, label
Predicted = Tuple[int, int, str, str]  # start_char, end_char, label, entry id


@dataclass
class Unit:
    """One sentence: its text, gold spans, predicted cues, and the classes it is not scored for."""

    text: str
    gold: List[Gold]
    predicted: List[Predicted]
    skip: Tuple[str, ...] = ()


def span_score_weights(spans_key: str) -> Dict[str, Optional[float]]:
    """The score weights of a component scored by ``cue_scorer`` on the span group ``spans_key``, as spaCy's
    span_ruler declares them: the F score counts, precision, recall and the per-class table are reported."""
    return {f"spans_{spans_key}_f": 1.0, f"spans_{spans_key}_p": 0.0, f"spans_{spans_key}_r": 0.0,
            f"spans_{spans_key}_per_type": None}


def ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


@dataclass
class ClassScore:
    """Counts for one class over a set of units, and the errors by lexicon entry and gold text."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    n: int = 0
    skipped: int = 0
    cue_predicted: int = 0
    cue_correct: int = 0
    cue_gold: int = 0
    cue_found: int = 0
    false_entries: Counter = field(default_factory=Counter)
    missed_gold: Counter = field(default_factory=Counter)

    @property
    def precision(self) -> float:
        return ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return f1(self.precision, self.recall)

    def add(self, unit: Unit, label: str) -> None:
        """Count one unit for ``label``."""
        if label in unit.skip:
            self.skipped += 1
            return
        gold = [g for g in unit.gold if g[2] == label]
        predicted = [p for p in unit.predicted if p[2] == label]
        self.n += 1
        if gold and predicted:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif gold:
            self.fn += 1
        overlaps = lambda a, b: a[0] < b[1] and b[0] < a[1]  # noqa: E731
        for cue in predicted:
            self.cue_predicted += 1
            if any(overlaps(cue, g) for g in gold):
                self.cue_correct += 1
            else:
                self.false_entries[cue[3]] += 1
        for span in gold:
            self.cue_gold += 1
            if any(overlaps(span, p) for p in predicted):
                self.cue_found += 1
            else:
                self.missed_gold[unit.text[span[0]:span[1]].lower()] += 1

    def to_dict(self, errors: int = 0) -> Dict[str, object]:
        """JSON-safe figures; with ``errors`` > 0, that many top false-firing entries and missed gold texts."""
        cue_p, cue_r = ratio(self.cue_correct, self.cue_predicted), ratio(self.cue_found, self.cue_gold)
        data: Dict[str, object] = {
            "sentence": {"tp": self.tp, "fp": self.fp, "fn": self.fn, "n": self.n,
                         "p": self.precision, "r": self.recall, "f1": self.f1},
            "cue": {"predicted": self.cue_predicted, "correct": self.cue_correct, "gold": self.cue_gold,
                    "found": self.cue_found, "p": cue_p, "r": cue_r, "f1": f1(cue_p, cue_r)},
            "skipped_sentences": self.skipped,
        }
        if errors:
            data["false_positive_entries"] = self.false_entries.most_common(errors)
            data["missed_gold_texts"] = self.missed_gold.most_common(errors)
        return data


def units_of(doc: Doc, gold_keys: Sequence[str], pred_key: str = CUES_KEY,
             reference: Optional[Doc] = None, skip: Tuple[str, ...] = ()) -> List[Unit]:
    """The sentences of ``doc`` as units; gold comes from ``reference`` (default: ``doc`` itself)."""
    reference = doc if reference is None else reference
    gold = [(s.start_char, s.end_char, s.label_) for key in gold_keys for s in reference.spans.get(key, [])]
    predicted = [(s.start_char, s.end_char, s.label_, s.id_) for s in doc.spans.get(pred_key, [])]
    text = doc.text  # joined once: Doc.text joins every token on each access
    bounds = [(sent.start_char, sent.end_char) for sent in sentences(doc)] if doc.has_annotation("SENT_START") else [
        (0, len(text))]
    units = []
    for start, end in bounds:
        units.append(Unit(
            text[start:end],
            [(s - start, e - start, label) for s, e, label in gold if start <= s < end],
            [(s - start, e - start, label, entry) for s, e, label, entry in predicted if start <= s < end],
            skip,
        ))
    return units


def score_units(units: Iterable[Unit], labels: Sequence[str] = LABELS) -> Dict[str, ClassScore]:
    """Count every unit for every class."""
    scores = {label: ClassScore() for label in labels}
    for unit in units:
        for label in labels:
            scores[label].add(unit, label)
    return scores


def score_sentences(examples, *, spans_key: str = CUES_KEY, **kwargs) -> Dict[str, object]:
    """spaCy scorer: sentence-level P/R/F per class, gold in the reference's ``spans_key`` group."""
    units: List[Unit] = []
    for example in examples:
        units.extend(units_of(example.predicted, [spans_key], spans_key, reference=example.reference))
    scores = score_units(units)
    flat: Dict[str, object] = {}
    for label, score in scores.items():
        key = f"factwash_sent_{label.lower()}"
        flat[f"{key}_p"], flat[f"{key}_r"], flat[f"{key}_f"] = score.precision, score.recall, score.f1
    return flat


@registry.scorers("spacy_factwash.sentence_scorer.v1")
def make_sentence_scorer():
    """The registered sentence-level scorer, for ``nlp.evaluate`` and ``spacy evaluate``."""
    return score_sentences


def score_cues(examples, *, spans_key: str = CUES_KEY, **kwargs) -> Dict[str, object]:
    """Labelled span P/R/F of predicted against reference cue spans (overlap allowed)."""
    return overlapping_labeled_spans_score(examples, spans_key=spans_key, **kwargs)


@registry.scorers("spacy_factwash.cue_scorer.v1")
def make_cue_scorer() -> Callable:
    """The registered cue scorer; the component binds its own spans key."""
    return score_cues
