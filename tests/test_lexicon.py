"""Frozen lexicons: the manifest is enforced, malformed files are named by file and line."""

import json
import shutil

import pytest
import spacy

from spacy_factwash.lexicon.frozen import (CLASS_FILES, LexiconError, freeze, freeze_set, load_lexicons, load_set,
                                           packaged_lexicon_dir)
from spacy_factwash.lexicon.sets import SETS


@pytest.fixture
def lexicon_copy(tmp_path):
    """A private copy of the packaged lexicon folder to break."""
    folder = tmp_path / "lexicons"
    shutil.copytree(packaged_lexicon_dir(), folder)
    return folder


def _append(path, line):
    with path.open("a", encoding="utf8") as handle:
        handle.write(line + "\n")


def test_packaged_lexicons_verify_and_cover_every_class():
    lexicons = load_lexicons()
    assert lexicons.verified and "+" not in lexicons.version
    for label in CLASS_FILES.values():
        assert any(e.role == "cue" for e in lexicons.for_label(label)), label


def test_every_entry_records_its_provenance():
    for entry in load_lexicons().entries:
        assert entry.provenance["source"], entry.id


def test_an_edited_file_without_a_new_manifest_is_refused_by_name(lexicon_copy):
    _append(lexicon_copy / "hedge.jsonl", json.dumps(
        {"id": "hedge:x", "label": "HEDGE", "pattern": "iffy", "provenance": {"source": "seed"}}))
    with pytest.raises(LexiconError, match=r"hedge\.jsonl: contents do not match the frozen manifest"):
        load_lexicons(lexicon_copy)


def test_development_opt_out_loads_and_marks_the_version_unfrozen(lexicon_copy):
    _append(lexicon_copy / "hedge.jsonl", json.dumps(
        {"id": "hedge:iffy", "label": "HEDGE", "pattern": "iffy", "provenance": {"source": "seed"}}))
    lexicons = load_lexicons(lexicon_copy, verify=False)
    assert lexicons.version.endswith("+unfrozen") and lexicons.get("hedge:iffy")
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues", config={"lexicon_dir": str(lexicon_copy), "verify_lexicons": False})
    doc = nlp("The plan looks iffy.")
    assert [(s.label_, s.id_) for s in doc.spans["factwash_cues"]] == [("HEDGE", "hedge:iffy")]
    assert doc.user_data["factwash_lexicon_version"].endswith("+unfrozen")


def test_refreezing_accepts_the_edit_under_the_new_version(lexicon_copy):
    _append(lexicon_copy / "hedge.jsonl", json.dumps(
        {"id": "hedge:iffy", "label": "HEDGE", "pattern": "iffy", "provenance": {"source": "seed"}}))
    freeze(lexicon_copy, "9.9.9")
    assert load_lexicons(lexicon_copy).version == "9.9.9"


@pytest.mark.parametrize(
    "line,message",
    [
        ("{not json", r"invalid JSON"),
        ('["a list"]', r"must be a JSON object"),
        ('{"id": "hedge:a", "label": "HEDGE", "pattern": "a"}', r"missing provenance"),
        ('{"id": "negation:a", "label": "HEDGE", "pattern": "a", "provenance": {"source": "seed"}}', r"id must be"),
        ('{"id": "hedge:a", "label": "NEGATION", "pattern": "a", "provenance": {"source": "seed"}}', r"does not belong"),
        ('{"id": "hedge:a", "label": "HEDGE", "pattern": "", "provenance": {"source": "seed"}}', r"empty phrase"),
        ('{"id": "hedge:a", "label": "HEDGE", "pattern": [{"LOWERR": "a"}], "provenance": {"source": "seed"}}',
         r"invalid token pattern"),
        ('{"id": "hedge:a", "label": "HEDGE", "pattern": ["a", {"LOWER": "b"}], "provenance": {"source": "seed"}}',
         r"mixes phrases"),
        ('{"id": "hedge:a", "label": "HEDGE", "role": "maybe", "pattern": "a", "provenance": {"source": "seed"}}',
         r"role must be"),
        ('{"id": "hedge:a", "label": "HEDGE", "pattern": "a", "provenance": "seed"}', r"provenance must be"),
        ('{"id": "hedge:might", "label": "HEDGE", "pattern": "a", "provenance": {"source": "seed"}}',
         r"duplicate entry id"),
        ('{"id": "hedge:a", "label": "HEDGE", "pattern": "a", "provenance": {"source": "seed", "w": NaN}}',
         r"invalid JSON \(NaN is not a JSON value\)"),
        ("[" * 100_000 + "]" * 100_000, r"invalid JSON \(nested too deeply to read\)"),  # a RecursionError before
        ('{"id": "hedge:a\\ud800", "label": "HEDGE", "pattern": "a", "provenance": {"source": "seed"}}',
         r"entry 'hedge:a\\ud800': 'id' holds a lone surrogate"),
    ],
)
def test_a_malformed_line_is_named_by_file_and_line(lexicon_copy, line, message):
    path = lexicon_copy / "hedge.jsonl"
    number = len(path.read_text(encoding="utf8").splitlines()) + 1
    _append(path, line)
    with pytest.raises(LexiconError, match=message) as caught:
        load_lexicons(lexicon_copy, verify=False)
    assert f"hedge.jsonl:{number}" in str(caught.value)


def test_freezing_a_malformed_file_is_refused(lexicon_copy):
    _append(lexicon_copy / "temporal.jsonl", "{broken")
    with pytest.raises(LexiconError, match=r"temporal\.jsonl:\d+: invalid JSON"):
        freeze(lexicon_copy, "9.9.9")


def test_missing_manifest_and_missing_file_are_named(lexicon_copy):
    (lexicon_copy / "negation.jsonl").unlink()
    with pytest.raises(LexiconError, match=r"negation\.jsonl: lexicon file not found"):
        load_lexicons(lexicon_copy)
    (lexicon_copy / "manifest.json").unlink()
    with pytest.raises(LexiconError, match=r"manifest\.json: lexicon manifest not found"):
        load_lexicons(lexicon_copy)


@pytest.mark.parametrize("path,said", [
    (123, "the set's folder must be a path, got int"),
    (b"lexicons", "the set's folder must be a path, got bytes"),
    (["lexicons"], "the set's folder must be a path, got list"),
    (float("nan"), "the set's folder must be a path, got float"),
    ("lexicons\udc80", "the folder path holds a lone surrogate (\\udc80) at character 8, which is not text"),
])
def test_a_folder_that_is_not_a_path_is_refused_in_one_coded_line(path, said):
    """Each but the last ended in pathlib's TypeError; the last named a missing manifest at a path that is not text."""
    calls = [("load_lexicons", lambda: load_lexicons(path)), ("load_set", lambda: load_set(SETS["strength"], path)),
             ("freeze", lambda: freeze(path, "9.9.9")), ("freeze", lambda: freeze_set(path, "9.9.9", "cues"))]
    for name, call in calls:
        with pytest.raises(LexiconError) as refused:
            call()
        assert str(refused.value) == f"[E001] {name}: {said}"


def test_a_broken_manifest_is_named(lexicon_copy):
    (lexicon_copy / "manifest.json").write_text("{}", encoding="utf8")
    with pytest.raises(LexiconError, match=r"manifest\.json: manifest needs a string 'version'"):
        load_lexicons(lexicon_copy)
    (lexicon_copy / "manifest.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf8")
    with pytest.raises(LexiconError, match=r"manifest\.json: not valid JSON \(nested too deeply to read\)"):
        load_lexicons(lexicon_copy)


def test_a_version_that_is_not_text_is_never_frozen(lexicon_copy):
    """A version holding a lone surrogate (`freeze-lexicons --version` given a byte that is not UTF-8) was frozen,
    and every report naming it then ended `gate` in a UnicodeEncodeError."""
    before = (lexicon_copy / "manifest.json").read_bytes()
    with pytest.raises(LexiconError, match=r"manifest\.json: its version holds a lone surrogate \(\\udcff\)"):
        freeze(lexicon_copy, "1.0\udcff")
    assert (lexicon_copy / "manifest.json").read_bytes() == before


def test_lexicons_are_loaded_once_per_component_not_per_document(nlp, monkeypatch):
    import spacy_factwash.lexicon.frozen as frozen

    nlp("Alice might come.")  # the component reads its sets at its first document at the latest

    def refuse(*args, **kwargs):
        raise AssertionError("lexicons loaded while annotating")

    monkeypatch.setattr(frozen, "lexicons_from_bytes", refuse)  # every set is read through it
    list(nlp.pipe(["Alice might come.", "Bob said no."] * 5))


def _gate_report(lexicon_dir):
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("factwash_lemmas")
    nlp.add_pipe("factwash_cues", config={"lexicon_dir": str(lexicon_dir)})
    gate = nlp.add_pipe("factwash_compare")
    return gate.compare(*nlp.pipe(["The plan looks iffy.", "The plan looks good."]))


def test_an_edit_refrozen_under_the_same_version_gets_another_digest_in_every_report(lexicon_copy):
    before = _gate_report(lexicon_copy)
    version = load_lexicons(lexicon_copy).version
    _append(lexicon_copy / "hedge.jsonl", json.dumps(
        {"id": "hedge:iffy", "label": "HEDGE", "pattern": "iffy", "provenance": {"source": "seed"}}))
    freeze(lexicon_copy, version)  # the same label on another list
    after = _gate_report(lexicon_copy)
    assert before.lexicon_version == after.lexicon_version == version
    assert before.lexicon_digest.startswith("sha256:") and after.lexicon_digest.startswith("sha256:")
    assert before.lexicon_digest != after.lexicon_digest
    assert after.to_dict()["lexicon_digest"] == after.lexicon_digest and after.lexicon_digest[:19] in str(after)
    assert before.lexicon_digest == load_lexicons().digest  # the copy was byte-identical to the packaged lists
