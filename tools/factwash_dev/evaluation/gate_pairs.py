"""Whole-gate evaluation on pairs built from the corpora's own annotation (test halves only).

Nobody here wrote these pairs. From each test sentence holding a gold cue of
a class, the *drop* pair removes the gold cue's tokens (the memory should
raise that class's change: ``FOUND_BY``); the *control* pair removes as many
other words, never a gold or resolved cue of any class (the memory should not
raise it).
PolNeAR instead keeps the gold Content alone (drop) or Source, Cue and
Content in order (control). The score per row: recall on drop pairs, the
share of control pairs flagged for the class, and precision pooling both.
"""

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Set

from spacy.language import Language
from spacy.tokens import Doc, Span

from spacy_factwash.pipes.cues.extensions import CUES_KEY
from spacy_factwash.pipes.cues.scorer import ratio

from .corpora import read_half
from .gating import reports_in_order
from .gold import GOLD_KEY, META_KEY, to_doc

# the change types that report a drop of the class: removing a condition's "if" leaves the condition stated as a
# fact, and removing a negation inside a condition reverses the condition (both ``changed_condition``)
FOUND_BY = {
    "ATTRIBUTION": {"dropped_attribution"},
    "HEDGE": {"strengthened_certainty"},
    "NEGATION": {"reversed_polarity", "changed_condition"},
    "CONDITIONAL": {"dropped_condition", "changed_condition"},
    "TEMPORAL": {"dropped_temporal_scope"},
}
ROWS = (("bioscope", "HEDGE"), ("szeged", "HEDGE"), ("szeged", "CONDITIONAL"), ("cdsco", "NEGATION"),
        ("polnear", "ATTRIBUTION"), ("tempeval", "TEMPORAL"))
NAMES = {"bioscope": "BioScope", "szeged": "Szeged", "cdsco": "CD-SCO", "polnear": "PolNeAR", "tempeval": "TempEval-3"}


@dataclass(frozen=True)
class GatePair:
    """A source sentence, a memory made from it, and whether the class's change is expected."""

    corpus: str
    label: str
    kind: str  # "drop" or "control"
    source: str
    memory: str


def _without(sent: Span, removed: Set[int]) -> str:
    return "".join(t.text_with_ws for t in sent if t.i not in removed).strip()


def _in(sent: Span, spans) -> List[Span]:
    return [s for s in spans if sent.start <= s.start and s.end <= sent.end]


def removal_pairs(doc: Doc, corpus: str, label: str) -> Iterator[GatePair]:
    """Drop and control pairs for every sentence of ``doc`` holding a gold cue of ``label``."""
    if label in doc.user_data[META_KEY]["skip_labels"]:
        return
    gold = [s for s in doc.spans.get(GOLD_KEY, []) if s.label_ == label]
    protected = {i for key in doc.spans for s in doc.spans[key] if key in (GOLD_KEY, CUES_KEY)
                 for i in range(s.start, s.end)}
    for sent in doc.sents:
        cues = _in(sent, gold)
        if not cues:
            continue
        removed = {i for s in cues for i in range(s.start, s.end)}
        memory = _without(sent, removed)
        if not any(ch.isalpha() for ch in memory):
            continue
        yield GatePair(corpus, label, "drop", sent.text, memory)
        others = [t.i for t in reversed(sent) if t.is_alpha and not t.like_num and t.i not in protected]
        if len(others) > len(removed):
            yield GatePair(corpus, label, "control", sent.text, _without(sent, set(others[:len(removed)])))


def attribution_pairs(doc: Doc) -> Iterator[GatePair]:
    """PolNeAR: the gold Content alone (drop), and Source + Cue + Content in text order (control)."""
    cues = doc.spans.get(GOLD_KEY, [])
    for sent in doc.sents:
        contents = _in(sent, doc.spans.get("polnear_content", []))
        sent_cues = _in(sent, cues)
        if not contents or not sent_cues:
            continue
        content = max(contents, key=len)
        yield GatePair("polnear", "ATTRIBUTION", "drop", sent.text, content.text)
        parts = sorted(_in(sent, doc.spans.get("polnear_source", [])) + sent_cues + [content], key=lambda s: s.start)
        yield GatePair("polnear", "ATTRIBUTION", "control", sent.text, " ".join(p.text for p in parts))


def build_pairs(root: Path, split_dir: Path, nlp: Language, rows: Sequence = ROWS, half: str = "test",
                docs: Optional[Mapping[str, Sequence[Doc]]] = None) -> List[GatePair]:
    """Every pair of every row, from one half (the test half for every reported accuracy figure). ``docs``: the
    half's Docs by corpus, annotated by ``nlp`` already (``evaluate.evaluate(..., keep=)``), read instead of
    annotating the half again."""
    return list(iter_pairs(root, split_dir, nlp, rows, half, docs))


def iter_pairs(root: Path, split_dir: Path, nlp: Language, rows: Sequence = ROWS, half: str = "test",
               docs: Optional[Mapping[str, Sequence[Doc]]] = None) -> Iterator[GatePair]:
    """The pairs of ``build_pairs`` in the same order, each corpus annotated only as far as its pairs are asked
    for (the first pairs of a large half cost a batch, not the half)."""
    docs_by_corpus: Dict[str, Sequence[Doc]] = dict(docs or {})
    for corpus, label in rows:
        if corpus in docs_by_corpus:
            corpus_docs: Iterable[Doc] = docs_by_corpus[corpus]
        else:
            items = read_half(root, corpus, half, split_dir)
            corpus_docs = _annotated(items, nlp, docs_by_corpus.setdefault(corpus, []))
        for doc in corpus_docs:
            yield from attribution_pairs(doc) if corpus == "polnear" else removal_pairs(doc, corpus, label)


def _annotated(items: Iterable, nlp: Language, kept: List[Doc]) -> Iterator[Doc]:
    """The gold items as annotated Docs, each also kept in ``kept`` for the corpus's next row."""
    for doc in nlp.pipe((to_doc(nlp, item) for item in items), batch_size=256):
        kept.append(doc)
        yield doc


def score_pairs(pairs: Sequence[GatePair], gate) -> Dict[str, object]:
    """Run the gate over the pairs (each distinct pair once: ``gating.reports_in_order``); per row recall, control flag rate and precision, and the verdict confusion."""
    counts: Dict[tuple, Counter] = {}
    confusion: Counter = Counter()
    for pair, report in zip(pairs, reports_in_order(gate, ((p.source, p.memory) for p in pairs))):
        found = bool(FOUND_BY[pair.label] & {c.type for c in report.changes})
        row = counts.setdefault((pair.corpus, pair.label), Counter())
        row[pair.kind] += 1
        row[f"{pair.kind}_flagged"] += found
        confusion[f"{pair.kind}->{report.verdict}"] += 1
    rows = []
    for (corpus, label), c in counts.items():
        tp, fp = c["drop_flagged"], c["control_flagged"]
        rows.append({"corpus": corpus, "label": label, "change": " / ".join(sorted(FOUND_BY[label])),
                     "drop_pairs": c["drop"],
                     "control_pairs": c["control"], "recall": ratio(tp, c["drop"]),
                     "control_flagged": ratio(fp, c["control"]), "precision": ratio(tp, tp + fp)})
    return {"rows": rows, "confusion": dict(sorted(confusion.items()))}


def markdown_table(result: Dict[str, object], lexicon_version: str, half: str = "test") -> str:
    """The corpus-pair table and verdict confusion as Markdown."""
    lines = [
        f"Gate on pairs built from the corpora's {half}-half annotation, lexicon {lexicon_version}: "
        "recall on drop pairs, share of control pairs flagged for the same class, and precision over both.",
        "",
        "| corpus | change | drop pairs | control pairs | recall | control flagged | precision |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for row in result["rows"]:
        lines.append(f"| {NAMES[row['corpus']]} | {row['change']} | {row['drop_pairs']} | {row['control_pairs']} | "
                     f"{row['recall']:.2f} | {row['control_flagged']:.2f} | {row['precision']:.2f} |")
    verdicts = ("pass", "rewrite", "reject", "uncheckable")
    lines += ["", "| pairs \\ verdict | " + " | ".join(verdicts) + " |", "|---|" + "---:|" * len(verdicts)]
    for kind in ("drop", "control"):
        cells = [str(result["confusion"].get(f"{kind}->{v}", 0)) for v in verdicts]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
