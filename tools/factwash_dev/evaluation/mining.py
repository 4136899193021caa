"""One lexicon mining round, under the rule written in ``training/MINING.md``.

The round reads the dev half only. For each class it (1) collects candidate
terms, lemma-normalised 1–3-grams inside gold cues; (2) counts, for every
candidate, the dev sentences it newly fires on (no cue of the class resolved
there by the current lexicon) and how many of them are gold-positive;
(3) admits candidates at or over the thresholds; (4) removes existing entries
whose dev precision is under the narrowing threshold. It writes the next
lexicon version with provenance on every added entry and a round report
listing every addition and removal.
"""

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Set, Tuple

from spacy.lookups import load_lookups
from spacy.tokens import Doc

from spacy_factwash.io.outputs import write_text
from spacy_factwash.lexicon.frozen import CLASS_FILES, freeze, load_lexicons
from spacy_factwash.pipes.cues.extensions import CUES_KEY

from .corpora import read_half
from .evaluate import evaluation_pipeline
from .gold import GOLD_KEY, META_KEY, to_doc

MIN_FIRES = 10
MIN_PRECISION = 0.60
MIN_INSIDE_GOLD = 0.60
NARROW_MIN_FIRES = 10
NARROW_BELOW_PRECISION = 0.40
MAX_N = 3
MINING_CORPORA = {
    "HEDGE": ("bioscope", "szeged"),
    "NEGATION": ("bioscope", "cdsco"),
    "CONDITIONAL": ("szeged",),
    "ATTRIBUTION": ("polnear",),
    "TEMPORAL": ("tempeval",),
}
RULE = (f"newly fires on >= {MIN_FIRES} dev sentences, >= {MIN_PRECISION:.0%} of them gold-positive, and "
        f">= {MIN_INSIDE_GOLD:.0%} of its dev occurrences inside a gold cue (training/MINING.md, revision 2)")

Gram = Tuple[str, ...]


@dataclass
class ClassCounts:
    """Per class: candidate firing counts and existing-entry firing counts over dev sentences."""

    candidates: Set[Gram] = field(default_factory=set)
    new_fires: Counter = field(default_factory=Counter)
    new_positive: Counter = field(default_factory=Counter)
    forms: Dict[Gram, Set[str]] = field(default_factory=lambda: defaultdict(set))
    occurrences: Counter = field(default_factory=Counter)
    inside_gold: Counter = field(default_factory=Counter)
    entry_fires: Counter = field(default_factory=Counter)
    entry_positive: Counter = field(default_factory=Counter)


def _is_word(token) -> bool:
    return not (token.is_punct or token.is_space or token.like_num)


def _grams(tokens, lemmas: List[str], start: int, end: int):
    """(gram, surface) for every 1–3-gram of word tokens in [start, end)."""
    for i in range(start, end):
        for n in range(1, MAX_N + 1):
            j = i + n
            if j > end or not all(_is_word(t) for t in tokens[i:j]):
                break
            yield tuple(lemmas[i:j]), " ".join(t.lower_ for t in tokens[i:j])


def count_class(docs: List[Doc], label: str, lemma_of) -> ClassCounts:
    """Collect candidates from gold cues of ``label``, then count fires over every dev sentence."""
    counts = ClassCounts()
    sentences = []
    for doc in docs:
        skip = label in doc.user_data[META_KEY]["skip_labels"]
        lemmas = [lemma_of(t.lower_) for t in doc]
        gold = [s for s in doc.spans.get(GOLD_KEY, []) if s.label_ == label]
        predicted = [s for s in doc.spans.get(CUES_KEY, []) if s.label_ == label]
        for sent in doc.sents:
            in_sent = lambda s: sent.start <= s.start < sent.end  # noqa: E731
            sent_gold = [s for s in gold if in_sent(s)]
            if not skip:
                for span in sent_gold:
                    counts.candidates.update(g for g, _ in _grams(doc, lemmas, span.start, min(span.end, sent.end)))
                sentences.append((doc, lemmas, sent, sent_gold, [s for s in predicted if in_sent(s)]))
    for doc, lemmas, sent, sent_gold, cues in sentences:
        positive = bool(sent_gold)
        for span in sent_gold:
            counts.inside_gold.update(g for g, _ in _grams(doc, lemmas, span.start, min(span.end, sent.end)))
        for entry in {cue.id_ for cue in cues}:
            counts.entry_fires[entry] += 1
            counts.entry_positive[entry] += positive
        seen = set()
        for gram, surface in _grams(doc, lemmas, sent.start, sent.end):
            if gram in counts.candidates:
                counts.forms[gram].add(surface)
                counts.occurrences[gram] += 1
                seen.add(gram)
        if not cues:
            for gram in seen:
                counts.new_fires[gram] += 1
                counts.new_positive[gram] += positive
    return counts


def admitted(counts: ClassCounts, known_phrases: Set[str]) -> List[Tuple[Gram, int, float]]:
    """Candidates that pass the rule.

    A candidate whose surface forms are all phrases of existing entries is
    no new term (it only "newly fires" where an exclusion removed it), and a
    candidate holding an admitted shorter one is redundant: both are skipped.
    """
    passing = []
    for gram, fires in counts.new_fires.items():
        if counts.forms[gram] <= known_phrases:
            continue
        precision = counts.new_positive[gram] / fires
        inside = counts.inside_gold[gram] / counts.occurrences[gram]
        if fires >= MIN_FIRES and precision >= MIN_PRECISION and inside >= MIN_INSIDE_GOLD:
            passing.append((gram, fires, precision))
    passing.sort(key=lambda item: (len(item[0]), -item[1], item[0]))
    chosen: List[Tuple[Gram, int, float]] = []
    for gram, fires, precision in passing:
        if any(_contains(gram, other) for other, _, _ in chosen):
            continue
        chosen.append((gram, fires, precision))
    return chosen


def _contains(gram: Gram, part: Gram) -> bool:
    return any(gram[i : i + len(part)] == part for i in range(len(gram) - len(part) + 1))


def narrowed(counts: ClassCounts, label: str, lexicon) -> List[Tuple[str, int, float]]:
    """Existing cue entries of the class under the narrowing threshold."""
    removed = []
    for entry_id, fires in counts.entry_fires.items():
        precision = counts.entry_positive[entry_id] / fires
        if fires >= NARROW_MIN_FIRES and precision < NARROW_BELOW_PRECISION and lexicon.get(entry_id).label == label:
            removed.append((entry_id, fires, precision))
    return sorted(removed)


def mine_round(root: Path, split_dir: Path, lexicon_in: Path, lexicon_out: Path, round_number: int,
               version: str, report_path: Path) -> Dict[str, object]:
    """Run one round from ``lexicon_in`` and write the next version to ``lexicon_out``."""
    lexicon = load_lexicons(lexicon_in)
    nlp = evaluation_pipeline(str(lexicon_in))
    table = load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")
    lemma_of = lambda lower: table.get(lower, lower)  # noqa: E731
    docs_by_corpus: Dict[str, List[Doc]] = {}
    report: Dict[str, object] = {"round": round_number, "from_version": lexicon.version, "version": version,
                                 "rule": RULE, "added": {}, "removed": {}}
    additions: Dict[str, List[dict]] = {}
    removals: Set[str] = set()
    for label, corpora in MINING_CORPORA.items():
        docs: List[Doc] = []
        for corpus in corpora:
            if corpus not in docs_by_corpus:
                items = (to_doc(nlp, item) for item in read_half(root, corpus, "dev", split_dir))
                docs_by_corpus[corpus] = list(nlp.pipe(items, batch_size=256))
            docs.extend(docs_by_corpus[corpus])
        counts = count_class(docs, label, lemma_of)
        name = label.lower()
        entries = []
        known = {phrase.lower() for entry in lexicon.for_label(label) for phrase in entry.phrases}
        for gram, fires, precision in admitted(counts, known):
            entries.append({
                "id": f"{name}:r{round_number}_{'_'.join(gram)}",
                "label": label,
                "role": "cue",
                "pattern": sorted(counts.forms[gram]),
                "provenance": {"source": "mined", "round": round_number, "corpus": "+".join(corpora), "half": "dev",
                               "fires": fires, "precision": round(precision, 4),
                               "inside_gold": round(counts.inside_gold[gram] / counts.occurrences[gram], 4)},
            })
        additions[label] = entries
        removed = narrowed(counts, label, lexicon)
        removals.update(entry_id for entry_id, _, _ in removed)
        report["added"][label] = [{"id": e["id"], **e["provenance"], "pattern": e["pattern"]} for e in entries]
        report["removed"][label] = [{"id": i, "fires": f, "precision": round(p, 4)} for i, f, p in removed]
    _write_lexicon(lexicon_in, lexicon_out, additions, removals, version)
    report_path.parent.mkdir(parents=True, exist_ok=True)
    write_text(report_path, json.dumps(report, indent=1) + "\n")
    return report


def _write_lexicon(lexicon_in: Path, lexicon_out: Path, additions: Dict[str, List[dict]], removals: Set[str],
                   version: str) -> None:
    """Write the class files (removed entries dropped, added ones appended) to ``lexicon_out`` and freeze it.

    Only the class files and the manifest are written: anything else in the
    folder (the packaged ``lexicons/authority/`` set) is left alone.
    """
    lexicon_out.mkdir(parents=True, exist_ok=True)
    for name, label in CLASS_FILES.items():
        lines = (lexicon_in / name).read_text(encoding="utf8").splitlines()
        kept = [line for line in lines if line.strip() and json.loads(line)["id"] not in removals]
        kept += [json.dumps(entry, ensure_ascii=False) for entry in additions.get(label, [])]
        write_text(lexicon_out / name, "\n".join(kept) + "\n")
    freeze(lexicon_out, version)
