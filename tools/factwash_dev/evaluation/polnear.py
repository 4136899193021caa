"""PolNeAR v1.0 (Newell et al. 2018): attribution in political news, brat standoff.

``Cue`` spans are gold ATTRIBUTION; ``Source`` and ``Content`` spans are kept
in the groups ``polnear_source`` and ``polnear_content`` for the gate.
Discontinuous spans ("a b;c d") become one span per fragment.

Several annotators' files exist for some articles. The rule: use the file of
the annotator whose id sorts first. It is fixed, independent of content, and
gives one annotation per article.
"""

import re
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

from .gold import GoldSpan, GoldText

SPLITS = ("train", "dev", "test")
TEXT_BOUND = re.compile(r"^T\d+\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t")
GROUPS = {"Cue": ("ATTRIBUTION", "factwash_gold"), "Source": ("SOURCE", "polnear_source"),
          "Content": ("CONTENT", "polnear_content")}


def chosen_annotations(folder: Path) -> Dict[str, Path]:
    """The annotation file used for each article of a folder, by article: the first annotator id in sort order
    (the folder listed once, not once per article)."""
    chosen: Dict[str, Path] = {}
    for path in sorted(folder.glob("*_*.ann"), key=lambda p: p.stem.rsplit("_", 1)[1]):
        chosen.setdefault(path.stem.rsplit("_", 1)[0], path)
    return chosen


def parse_ann(path: Path) -> List[Tuple[str, List[Tuple[int, int]]]]:
    """The ``T`` lines of a brat file as (type, [(start, end), ...]).

    A span's text may hold newlines, which spill onto following lines of the
    file; only lines that open with a ``T`` id and offsets are read.
    """
    entities = []
    for line in path.read_text(encoding="utf8").splitlines():
        match = TEXT_BOUND.match(line)
        if match is None:
            continue
        fragments = [tuple(int(n) for n in fragment.split()) for fragment in match.group(2).split(";")]
        entities.append((match.group(1), fragments))
    return entities


def read(root: Path) -> Iterator[GoldText]:
    """Gold articles of the official train, dev and test compartments under ``root``."""
    data = root / "data"
    for subset in SPLITS:
        folder = data / subset / "attributions"
        annotations = chosen_annotations(folder)
        for text_path in sorted((data / subset / "text").glob("*.txt")):
            if text_path.stem not in annotations:
                raise FileNotFoundError(f"{folder}: no annotation file for {text_path.name}")
            text = text_path.read_text(encoding="utf8")
            spans = []
            for kind, fragments in parse_ann(annotations[text_path.stem]):
                if kind not in GROUPS:
                    continue
                label, group = GROUPS[kind]
                spans.extend(GoldSpan(start, end, label, group) for start, end in fragments)
            yield GoldText("polnear", subset, text_path.stem, text_path.stem, text, spans, is_sentence=False)
