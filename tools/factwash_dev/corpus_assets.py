"""Where each corpus comes from publicly, as the weasel assets in ``training/project.yml`` that fetch it.

``python -m weasel assets --sparse training/`` fetches every corpus into ``training/assets/corpora``, laid out as
the shared copy is (``<corpus>/raw/...``, the distribution's own paths), so ``FACTWASH_CORPORA=training/assets/corpora``
runs the same tests. The commits are the ones the shared copy was taken from (its ``SOURCES.md``).

Two kinds of asset, because weasel's ``git`` asset clones a branch or a tag (``git clone -b``) and cannot name a
commit:

- a fixed file is a ``url`` asset at the commit's raw address with its MD5, which weasel checks after the download;
- a large folder of a repository that has not moved since is a ``git`` asset (``repo``, ``branch``, ``path``) with
  the checksum weasel computes for a folder. weasel only reads that checksum to skip a folder already in place, so
  ``check-corpora`` compares it too, and says which folder differs from the pinned commit. weasel's git asset needs
  its destination's parent folder to exist: one ``url`` asset for a file inside the folder goes first and makes it.

The block between the markers in ``training/project.yml`` is written by ``python tools/dev.py corpus-assets`` from
``SOURCES`` below and a corpora folder (the shared copy, whose files are the pinned commits' bytes).
"""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Optional

DEST = "assets/corpora"  # under training/
START = "  # corpora: start (written by `python tools/dev.py corpus-assets`; do not edit by hand)"
END = "  # corpora: end"


@dataclass(frozen=True)
class Source:
    """A file or folder of a corpus (``raw``, under ``<corpus>/raw``; "" for the whole of it) and where it is in a
    public repository: ``path`` at ``commit``; fetched as one git asset from ``branch`` when one is named, else
    file by file at the commit."""

    corpus: str
    raw: str
    repo: str
    commit: str
    path: str
    branch: Optional[str] = None

    def file_path(self, relative: str) -> str:
        """The repository path of the corpus file ``raw/relative``."""
        inner = relative[len(self.raw):].lstrip("/") if self.raw else relative
        return "/".join(part for part in (self.path, inner) if part)


JOEY = ("joey234/negation-focused-pretraining", "c90be5e8ce73dcabe09d06e7e1ef94b7622f79e5")
POLNEAR = ("networkdynamics/PolNeAR", "c3eee833c035bf7b8c84f55b58c0bf7346cfae76")
FRANK = "artidoro/frank"
TEMPEVAL = ("qiangning/StructTempRel-EMNLP17", "d6518a5a79d940d749c95ee5b72830714b132238")
EWT = ("UniversalDependencies/UD_English-EWT", "15d613d8447b3478787d4c278730a1e48a945efb")

SOURCES: List[Source] = [
    Source("bioscope", "", *JOEY, "data/bioscope"),
    Source("szeged-uncertainty", "", "meyersbs/uncertainty", "3bd0816da3d0840eb3cf292ed39f49ae944f6fcb", "corpora/old"),
    Source("sem2012-cdsco", "starsem-st-2012-data", *JOEY, "data/starsem-st-2012-data"),
    Source("polnear", "data/metadata.tsv", *POLNEAR, "data/metadata.tsv"),
    *[Source("polnear", f"data/{part}", *POLNEAR, f"data/{part}", branch="master")
      for part in ("train/text", "train/attributions", "dev/text", "dev/attributions", "test/text",
                   "test/attributions", "annotator-training/text", "annotator-training/attributions",
                   "parc3-replication/attributions")],
    Source("frank", "LICENSE", FRANK, "80a88fb12cc0bfc17ff6ee2c5ebb0c4f4dd8a5f4", "LICENSE"),
    Source("frank", "data", FRANK, "80a88fb12cc0bfc17ff6ee2c5ebb0c4f4dd8a5f4", "data"),
    # the texts survive only in the initial commit: no branch holds them
    Source("frank", "initial-commit-5860706/data", FRANK, "5860706bda0641136d10d27ead52c5f6ae79630e", "data"),
    Source("tempeval3-timeml", "TBAQ-cleaned", *TEMPEVAL, "data/TempEval3/Training/TBAQ-cleaned", branch="master"),
    Source("tempeval3-timeml", "te3-platinum", *TEMPEVAL, "data/TempEval3/Evaluation/te3-platinum", branch="master"),
    Source("summedits", "", "salesforce/factualNLG", "0da1dfa62c783218d26208c1796d3a2605bec745", ""),
    Source("claim-strength", "", "junwang4/correlation-to-causation-exaggeration",
           "00337f35825f4f116eaba6688f98b902a49c971c", ""),
    Source("certainty", "", "Jiaxin-Pei/Certainty-in-Science-Communication", "39a786360c213abccbc0bb2a16640b0316f5175f",
           ""),
    Source("ud-english-ewt", "", *EWT, ""),
    *[Source("ud-english-ewt", f"not-to-release/{part}", *EWT, f"not-to-release/{part}", branch="r2.16")
      for part in ("sources", "file-lists")],
    # the main branch moves: every file at the commit
    Source("open-english-wordnet", "", "globalwordnet/english-wordnet", "d94538ad0df3d7a4c77837bde6af69d7a6592c32", ""),
]


def checksum(path: Path) -> str:
    """The MD5 weasel computes for an asset (``weasel.util.get_checksum``): of a file's bytes, or of the bytes of
    every file in a folder in sorted path order."""
    digest = hashlib.md5()
    for file in sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]:
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _files(folder: Path) -> List[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _under(relative: str, prefix: str) -> bool:
    return not prefix or relative == prefix or relative.startswith(prefix + "/")


def _url_asset(source: Source, relative: str, raw: Path) -> Dict[str, str]:
    return {"dest": f"{DEST}/{source.corpus}/raw/{relative}",
            "url": f"https://raw.githubusercontent.com/{source.repo}/{source.commit}/{source.file_path(relative)}",
            "checksum": checksum(raw / relative)}


def _owner(corpus: str, name: str) -> Source:
    """The source the corpus file ``raw/name`` comes from: the most specific one holding it."""
    return max((s for s in SOURCES if s.corpus == corpus and _under(name, s.raw)), key=lambda s: len(s.raw))


def assets(root: Path) -> Iterator[Dict]:
    """The weasel assets for every source, the checksums read from the corpora folder ``root``: a url asset for every
    file of a commit's source, and for a branch's folder the url asset of its first file (which makes the folder's
    parents) and then the folder."""
    for source in SOURCES:
        raw = root / source.corpus / "raw"
        if not source.branch:
            yield from (_url_asset(source, name, raw) for name in _files(raw) if _owner(source.corpus, name) is source)
            continue
        yield _url_asset(source, next(name for name in _files(raw) if _under(name, source.raw)), raw)
        yield {"dest": f"{DEST}/{source.corpus}/raw/{source.raw}",
               "git": {"repo": f"https://github.com/{source.repo}", "branch": source.branch, "path": source.path},
               "checksum": checksum(raw / source.raw),
               "description": f"{source.corpus}: {source.path} as at commit {source.commit}"}


def _line(asset: Dict) -> str:
    """One asset as a YAML flow mapping on one line (JSON, which YAML reads)."""
    return "  - " + json.dumps(asset, ensure_ascii=False)


def block(root: Path) -> str:
    """The generated part of the project's ``assets:`` list, markers included."""
    return "\n".join([START, *map(_line, assets(root)), END])


def replace_block(project: str, root: Path) -> str:
    """``project`` (the text of training/project.yml) with its generated block rewritten."""
    if START not in project or END not in project:
        raise ValueError("the corpora markers are missing from the project file")
    before, rest = project.split(START, 1)
    return before + block(root) + rest.split(END, 1)[1]


def differences(project: dict, root: Path) -> List[str]:
    """What in the corpora folder ``root`` differs from the project's corpus assets (a loaded training/project.yml):
    each file or folder that is missing or whose checksum is not the pinned commit's."""
    found = []
    for asset in project.get("assets", []):
        if not asset["dest"].startswith(DEST + "/") or not asset.get("checksum"):
            continue
        path = root / asset["dest"][len(DEST) + 1:]
        if not path.exists():
            found.append(f"{path}: missing")
        elif checksum(path) != asset["checksum"]:
            origin = asset.get("description") or asset.get("url", "")
            found.append(f"{path}: differs from the pinned commit ({origin})")
    return found
