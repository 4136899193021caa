"""Claim strength and certainty: the component, its evidence, its serialization, its properties, and the README table."""

import json
import pickle
import shutil
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import spacy
import srsly
from conftest import made_once, perturbed_drift, readme_drift
from hypothesis import given, strategies as st
from properties import properties
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

import spacy_factwash
from factwash_dev.evaluation.claim_strength import read, split_path, write_strength_split
from factwash_dev.evaluation.readme import STRENGTH
from factwash_dev.evaluation.split import read_split
from spacy_factwash import certainty_level, claim_strength
from spacy_factwash.cli import app
from spacy_factwash.lexicon.frozen import LexiconError, freeze
from spacy_factwash.pipes.strength import Strength, StrengthCue, strengthened
from spacy_factwash.pipes.strength.lexicon import STRENGTH_DATA, STRENGTH_FILES, load_strength_lexicon

ROOT = Path(__file__).resolve().parent.parent
SPLITS = ROOT / "training" / "splits"
PACKAGED = ROOT / "lexicons" / "strength"


@pytest.fixture(scope="module")
def nlp():
    """The default pipeline (sentences, lemmas, cues, strength, gate)."""
    return spacy_factwash.load()


def label(nlp, text):
    return claim_strength(nlp(text)).label


# -- the four strengths, with their evidence ------------------------------------------------------


@pytest.mark.parametrize("text, expected, entries", [
    ("Coffee intake was associated with a lower risk of diabetes.", "correlational", ["association:associated"]),
    ("Coffee intake may reduce the risk of diabetes.", "conditional_causal", ["modal:may", "causal:reduce"]),
    ("Coffee intake could lower the risk of diabetes.", "conditional_causal", ["modal:may", "causal:modal_base"]),
    ("Coffee intake reduces the risk of diabetes.", "direct_causal", ["causal:reduce"]),
    ("The cohort included 12,000 adults from three cities.", "none", []),
    ("Further studies are needed to reduce the risk of diabetes.", "none", ["nonclaim:further"]),
])
def test_each_strength_names_the_words_that_set_it(nlp, text, expected, entries):
    doc = nlp(text)
    strength = claim_strength(doc)
    assert strength.label == expected and [c.entry for c in strength.cues] == entries
    assert strength.lexicon_version == nlp.get_pipe("factwash_strength").lexicon_version
    for cue in strength.cues:
        assert doc.text[cue.start_char:cue.end_char] == cue.text == doc[cue.start:cue.end].text
    assert strength.reason and json.loads(json.dumps(strength.to_dict()))["label"] == expected


def test_an_association_before_the_cause_word_keeps_the_claim_correlational(nlp):
    assert label(nlp, "Statin use was associated with reduced mortality.") == "correlational"
    assert label(nlp, "Statins reduce mortality.") == "direct_causal"


def test_a_modal_in_another_clause_does_not_govern_the_cause_word(nlp):
    assert label(nlp, "Results may vary; the drug reduces mortality.") == "direct_causal"


def test_the_strength_of_a_clause_is_read_inside_the_clause_only(nlp):
    doc = nlp("Coffee may reduce the risk of diabetes, and tea was associated with better sleep.")
    comma = next(t.i for t in doc if t.text == ",")
    assert claim_strength(doc[:comma]).label == "conditional_causal"
    assert claim_strength(doc[comma + 2:]).label == "correlational"


def test_a_doc_without_the_strength_group_is_an_error_not_none():
    doc = spacy.blank("en")("Coffee reduces the risk of diabetes.")
    with pytest.raises(ValueError, match="add the factwash_strength component"):
        claim_strength(doc)


def test_strengthened_needs_a_weaker_source_and_a_direct_memory(nlp):
    correlational = claim_strength(nlp("Coffee was associated with a lower risk of diabetes."))
    comparison = claim_strength(nlp("Diabetes was less common in coffee drinkers than in others."))
    direct = claim_strength(nlp("Coffee lowers the risk of diabetes."))
    assert strengthened(correlational, direct) and not strengthened(direct, direct)
    assert not strengthened(direct, correlational)
    assert comparison.cues[0].label == "COMPARISON"
    assert not strengthened(comparison, direct) and strengthened(comparison, direct, from_comparison=True)


# -- certainty ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, level", [
    ("Coffee might reduce the risk of diabetes.", "speculative"),
    ("These results suggest that coffee is associated with a lower risk of diabetes.", "tentative"),
    ("Coffee reduces the risk of diabetes.", "plain"),
])
def test_certainty_level_follows_the_most_tentative_hedge(nlp, text, level):
    doc = nlp(text)
    certainty = certainty_level(doc)
    assert certainty.level == level and certainty.cues
    if level == "plain":
        assert certainty.cues == claim_strength(doc).cues and "no hedge" in certainty.reason
    else:
        assert all(cue.label == "HEDGE" for cue in certainty.cues)


def test_certainty_is_ordered_and_carried_by_the_extension(nlp):
    doc = nlp("Coffee might reduce the risk. These results suggest a link. Coffee reduces the risk.")
    ranks = [sent._.factwash_certainty.rank for sent in doc.sents]
    assert ranks == sorted(ranks) and len(set(ranks)) == 3
    assert [s._.factwash_strength.label for s in doc.sents] == ["conditional_causal", "correlational",
                                                                  "direct_causal"]


def test_certainty_without_the_cue_group_is_an_error():
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_strength")
    with pytest.raises(ValueError, match="add the factwash_cues component"):
        certainty_level(nlp("Coffee might reduce the risk."))


# -- the component: factory, config, serialization ----------------------------------------------


def test_the_factory_is_advertised_by_entry_point():
    names = {ep.name: ep.value for ep in entry_points(group="spacy_factories")}
    assert names["factwash_strength"] == "spacy_factwash.pipes.strength.component:make_strength"


def test_cue_spans_are_labelled_with_their_entry_and_user_data_is_msgpack_safe(nlp):
    doc = nlp("Coffee may reduce the risk of diabetes.")
    assert [(s.label_, s.text, s.id_) for s in doc.spans["factwash_strength"]] == [
        ("MODAL", "may", "modal:may"), ("CAUSAL", "reduce", "causal:reduce")]
    assert srsly.msgpack_loads(srsly.msgpack_dumps(doc.user_data)) == doc.user_data


def test_modal_reach_is_a_config_setting_and_is_checked():
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_strength", config={"modal_reach": 0})
    doc = nlp("Coffee may in turn reduce the risk.")
    assert doc.user_data["factwash_strength_modal_reach"] == 0
    assert claim_strength(doc).label == doc[:]._.factwash_strength.label == "direct_causal"
    assert claim_strength(doc, modal_reach=6).label == "conditional_causal"
    with pytest.raises(ValueError, match="modal_reach"):
        spacy.blank("en").add_pipe("factwash_strength", config={"modal_reach": -1})


def test_a_saved_pipeline_keeps_its_lexicon_and_refuses_a_tampered_one(nlp, tmp_path):
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    text = "Coffee may reduce the risk of diabetes."
    assert claim_strength(loaded(text)) == claim_strength(nlp(text))
    saved = tmp_path / "pipeline" / "factwash_strength" / "lexicons" / "causal.jsonl"
    saved.write_text(saved.read_text(encoding="utf8").replace('"reduce"', '"lessen"', 1), encoding="utf8")
    with pytest.raises(LexiconError, match="causal.jsonl: contents do not match the frozen manifest"):
        spacy.load(tmp_path / "pipeline")


def test_bytes_and_pickle_round_trip_the_component(nlp):
    component = nlp.get_pipe("factwash_strength")
    other = spacy.blank("en").add_pipe("factwash_strength").from_bytes(component.to_bytes())
    assert other.lexicon_version == component.lexicon_version
    unpickled = pickle.loads(pickle.dumps(component))
    doc = nlp.make_doc("Coffee lowers the risk.")
    assert [s.id_ for s in unpickled(doc).spans["factwash_strength"]] == ["causal:lower"]


def test_extensions_survive_a_docbin_round_trip(nlp):
    docs = list(nlp.pipe(["Coffee may reduce the risk.", "Tea was linked to better sleep."]))
    restored = list(DocBin(docs=docs, store_user_data=True).get_docs(nlp.vocab))
    for before, after in zip(docs, restored):
        assert after[:]._.factwash_strength == before[:]._.factwash_strength
        assert after[:]._.factwash_certainty == before[:]._.factwash_certainty


def test_another_packages_extension_is_never_clobbered():
    Span.set_extension("othertool_strength", default="theirs")
    with pytest.raises(ValueError, match=r"'othertool_strength' is already registered \(by another package\)"):
        spacy.blank("en").add_pipe("factwash_strength", config={"extension_prefix": "othertool"})


def test_a_scale_naming_an_unknown_level_is_refused(tmp_path):
    folder = tmp_path / "strength"
    shutil.copytree(PACKAGED, folder)
    scale = json.loads((folder / "scale.json").read_text(encoding="utf8"))
    scale["unhedged"]["direct_causal"] = "certain"
    (folder / "scale.json").write_text(json.dumps(scale), encoding="utf8")
    with pytest.raises(LexiconError, match="scale.json: contents do not match"):
        load_strength_lexicon(folder)
    freeze(folder, "0.0.1", STRENGTH_FILES, STRENGTH_DATA)
    strength = spacy.blank("en").add_pipe("factwash_strength", config={"lexicon_dir": str(folder)})  # built empty
    with pytest.raises(LexiconError, match=r"names levels not in 'levels': \['certain'\]"):
        strength.initialize()


def test_freeze_lexicons_knows_the_strength_set(tmp_path):
    folder = tmp_path / "strength"
    shutil.copytree(PACKAGED, folder)
    result = CliRunner().invoke(app, ["freeze-lexicons", str(folder), "--version", "9.9.9", "--set", "strength"])
    assert result.exit_code == 0 and "froze 6 files as version 9.9.9" in result.output
    assert load_strength_lexicon(folder).version == "9.9.9"
    bad = CliRunner().invoke(app, ["freeze-lexicons", str(folder), "--version", "1", "--set", "nothing"])
    assert bad.exit_code == 1 and "--set must be one of cues, authority, strength" in bad.output


# -- properties ---------------------------------------------------------------------------------

SUBJECTS = ["Coffee intake", "Night-shift work", "Daily walking", "Statin use", "The new inhaler", "Short sleep"]
OBJECTS = ["type 2 diabetes", "asthma attacks", "memory scores in older women", "hospital admissions"]
CLAIMS = [
    "{s} was associated with {o}", "{s} is linked to {o}", "{s} may reduce {o}", "{s} might worsen {o}",
    "{s} reduces {o}", "{s} led to {o}", "{o} were higher among people reporting {s}",
    "{s} could lower {o}", "further studies of {s} and {o} are needed",
]
NEUTRAL = ["the", "cohort", "included", "adults", "from", "three", "cities", "nurses", "questionnaire", "data",
           "were", "collected", "in", "spring", "participants", "answered", "survey", "blood", "samples"]


def claim_texts():
    return st.builds(lambda template, s, o: template.format(s=s, o=o), st.sampled_from(CLAIMS),
                     st.sampled_from(SUBJECTS), st.sampled_from(OBJECTS))


def test_the_neutral_vocabulary_holds_no_strength_word(nlp):
    assert all(not nlp(word).spans["factwash_strength"] for word in NEUTRAL)


@properties(60)
@given(words=st.lists(st.sampled_from(NEUTRAL), min_size=1, max_size=20))
def test_a_text_with_no_strength_word_is_none_and_plain(nlp, words):
    doc = nlp(" ".join(words) + ".")
    assert claim_strength(doc).label == "none" and claim_strength(doc).cues == ()
    assert certainty_level(doc).level == "plain"


@properties(80)
@given(claim=claim_texts(), other=st.one_of(claim_texts(), st.lists(st.sampled_from(NEUTRAL), min_size=1, max_size=8)
                                              .map(" ".join)),
       joint=st.sampled_from(["; ", ", and ", ", but ", " — "]), before=st.booleans())
def test_an_unrelated_clause_never_changes_a_claims_strength(nlp, claim, other, joint, before):
    """Read on its own span, a claim keeps its strength whatever clause is added after it (or sentence before it)."""
    alone = claim_strength(nlp(claim + "."))
    if before:
        doc = nlp(other[0].upper() + other[1:] + ". " + claim + ".")
        span = list(doc.sents)[-1]
    else:
        doc = nlp(claim + joint + other + ".")
        span = doc.char_span(0, len(claim))
    together = claim_strength(span)
    assert together.label == alone.label
    assert [(c.entry, c.text) for c in together.cues] == [(c.entry, c.text) for c in alone.cues]


# -- the corpora: the split, and the README table ------------------------------------------------


@pytest.mark.corpus
def test_the_committed_claim_strength_split_is_the_rule_and_covers_every_sentence(corpora, tmp_path):
    written = write_strength_split(corpora, tmp_path)
    assert written.read_bytes() == split_path(SPLITS).read_bytes()
    split = read_split(split_path(SPLITS))
    items = list(read(corpora / "claim-strength" / "raw" / "data"))
    for subset, halves in split.items():
        assert halves["dev"] and halves["test"] and not set(halves["dev"]) & set(halves["test"])
        assert len(halves["dev"]) + len(halves["test"]) == sum(1 for i in items if i.subset == subset)


@pytest.mark.corpus
def test_a_press_release_never_straddles_the_halves(corpora):
    split = read_split(split_path(SPLITS))["eureka"]
    test_ids = set(split["test"])
    halves = {}
    for item in read(corpora / "claim-strength" / "raw" / "data"):
        if item.subset == "eureka":
            halves.setdefault(item.split_key, set()).add(item.doc_id in test_ids)
    assert all(len(v) == 1 for v in halves.values())


@pytest.fixture(scope="module")
def measured(corpora, tmp_path_factory):
    from factwash_dev.evaluation.strength_eval import markdown_table, measure

    return made_once(tmp_path_factory, "strength_table",
                     lambda: markdown_table(measure(corpora, SPLITS, ROOT / "training" / "gate_sets")))


@pytest.mark.corpus
def test_readme_strength_table_is_the_measured_table(measured):
    drift = readme_drift(STRENGTH, measured)
    assert drift == [], "README strength table drifted from the measurement:\n" + "\n".join(drift)


@pytest.mark.corpus
def test_strength_guard_names_a_perturbed_figure(measured):
    drift = perturbed_drift(STRENGTH, measured, "| pubmed | macro |", -2, "0.999")  # BioBERT F1
    assert drift == ["pubmed / macro / BioBERT F1: README says 0.999, measured 0.878"]


def test_strength_records_are_plain_dataclasses():
    cue = StrengthCue("CAUSAL", "reduces", "causal:reduce", 2, 3, 10, 17)
    strength = Strength("direct_causal", (cue,), "cause word", "0.1.0")
    assert strength.rank == 3 and strength.causal and strength.to_dict()["cues"][0]["entry"] == "causal:reduce"
