"""What a clean install must give, and the speed benchmark's output on the real corpus.

A subpackage or data file the build leaves out breaks every installed use while a source checkout still works, and
the suite runs on an editable checkout (``.ci/run``; the wheel's own file list is read by ``test_wheel.py``): the
build's lists are checked against the tree.
"""

import fnmatch
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_factwash
from factwash_dev.cli import app
from factwash_dev.evaluation.bioscope import read_sentences
from spacy_factwash.lexicon.frozen import packaged_lexicon_dir

ROOT = Path(__file__).resolve().parent.parent
SETUPTOOLS = pytest.importorskip("tomllib").loads((ROOT / "pyproject.toml").read_text(encoding="utf8"))["tool"]["setuptools"]


def test_the_lexicons_ship_inside_the_installed_package():
    package = Path(spacy_factwash.__file__).resolve().parent
    if package.parent == ROOT:  # a source checkout (an editable install): the lexicons sit beside the package
        assert packaged_lexicon_dir() == ROOT / "lexicons"
    else:
        assert packaged_lexicon_dir() == package / "data" / "lexicons"
        assert sorted(p.name for p in (package / "data" / "lexicons").glob("*.jsonl")) == sorted(
            p.name for p in (ROOT / "lexicons").glob("*.jsonl")
        )


def test_load_is_the_documented_default_pipeline():
    nlp = spacy_factwash.load()
    assert nlp.pipe_names == ["sentencizer", "factwash_lemmas", "factwash_cues", "factwash_strength", "factwash_compare"]
    assert [t.lemma_ for t in nlp("she was promoted")] == ["she", "be", "promote"]


def test_bioscope_reader_counts_the_documented_sentences(corpora):
    assert len(read_sentences(corpora / "bioscope" / "raw" / "abstracts.xml")) == 11_871


def test_bench_speed_prints_rates_and_ratios_on_bioscope(corpora):
    result = CliRunner().invoke(app, ["bench-speed", "--limit", "500", "--repeat", "1",
                                      "--corpus", str(corpora / "bioscope" / "raw" / "abstracts.xml")])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "sentences/s" in line]
    assert len(lines) == 3 and lines[0].rstrip().endswith("ratio 1.00")
    ratios = [float(line.rsplit("ratio", 1)[1]) for line in lines]
    assert all(r > 0 for r in ratios)


def test_bench_speed_without_a_corpus_says_how_to_give_one(monkeypatch):
    monkeypatch.delenv("FACTWASH_CORPORA", raising=False)
    result = CliRunner().invoke(app, ["bench-speed"])
    assert result.exit_code == 1 and "FACTWASH_CORPORA" in result.output


def test_factwash_lemmas_equal_spacys_lookup_lemmatizer(corpora):
    import spacy

    texts = read_sentences(corpora / "bioscope" / "raw" / "abstracts.xml")[:2000] + [
        "Sources said they were running", "Alice's cats ran.", "", "   "]
    reference = spacy.blank("en")
    reference.add_pipe("lemmatizer", config={"mode": "lookup"})
    reference.initialize()
    ours = spacy.blank("en")
    ours.add_pipe("factwash_lemmas")
    for a, b in zip(reference.pipe(texts), ours.pipe(texts)):
        assert [t.lemma_ for t in a] == [t.lemma_ for t in b]


def test_factwash_lemmas_keep_lemmas_already_set_and_work_on_a_foreign_vocab():
    import spacy
    from spacy.tokens import Doc

    nlp = spacy.blank("en")
    lemmas = nlp.add_pipe("factwash_lemmas")
    doc = Doc(spacy.blank("en").vocab, words=["cats", "were", "running"], lemmas=["CAT", "", ""])
    assert [t.lemma_ for t in lemmas(doc)] == ["CAT", "be", "run"]


def test_bench_gate_prints_rates_processes_and_stream_memory(corpora):
    result = CliRunner().invoke(app, ["bench-gate", "--corpora", str(corpora), "--polnear-pairs", "120",
                                      "--stream-pairs", "300", "--long-sentences", "100",
                                      "--growth-from", "100"])
    assert result.exit_code == 0, result.output
    rates = [line for line in result.output.splitlines() if "pairs/s" in line]
    assert any("n_process=1" in line for line in rates)
    per_call = [line for line in rates if "inspect() once per pair on the written sets: " in line]
    assert len(per_call) == 1 and "one call at a time: " in per_call[0] and per_call[0].endswith("x the floor)")
    assert "resident memory while streaming: 30: " in result.output and "growth from the first" in result.output
    assert "long document: 100 source sentences, 10 memory sentences: annotated in" in result.output
    assert "repetitive source (sentences): 100: annotate" in result.output and "400: annotate" in result.output
    assert "cue-dense text, no sentences (words): 400: annotate" in result.output and "1,600: annotate" in result.output


def test_every_cython_source_is_compiled_by_setup_py():
    """setup.py builds each of the package's compiled passes, by module name and source path."""
    listed = (ROOT / "setup.py").read_text(encoding="utf8")
    sources = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "spacy_factwash").rglob("*.pyx"))
    assert sources
    for source in sources:
        module = source[:-len(".pyx")].replace("/", ".")
        assert f'"{module}": "{source}"' in listed, f"setup.py does not build {source} as {module}"


def test_every_package_in_the_source_tree_is_built():
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "spacy_factwash").rglob("__init__.py")}
    missing = found - set(SETUPTOOLS["packages"])
    assert not missing, f"packages in the tree that pyproject.toml does not build: {sorted(missing)}"


@pytest.mark.parametrize("package", [p for p in SETUPTOOLS["packages"] if p not in SETUPTOOLS.get("package-dir", {})])
def test_every_data_file_beside_the_code_is_shipped(package):
    """A package's non-Python files all match its package-data patterns (the lexicons and the parse pipeline, mapped
    from top-level folders by package-dir, are left to the lexicon test above and tests/test_parser.py; the compiled
    passes' Cython sources and what building them leaves, to the test below)."""
    folder = ROOT / package.replace(".", "/")
    patterns = SETUPTOOLS.get("package-data", {}).get(package, [])
    data = [path.relative_to(folder).as_posix() for path in folder.iterdir()
            if path.is_file() and path.suffix not in {".py", ".pyc", ".pyx", ".cpp", ".so"}]
    missing = [name for name in data if not any(fnmatch.fnmatch(name, pattern) for pattern in patterns)]
    assert not missing, f"{package}: files the wheel would leave out: {missing}"
