"""How often the gate's language check misreads English: UD English EWT's sentences (web text: e-mails, reviews,
forum posts, full of names, addresses and fragments) gated as pairs, counted where the check declares them (each
memory is one sentence, so it is also read as a sentence)."""

from pathlib import Path
from typing import Dict, List

from spacy_factwash.pipes.gate.language import not_english
from spacy_factwash.pipes.gate.report import Excerpt

from .ud_ewt import ewt_root, raw_texts, rebuild


def english_pairs(corpora: Path) -> List[List]:
    """Each EWT sentence (train, dev and test) as a memory, with itself and the sentence before it as its source."""
    root = ewt_root(corpora)
    texts = [text for split in ("train", "dev", "test") for text in raw_texts(rebuild(root, split))]
    return [[("source", f"{before} {text}"), ("memory", text)] for before, text in zip(texts, texts[1:])]


def measure(corpora: Path, min_score: float = 0.6, max_english_share: float = 0.4,
            min_words: int = 4) -> Dict[str, object]:
    """Pairs, how many the check declares not English, their share, and the first few declared."""
    pairs = english_pairs(corpora)
    declared = [pair for pair in pairs if not_english(pair, min_score, max_english_share, min_words,
                                                      [Excerpt(pair[1][1], 0, len(pair[1][1]))])]
    return {"pairs": len(pairs), "declared": len(declared), "share": len(declared) / len(pairs),
            "examples": [pair[1][1] for pair in declared[:10]]}
