"""UD English EWT: rebuilding its official train set, and scoring a parse against its gold trees.

The corpus snapshot (``$FACTWASH_CORPORA/ud-english-ewt/raw``) lacks
``en_ewt-ud-train.conllu``; the official file is the concatenation of the
per-document files under ``not-to-release/sources/`` in the order of
``not-to-release/file-lists/files.train``. ``rebuild_train`` writes it and
checks the procedure twice before anyone trains on it: the same
concatenation of ``files.dev`` and ``files.test`` must give the official dev
and test files byte for byte, and the three sets together must hold the
sentences and words the treebank's README states. Any difference is an error.

``score`` measures a pipeline on gold tokenization and gold sentences, as
the CoNLL 2018 shared task's ``conll18_ud_eval.py`` does on gold input:
UPOS, XPOS, UFeats, UAS and LAS over every word, punctuation included, LAS
comparing the universal part of the relation (``nmod`` for ``nmod:poss``).
spaCy's own scorer leaves punctuation out, which is not how published UD
figures are counted.
"""

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List

from spacy.language import Language
from spacy.tokens import Doc

from spacy_factwash.lexicon.frozen import sha256

EWT_DIR = "ud-english-ewt/raw"
SPLITS = ("train", "dev", "test")
# The README's "Structure" section: "The corpus comprises 254,818 words and 16,622 sentences (see [stats](stats.xml))"
STATISTICS = re.compile(r"comprises\s+([\d,]+)\s+words\s+and\s+([\d,]+)\s+sentences\s+\(see")


class EWTError(ValueError):
    """The treebank is missing, or the rebuilt train set is not the official one."""


@dataclass(frozen=True)
class Counts:
    """Sentences and syntactic words (integer ids; no multiword ranges, no empty nodes) in CoNLL-U text."""

    sentences: int
    words: int

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(self.sentences + other.sentences, self.words + other.words)


def ewt_root(corpora: Path) -> Path:
    """The treebank folder under the corpora root; an error naming it when it is not there."""
    root = Path(corpora) / EWT_DIR
    if not (root / "README.md").is_file():
        raise EWTError(f"{root}: UD English EWT not found (public origin: github.com/UniversalDependencies/UD_English-EWT)")
    return root


def rebuild(root: Path, split: str) -> str:
    """One set as the concatenation of its per-document source files, in the order of its file list."""
    listing = root / "not-to-release" / "file-lists" / f"files.{split}"
    if not listing.is_file():
        raise EWTError(f"{listing}: file list not found")
    parts = []
    for line_number, name in enumerate(listing.read_text(encoding="utf8").splitlines(), 1):
        if not name.strip():
            continue
        source = root / "not-to-release" / "sources" / name.strip()
        if not source.is_file():
            raise EWTError(f"{listing}:{line_number}: {source} not found")
        parts.append(source.read_text(encoding="utf8"))
    return "".join(parts)


def count(conllu: str) -> Counts:
    """Count the sentences and syntactic words of CoNLL-U text."""
    sentences = words = 0
    for line in conllu.splitlines():
        if line.startswith("# sent_id"):
            sentences += 1
        elif line and line[0].isdigit() and line.split("\t", 1)[0].isdigit():
            words += 1
    return Counts(sentences, words)


def readme_statistics(readme: str) -> Counts:
    """The whole treebank's sentences and words as its README states them."""
    found = STATISTICS.search(readme)
    if found is None:
        raise EWTError("the treebank README states no word and sentence counts ('comprises N words and M sentences')")
    words, sentences = (int(group.replace(",", "")) for group in found.groups())
    return Counts(sentences, words)


def rebuild_train(corpora: Path, out: Path) -> Dict[str, object]:
    """Write the official train set to ``out`` after checking the rebuild; return what was checked."""
    root = ewt_root(corpora)
    counts: Dict[str, Counts] = {}
    for split in ("dev", "test"):
        official = root / f"en_ewt-ud-{split}.conllu"
        rebuilt = rebuild(root, split)
        if rebuilt.encode("utf8") != official.read_bytes():
            raise EWTError(f"concatenating files.{split} does not give {official}: the rebuild procedure is wrong")
        counts[split] = count(rebuilt)
    train = rebuild(root, "train")
    counts["train"] = count(train)
    stated = readme_statistics((root / "README.md").read_text(encoding="utf8"))
    total = counts["train"] + counts["dev"] + counts["test"]
    if total != stated:
        expected = Counts(stated.sentences - counts["dev"].sentences - counts["test"].sentences,
                          stated.words - counts["dev"].words - counts["test"].words)
        raise EWTError(
            f"rebuilt train set has {counts['train'].sentences:,} sentences and {counts['train'].words:,} words; "
            f"the README's statistics ({stated.sentences:,} sentences, {stated.words:,} words in all) leave "
            f"{expected.sentences:,} and {expected.words:,} for train"
        )
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = train.encode("utf8")
    out.write_bytes(data)
    return {
        "path": str(out),
        "sha256": sha256(data),
        "docbin_sha256": sha256(docbin_bytes(train)),
        "release": release_line(root),
        **{f"{split}_{field}": getattr(counts[split], field) for split in SPLITS for field in ("sentences", "words")},
    }


N_SENTS = 10  # sentences per Doc, as training/parser/project.yml converts them


def docbin_bytes(conllu: str, n_sents: int = N_SENTS) -> bytes:
    """The DocBin ``spacy convert --converter conllu --n-sents 10`` writes for this CoNLL-U text, byte for byte."""
    from spacy.tokens import DocBin
    from spacy.training.converters import conllu_to_docs

    return DocBin(docs=conllu_to_docs(conllu, n_sents=n_sents, no_print=True), store_user_data=True).to_bytes()


def release_line(root: Path) -> str:
    """The release the README names ("Universal Dependencies English Web Treebank v2.15 -- 2024-11-15")."""
    for line in (root / "README.md").read_text(encoding="utf8").splitlines():
        if "English Web Treebank v" in line:
            return line.strip()
    return "unknown release"


# -- scoring on gold tokenization ---------------------------------------------------------------


@dataclass(frozen=True)
class GoldWord:
    """One syntactic word of a gold sentence."""

    form: str
    space_after: bool
    upos: str
    xpos: str
    feats: str
    head: int  # 0 for the root, else the 1-based id of the head
    deprel: str


def read_sentences(conllu: str) -> Iterator[List[GoldWord]]:
    """The gold sentences of CoNLL-U text, each a list of its syntactic words."""
    sentence: List[GoldWord] = []
    for line in conllu.splitlines():
        if not line:
            if sentence:
                yield sentence
            sentence = []
            continue
        if line.startswith("#"):
            continue
        columns = line.split("\t")
        if not columns[0].isdigit():
            continue  # a multiword token's range or an empty node
        sentence.append(GoldWord(
            form=columns[1], space_after="SpaceAfter=No" not in columns[9], upos=columns[3], xpos=columns[4],
            feats="" if columns[5] == "_" else columns[5], head=int(columns[6]), deprel=columns[7],
        ))
    if sentence:
        yield sentence


def universal(deprel: str) -> str:
    """The universal part of a relation, as conll18_ud_eval.py compares it."""
    return deprel.split(":", 1)[0].lower()


METRICS = ("UPOS", "XPOS", "UFeats", "UAS", "LAS")


def score(nlp: Language, conllu: str, batch_size: int = 256) -> Dict[str, float]:
    """Accuracy (%) of a pipeline's tags and tree on gold words, one Doc per gold sentence.

    The pipeline's own sentence boundaries are not used: each gold sentence
    is parsed as a Doc of its own (the shared task's gold-segmentation
    setting). Metrics whose annotation the pipeline does not set are left out.
    """
    sentences = list(read_sentences(conllu))
    docs = (Doc(nlp.vocab, words=[w.form for w in s], spaces=[w.space_after for w in s]) for s in sentences)
    hits = dict.fromkeys(METRICS, 0)
    total = 0
    annotated = set()
    for gold, doc in zip(sentences, nlp.pipe(docs, batch_size=batch_size)):
        annotated |= {name for name, attr in (("UPOS", "POS"), ("XPOS", "TAG"), ("UFeats", "MORPH"),
                                               ("UAS", "DEP"), ("LAS", "DEP")) if doc.has_annotation(attr)}
        for word, token in zip(gold, doc):
            total += 1
            head = 0 if token.head.i == token.i else token.head.i + 1
            hits["UPOS"] += token.pos_ == word.upos
            hits["XPOS"] += token.tag_ == word.xpos
            hits["UFeats"] += str(token.morph) == word.feats
            if head == word.head:
                hits["UAS"] += 1
                hits["LAS"] += universal(token.dep_) == universal(word.deprel)
    if not total:
        raise EWTError("no gold words to score")
    return {name: round(100 * hits[name] / total, 2) for name in METRICS if name in annotated} | {"words": total}


def raw_texts(conllu: str) -> List[str]:
    """The ``# text =`` line of every sentence: raw text for speed measurements."""
    prefix = "# text = "
    return [line[len(prefix):] for line in conllu.splitlines() if line.startswith(prefix)]
