"""Choosing the sense lists (``lexicons/sense/``) on dev halves, under the rule in ``training/parser/SENSE.md``.

Every hedge and attribution cue the word lists resolve on the dev half of
its class's corpora is parsed and judged: *right* when it overlaps a gold cue
of its class, else *wrong*. For each sense rule (``cues/sense.py``) and each
word it could apply to, the miner counts the right and wrong cues the rule
would remove; a word joins the rule's list when the rule removes at least
``MIN_WRONG`` wrong cues and at least ``RATIO`` wrong cues for every right
one, and the word shows on dev the sense the rule keeps (so the rule tells
two senses of it apart instead of striking it). The lists are written with
those counts as provenance, and frozen.
"""

import json
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Token

from spacy_factwash.lexicon.frozen import freeze
from spacy_factwash.pipes.cues.extensions import CUES_KEY
from spacy_factwash.syntax.parse import parse_pipeline
from spacy_factwash.syntax.sense import SENSE_FILES, has_content_clause, is_verb, proposes, reports, uses_ability

from .corpora import read_half
from .gold import GOLD_KEY, META_KEY, to_doc

MIN_WRONG = 5
RATIO = 2.0
MIN_KEPT = 1
MINING_CORPORA = {"HEDGE": ("bioscope", "szeged"), "ATTRIBUTION": ("polnear",)}
RULE = (f"the rule removes >= {MIN_WRONG} wrong dev cues of the word and >= {RATIO:g} wrong for each right one, "
        f"and the word shows the sense the rule keeps >= {MIN_KEPT} time(s) (training/parser/SENSE.md, revision 2)")

# rule label -> (the cue classes it is for, the word it is keyed on, whether it would remove this cue)
RULES: Dict[str, Tuple[Tuple[str, ...], Callable[[Token], str], Callable[[Token], bool]]] = {
    "VERBAL": (("HEDGE", "ATTRIBUTION"), lambda t: t.lower_, lambda t: not is_verb(t) and not has_content_clause(t)),
    "CLAUSAL": (("ATTRIBUTION",), lambda t: t.lower_, lambda t: is_verb(t) and not reports(t)),
    "PROPOSITIONAL": (("HEDGE",), lambda t: t.lower_, lambda t: is_verb(t) and not proposes(t)),
    "MODIFIER": (("HEDGE", "ATTRIBUTION"), lambda t: t.lower_, lambda t: t.tag_.startswith("NN")),
    "ABILITY": (("HEDGE",), lambda t: t.head.lower_, lambda t: t.lower_ == "could" and uses_ability(t)),
}
# for the rules keyed on the cue's own word: the sense the rule keeps, which the word must show on dev for the
# rule to tell two senses of it apart rather than strike it (ABILITY is keyed on the verb and never strikes "could")
KEPT_SENSE: Dict[str, Callable[[Token], bool]] = {
    "VERBAL": is_verb,
    "CLAUSAL": is_verb,
    "PROPOSITIONAL": is_verb,
    "MODIFIER": lambda t: not t.tag_.startswith("NN"),
}


def raw_cues(cue_nlp: Language, doc: Doc) -> List[Tuple[int, int, str, str]]:
    """The word lists' cues of a parsed Doc, as if it had no parse: (start, end, label, entry id)."""
    bare = Doc(doc.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc],
               sent_starts=[bool(t.is_sent_start) for t in doc])
    return [(s.start, s.end, s.label_, s.id_) for s in cue_nlp(bare).spans[CUES_KEY]]


def judged_cues(nlp: Language, cue_nlp: Language, root: Path, split_dir: Path) -> Iterator[Tuple[str, Token, bool]]:
    """(label, cue token, right?) for every one-word hedge and attribution cue on the mining corpora's dev halves."""
    for label, corpora in MINING_CORPORA.items():
        for corpus in corpora:
            docs = (to_doc(nlp, item) for item in read_half(root, corpus, "dev", split_dir))
            for doc in nlp.pipe(docs, batch_size=64):
                if label in doc.user_data[META_KEY]["skip_labels"]:
                    continue
                gold = [g for g in doc.spans.get(GOLD_KEY, []) if g.label_ == label]
                for start, end, cue_label, _ in raw_cues(cue_nlp, doc):
                    if cue_label == label and end - start == 1:
                        yield label, doc[start], any(g.start < end and start < g.end for g in gold)


def count_removals(judged) -> Dict[str, Counter]:
    """Per rule: Counter of (word, label, verdict) where verdict is True/False for a right/wrong cue the rule
    would remove, and "kept" for a cue of the word in the sense the rule keeps."""
    counts: Dict[str, Counter] = {rule: Counter() for rule in RULES}
    for label, token, right in judged:
        for rule, (classes, key, removes) in RULES.items():
            if label not in classes:
                continue
            if removes(token):
                counts[rule][(key(token), label, right)] += 1
            elif rule in KEPT_SENSE and KEPT_SENSE[rule](token):
                counts[rule][(key(token), label, "kept")] += 1
    return counts


def select(counts: Dict[str, Counter]) -> Dict[str, List[Dict[str, object]]]:
    """The admitted words of each rule, with their dev counts."""
    chosen: Dict[str, List[Dict[str, object]]] = {}
    for rule, counter in counts.items():
        words = sorted({(word, label) for word, label, _ in counter})
        chosen[rule] = []
        for word, label in words:
            wrong, right, kept = (counter[(word, label, verdict)] for verdict in (False, True, "kept"))
            if wrong >= MIN_WRONG and wrong >= RATIO * right and (rule not in KEPT_SENSE or kept >= MIN_KEPT):
                chosen[rule].append({"word": word, "label": label, "wrong": wrong, "right": right, "kept": kept})
    return chosen


def write_lists(chosen: Dict[str, List[Dict[str, object]]], folder: Path, version: str) -> None:
    """Write one JSONL list per rule (an entry per word, with its counts) and freeze the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, rule in SENSE_FILES.items():
        lines = [json.dumps({
            "id": f"{rule.lower()}:{str(item['label']).lower()}:{item['word']}", "label": rule, "role": "cue", "pattern": [item["word"]],
            "provenance": {"source": "dev", "cue_class": item["label"], "corpora": list(MINING_CORPORA[item["label"]]),
                           "removed_wrong": item["wrong"], "removed_right": item["right"], "kept": item["kept"],
                           "rule": RULE},
        }) for item in chosen.get(rule, [])]
        (folder / name).write_text("".join(line + "\n" for line in lines), encoding="utf8")
    freeze(folder, version, class_files=SENSE_FILES)


def mine_sense(model: Path, root: Path, split_dir: Path, out: Path, version: str,
               report: Optional[Path] = None) -> Dict[str, List[Dict[str, object]]]:
    """Parse the dev halves with ``model``, choose the sense lists, write and freeze them (and a report)."""
    nlp = parse_pipeline(model)
    nlp.max_length = 10_000_000
    cue_nlp = spacy.blank("en", vocab=nlp.vocab)
    cue_nlp.add_pipe("factwash_cues")
    counts = count_removals(judged_cues(nlp, cue_nlp, root, split_dir))
    chosen = select(counts)
    write_lists(chosen, out, version)
    if report is not None:
        every = {rule: [{"word": w, "label": lab, "verdict": str(v), "count": n} for (w, lab, v), n in
                        sorted(c.items(), key=lambda item: tuple(map(str, item[0])))] for rule, c in counts.items()}
        report.write_text(json.dumps({"rule": RULE, "chosen": chosen, "counts": every}, indent=1) + "\n",
                          encoding="utf8")
    return chosen
