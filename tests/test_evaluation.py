"""Held-out evaluation: readers, splits, scoring, mining provenance, and the README's figures."""

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
import spacy
from conftest import perturbed_drift, readme_drift
from spacy.training import Example

from factwash_dev.evaluation import bioscope, cdsco, polnear, szeged, tempeval
from factwash_dev.evaluation.corpora import CORPORA, read_half
from factwash_dev.evaluation.evaluate import evaluate, evaluation_pipeline, markdown_table
from factwash_dev.evaluation.gold import GoldSpan, GoldText, to_doc
from factwash_dev.evaluation.mining import ClassCounts, admitted, narrowed
from factwash_dev.evaluation.readme import HELDOUT
from factwash_dev.evaluation.split import SplitError, read_split
from spacy_factwash.lexicon.frozen import load_lexicons, packaged_lexicon_dir
from spacy_factwash.pipes.cues.scorer import Unit, score_units

ROOT = Path(__file__).resolve().parent.parent
SPLITS = ROOT / "training" / "splits"


# -- readers: counts as documented in the corpora's SOURCES.md ------------------------------


def _gold_counts(items):
    sentences, spans = Counter(), Counter()
    for item in items:
        sentences[item.subset] += 1
        for span in item.spans:
            spans[(item.subset, span.group, span.label)] += 1
    return sentences, spans


def test_bioscope_reader_matches_the_documented_counts(corpora):
    sentences, spans = _gold_counts(bioscope.read(corpora / "bioscope" / "raw"))
    assert sentences == {"abstracts": 11_871, "full_papers": 2_670}
    assert spans[("abstracts", "factwash_gold", "HEDGE")] == 2_694
    assert spans[("abstracts", "factwash_gold", "NEGATION")] == 1_757
    assert spans[("full_papers", "factwash_gold", "HEDGE")] == 682
    assert spans[("full_papers", "factwash_gold", "NEGATION")] == 378


def test_szeged_reader_maps_types_with_their_literal_space(corpora):
    sentences, spans = _gold_counts(szeged.read(corpora / "szeged-uncertainty" / "raw"))
    assert sentences == {"bio_bmc": 2_773, "bio_fly": 3_470, "bio_hbc": 13_232, "factbank": 3_129, "wiki": 20_748}
    assert sum(n for (_, _, label), n in spans.items() if label == "CONDITIONAL") == 880
    assert szeged.label_of("speculation_hypo_doxastic _") == "HEDGE"
    assert szeged.label_of("speculation_hypo_investigation _") is None


def test_szeged_investigation_sentences_are_left_out_of_hedge_scoring(corpora):
    import xml.etree.ElementTree as ET

    raw = corpora / "szeged-uncertainty" / "raw"
    expected = sum(
        1
        for name in szeged.FILES
        for sentence in ET.parse(raw / f"{name}.xml").getroot().iter("Sentence")
        if any(szeged.is_investigation(c.get("type", "")) for c in sentence.iter("ccue"))
    )
    skipped = [item for item in szeged.read(raw) if item.skip_labels == ("HEDGE", "CONDITIONAL")]
    assert expected > 0 and len(skipped) == expected


def test_cdsco_reader_keeps_affixal_cues_apart(corpora):
    sentences, spans = _gold_counts(cdsco.read(corpora / "sem2012-cdsco" / "raw"))
    assert sentences == {"train": 3_644, "dev": 787, "test": 1_089}
    item = next(i for i in cdsco.read(corpora / "sem2012-cdsco" / "raw") if "unpleasant" in i.text.split())
    affixal = [item.text[s.start:s.end] for s in item.spans if s.group == cdsco.AFFIXAL_KEY]
    assert "un" in affixal


def test_polnear_reader_uses_one_annotator_per_article(corpora):
    items = list(polnear.read(corpora / "polnear" / "raw"))
    assert Counter(item.subset for item in items) == {"train": 840, "dev": 84, "test": 84}
    groups = Counter(span.group for item in items for span in item.spans)
    assert groups["factwash_gold"] and groups["polnear_source"] and groups["polnear_content"]


def test_tempeval_reader_excludes_the_creation_time(corpora):
    items = list(tempeval.read(corpora / "tempeval3-timeml" / "raw"))
    test_timex = sum(1 for item in items if item.subset == "test" for s in item.spans if s.label == "TEMPORAL")
    assert Counter(item.subset for item in items) == {"train": 256, "test": 20}
    assert test_timex == 158 - 20  # 158 TIMEX3 in te3-platinum, one creation time per document


def test_every_gold_span_maps_onto_tokens(test_half_result):
    assert test_half_result["unaligned_gold_spans"] == {name: 0 for name in CORPORA}


def test_unmappable_gold_spans_are_counted_not_dropped_silently():
    nlp = spacy.blank("en")
    doc = to_doc(nlp, GoldText("x", "s", "d", "u", "Alice might come.", [GoldSpan(6, 11, "HEDGE"), GoldSpan(40, 45, "HEDGE")]))
    assert [s.text for s in doc.spans["factwash_gold"]] == ["might"]
    assert doc.user_data["factwash_gold_meta"]["unaligned"] == 1


# -- splits ---------------------------------------------------------------------------------


def test_no_document_is_in_both_halves():
    for name in ("bioscope", "szeged"):
        for subset, halves in read_split(SPLITS / f"{name}.json").items():
            assert not set(halves["dev"]) & set(halves["test"]), (name, subset)


def test_a_document_shared_by_bioscope_and_szeged_falls_in_the_same_half(corpora):
    def committed_half(name, items):
        dev = {(subset, doc_id) for subset, halves in read_split(SPLITS / f"{name}.json").items()
               for doc_id in halves["dev"]}
        return {i.split_key: ("dev" if (i.subset, i.doc_id) in dev else "test") for i in items}

    bio = committed_half("bioscope", bioscope.read(corpora / "bioscope" / "raw"))
    sz = committed_half("szeged", szeged.read(corpora / "szeged-uncertainty" / "raw"))
    shared = set(bio) & set(sz)
    assert len(shared) > 1000 and all(bio[key] == sz[key] for key in shared)


def test_halves_are_disjoint_by_document(corpora):
    for name in CORPORA:
        dev = {(i.subset, i.doc_id) for i in read_half(corpora, name, "dev", SPLITS)}
        test = {(i.subset, i.doc_id) for i in read_half(corpora, name, "test", SPLITS)}
        assert dev and test and not dev & test, name


def test_a_document_missing_from_the_split_files_is_an_error(corpora, tmp_path):
    split = read_split(SPLITS / "bioscope.json")
    split["abstracts"]["test"] = split["abstracts"]["test"][1:]
    (tmp_path / "bioscope.json").write_text(json.dumps(split))
    with pytest.raises(SplitError, match="in no committed split file"):
        list(read_half(corpora, "bioscope", "dev", tmp_path))


# -- scoring --------------------------------------------------------------------------------


def test_sentence_and_cue_counts():
    units = [
        Unit("a", [(0, 1, "HEDGE")], [(0, 1, "HEDGE", "hedge:may")]),        # TP, cue correct
        Unit("b", [], [(0, 1, "HEDGE", "hedge:could")]),                      # FP
        Unit("c", [(0, 1, "HEDGE")], []),                                     # FN
        Unit("d", [], []),                                                    # TN
        Unit("e", [(0, 1, "HEDGE")], [(0, 1, "HEDGE", "hedge:x")], ("HEDGE",)),  # skipped
    ]
    score = score_units(units, ["HEDGE"])["HEDGE"]
    assert (score.tp, score.fp, score.fn, score.n, score.skipped) == (1, 1, 1, 4, 1)
    assert score.precision == 0.5 and score.recall == 0.5
    assert score.false_entries == {"hedge:could": 1} and score.missed_gold == {"c": 1}


def test_registered_sentence_scorer_serves_nlp_evaluate():
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues", config={"scorer": {"@scorers": "spacy_factwash.sentence_scorer.v1"}})
    reference = nlp.make_doc("Alice might come.")
    reference.spans["factwash_cues"] = [reference.char_span(6, 11, label="HEDGE")]
    scores = nlp.evaluate([Example(nlp.make_doc("Alice might come."), reference)])
    assert scores["factwash_sent_hedge_f"] == 1.0 and scores["factwash_sent_negation_p"] == 0.0


# -- mining ---------------------------------------------------------------------------------


def _counts(fires, positive, occurrences, inside):
    counts = ClassCounts()
    gram = ("hmm",)
    counts.new_fires[gram], counts.new_positive[gram] = fires, positive
    counts.occurrences[gram], counts.inside_gold[gram] = occurrences, inside
    counts.forms[gram] = {"hmm"}
    return counts


@pytest.mark.parametrize(
    "fires,positive,occurrences,inside,admit",
    [(10, 6, 10, 6, True), (9, 9, 9, 9, False), (10, 5, 10, 10, False), (10, 10, 10, 5, False)],
)
def test_admission_thresholds(fires, positive, occurrences, inside, admit):
    assert bool(admitted(_counts(fires, positive, occurrences, inside), set())) is admit


def test_a_term_already_listed_is_not_admitted_again():
    assert admitted(_counts(20, 20, 20, 20), {"hmm"}) == []


def test_narrowing_removes_entries_under_the_threshold():
    counts = ClassCounts()
    counts.entry_fires.update({"hedge:might": 10, "hedge:could": 10, "hedge:may": 9})
    counts.entry_positive.update({"hedge:might": 4, "hedge:could": 3, "hedge:may": 0})
    assert [entry for entry, _, _ in narrowed(counts, "HEDGE", load_lexicons())] == ["hedge:could"]


def test_packaged_lexicons_are_the_last_mining_rounds_output():
    lexicons = load_lexicons()
    reports = [json.loads(p.read_text()) for p in sorted((ROOT / "training" / "rounds").glob("round-*.json"))]
    reviews = [json.loads(p.read_text()) for p in sorted((ROOT / "training" / "rounds").glob("review-*.json"))]
    assert len(reports) >= 2 and (reviews or reports)[-1]["version"] == lexicons.version
    reviewed = {i for review in reviews for ids in review["added"].values() for i in ids}
    assert reviewed == {e.id for e in lexicons.entries if e.provenance["source"] == "review"}
    added = {a["id"]: a for report in reports for entries in report["added"].values() for a in entries}
    removed = {r["id"] for report in reports for entries in report["removed"].values() for r in entries}
    mined = [e for e in lexicons.entries if e.provenance["source"] == "mined"]
    assert mined and {e.id for e in mined} == set(added)
    for entry in mined:
        assert entry.provenance["fires"] == added[entry.id]["fires"] and entry.provenance["half"] == "dev"
    assert removed and not removed & {e.id for e in lexicons.entries}
    seed = load_lexicons(ROOT / "training" / "lexicons" / "seed")
    assert removed <= {e.id for e in seed.entries}


# -- the README's figures --------------------------------------------------------------------


def test_readme_table_is_the_measured_table(test_half_result):
    drift = readme_drift(HELDOUT, markdown_table(test_half_result))
    assert drift == [], "README held-out table drifted from the measurement:\n" + "\n".join(drift)


def test_guard_names_a_perturbed_figure(test_half_result, tmp_path):
    measured = markdown_table(test_half_result)
    drift = perturbed_drift(HELDOUT, measured, "| CD-SCO | NEGATION", 9, "0.01")  # the F1 column
    assert len(drift) == 1 and drift[0].startswith("CD-SCO / NEGATION / F1: README says 0.01, measured")


def test_guard_names_the_drift_a_lexicon_change_causes(corpora, test_half_result, tmp_path):
    lexicon_dir = tmp_path / "lexicons"
    shutil.copytree(packaged_lexicon_dir(), lexicon_dir)
    path = lexicon_dir / "negation.jsonl"
    kept = [line for line in path.read_text().splitlines() if '"id": "negation:not"' not in line]
    path.write_text("\n".join(kept) + "\n")
    perturbed = evaluate(corpora, "test", SPLITS, corpora=["cdsco"],
                         nlp=evaluation_pipeline(str(lexicon_dir), verify_lexicons=False))
    drift = readme_drift(HELDOUT, markdown_table(perturbed))
    assert any(d.startswith("CD-SCO / NEGATION / R: README says") for d in drift)
    version = load_lexicons().version
    assert any(f"lexicon {version}+unfrozen" in d for d in drift if d.startswith("caption"))


def test_a_mining_round_writes_only_the_class_files_and_manifest(tmp_path):
    from factwash_dev.evaluation.mining import _write_lexicon

    out = tmp_path / "lexicons"
    (out / "authority").mkdir(parents=True)
    (out / "authority" / "keep.jsonl").write_text("{}\n")
    _write_lexicon(ROOT / "training" / "lexicons" / "seed", out, {}, {"hedge:might"}, "9.0.0")
    assert (out / "authority" / "keep.jsonl").read_text() == "{}\n"
    written = load_lexicons(out)
    assert written.version == "9.0.0" and "hedge:might" not in written.by_id
