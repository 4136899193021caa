"""Cue spans and the component survive every way spaCy moves them: bytes, disk, DocBin, pickle, processes."""

import pickle
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from conftest import cues_of
from spacy.tokens import DocBin

import spacy_factwash

ROOT = Path(__file__).resolve().parent.parent
TEXTS = [
    "Someone said Alice might not get admin access if the audit fails, as of Monday.",
    "According to the audit team, the budget was cut back in 2019.",
    "The build passed.",
    "",
    "Bob no longer works here, Alice said, though I think he left last week.",
] * 4


def annotation(doc):
    sources = [(s.text, s.kb_id_, s.id_) for s in doc.spans.get("factwash_sources", [])]
    return cues_of(doc), sources, doc.user_data.get("factwash_lexicon_version")


def run_python(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_pipeline_bytes_round_trip(default_nlp):
    restored = spacy.util.load_model_from_config(default_nlp.config, auto_fill=True)
    restored.from_bytes(default_nlp.to_bytes())
    assert [annotation(d) for d in restored.pipe(TEXTS)] == [annotation(d) for d in default_nlp.pipe(TEXTS)]
    pair = ("The cable is about 3 km long and ships on Friday.", "The cable is 30 km long and ships on Monday.")
    assert spacy_factwash.inspect(*pair, nlp=restored).to_dict() == spacy_factwash.inspect(*pair).to_dict()


def test_a_tampered_component_in_bytes_is_refused_by_name(default_nlp):
    import srsly

    data = srsly.msgpack_loads(default_nlp.to_bytes())
    compare = srsly.msgpack_loads(data["factwash_compare"])
    values = srsly.msgpack_loads(compare["values"])
    values["units.json"] += b" "
    compare["values"] = srsly.msgpack_dumps(values)
    data["factwash_compare"] = srsly.msgpack_dumps(compare)
    restored = spacy.util.load_model_from_config(default_nlp.config, auto_fill=True)
    with pytest.raises(ValueError, match=r"<bytes of factwash_compare>/values/units\.json: contents do not match"):
        restored.from_bytes(srsly.msgpack_dumps(data))


def test_pipeline_disk_round_trip_keeps_the_lexicon_files(default_nlp, tmp_path):
    default_nlp.to_disk(tmp_path / "pipe")
    saved = tmp_path / "pipe" / "factwash_cues" / "lexicons"
    assert sorted(p.name for p in saved.iterdir()) == sorted(
        ["attribution.jsonl", "conditional.jsonl", "hedge.jsonl", "manifest.json", "negation.jsonl", "temporal.jsonl"]
    )
    loaded = spacy.load(tmp_path / "pipe")
    assert [annotation(d) for d in loaded.pipe(TEXTS)] == [annotation(d) for d in default_nlp.pipe(TEXTS)]


def test_a_tampered_saved_pipeline_is_refused(default_nlp, tmp_path):
    default_nlp.to_disk(tmp_path / "pipe")
    with (tmp_path / "pipe" / "factwash_cues" / "lexicons" / "negation.jsonl").open("a") as handle:
        handle.write('{"id": "negation:x", "label": "NEGATION", "pattern": "nah", "provenance": {"source": "seed"}}\n')
    with pytest.raises(ValueError, match=r"negation\.jsonl: contents do not match"):
        spacy.load(tmp_path / "pipe")


def test_docbin_round_trip_keeps_labels_entries_and_sources(default_nlp):
    docs = list(default_nlp.pipe(TEXTS))
    docbin = DocBin(store_user_data=True, docs=docs)
    restored = list(docbin.get_docs(spacy.blank("en").vocab))
    assert [annotation(d) for d in restored] == [annotation(d) for d in docs]
    assert restored[0].spans["factwash_cues"][0]._.factwash_source.text == "Someone"


def test_doc_pickle_round_trip(default_nlp):
    doc = default_nlp(TEXTS[0])
    assert annotation(pickle.loads(pickle.dumps(doc))) == annotation(doc)


def test_two_processes_annotate_exactly_like_one(default_nlp):
    one = [annotation(d) for d in default_nlp.pipe(TEXTS, batch_size=3)]
    two = [annotation(d) for d in default_nlp.pipe(TEXTS, batch_size=3, n_process=2)]
    assert one == two and any(cues for cues, _, _ in one)


def test_unpickled_pipeline_reregisters_its_extensions_in_a_fresh_process(default_nlp, tmp_path):
    path = tmp_path / "nlp.pkl"
    path.write_bytes(pickle.dumps(default_nlp))
    out = run_python(
        "import pickle\n"
        f"nlp = pickle.loads(open({str(path)!r}, 'rb').read())\n"
        "doc = nlp('Alice has admin. Not sure though.')\n"
        "print([s._.factwash_hedged for s in doc.sents])\n"
    )
    assert out.strip() == "[True, True]"  # the first sentence lies in the scope of the second's hedge


def test_saved_pipeline_loads_in_a_fresh_process_without_importing_the_package(default_nlp, tmp_path):
    default_nlp.to_disk(tmp_path / "pipe")
    out = run_python(
        "import sys, spacy\n"
        "assert 'spacy_factwash' not in sys.modules\n"
        f"nlp = spacy.load({str(tmp_path / 'pipe')!r})\n"
        "doc = nlp('Sources say the deal might close.')\n"
        "print([(s.label_, s.id_) for s in doc.spans['factwash_cues']])\n"
    )
    assert out.strip() == "[('ATTRIBUTION', 'attribution:sources'), ('HEDGE', 'hedge:might')]"


def test_spacy_assemble_builds_the_default_pipeline_from_config(default_nlp, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "spacy", "assemble", str(ROOT / "configs" / "factwash.cfg"), str(tmp_path / "out")],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assembled = spacy.load(tmp_path / "out")
    assert assembled.config == spacy_factwash.load().config  # load() is this config assembled: no second copy
    assert assembled.pipe_names == default_nlp.pipe_names
    assert [annotation(d) for d in assembled.pipe(TEXTS)] == [annotation(d) for d in default_nlp.pipe(TEXTS)]
    assert [t.lemma_ for t in assembled("sources said")] == ["source", "say"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.name.startswith("factwash_")) == [
        "factwash_compare", "factwash_cues", "factwash_lemmas", "factwash_strength"]  # each saved with its data
    pair = ("The cable is 3 km long, Alice said.", "The cable is 30 km long.")
    assert spacy_factwash.inspect(*pair, nlp=assembled).to_dict() == spacy_factwash.inspect(*pair).to_dict()


@pytest.mark.parametrize("factory", ["factwash_hedge", "factwash_attribution", "factwash_negation",
                                     "factwash_conditional", "factwash_temporal"])
def test_single_class_factories_compose_to_the_full_component(nlp, factory):
    single = spacy.blank("en")
    single.add_pipe(factory)
    label = single.get_pipe(factory).labels[0]
    for text in TEXTS[:5]:
        assert cues_of(single(text)) == cues_of(nlp(text), label)


def test_five_single_class_components_equal_factwash_cues(nlp):
    stacked = spacy.blank("en")
    for factory in ["factwash_temporal", "factwash_hedge", "factwash_negation", "factwash_attribution",
                    "factwash_conditional"]:
        stacked.add_pipe(factory)
    for text in TEXTS[:5]:
        assert annotation(stacked(text)) == annotation(nlp(text))


def test_registered_scorer_serves_nlp_evaluate(nlp):
    from spacy.training import Example

    predicted = nlp.make_doc("Alice might not come.")
    reference = nlp.make_doc("Alice might not come.")
    reference.spans["factwash_cues"] = [reference.char_span(6, 11, label="HEDGE"), reference.char_span(0, 5, label="NEGATION")]
    scores = nlp.evaluate([Example(predicted, reference)])
    assert scores["spans_factwash_cues_p"] == 0.5 and scores["spans_factwash_cues_r"] == 0.5
    assert scores["spans_factwash_cues_per_type"]["HEDGE"]["f"] == 1.0
