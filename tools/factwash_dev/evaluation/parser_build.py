"""Training, packaging and measuring the parse pipeline (the spacy project in ``training/parser/``).

``train`` runs ``spacy train`` in this process and records its wall time.
``package`` copies the trained components into the folder that ships with
the package (``pipelines/ewt_parser``), with the licence of the treebank the
model is derived from (CC BY-SA 4.0), a README and the build's provenance:
treebank commit and release, the rebuilt train set's digest, the config's
digest, the commands, the date and the training time. ``measure`` scores
the shipped pipeline on EWT dev and test (``ud_ewt.score``) and times it
against the tokenizer + sentencizer floor over the test sentences.
"""

import datetime
import json
import platform
import shutil
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

import spacy

from spacy_factwash.lexicon.frozen import sha256
from spacy_factwash.syntax.parse import LICENSE_NAME, PROVENANCE, ewt_parser_dir, parse_pipeline

from . import ud_ewt

TREEBANK = "github.com/UniversalDependencies/UD_English-EWT"
TREEBANK_COMMIT = "15d613d8447b3478787d4c278730a1e48a945efb"
LICENCE = "CC BY-SA 4.0"
TRAINED = ("tok2vec", "tagger", "morphologizer", "parser")
RUN_FILE = "train-run.json"
COMMAND = "FACTWASH_CORPORA=$(realpath ../shared/corpora) python -m weasel run all training/parser"


def train(config: Path, train_path: Path, dev_path: Path, output: Path, command: str) -> Dict[str, object]:
    """Train with spaCy on one CPU process, and write the run's wall time and settings beside the model."""
    from spacy.cli.train import train as spacy_train

    started = datetime.datetime.now(datetime.timezone.utc)
    clock = time.perf_counter()
    spacy_train(config, output, use_gpu=-1, overrides={"paths.train": str(train_path), "paths.dev": str(dev_path)})
    run = {
        "seconds": round(time.perf_counter() - clock, 1),
        "started": started.isoformat(timespec="seconds"),
        "command": command,
        "config": str(config),
        "config_sha256": sha256(Path(config).read_bytes()),
        "train_sha256": sha256(Path(train_path).read_bytes()),  # the train DocBin this run read
        "spacy": spacy.__version__,
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
    }
    (Path(output) / RUN_FILE).write_text(json.dumps(run, indent=1) + "\n", encoding="utf8")
    return run


def package(trained: Path, corpora: Path, dest: Optional[Path] = None) -> Path:
    """Write the shipped parse pipeline: the trained components, LICENSE, README.md and provenance.json.

    ``trained`` is the training output folder (its ``model-best`` is
    shipped). The train set is rebuilt and checked again, and its
    conversion must be the DocBin the run recorded it trained on.
    """
    dest = Path(dest) if dest is not None else ewt_parser_dir(must_exist=False)
    run_path = Path(trained) / RUN_FILE
    if not run_path.is_file():
        raise ud_ewt.EWTError(f"{trained}: no {RUN_FILE} (train it with parser-train)")
    run = json.loads(run_path.read_text(encoding="utf8"))
    with tempfile.TemporaryDirectory() as scratch:
        ewt_train = ud_ewt.rebuild_train(corpora, Path(scratch) / "train.conllu")
    if ewt_train["docbin_sha256"] != run["train_sha256"]:
        raise ud_ewt.EWTError(f"{trained} was not trained on the train set the treebank rebuilds to "
                              "(the DocBin it read is not the conversion of the rebuilt en_ewt-ud-train.conllu)")
    nlp = spacy.load(Path(trained) / "model-best")
    if nlp.pipe_names != list(TRAINED):
        raise ud_ewt.EWTError(f"{trained}: expected the components {TRAINED}, found {nlp.pipe_names}")
    nlp.meta.update({
        "name": "factwash_ewt_parser", "version": "0.1.0", "license": LICENCE,
        "description": "Tagger (PTB tags), morphologizer (UPOS, features) and dependency parser trained on "
                       "UD English EWT for spacy-factwash's cue sense and argument rules.",
        "sources": [{"name": "UD English EWT " + str(ewt_train["release"]), "url": f"https://{TREEBANK}",
                     "license": LICENCE, "commit": TREEBANK_COMMIT}],
        "performance": {},
    })
    if dest.exists():
        if not (dest / PROVENANCE).is_file():
            raise ud_ewt.EWTError(f"{dest}: exists and is not a parse pipeline this command wrote; not replacing it")
        shutil.rmtree(dest)
    nlp.to_disk(dest)
    provenance = {
        "treebank": TREEBANK, "commit": TREEBANK_COMMIT, "release": ewt_train["release"], "licence": LICENCE,
        "train_set": {key: value for key, value in ewt_train.items() if key != "path"},
        "training": run, "commands": [COMMAND],
        "packaged": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    (dest / PROVENANCE).write_text(json.dumps(provenance, indent=1) + "\n", encoding="utf8")
    shutil.copyfile(ud_ewt.ewt_root(corpora) / "LICENSE.txt", dest / LICENSE_NAME)
    (dest / "README.md").write_text(_readme(provenance), encoding="utf8")
    return dest


def _readme(provenance: Dict[str, object]) -> str:
    """The model folder's README: what it is, what it was trained on, under which licence."""
    run = provenance["training"]
    return (
        "# factwash_ewt_parser\n\n"
        "A small CPU pipeline (tok2vec, tagger, morphologizer, parser; spaCy's efficiency CNN) trained by the "
        "spacy project in `training/parser/` of spacy-factwash on the Universal Dependencies English Web Treebank, "
        f"{provenance['release']} ({provenance['treebank']} at commit {provenance['commit']}).\n\n"
        f"**Licence: {provenance['licence']}.** The model is derived from the treebank's annotations, which are "
        "licensed under the Creative Commons Attribution-ShareAlike 4.0 International License "
        "(the treebank's LICENSE.txt is copied beside this file as LICENSE). The code of spacy-factwash is MIT; "
        "this folder is not.\n\n"
        f"Trained with spaCy {run['spacy']} in {run['seconds'] / 60:.0f} minutes on one CPU process "
        f"(started {run['started']}); the settings, digests and commands are in `provenance.json`.\n"
    )


def measure(model: Path, corpora: Path, repeat: int = 3) -> Dict[str, object]:
    """Dev and test scores of the parse components on gold words, and their speed against the floor."""
    from ..bench.speed import best_seconds, floor_pipeline

    root = ud_ewt.ewt_root(corpora)
    nlp = spacy.load(model)
    scores = {split: ud_ewt.score(nlp, (root / f"en_ewt-ud-{split}.conllu").read_text(encoding="utf8"))
              for split in ("dev", "test")}
    texts = ud_ewt.raw_texts((root / "en_ewt-ud-test.conllu").read_text(encoding="utf8"))
    seconds = best_seconds({"floor": floor_pipeline(), "parse": parse_pipeline(model)}, texts, repeat)
    return {
        "scores": scores,
        "speed": {"sentences": len(texts), "floor_seconds": round(seconds["floor"], 3),
                  "parse_seconds": round(seconds["parse"], 3), "ratio": round(seconds["parse"] / seconds["floor"], 1),
                  "parse_words_per_second": round(scores["test"]["words"] / seconds["parse"])},
        "size_bytes": folder_size(model),
    }


def folder_size(path: Path) -> int:
    """The bytes of every file under a folder."""
    return sum(item.stat().st_size for item in Path(path).rglob("*") if item.is_file())


def published_figures(path: Path) -> List[Dict[str, object]]:
    """The published EWT figures the README compares with (``training/parser/published.json``), with sources."""
    return json.loads(Path(path).read_text(encoding="utf8"))


def figures_table(test: Dict[str, float], published: List[Dict[str, object]], model: Path) -> str:
    """The README's table: this model's EWT test figures beside the published ones, size and training time."""
    provenance = json.loads((Path(model) / PROVENANCE).read_text(encoding="utf8"))
    columns = ud_ewt.METRICS
    lines = [
        f"UD English EWT test set ({test['words']:,} words). This model: {provenance['release']}, gold tokenization "
        f"and sentences, every word counted (punctuation too), LAS on the universal relation, as conll18_ud_eval.py "
        f"does; {folder_size(model) / 2**20:.1f} MB on disk; trained in {provenance['training']['seconds'] / 60:.0f} "
        f"minutes on one CPU process.",
        "",
        "| system | treebank | input | " + " | ".join(columns) + " |",
        "|---|---|---|" + "---:|" * len(columns),
        f"| factwash_ewt_parser (spaCy CNN, this repository) | UD {provenance['release'].split(' -- ')[0].split()[-1][1:]} "
        "| gold tokenization | " + " | ".join(f"{test[c]:.2f}" for c in columns) + " |",
    ]
    for row in published:
        lines.append(f"| {row['system']} | {row['treebank']} | {row['input']} | "
                     + " | ".join(f"{row[c]}" for c in columns) + " |")
    return "\n".join(lines) + "\n"
