"""The components live as spaCy's SpanRuler and Lemmatizer do: built empty, filled by initialize or from_disk,
compiled once (factwash_cues extended at run time with add_entries), and a saved pipeline carries its lexicons and
every table its functions read wherever it goes."""

import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import spacy
from conftest import cli_in_process, cues_of
from lifecycle_probe import PAIRS, answers
from spacy.training import Example
from spacy.util import load_config, load_model_from_config

import spacy_factwash
from spacy_factwash.lexicon.frozen import LexiconError, freeze, load_lexicons, packaged_lexicon_dir
from spacy_factwash.pipes.cues.component import CueComponent

ROOT = Path(__file__).resolve().parent.parent
EXTENSION_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")  # a compiled module's file ending (".cpython-311-...so")
TEXTS = [
    "The plan looks iffy, Alice said.",
    "Sources say the deal might close, allegedly, if the board agrees by Monday.",
    "Nothing was found.",
    "",
]
IFFY = {"id": "hedge:iffy", "label": "HEDGE", "pattern": "iffy"}
# prints, for the pipeline at argv[1], each text's cues and sources, its lexicon version and digest (JSON)
ANNOTATE = (
    "import json, sys, spacy\n"
    "nlp = spacy.load(sys.argv[1])\n"
    "texts = json.loads(sys.argv[2])\n"
    "print(json.dumps([[[(s.label_, s.text, s.id_) for s in d.spans['factwash_cues']],\n"
    "                   [(s.text, s.kb_id_) for s in d.spans['factwash_sources']],\n"
    "                   d.user_data['factwash_lexicon_version'], d.user_data['factwash_lexicon_digest']]\n"
    "                  for d in nlp.pipe(texts)]))\n"
)


def annotation(nlp, texts=TEXTS):
    """What ANNOTATE prints, worked out in this process."""
    return [[[list(cue) for cue in cues_of(d)], [[s.text, s.kb_id_] for s in d.spans["factwash_sources"]],
             d.user_data["factwash_lexicon_version"], d.user_data["factwash_lexicon_digest"]] for d in nlp.pipe(texts)]


def annotation_elsewhere(path: Path, texts=TEXTS):
    """ANNOTATE run in a fresh interpreter, from a folder that is not the repository."""
    result = subprocess.run([sys.executable, "-c", ANNOTATE, str(path), json.dumps(texts)], capture_output=True,
                            text=True, cwd=path.parent, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def custom_dir(tmp_path):
    """A frozen lexicon folder of its own: the packaged lists and one more hedge, re-frozen as 9.0.0."""
    folder = tmp_path / "custom"
    shutil.copytree(packaged_lexicon_dir(), folder)
    with (folder / "hedge.jsonl").open("a", encoding="utf8") as handle:
        handle.write(json.dumps({**IFFY, "provenance": {"source": "seed"}}) + "\n")
    freeze(folder, "9.0.0")
    return folder


@pytest.fixture
def compilations(monkeypatch):
    """How many times a cue component compiled a lexicon set (each call goes through to the real method)."""
    calls = []
    compile_sets = CueComponent.compile

    def counted(self, sets):
        calls.append(sets["lexicons"].version)
        return compile_sets(self, sets)

    monkeypatch.setattr(CueComponent, "compile", counted)
    return calls


def test_the_component_is_built_empty_and_compiles_once_at_its_first_document(compilations):
    nlp = spacy_factwash.load()
    assert compilations == []
    nlp("Alice said it might rain.")
    nlp("Bob said no.")
    assert len(compilations) == 1


def test_a_saved_pipeline_loads_compiling_its_lexicon_once(default_nlp, tmp_path, compilations):
    default_nlp.to_disk(tmp_path / "pipe")
    compilations.clear()
    loaded = spacy.load(tmp_path / "pipe")
    list(loaded.pipe(TEXTS))
    assert compilations == [default_nlp.get_pipe("factwash_cues").lexicon_version]


def test_initialize_reads_its_config_section_and_compiles_once(custom_dir, compilations):
    config = load_config(ROOT / "configs" / "factwash.cfg", overrides={
        "paths.lexicons": str(custom_dir),
        "initialize.components.factwash_cues.entries": [{"id": "negation:nah", "label": "NEGATION",
                                                         "pattern": "nah"}],
    })
    nlp = load_model_from_config(config, auto_fill=True)
    nlp.initialize()
    doc = nlp("Nah, the plan looks iffy.")
    assert cues_of(doc) == [("NEGATION", "Nah", "negation:nah"), ("HEDGE", "iffy", "hedge:iffy")]
    assert compilations == ["9.0.0"] and doc.user_data["factwash_lexicon_version"] == "9.0.0+user"


def test_a_pipeline_saved_with_a_custom_lexicon_dir_loads_elsewhere_with_the_folder_gone(custom_dir, tmp_path):
    nlp = spacy_factwash.load(lexicon_dir=custom_dir)
    here = annotation(nlp)
    assert ["HEDGE", "iffy", "hedge:iffy"] in here[0][0] and here[0][2] == "9.0.0"
    nlp.to_disk(tmp_path / "built")
    shutil.rmtree(custom_dir)
    moved = tmp_path / "elsewhere" / "pipe"
    moved.parent.mkdir()
    (tmp_path / "built").rename(moved)
    assert annotation_elsewhere(moved) == here


def test_a_pipeline_saved_with_added_entries_loads_elsewhere_and_annotates_the_same(tmp_path):
    nlp = spacy_factwash.load()
    frozen = annotation(nlp)
    nlp.get_pipe("factwash_cues").add_entries([IFFY])
    here = annotation(nlp)
    assert ["HEDGE", "iffy", "hedge:iffy"] in here[0][0] and ["HEDGE", "iffy", "hedge:iffy"] not in frozen[0][0]
    nlp.to_disk(tmp_path / "built")
    moved = tmp_path / "elsewhere" / "pipe"
    moved.parent.mkdir()
    (tmp_path / "built").rename(moved)
    assert annotation_elsewhere(moved) == here


def test_added_entries_travel_in_bytes_and_to_worker_processes():
    nlp = spacy_factwash.load()
    nlp.get_pipe("factwash_cues").add_entries([IFFY])
    here = annotation(nlp)
    restored = load_model_from_config(nlp.config, auto_fill=True)
    restored.from_bytes(nlp.to_bytes())
    assert annotation(restored) == here
    two = [[[list(c) for c in cues_of(d)], d.user_data["factwash_lexicon_digest"]]
           for d in nlp.pipe(TEXTS * 2, batch_size=2, n_process=2)]
    assert two == [[cues, digest] for cues, _, _, digest in here * 2]


def test_added_entries_carry_provenance_user_and_change_digest_and_version():
    nlp = spacy_factwash.load()
    cues = nlp.get_pipe("factwash_cues")
    frozen = cues.lexicons
    before = spacy_factwash.inspect("The plan looks iffy.", "The plan looks good.", nlp=nlp)
    [added] = cues.add_entries([IFFY])
    after = spacy_factwash.inspect("The plan looks iffy.", "The plan looks good.", nlp=nlp)
    doc = nlp("iffy")
    assert added.provenance == {"source": "user"} and cues.explain(doc.spans["factwash_cues"][0]) == added
    assert cues.lexicon_version == frozen.version + "+user" and cues.lexicons.digest != frozen.digest
    assert before.verdict == "pass" and after.verdict == "rewrite"
    assert [c.type for c in after.changes] == ["strengthened_certainty"]
    assert (after.lexicon_version, after.lexicon_digest) == (cues.lexicon_version, cues.lexicons.digest)
    assert after.lexicon_digest[:19] in str(after) and after.lexicon_version in str(after)
    assert spacy_factwash.check("The plan looks iffy.", "The plan looks good.", nlp=nlp) == "rewrite"
    assert spacy_factwash.check("The plan looks iffy.", "The plan looks good.") == "pass"  # the default is untouched


def test_an_added_evidential_counts_as_one_in_the_gate():
    nlp = spacy_factwash.load()
    gate = nlp.get_pipe("factwash_compare")
    assert "attribution:purportedly" not in gate.evidentials
    nlp.get_pipe("factwash_cues").add_entries([{"id": "attribution:purportedly", "label": "ATTRIBUTION",
                                                "pattern": "purportedly"}])
    assert "attribution:purportedly" in gate.evidentials


# an entry a class file refuses is refused by add_entries with the same words (after the place it names)
REFUSED = [
    ["a list"],
    {"id": "negation:a", "label": "HEDGE", "pattern": "a"},
    {"id": "hedge:a", "label": "HEDGE", "pattern": ""},
    {"id": "hedge:a", "label": "HEDGE", "pattern": [{"LOWERR": "a"}]},
    {"id": "hedge:a", "label": "HEDGE", "pattern": ["a", {"LOWER": "b"}]},
    {"id": "hedge:a", "label": "HEDGE", "role": "maybe", "pattern": "a"},
    {"id": "hedge:a", "label": "HEDGE", "pattern": "a", "provenance": "user"},
    {"id": "hedge:a", "label": "HEDGE", "pattern": "a", "value": 3},
    # a lone surrogate (a JSON escape decoding to no character) in a pattern, an id or a key: not text
    {"id": "hedge:a", "label": "HEDGE", "pattern": [{"LOWER": "zorp\ud800"}]},
    {"id": "hedge:a\udc80", "label": "HEDGE", "pattern": "a"},
    {"id": "hedge:a", "label": "HEDGE", "pattern": "a", "provenance": {"source": "user", "note\ud800": "x"}},
]


@pytest.mark.parametrize("raw", REFUSED)
def test_add_entries_refuses_what_a_lexicon_file_refuses_in_the_same_words(raw, tmp_path):
    folder = tmp_path / "lexicons"
    shutil.copytree(packaged_lexicon_dir(), folder)
    line = {**raw, "provenance": raw.get("provenance", {"source": "user"})} if isinstance(raw, dict) else raw
    with (folder / "hedge.jsonl").open("a", encoding="utf8") as handle:
        handle.write(json.dumps(line) + "\n")
    with pytest.raises(LexiconError) as in_file:
        load_lexicons(folder, verify=False)
    cues = spacy.blank("en").add_pipe("factwash_cues")
    with pytest.raises(LexiconError) as added:
        cues.add_entries([IFFY, raw])
    assert str(added.value).startswith("[E001] add_entries[2]: ")
    assert str(added.value).split(": ", 1)[1] == str(in_file.value).split(": ", 1)[1]
    assert "hedge:iffy" not in cues.lexicons.by_id  # nothing of a refused call is kept


def _nested(depth):
    """A dict nested ``depth`` levels deep, built without recursion."""
    top = inner = {}
    for _ in range(depth):
        inner["a"] = {}
        inner = inner["a"]
    return top


DEEP = _nested(100_000)


@pytest.mark.parametrize("entries,message", [
    ([{"id": "hedge:might", "label": "HEDGE", "pattern": "mebbe"}], r"add_entries\[1\]: duplicate entry id "
                                                                       r"'hedge:might' \(first at .*hedge\.jsonl:\d+\)"),
    ([IFFY, IFFY], r"add_entries\[2\]: duplicate entry id 'hedge:iffy' \(first at add_entries\[1\]\)"),
    ([{**IFFY, "label": "VIBE"}], r"add_entries\[1\]: label must be one of HEDGE, ATTRIBUTION"),
    ([{**IFFY, "provenance": {"source": "seed"}}], r"add_entries\[1\]: an added entry's provenance source is 'user'"),
    (IFFY, r"add_entries: entries must be a list of entry objects, got dict"),
    (7, r"add_entries: entries must be a list of entry objects, got int"),
    ([{**IFFY, "pattern": [{"LOWER": "zorp\ud800"}]}],
     r"^\[E001\] add_entries\[1\]: entry 'hedge:iffy': 'LOWER' holds a lone surrogate \(\\ud800\) at character 4"),

    # what no line of JSON holds (each ended in a ValueError, TypeError or RecursionError when the set was saved)
    ([{**IFFY, "provenance": {"source": "user", "weight": float("nan")}}],
     r"add_entries\[1\]: entry 'hedge:iffy' holds a value JSON has not \(Out of range float"),
    ([{**IFFY, "provenance": {"source": "user", "by": object()}}],
     r"add_entries\[1\]: entry 'hedge:iffy' holds a value JSON has not \(Object of type object"),
    ([{**IFFY, "provenance": {"source": "user", "deep": DEEP}}], r"add_entries\[1\]: entry 'hedge:iffy' is nested too "
                                                                   r"deeply to save"),
])
def test_add_entries_names_each_refused_entry(entries, message):
    cues = spacy.blank("en").add_pipe("factwash_cues")
    with pytest.raises(LexiconError, match=message):
        cues.add_entries(entries)


def test_adding_no_entries_leaves_the_set_as_it_was():
    cues = spacy.blank("en").add_pipe("factwash_cues")
    frozen = cues.lexicons
    assert cues.add_entries([]) == [] and cues.lexicons is frozen


def test_a_single_class_component_takes_only_entries_of_its_class():
    hedges = spacy.blank("en").add_pipe("factwash_hedge")
    with pytest.raises(LexiconError, match=r"label must be one of HEDGE, got 'NEGATION'"):
        hedges.add_entries([{"id": "negation:nah", "label": "NEGATION", "pattern": "nah"}])


def test_a_tampered_user_file_in_a_saved_pipeline_is_refused_by_name_and_line(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues").add_entries([IFFY])
    nlp.to_disk(tmp_path / "pipe")
    user = tmp_path / "pipe" / "factwash_cues" / "lexicons" / "user.jsonl"
    user.write_text(user.read_text(encoding="utf8").replace('"iffy"', '"dodgy"', 1), encoding="utf8")
    with pytest.raises(LexiconError, match=r"user\.jsonl: contents do not match the frozen manifest"):
        spacy.load(tmp_path / "pipe")
    user.write_text('{"id": "hedge:x", "label": "HEDGE", "pattern": ""}\n', encoding="utf8")
    with pytest.raises(LexiconError, match=r"user\.jsonl:1: empty phrase pattern"):
        spacy.load(tmp_path / "pipe", config={"components": {"factwash_cues": {"verify_lexicons": False}}})


def test_a_saved_lexicon_folder_with_user_entries_is_a_lexicon_dir(tmp_path):
    nlp = spacy_factwash.load()
    nlp.get_pipe("factwash_cues").add_entries([IFFY])
    nlp.to_disk(tmp_path / "pipe")
    again = spacy_factwash.load(lexicon_dir=tmp_path / "pipe" / "factwash_cues" / "lexicons")
    assert annotation(again) == annotation(nlp)


def test_a_saved_lexicon_folder_with_edited_user_entries_is_refrozen_with_them(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues").add_entries([IFFY])
    nlp.to_disk(tmp_path / "pipe")
    folder = tmp_path / "pipe" / "factwash_cues" / "lexicons"
    with (folder / "user.jsonl").open("a", encoding="utf8") as handle:
        handle.write(json.dumps({"id": "hedge:dodgy", "label": "HEDGE", "pattern": "dodgy"}) + "\n")
    with pytest.raises(LexiconError, match=r"user\.jsonl: contents do not match"):
        load_lexicons(folder)
    freeze(folder, "9.1.0+user")
    lexicons = load_lexicons(folder)
    assert lexicons.version == "9.1.0+user" and lexicons.get("hedge:dodgy").provenance == {"source": "user"}
    with (folder / "user.jsonl").open("a", encoding="utf8") as handle:
        handle.write(json.dumps({"id": "hedge:might", "label": "HEDGE", "pattern": "mebbe"}) + "\n")
    manifest = (folder / "manifest.json").read_bytes()
    with pytest.raises(LexiconError, match=r"user\.jsonl:3: duplicate entry id 'hedge:might'"):
        freeze(folder, "9.2.0+user")
    assert (folder / "manifest.json").read_bytes() == manifest  # the refused freeze left the manifest as it was


def test_inspect_refuses_a_pipeline_without_the_gate():
    with pytest.raises(ValueError, match=r"the pipeline given has no factwash_compare"):
        spacy_factwash.inspect("a", "b", nlp=spacy.blank("en"))


def test_a_missing_lexicon_dir_is_named_at_the_first_document(tmp_path):
    nlp = spacy_factwash.load(lexicon_dir=tmp_path / "nowhere")
    with pytest.raises(LexiconError, match=r"nowhere/manifest\.json: lexicon manifest not found"):
        nlp("Alice might come.")


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spacy_factwash", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_cli_commands_that_annotate_take_a_lexicon_dir(custom_dir, tmp_path):
    cues = cli_in_process("cues", "The plan looks iffy.", "--json", "--lexicon-dir", str(custom_dir))
    assert cues.returncode == 0, cues.stderr
    data = json.loads(cues.stdout)
    assert data["lexicon_version"] == "9.0.0" and [c["entry"] for c in data["cues"]] == ["hedge:iffy"]
    check = cli_in_process("check", "--source", "The plan looks iffy.", "--memory", "The plan looks good.",
                           "--json", "--lexicon-dir", str(custom_dir))
    assert check.returncode == 4 and json.loads(check.stdout)["lexicon_version"] == "9.0.0"
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"id": 1, "source": "The plan looks iffy.", "memory": "The plan looks good."}) + "\n")
    gate = cli_in_process("gate", str(pairs), str(tmp_path / "out.jsonl"), "--lexicon-dir", str(custom_dir))
    assert gate.returncode == 0, gate.stderr
    assert "strengthened_certainty 1" in gate.stderr
    from typer.testing import CliRunner

    from spacy_factwash.cli import app

    for command in ("cues", "annotate", "check", "gate", "report", "drift", "bench", "confirm"):  # help in-process
        assert "--lexicon-dir" in CliRunner().invoke(app, [command, "--help"]).output, command


def test_cli_drift_and_confirm_judge_with_the_lexicon_dir(custom_dir, tmp_path):
    chains = tmp_path / "chains.jsonl"
    chains.write_text(json.dumps({"id": "c", "versions": ["The plan looks iffy.", "The plan looks good."]}) + "\n")
    drift = cli_in_process("drift", str(chains), "--output", str(tmp_path / "drift.jsonl"),
                           "--lexicon-dir", str(custom_dir))
    assert drift.returncode == 0, drift.stderr
    assert drift.stdout.strip() == "c: end to end rewrite: strengthened_certainty at hop 1"
    items, proposals = tmp_path / "items.jsonl", tmp_path / "proposals.jsonl"
    items.write_text("")
    proposals.write_text("")
    confirm = cli_in_process("confirm", str(items), str(proposals), "--output", str(tmp_path / "c.jsonl"),
                             "--lexicon-dir", str(tmp_path / "nowhere"))
    assert confirm.returncode == 1 and confirm.stderr.strip().endswith("manifest.json: lexicon manifest not found")


def test_cli_names_a_lexicon_dir_it_cannot_use_in_one_line(tmp_path):
    result = run_cli("cues", "Alice might come.", "--lexicon-dir", str(tmp_path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip().endswith("manifest.json: lexicon manifest not found")


# -- every component and every table travels with the pipeline ----------------------------------------------

PROBE = Path(__file__).resolve().parent / "lifecycle_probe.py"
# each component's saved sets, by folder: its own lexicon (or table) and the tables the functions it runs read
SAVED = {
    "factwash_lemmas": ["lemmas"],
    "factwash_cues": ["lexicons", "sense", "syntax"],
    "factwash_strength": ["lexicons", "syntax"],
    "factwash_compare": ["lexicons", "syntax", "values"],
}


@pytest.fixture(scope="module")
def package_without_data(tmp_path_factory):
    """The installed package's code (its Python files and compiled modules), copied to a folder of its own without
    any of its data (no lexicons, tables, config or parse pipeline, beside or inside it): a process importing the
    package from there can read nothing but what a pipeline carries."""
    package = Path(spacy_factwash.__file__).resolve().parent
    site = tmp_path_factory.mktemp("site")

    def code(name: str) -> bool:
        return name.endswith((".py", EXTENSION_SUFFIX))

    def data(folder, names):
        return [name for name in names if name == "__pycache__" or (Path(folder, name).is_file() and not code(name))]

    shutil.copytree(package, site / "spacy_factwash", ignore=data)
    assert not any(not code(path.name) for path in (site / "spacy_factwash").rglob("*") if path.is_file())
    return site


def answers_without_data(site: Path, *pipelines: Path) -> list:
    """The probe's answers for each pipeline (a saved folder or a pickle), in a fresh interpreter that imports the
    package from ``site`` and refuses spacy-lookups-data, run from a folder that is not the repository."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    result = subprocess.run([sys.executable, "-s", str(PROBE), str(site), *map(str, pipelines)], capture_output=True,
                            text=True, cwd=site, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def parsed_pipeline():
    """The shipped parse pipeline with the factwash components, cues scoped by CD-SCO's convention: it reads the
    sense lists (a parse) and the scope words (a scope style) besides everything the default pipeline reads."""
    from spacy_factwash.syntax.parse import parse_pipeline

    nlp = parse_pipeline()
    for name in SAVED:
        nlp.add_pipe(name, config={"scope_style": "cdsco"} if name == "factwash_cues" else {})
    return nlp


def test_a_saved_pipeline_answers_the_same_in_a_fresh_process_without_any_of_the_package_data(
        package_without_data, tmp_path):
    default, parsed = spacy_factwash.load(), parsed_pipeline()
    default.get_pipe("factwash_cues").add_entries([IFFY])
    here = [answers(default), answers(parsed)]
    assert any(change["type"] == "changed_unit" or change["type"] == "changed_value"
               for pair in here[0] for change in pair["report"]["changes"])
    (tmp_path / "built").mkdir()
    default.to_disk(tmp_path / "built" / "default")
    parsed.to_disk(tmp_path / "built" / "parsed")
    for name, folders in SAVED.items():
        assert sorted(p.name for p in (tmp_path / "built" / "default" / name).iterdir()) == folders, name
    moved = tmp_path / "elsewhere"
    (tmp_path / "built").rename(moved)
    assert answers_without_data(package_without_data, moved / "default", moved / "parsed") == here


def test_a_pickled_pipeline_answers_the_same_in_a_fresh_process_without_any_of_the_package_data(
        package_without_data, tmp_path):
    nlp = spacy_factwash.load()  # pickled before any document: pickling reads the sets it carries
    (tmp_path / "nlp.pkl").write_bytes(pickle.dumps(nlp))
    assert answers_without_data(package_without_data, tmp_path / "nlp.pkl") == [answers(nlp)]


@pytest.mark.parametrize("saved", ["factwash_lemmas/lemmas/lemma_lookup.msgpack", "factwash_cues/lexicons/hedge.jsonl",
                                   "factwash_cues/syntax/clause_words.json", "factwash_cues/sense/verbal.jsonl",
                                   "factwash_strength/lexicons/scale.json", "factwash_strength/syntax/confusables.tsv",
                                   "factwash_compare/lexicons/antonym.jsonl", "factwash_compare/values/units.json"])
def test_a_tampered_file_of_a_saved_pipeline_is_refused_by_name(default_nlp, tmp_path, saved):
    default_nlp.to_disk(tmp_path / "pipe")
    with (tmp_path / "pipe" / saved).open("ab") as handle:
        handle.write(b"\n")
    with pytest.raises(LexiconError, match=rf"{re.escape(saved)}: contents do not match the frozen manifest"):
        spacy.load(tmp_path / "pipe")


def test_a_pipeline_saved_before_its_components_carried_their_tables_loads_with_a_warning(default_nlp, tmp_path):
    default_nlp.to_disk(tmp_path / "pipe")
    for folder in ("factwash_lemmas", "factwash_compare", "factwash_cues/syntax", "factwash_cues/sense",
                   "factwash_strength/syntax"):
        shutil.rmtree(tmp_path / "pipe" / folder)
    with pytest.warns(UserWarning) as caught:
        old = spacy.load(tmp_path / "pipe")
    assert sorted(str(w.message).split(": ", 1)[1].split(" (")[0] for w in caught) == [
        "the saved factwash_compare has no gate set", "the saved factwash_compare has no syntax set",
        "the saved factwash_compare has no values set", "the saved factwash_cues has no sense set",
        "the saved factwash_cues has no syntax set", "the saved factwash_lemmas has no lemmas set",
        "the saved factwash_strength has no syntax set"]
    assert spacy_factwash.inspect(*PAIRS[1], nlp=old).to_dict() == spacy_factwash.inspect(*PAIRS[1]).to_dict()
    shutil.rmtree(tmp_path / "pipe" / "factwash_cues" / "lexicons")  # a component's own lexicon is never guessed
    with pytest.raises(LexiconError, match=r"factwash_cues/lexicons/manifest\.json: lexicon manifest not found"), \
            pytest.warns(UserWarning, match="factwash_lemmas has no lemmas set"):
        spacy.load(tmp_path / "pipe")


def test_every_component_reads_nothing_until_it_is_used_and_its_sets_once(monkeypatch):
    import spacy_factwash.lexicon.frozen as frozen
    from spacy_factwash.lexicon import tables

    monkeypatch.setattr(tables, "_INSTALLED", {})  # a process that has read no table yet

    reads = []
    read = frozen.lexicons_from_bytes
    monkeypatch.setattr(frozen, "lexicons_from_bytes", lambda *a, **k: reads.append(k["origin"]) or read(*a, **k))
    nlp = spacy_factwash.load()
    assert reads == []
    spacy_factwash.inspect(*PAIRS[1], nlp=nlp)
    spacy_factwash.inspect(*PAIRS[0], nlp=nlp)
    # each set once (the tables for every component), none of them again
    assert sorted(Path(origin).name for origin in reads) == ["gate", "lexicons", "sense", "strength", "syntax",
                                                             "values"]


def test_a_process_reads_one_version_of_each_table(monkeypatch, tmp_path):
    from spacy_factwash.lexicon import tables
    from spacy_factwash.lexicon.frozen import load_set, packaged_folder
    from spacy_factwash.lexicon.sets import SYNTAX

    monkeypatch.setattr(tables, "_INSTALLED", {})  # a process that has read no table yet
    folder = tmp_path / "syntax"
    shutil.copytree(packaged_folder(SYNTAX), folder)
    words = json.loads((folder / "clause_words.json").read_text(encoding="utf8"))
    words["coordinators"].append("yet")
    (folder / "clause_words.json").write_text(json.dumps(words), encoding="utf8")
    freeze(folder, "9.0.0", data_files=SYNTAX.data_files, class_files={})
    packaged = tables.installed("syntax")
    assert tables.install("syntax", load_set(SYNTAX)) is packaged  # the same bytes again: the same set
    with pytest.raises(tables.TableConflict, match=r"syntax tables 9\.0\.0 .* differ from the 0\.1\.0 .* this process "
                                                   r"already reads") as refused:
        tables.install("syntax", load_set(SYNTAX, folder))
    assert str(refused.value).startswith(f"[E020] {folder}: ")


def test_every_factory_declares_what_it_assigns_requires_and_scores():
    nlp = spacy_factwash.load()
    assert nlp.analyze_pipes()["problems"] == {name: [] for name in nlp.pipe_names}
    meta = {name: nlp.get_pipe_meta(name) for name in SAVED}
    assert [meta[name].assigns for name in SAVED] == [["token.lemma"], ["doc.spans", "doc.user_data"],
                                                      ["doc.spans", "doc.user_data"], []]
    assert [meta[name].requires for name in SAVED] == [[], [], ["doc.spans"], ["doc.spans"]]
    assert meta["factwash_lemmas"].default_score_weights == {"lemma_acc": 1.0}
    for name in ("factwash_cues", "factwash_strength"):
        assert meta[name].default_score_weights == {f"spans_{name}_f": 1.0, f"spans_{name}_p": 0.0,
                                                    f"spans_{name}_r": 0.0, f"spans_{name}_per_type": None}
    scores = nlp.evaluate([Example(nlp.make_doc("She was promoted."), nlp("She was promoted."))])
    assert scores["lemma_acc"] == 1.0 and "spans_factwash_cues_f" in scores and "spans_factwash_strength_f" in scores
