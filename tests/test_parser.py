"""The parse pipeline: rebuilding EWT's train set, scoring on gold words, shipping, and loading it anywhere."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from conftest import made_once, perturbed_drift, readme_drift
from spacy.language import Language
from typer.testing import CliRunner

import spacy_factwash
from factwash_dev.cli import app
from factwash_dev.evaluation import ud_ewt
from factwash_dev.evaluation.parser_build import COMMAND, LICENCE, TREEBANK_COMMIT
from factwash_dev.evaluation.readme import PARSER
from spacy_factwash.lexicon.frozen import sha256
from spacy_factwash.syntax.parse import LICENSE_NAME, PROVENANCE, ewt_parser_dir

ROOT = Path(__file__).resolve().parent.parent


# -- a small treebank with the snapshot's layout --------------------------------------------


def _sentence(sent_id: str, words, heads, deprels) -> str:
    lines = [f"# sent_id = {sent_id}", "# text = " + " ".join(words)]
    for i, (word, head, deprel) in enumerate(zip(words, heads, deprels), 1):
        upos = "PUNCT" if word == "." else "NOUN"
        feats = "_" if word == "." else "Number=Sing"
        lines.append(f"{i}\t{word}\t{word}\t{upos}\t{'.' if word == '.' else 'NN'}\t{feats}\t{head}\t{deprel}\t_\t_")
    return "\n".join(lines) + "\n\n"


def make_treebank(root: Path, stated_sentences: int = 4, stated_words: int = 11) -> Path:
    """Four documents of one sentence each: two for train, one each for dev and test; a README with its counts."""
    raw = root / ud_ewt.EWT_DIR
    sources, lists = raw / "not-to-release" / "sources" / "weblog", raw / "not-to-release" / "file-lists"
    sources.mkdir(parents=True)
    lists.mkdir(parents=True)
    docs = {
        "a": _sentence("a-1", ["Alice", "sleeps", "."], [2, 0, 2], ["nsubj", "root", "punct"]),
        "b": _sentence("b-1", ["Bob", "reads", "books", "."], [2, 0, 2, 2], ["nsubj", "root", "obj", "punct"]),
        "c": _sentence("c-1", ["Carol", "runs"], [2, 0], ["nsubj", "root"]),
        "d": _sentence("d-1", ["Dan", "eats"], [2, 0], ["nsubj", "root"]),
    }
    for name, text in docs.items():
        (sources / f"{name}.conllu").write_text(text, encoding="utf8")
    for split, names in (("train", "ba"), ("dev", "c"), ("test", "d")):
        (lists / f"files.{split}").write_text("".join(f"weblog/{n}.conllu\n" for n in names), encoding="utf8")
        if split != "train":
            (raw / f"en_ewt-ud-{split}.conllu").write_text("".join(docs[n] for n in names), encoding="utf8")
    (raw / "README.md").write_text(
        "Universal Dependencies English Web Treebank v9.9 -- 2099-01-01\n\n"
        f"The corpus comprises {stated_words:,} words and {stated_sentences:,}\nsentences (see [stats](stats.xml)).\n",
        encoding="utf8")
    (raw / "LICENSE.txt").write_text("CC BY-SA 4.0 (test stand-in)\n", encoding="utf8")
    (root / "SOURCES.md").write_text("the corpora folder (test stand-in)\n", encoding="utf8")
    return root


def test_rebuild_concatenates_the_train_documents_in_list_order(tmp_path):
    corpora = make_treebank(tmp_path / "corpora")
    result = ud_ewt.rebuild_train(corpora, tmp_path / "train.conllu")
    text = (tmp_path / "train.conllu").read_text(encoding="utf8")
    assert text.index("sent_id = b-1") < text.index("sent_id = a-1")
    assert (result["train_sentences"], result["train_words"]) == (2, 7)
    assert result["sha256"] == sha256(text.encode("utf8"))
    assert result["docbin_sha256"] == sha256(ud_ewt.docbin_bytes(text))
    assert result["release"].startswith("Universal Dependencies English Web Treebank v9.9")


@pytest.mark.parametrize("sentences, words", [(5, 11), (4, 12)])
def test_a_rebuild_that_disagrees_with_the_readme_fails_loudly_and_writes_nothing(tmp_path, sentences, words):
    corpora = make_treebank(tmp_path / "corpora", stated_sentences=sentences, stated_words=words)
    with pytest.raises(ud_ewt.EWTError, match="README's statistics"):
        ud_ewt.rebuild_train(corpora, tmp_path / "train.conllu")
    assert not (tmp_path / "train.conllu").exists()


def test_a_file_list_that_does_not_rebuild_the_official_dev_set_is_an_error(tmp_path):
    corpora = make_treebank(tmp_path / "corpora")
    (corpora / ud_ewt.EWT_DIR / "not-to-release" / "file-lists" / "files.dev").write_text("weblog/d.conllu\n")
    with pytest.raises(ud_ewt.EWTError, match="does not give .*en_ewt-ud-dev.conllu"):
        ud_ewt.rebuild_train(corpora, tmp_path / "train.conllu")


def test_a_listed_document_that_is_missing_is_named(tmp_path):
    corpora = make_treebank(tmp_path / "corpora")
    (corpora / ud_ewt.EWT_DIR / "not-to-release" / "sources" / "weblog" / "a.conllu").unlink()
    with pytest.raises(ud_ewt.EWTError, match=r"files\.train:2: .*a\.conllu not found"):
        ud_ewt.rebuild_train(corpora, tmp_path / "train.conllu")


def test_ewt_train_command_reports_the_counts_or_one_line_error(tmp_path):
    corpora = make_treebank(tmp_path / "corpora")
    ok = CliRunner().invoke(app, ["ewt-train", str(tmp_path / "t.conllu"), "--corpora", str(corpora)])
    assert ok.exit_code == 0 and "train       2 sentences" in ok.output
    (corpora / ud_ewt.EWT_DIR / "README.md").write_text("no statistics here\n")
    bad = CliRunner().invoke(app, ["ewt-train", str(tmp_path / "t2.conllu"), "--corpora", str(corpora)])
    assert bad.exit_code == 1 and "states no word and sentence counts" in bad.output


def test_the_real_rebuild_has_the_official_train_size(corpora, tmp_path):
    result = ud_ewt.rebuild_train(corpora, tmp_path / "train.conllu")
    stated = ud_ewt.readme_statistics((ud_ewt.ewt_root(corpora) / "README.md").read_text(encoding="utf8"))
    assert result["train_sentences"] == stated.sentences - result["dev_sentences"] - result["test_sentences"]
    assert result["train_sentences"] == 12_544  # UD 2.15's en_ewt-ud-train.conllu
    provenance = json.loads((ewt_parser_dir() / PROVENANCE).read_text(encoding="utf8"))
    assert result["docbin_sha256"] == provenance["training"]["train_sha256"]  # the shipped model read this train set


# -- scoring on gold words ---------------------------------------------------------------------


def _gold_pipeline(conllu: str, break_first_head: bool = False) -> Language:
    """A pipeline that copies the gold annotation onto each sentence, optionally with one wrong head."""
    gold = {tuple(w.form for w in s): s for s in ud_ewt.read_sentences(conllu)}
    nlp = spacy.blank("en")
    name = f"copy_gold_{id(conllu)}_{break_first_head}"

    @Language.component(name)
    def copy_gold(doc):
        words = gold[tuple(t.text for t in doc)]
        for token, word in zip(doc, words):
            token.pos_, token.tag_ = word.upos, word.xpos
            token.set_morph(word.feats or None)
            token.head = doc[word.head - 1] if word.head else token
            token.dep_ = word.deprel
        if break_first_head and doc[0].text == "Bob":
            doc[0].head = doc[2]
        return doc

    nlp.add_pipe(name)
    return nlp


def test_score_is_perfect_for_the_gold_tree_and_counts_punctuation(tmp_path):
    conllu = (make_treebank(tmp_path) / ud_ewt.EWT_DIR / "not-to-release" / "sources" / "weblog" / "b.conllu").read_text()
    assert ud_ewt.score(_gold_pipeline(conllu), conllu) == {
        "UPOS": 100.0, "XPOS": 100.0, "UFeats": 100.0, "UAS": 100.0, "LAS": 100.0, "words": 4}
    # one wrong head of four words (the period counts): UAS and LAS lose exactly a quarter
    broken = ud_ewt.score(_gold_pipeline(conllu, break_first_head=True), conllu)
    assert (broken["UAS"], broken["LAS"], broken["UPOS"]) == (75.0, 75.0, 100.0)


def test_score_compares_the_universal_part_of_a_relation():
    assert ud_ewt.universal("nmod:poss") == ud_ewt.universal("nmod") == "nmod"
    assert ud_ewt.universal("ROOT") == "root"


def test_score_leaves_out_what_the_pipeline_does_not_annotate(tmp_path):
    conllu = (make_treebank(tmp_path) / ud_ewt.EWT_DIR / "en_ewt-ud-dev.conllu").read_text()
    assert ud_ewt.score(spacy.blank("en"), conllu) == {"words": 2}


# -- the shipped pipeline ----------------------------------------------------------------------------

MODEL = ewt_parser_dir(must_exist=False)


def test_the_shipped_pipeline_loads_with_plain_spacy_in_a_fresh_process():
    code = ("import json, spacy; nlp = spacy.load(%r); doc = nlp('Officials stated that the road is closed.'); "
            "print(json.dumps([nlp.pipe_names, [t.dep_ for t in doc], nlp.meta['license']]))" % str(ewt_parser_dir()))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    names, deps, licence = json.loads(out.stdout.strip().splitlines()[-1])
    assert names == ["tok2vec", "tagger", "morphologizer", "parser"]
    assert deps.count("ROOT") == 1 and all(deps)
    assert licence == LICENCE == "CC BY-SA 4.0"


def test_load_parse_true_in_a_fresh_process_puts_the_factwash_components_after_the_parse():
    code = ("import json, spacy_factwash; nlp = spacy_factwash.load(parse=True); "
            "doc = nlp('The state of Texas sued. Officials stated that the road is closed.'); "
            "print(json.dumps([nlp.pipe_names, [(s.label_, s.text) for s in doc.spans['factwash_cues']]]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    names, cues = json.loads(out.stdout.strip().splitlines()[-1])
    assert names == ["sentencizer", "tok2vec", "tagger", "morphologizer", "parser",
                     "factwash_lemmas", "factwash_cues", "factwash_strength", "factwash_compare"]
    assert cues == [["ATTRIBUTION", "stated"]]


def test_the_default_pipeline_stays_parse_free():
    assert spacy_factwash.load().pipe_names == ["sentencizer", "factwash_lemmas", "factwash_cues", "factwash_strength",
                                                "factwash_compare"]


def test_the_model_says_its_licence_wherever_it_ships():
    assert "Attribution-ShareAlike 4.0" in (MODEL / LICENSE_NAME).read_text(encoding="utf8")
    assert "CC BY-SA 4.0" in (MODEL / "README.md").read_text(encoding="utf8")
    assert json.loads((MODEL / "meta.json").read_text(encoding="utf8"))["license"] == "CC BY-SA 4.0"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf8")
    assert "CC-BY-SA-4.0" in pyproject.split("\nlicense = ", 1)[1].split("\n")[0]  # an SPDX expression
    assert f'"pipelines/ewt_parser/{LICENSE_NAME}"' in pyproject.split("\nlicense-files = ", 1)[1].split("\n")[0]


def test_the_models_provenance_ties_it_to_the_treebank_and_the_committed_config():
    provenance = json.loads((MODEL / PROVENANCE).read_text(encoding="utf8"))
    assert provenance["commit"] == TREEBANK_COMMIT and provenance["licence"] == LICENCE
    assert provenance["release"].startswith("Universal Dependencies English Web Treebank v2.15")
    assert provenance["train_set"]["train_sentences"] == 12_544
    assert provenance["commands"] == [COMMAND]
    config = ROOT / "training" / "parser" / "configs" / "parser.cfg"
    assert provenance["training"]["config_sha256"] == sha256(config.read_bytes()), (
        "the committed config is not the one the shipped model was trained with: retrain (training/parser)")
    assert provenance["training"]["seconds"] < 3600  # the budget: under an hour on this machine, one process


def test_the_parse_pipeline_ships_inside_the_installed_package():
    package = Path(spacy_factwash.__file__).resolve().parent
    if package.parent == ROOT:  # a source checkout
        assert ewt_parser_dir() == ROOT / "pipelines" / "ewt_parser"
    else:
        assert ewt_parser_dir() == package / "data" / "pipelines" / "ewt_parser"
        assert (ewt_parser_dir() / LICENSE_NAME).is_file() and (ewt_parser_dir() / PROVENANCE).is_file()


def test_packaging_refuses_to_replace_a_folder_it_did_not_write(tmp_path):
    from factwash_dev.evaluation.parser_build import package

    corpora = make_treebank(tmp_path / "corpora")
    trained = tmp_path / "trained"
    trained.mkdir()
    (trained / "train-run.json").write_text(json.dumps({"train_sha256": "sha256:" + "0" * 64}))
    with pytest.raises(ud_ewt.EWTError, match="was not trained on the train set"):
        package(trained, corpora, tmp_path / "out")
    dest = tmp_path / "mine"
    dest.mkdir()
    (dest / "notes.txt").write_text("keep me")
    rebuilt = ud_ewt.rebuild_train(corpora, tmp_path / "t.conllu")
    (trained / "train-run.json").write_text(json.dumps({"train_sha256": rebuilt["docbin_sha256"]}))
    shutil.copytree(MODEL, trained / "model-best", ignore=shutil.ignore_patterns(PROVENANCE, LICENSE_NAME, "README.md"))
    with pytest.raises(ud_ewt.EWTError, match="not a parse pipeline this command wrote"):
        package(trained, corpora, dest)
    assert (dest / "notes.txt").read_text() == "keep me"


# -- the README's parser table ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def parser_table(corpora, tmp_path_factory):
    """The README table recomputed: the shipped model scored on EWT test (about ten seconds)."""
    from factwash_dev.evaluation.parser_build import figures_table, published_figures

    def measure():
        test = ud_ewt.score(spacy.load(MODEL), (ud_ewt.ewt_root(corpora) / "en_ewt-ud-test.conllu").read_text("utf8"))
        return figures_table(test, published_figures(ROOT / "training" / "parser" / "published.json"), MODEL)

    return made_once(tmp_path_factory, "parser_table", measure)


def test_readme_parser_table_is_the_measured_table(parser_table):
    drift = readme_drift(PARSER, parser_table)
    assert drift == [], "README parser table drifted:\n" + "\n".join(drift)


def test_parser_table_guard_names_a_perturbed_figure(parser_table):
    drift = perturbed_drift(PARSER, parser_table, "| factwash_ewt_parser", -2, "99.99")  # LAS
    assert len(drift) == 1 and "/ LAS: README says 99.99, measured" in drift[0]


def test_parser_measure_prints_scores_size_and_the_speed_ratio_to_the_floor(tmp_path):
    corpora = make_treebank(tmp_path / "corpora")
    result = CliRunner().invoke(app, ["parser-measure", "--corpora", str(corpora), "--repeat", "1",
                                      "--output", str(tmp_path / "m.json")])
    assert result.exit_code == 0, result.output
    assert "test  UPOS" in result.output and "UAS" in result.output and "ratio" in result.output
    measured = json.loads((tmp_path / "m.json").read_text())
    assert measured["size_bytes"] > 1_000_000 and measured["speed"]["ratio"] > 0


def test_parse_cues_refuses_dev_figures_for_the_readme(tmp_path):
    result = CliRunner().invoke(app, ["parse-cues", "--half", "dev", "--readme", str(tmp_path / "README.md")])
    assert result.exit_code == 1 and "only the test half's figures go into the README" in result.output
