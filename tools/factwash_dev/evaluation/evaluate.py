"""Held-out evaluation of the cue detectors: run the pipeline over a corpus half and score every view.

A *view* is one row of the report: a corpus (optionally some of its
subsets), a class, and the gold groups that count for it. Figures for the
README come from the test half only; the dev half also reports which
lexicon entries fire wrongly most and which gold cues are missed, for the
people who maintain the lists.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from spacy_factwash.pipes.cues.scorer import ClassScore, units_of

from .bioscope import SKIPPED as BIOSCOPE_SKIPPED
from .cdsco import AFFIXAL_KEY
from .corpora import CORPORA, read_half
from .gold import GOLD_KEY, META_KEY, to_doc
from .tempeval import SECONDARY_KEY

BIO = ("bio_bmc", "bio_fly", "bio_hbc")


@dataclass(frozen=True)
class View:
    """One report row: which corpus and subsets, which class, which gold groups."""

    name: str
    corpus: str
    label: str
    subsets: Optional[Tuple[str, ...]] = None
    gold_keys: Tuple[str, ...] = (GOLD_KEY,)
    secondary: bool = False


VIEWS: List[View] = [
    View("BioScope", "bioscope", "HEDGE"),
    View("BioScope", "bioscope", "NEGATION"),
    View("Szeged bio", "szeged", "HEDGE", BIO),
    View("Szeged factbank", "szeged", "HEDGE", ("factbank",)),
    View("Szeged wiki", "szeged", "HEDGE", ("wiki",)),
    View("Szeged bio", "szeged", "CONDITIONAL", BIO),
    View("Szeged factbank", "szeged", "CONDITIONAL", ("factbank",)),
    View("Szeged wiki", "szeged", "CONDITIONAL", ("wiki",)),
    View("Szeged all", "szeged", "CONDITIONAL"),
    View("CD-SCO", "cdsco", "NEGATION"),
    View("CD-SCO incl. affixal", "cdsco", "NEGATION", gold_keys=(GOLD_KEY, AFFIXAL_KEY)),
    View("PolNeAR", "polnear", "ATTRIBUTION"),
    View("TempEval-3", "tempeval", "TEMPORAL"),
    View("TempEval-3 (secondary)", "tempeval", "ATTRIBUTION", gold_keys=(SECONDARY_KEY,), secondary=True),
    View("TempEval-3 (secondary)", "tempeval", "HEDGE", gold_keys=(SECONDARY_KEY,), secondary=True),
    View("TempEval-3 (secondary)", "tempeval", "CONDITIONAL", gold_keys=(SECONDARY_KEY,), secondary=True),
]


def evaluation_pipeline(lexicon_dir: Optional[str] = None, verify_lexicons: bool = True,
                        parse: bool = False) -> Language:
    """Blank English, the sentencizer (for article corpora) and factwash_cues.

    With ``parse``, the shipped tagger and parser come first (the sentencizer
    before them), so the detectors read the parse (``cues/sense.py``).
    """
    if parse:
        from spacy_factwash.syntax.parse import parse_pipeline

        nlp = parse_pipeline()
    else:
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
    nlp.max_length = 10_000_000
    nlp.add_pipe("factwash_cues", config={"lexicon_dir": lexicon_dir, "verify_lexicons": verify_lexicons})
    return nlp


def evaluate(root: Path, half: str, split_dir: Path, *, nlp: Optional[Language] = None,
             corpora: Sequence[str] = tuple(CORPORA), errors: int = 0,
             keep: Optional[Dict[str, List[Doc]]] = None) -> Dict[str, object]:
    """Score every view of the named corpora on one half; JSON-safe result. With ``keep``, every annotated Doc is
    also kept there under its corpus, for another measurement of the same Docs (``gate_pairs.build_pairs``)."""
    nlp = nlp or evaluation_pipeline()
    rows = []
    unaligned: Dict[str, int] = {}
    counts: Dict[str, int] = {}
    for name in corpora:
        views = [view for view in VIEWS if view.corpus == name]
        scores = {id(view): ClassScore() for view in views}
        docs = (to_doc(nlp, item) for item in read_half(root, name, half, split_dir))
        for doc in annotated(nlp, docs):
            if keep is not None:
                keep.setdefault(name, []).append(doc)
            meta = doc.user_data[META_KEY]
            unaligned[name] = unaligned.get(name, 0) + meta["unaligned"]
            counts[name] = counts.get(name, 0) + 1
            skip = tuple(meta["skip_labels"])
            for view in views:
                if view.subsets is None or meta["subset"] in view.subsets:
                    for unit in units_of(doc, view.gold_keys, skip=skip):
                        scores[id(view)].add(unit, view.label)
        for view in views:
            row = {"view": view.name, "corpus": name, "label": view.label, "secondary": view.secondary}
            row.update(scores[id(view)].to_dict(errors))
            rows.append(row)
    return {
        "half": half,
        "lexicon_version": nlp.get_pipe("factwash_cues").lexicon_version,
        "rows": rows,
        "documents": counts,
        "unaligned_gold_spans": unaligned,
        "skipped_files": {"bioscope": BIOSCOPE_SKIPPED},
    }


def annotated(nlp: Language, docs: Iterable[Doc], batch_size: int = 256) -> Iterator[Doc]:
    """``nlp.pipe(docs)``, in order. With a parser in the pipeline, only the Docs where a parse could change the
    cues (``CueComponent.parse_matters``) are parsed; the others get the pipeline's sentencizer and cues alone,
    which give them the cues the whole pipeline would (the parse is most of the cost, and most corpus sentences hold
    no hedge or attribution candidate)."""
    cues = nlp.get_pipe("factwash_cues") if "factwash_cues" in nlp.pipe_names else None
    if "parser" not in nlp.pipe_names or cues is None:
        yield from nlp.pipe(docs, batch_size=batch_size)
        return
    light = [name for name in nlp.pipe_names if name in ("sentencizer", "factwash_cues")]
    for batch in minibatch(docs, batch_size):
        needs = [cues.parse_matters(doc) for doc in batch]
        parsed = iter(list(nlp.pipe([doc for doc, need in zip(batch, needs) if need], batch_size=batch_size)))
        with nlp.select_pipes(enable=light):
            plain = iter(list(nlp.pipe([doc for doc, need in zip(batch, needs) if not need], batch_size=batch_size)))
        yield from (next(parsed) if need else next(plain) for need in needs)


def markdown_table(result: Dict[str, object]) -> str:
    """The sentence-level table (with cue-level P/R) as Markdown."""
    lines = [
        f"Held-out **{result['half']}** half, lexicon {result['lexicon_version']}, sentence level "
        "(cue-level token overlap in the last two columns).",
        "",
        "| corpus | class | N | TP | FP | FN | P | R | F1 | cue P | cue R |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    without_gold = []
    for row in result["rows"]:
        s, c = row["sentence"], row["cue"]
        if not s["tp"] + s["fn"]:
            without_gold.append(f"{row['view']} {row['label']}")
            continue
        lines.append(
            f"| {row['view']} | {row['label']} | {s['n']} | {s['tp']} | {s['fp']} | {s['fn']} | "
            f"{s['p']:.2f} | {s['r']:.2f} | {s['f1']:.2f} | {c['p']:.2f} | {c['r']:.2f} |"
        )
    if without_gold:
        lines += ["", f"No gold cues in this half, so not scored: {', '.join(without_gold)}."]
    return "\n".join(lines) + "\n"


def save_evaluation(result: Dict[str, object], output_dir: Path, name: str) -> str:
    """Write a result as ``metrics-NAME.json`` and its table as ``table-NAME.md`` into ``output_dir`` (made when
    missing); the table."""
    import json

    from spacy_factwash.io.outputs import write_text

    output_dir.mkdir(parents=True, exist_ok=True)
    write_text(output_dir / f"metrics-{name}.json", json.dumps(result, indent=1) + "\n")
    table = markdown_table(result)
    write_text(output_dir / f"table-{name}.md", table)
    return table


SENSE_LABELS = ("HEDGE", "ATTRIBUTION")
SENSE_CORPORA = tuple(dict.fromkeys(v.corpus for v in VIEWS if v.label in SENSE_LABELS))


def compare_parse(root: Path, half: str, split_dir: Path, word_lists: Optional[Dict[str, object]] = None
                  ) -> Tuple[Dict[str, object], Dict[str, object]]:
    """The hedge and attribution views scored by the word lists alone and with the parse's cue sense.
    ``word_lists``: an ``evaluate`` of the same half without the parse, when one was made already (its rows of the
    sense corpora are the first result)."""
    if word_lists is None:
        word_lists = evaluate(root, half, split_dir, nlp=evaluation_pipeline(), corpora=SENSE_CORPORA)
    elif word_lists["half"] != half:
        raise ValueError(f"word_lists scored the {word_lists['half']} half, not {half}")
    word_lists = {**word_lists, "rows": [row for row in word_lists["rows"] if row["corpus"] in SENSE_CORPORA]}
    return word_lists, evaluate(root, half, split_dir, nlp=evaluation_pipeline(parse=True), corpora=SENSE_CORPORA)


def parse_table(without_parse: Dict[str, object], with_parse: Dict[str, object], sense_version: str) -> str:
    """Sentence-level P/R/F1 of the hedge and attribution views without and with the parse, as Markdown."""
    lines = [
        f"Held-out **{without_parse['half']}** half, lexicon {without_parse['lexicon_version']}, sense lists "
        f"{sense_version}, sentence level: the word lists alone, and with the shipped parser's cue sense.",
        "",
        "| corpus | class | TP | FP | FN | P | R | F1 | TP parse | FP parse | FN parse | P parse | R parse | F1 parse |",
        "|---|---|" + "---:|" * 12,
    ]
    parsed_rows = {(row["view"], row["label"]): row for row in with_parse["rows"]}
    for row in without_parse["rows"]:
        s, p = row["sentence"], parsed_rows[row["view"], row["label"]]["sentence"]
        if row["label"] not in SENSE_LABELS or not s["tp"] + s["fn"]:
            continue
        lines.append(
            f"| {row['view']} | {row['label']} | {s['tp']} | {s['fp']} | {s['fn']} | {s['p']:.2f} | {s['r']:.2f} | "
            f"{s['f1']:.2f} | {p['tp']} | {p['fp']} | {p['fn']} | {p['p']:.2f} | {p['r']:.2f} | {p['f1']:.2f} |")
    return "\n".join(lines) + "\n"
