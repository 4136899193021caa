"""The claim-strength corpus (Yu et al., EMNLP 2019 / COLING 2020): reading it and halving it.

Two files of single sentences, each labelled 0 not a claim, 1 correlational,
2 conditional causal, 3 direct causal: ``annotated_pubmed.csv`` (conclusion
sentences of research papers) and ``annotated_eureka.csv`` (headlines and
first sentences of press releases). The corpus has no official split, so the
halves follow the rule of ``split.py``: a sentence's half is fixed by the
sha256 of a key. A research-paper sentence's key is its own normalised text
(the file has no ids), so a sentence listed twice falls in one half; a press
release sentence's key is its release (``sentId`` without the sentence
number), so a headline and the sentences that restate it never straddle the
halves. The id lists are committed in ``training/splits/claim-strength.json``.
"""

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List

from .split import document_key, make_split, read_split, select_half, write_split

LABELS = ("none", "correlational", "conditional_causal", "direct_causal")
FILES = {"pubmed": "annotated_pubmed.csv", "eureka": "annotated_eureka.csv"}
RAW = "claim-strength/raw/data"
SPLIT_FILE = "claim-strength.json"


class CorpusFormatError(ValueError):
    """A claim-strength file does not have the columns or labels it should."""


@dataclass(frozen=True)
class LabelledSentence:
    """One sentence of the corpus: file (subset), id, text, gold label name and split key."""

    subset: str
    doc_id: str
    text: str
    label: str
    split_key: str


def _release_of(sent_id: str) -> str:
    """A press-release sentence id without its sentence number and kind ("...-0-title")."""
    return re.sub(r"-\d+-[a-z]+$", "", sent_id)


def read(raw: Path) -> Iterator[LabelledSentence]:
    """Every labelled sentence of both files, in file order; a clear error on a malformed row."""
    for subset, name in FILES.items():
        path = raw / name
        with path.open(encoding="utf8", newline="") as handle:
            for row_number, row in enumerate(csv.DictReader(handle)):
                label = row.get("label", "")
                if label not in ("0", "1", "2", "3") or not row.get("sentence"):
                    raise CorpusFormatError(f"{path}: data row {row_number}: needs a sentence and a label 0-3")
                text = row["sentence"]
                if subset == "eureka":
                    doc_id, key = row["sentId"], document_key(_release_of(row["sentId"]))
                else:
                    doc_id, key = str(row_number), document_key(text)
                yield LabelledSentence(subset, doc_id, text, LABELS[int(label)], key)


def split_path(split_dir: Path) -> Path:
    """Where the committed claim-strength split lives."""
    return split_dir / SPLIT_FILE


def write_strength_split(root: Path, split_dir: Path) -> Path:
    """Compute the claim-strength split from the rule and write it; returns the file."""
    path = split_path(split_dir)
    write_split(path, make_split(read(root / RAW)))
    return path


def read_half(root: Path, half: str, split_dir: Path) -> Dict[str, List[LabelledSentence]]:
    """The sentences of one half, by file, as the committed split lists them."""
    split = read_split(split_path(split_dir))
    by_subset: Dict[str, List[LabelledSentence]] = {subset: [] for subset in FILES}
    for item in select_half(read(root / RAW), split, half, "claim-strength"):
        by_subset[item.subset].append(item)
    return by_subset
