"""The corpora the detectors are scored on: where each lives, how it is read, how it is halved.

Every corpus has a *dev* half (mining and error analysis) and a *test* half
(every reported figure). Corpora with an official split keep it: official
test is test, everything else (train and dev) is dev. BioScope and the
Szeged corpus have none: their halves come from the committed split files
(``split.py``).
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterator, Optional

from spacy_factwash.io.outputs import write_bytes

from . import bioscope, cdsco, polnear, szeged, tempeval
from .gold import GoldText
from .split import SplitError, make_split, read_split, select_half


@dataclass(frozen=True)
class Corpus:
    """A corpus: its folder under the corpora root, its reader, and its official halves (if any)."""

    name: str
    raw: str
    read: Callable[[Path], Iterator[GoldText]]
    official: Optional[Dict[str, str]] = None  # subset -> half
    origin: str = ""
    probe: str = ""  # a file under ``raw`` that must exist

    def check(self, root: Path) -> Optional[str]:
        """None when the corpus is in place under ``root``, else what is missing."""
        path = root / self.raw / self.probe
        return None if path.is_file() else f"{self.name}: {path} not found (public origin: {self.origin})"


CORPORA: Dict[str, Corpus] = {
    "bioscope": Corpus("bioscope", "bioscope/raw", bioscope.read,
                       origin="github.com/joey234/negation-focused-pretraining data/bioscope",
                       probe="abstracts.xml"),
    "szeged": Corpus("szeged", "szeged-uncertainty/raw", szeged.read,
                     origin="github.com/meyersbs/uncertainty corpora/old", probe="wiki.xml"),
    "cdsco": Corpus("cdsco", "sem2012-cdsco/raw", cdsco.read, {"train": "dev", "dev": "dev", "test": "test"},
                    origin="github.com/joey234/negation-focused-pretraining data/starsem-st-2012-data",
                    probe="starsem-st-2012-data/cd-sco/corpus/dev/SEM-2012-SharedTask-CD-SCO-dev-09032012.txt"),
    "polnear": Corpus("polnear", "polnear/raw", polnear.read, {"train": "dev", "dev": "dev", "test": "test"},
                      origin="github.com/networkdynamics/PolNeAR data", probe="data/metadata.tsv"),
    "tempeval": Corpus("tempeval", "tempeval3-timeml/raw", tempeval.read, {"train": "dev", "test": "test"},
                       origin="github.com/qiangning/StructTempRel-EMNLP17 data/TempEval3",
                       probe="TBAQ-cleaned/README.txt"),
}
HASH_SPLIT = [name for name, corpus in CORPORA.items() if corpus.official is None]


def split_path(split_dir: Path, corpus: str) -> Path:
    return split_dir / f"{corpus}.json"


def write_docbins(root: Path, split_dir: Path, out: Path, nlp=None) -> Dict[str, int]:
    """Save every corpus half as a DocBin of gold Docs (``out/<corpus>-<half>.spacy``, tokenized by ``nlp``: by
    default a blank English pipeline taking whole documents); returns Doc counts."""
    import spacy
    from spacy.tokens import DocBin

    from .gold import to_doc

    if nlp is None:
        nlp = spacy.blank("en")
        nlp.max_length = 10_000_000
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name in CORPORA:
        for half in ("dev", "test"):
            docbin = DocBin(store_user_data=True)
            for item in read_half(root, name, half, split_dir):
                docbin.add(to_doc(nlp, item))
            write_bytes(out / f"{name}-{half}.spacy", docbin.to_bytes())
            counts[f"{name}-{half}"] = len(docbin)
    return counts


def write_splits(root: Path, split_dir: Path) -> Dict[str, Path]:
    """Compute and write the split files of the corpora without an official split (claim-strength too)."""
    from .claim_strength import write_strength_split
    from .split import write_split

    written = {}
    for name in HASH_SPLIT:
        corpus = CORPORA[name]
        path = split_path(split_dir, name)
        write_split(path, make_split(corpus.read(root / corpus.raw)))
        written[name] = path
    written["claim-strength"] = write_strength_split(root, split_dir)
    return written


def check_splits(root: Path, split_dir: Path) -> Dict[str, Path]:
    """The committed split files in ``split_dir``, each checked against what the split rule writes now; a
    ``SplitError`` naming the first that differs (the committed split has drifted)."""
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        checked = {}
        for name, path in write_splits(root, Path(scratch)).items():
            committed = split_dir / path.name
            if not committed.is_file() or committed.read_bytes() != path.read_bytes():
                raise SplitError(f"{committed}: differs from the split rule's output; the committed split has drifted")
            checked[name] = committed
        return checked


def read_half(root: Path, name: str, half: str, split_dir: Path) -> Iterator[GoldText]:
    """The gold items of one half of one corpus."""
    corpus = CORPORA[name]
    items = corpus.read(root / corpus.raw)
    if corpus.official is not None:
        yield from (item for item in items if corpus.official[item.subset] == half)
        return
    yield from select_half(items, read_split(split_path(split_dir, name)), half, name)
