"""Drift over rewrite chains and the memory-system bench."""

import json
from pathlib import Path

import pytest
from conftest import readme_drift
from hypothesis import given, strategies as st
from typer.testing import CliRunner

import spacy_factwash
from factwash_dev.evaluation.readme import BENCH
from spacy_factwash.cli import app
from spacy_factwash.memory.bench import score_writes, wilson
from spacy_factwash.pipes.gate.gate import Gate

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = ROOT / "training" / "bench"
RUN = CliRunner()


def test_a_chain_that_removes_one_hedge_per_hop_fires_on_the_hop_that_removes_the_last():
    chain = ["Alice might possibly get admin access.", "Alice might get admin access.", "Alice will get admin access."]
    report = spacy_factwash.drift(chain)
    assert [h.verdict for h in report.hops] == ["pass", "rewrite"]
    assert [(loss.type, loss.hop) for loss in report.losses] == [("strengthened_certainty", 2)]
    assert report.end_to_end.verdict == "rewrite" and not report.lost_checkability
    assert [v["verification"] for v in report.provenance] == ["attributed", "attributed", "unverified"]


def test_each_loss_is_pinned_to_its_hop():
    chain = ["Someone said Alice might get admin access as of Monday.",
             "Alice might get admin access as of Monday.",
             "Alice might get admin access.",
             "Alice gets admin access."]
    losses = {loss.type: loss.hop for loss in spacy_factwash.drift(chain).losses}
    assert losses == {"dropped_attribution": 1, "dropped_temporal_scope": 2, "strengthened_certainty": 3}


def test_a_chain_that_goes_uncheckable_has_lost_checkability():
    report = spacy_factwash.drift(["Alice leads the team.", "Bananas are yellow.", "Bananas are yellow."])
    assert report.lost_checkability and report.uncheckable_hops == [1]
    assert [v["verification"] for v in report.provenance] == ["attributed", "unverified", "unverified"]
    assert json.loads(json.dumps(report.to_dict()))["lost_checkability"] is True


@pytest.mark.parametrize("bad,error", [(["only one"], ValueError), (["a", 3], TypeError), ("abc", TypeError),
                                       (b"abc", TypeError)])
def test_a_bad_chain_is_a_clear_error(bad, error):
    with pytest.raises(error):
        spacy_factwash.drift(bad)


@given(st.integers(min_value=0, max_value=200), st.integers(min_value=1, max_value=200))
def test_wilson_interval_holds_the_proportion_and_stays_in_bounds(successes, trials):
    successes = min(successes, trials)
    low, high = wilson(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_wilson_interval_narrows_with_more_trials():
    assert (lambda a, b: a[1] - a[0] > b[1] - b[0])(wilson(5, 10), wilson(50, 100))


def _stimuli():
    rows = [json.loads(line) for line in (BENCH_DIR / "stimuli.jsonl").read_text().splitlines()]
    return rows[0]["stimulus_set"], {row["id"]: row["source"] for row in rows}


def _writes(name):
    return [(w["stimulus_id"], w["memory"]) for w in map(json.loads, (BENCH_DIR / name).read_text().splitlines())]


def test_laundering_writes_are_flagged_and_stance_keeping_writes_are_not():
    gate = Gate(spacy_factwash.default_pipeline())
    stimulus_set, sources = _stimuli()
    keep = score_writes(stimulus_set, sources, _writes("writes_preserve.jsonl"), gate)
    launder = score_writes(stimulus_set, sources, _writes("writes_launder.jsonl"), gate)
    assert len(sources) == 15 and sum(sid.startswith("s") for sid in sources) == 10
    assert launder.flag_rate > keep.flag_rate and launder.flag_rate_ci95[0] > keep.flag_rate
    assert keep.abstention_share == launder.abstention_share == 1 / 15
    assert launder.stimulus_set == "hearsay-v1" and launder.change_types["dropped_attribution"] > 0


def test_a_write_for_an_unknown_stimulus_is_refused():
    gate = Gate(spacy_factwash.default_pipeline())
    with pytest.raises(ValueError, match="not in set"):
        score_writes("x", {"a": "Alice leads."}, [("b", "Alice leads.")], gate)


def test_readme_bench_table_is_the_measured_table():
    result = RUN.invoke(app, ["bench", str(BENCH_DIR / "stimuli.jsonl"), str(BENCH_DIR / "writes_preserve.jsonl"),
                              str(BENCH_DIR / "writes_launder.jsonl")])
    assert result.exit_code == 0, result.output
    measured = result.output.split("\n\n", 1)[0] + "\n"
    drift = readme_drift(BENCH, measured)
    assert drift == [], "README bench table drifted:\n" + "\n".join(drift)


def test_bench_refuses_mixed_stimulus_sets(tmp_path):
    (tmp_path / "s.jsonl").write_text('{"stimulus_set": "a", "id": "1", "source": "x"}\n'
                                      '{"stimulus_set": "b", "id": "2", "source": "y"}\n')
    (tmp_path / "w.jsonl").write_text('{"stimulus_id": "1", "memory": "x"}\n')
    result = RUN.invoke(app, ["bench", str(tmp_path / "s.jsonl"), str(tmp_path / "w.jsonl")])
    assert result.exit_code == 1 and "same string 'stimulus_set'" in result.output


def test_drift_command_writes_reports_and_names_the_hop(tmp_path):
    (tmp_path / "chains.jsonl").write_text(json.dumps(
        {"id": "c1", "versions": ["Someone said Alice was promoted.", "Alice was promoted."]}) + "\n")
    result = RUN.invoke(app, ["drift", str(tmp_path / "chains.jsonl"), "--output", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 0, result.output
    assert "c1: end to end rewrite: dropped_attribution at hop 1" in result.output
    assert json.loads((tmp_path / "out.jsonl").read_text())["id"] == "c1"


def test_drift_command_names_a_bad_chain(tmp_path):
    (tmp_path / "chains.jsonl").write_text('{"id": "c1", "versions": ["only one"]}\n')
    result = RUN.invoke(app, ["drift", str(tmp_path / "chains.jsonl"), "--output", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 1 and "chains.jsonl:1: 'versions' must be a list of at least two strings" in result.output


# -- provenance -------------------------------------------------------------------------------

from spacy_factwash.memory.provenance import Item, Store, Verification  # noqa: E402

LEVELS = st.sampled_from(list(Verification))


def _item(i, level, source_class="user_statement"):
    return Item(f"i{i}", f"text {i}", source_class, f"handle-{i}", verification=level)


@given(st.lists(LEVELS, min_size=1, max_size=5), LEVELS, st.sets(st.sampled_from(
    ["dropped_attribution", "strengthened_certainty", "changed_value", "dropped_condition"])))
def test_a_derived_item_is_never_more_verified_than_its_weakest_input(inputs, claimed, changes):
    store = Store()
    for i, level in enumerate(inputs):
        store.add(_item(i, level))
    derived = store.derive(_item(99, claimed, "model_inference"), [f"i{i}" for i in range(len(inputs))], changes)
    assert derived.verification <= min(inputs) and derived.verification <= claimed
    if {"dropped_attribution", "strengthened_certainty"} & changes:
        assert derived.verification <= Verification.UNVERIFIED


def test_descendants_and_quarantine_follow_every_derivation():
    store = Store()
    store.add(_item(1, Verification.VERIFIED))
    store.add(_item(2, Verification.VERIFIED))
    store.derive(_item(3, Verification.VERIFIED, "model_inference"), ["i1"])
    store.derive(_item(4, Verification.VERIFIED, "model_inference"), ["i3", "i2"])
    store.derive(_item(5, Verification.VERIFIED, "model_inference"), ["i2"])
    assert store.descendants("i1") == ["i3", "i4"]
    assert store.quarantine("i1") == ["i1", "i3", "i4"]
    assert store.get("i4").verification == Verification.QUARANTINED and store.get("i5").verification > 0
    restored = Store.from_json(json.loads(json.dumps(store.to_json())))
    assert restored.items == store.items


def test_bad_provenance_is_refused():
    with pytest.raises(ValueError, match="source_class"):
        Item("x", "t", "gossip", "h")
    with pytest.raises(ValueError, match="not in the store"):
        Store().derive(_item(1, Verification.VERIFIED), ["nope"])
