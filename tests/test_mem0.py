"""wrap() around a real mem0 Memory, fully offline: a local OpenAI-compatible stub, qdrant on disk, sqlite history."""

import json
import os

import pytest

from conftest import in_ci

os.environ["MEM0_TELEMETRY"] = "false"  # read by mem0 when it is imported: no telemetry, no second vector store
try:
    import mem0  # noqa: F401
except ImportError:
    if in_ci():
        raise  # the README's test command installs the mem0 extra: missing in CI is a failure
    pytest.skip("mem0 is an optional extra: pip install '.[test,mem0]'", allow_module_level=True)

import spacy_factwash  # noqa: E402
from openai_stub import DIMS, Stub  # noqa: E402

HEARSAY = [{"role": "user", "content": "Someone in the chat said Alice was promoted to admin this morning."}]
EXTRACTED = {"memory": [{"text": "Alice was promoted to admin."}]}


@pytest.fixture
def stub():
    with Stub(EXTRACTED) as server:
        yield server


def new_memory(tmp_path, stub, name):
    from mem0 import Memory

    return Memory.from_config({
        "llm": {"provider": "openai", "config": {"model": "stub", "api_key": "offline", "openai_base_url": stub.url}},
        "embedder": {"provider": "openai", "config": {"model": "stub", "api_key": "offline",
                                                      "openai_base_url": stub.url, "embedding_dims": DIMS}},
        "vector_store": {"provider": "qdrant", "config": {"path": str(tmp_path / name), "collection_name": name,
                                                          "embedding_model_dims": DIMS, "on_disk": True}},
        "history_db_path": str(tmp_path / f"{name}.db"),
    })


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    import mem0.memory.main

    monkeypatch.setattr(mem0.memory.main, "MEM0_TELEMETRY", False)
    from spacy_factwash.memory.mem0_adapter import _no_model_downloads

    _no_model_downloads()


def stored(memory, user):
    return [m["memory"] for m in memory.get_all(filters={"user_id": user})["results"]]


def test_naked_store_loses_the_attribution_and_the_wrapped_store_does_not(tmp_path, stub):
    naked = new_memory(tmp_path, stub, "naked")
    naked.add(HEARSAY, user_id="u1")
    assert stored(naked, "u1") == ["Alice was promoted to admin."]  # hearsay turned into fact

    wrapped = spacy_factwash.wrap(new_memory(tmp_path, stub, "wrapped"), audit_log=tmp_path / "audit.jsonl")
    wrapped.add(HEARSAY, user_id="u1")
    assert stored(wrapped, "u1") == []
    [record] = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert record["verdict"] == "rewrite" and record["action"] == "hold" and record["fact"] == "Alice was promoted to admin."
    assert {c["type"] for c in record["report"]["changes"]} == {"dropped_attribution", "dropped_temporal_scope"}
    assert stub.chat_requests  # mem0 really asked its LLM


def test_a_supported_fact_is_stored_and_an_unaligned_one_is_marked_unverified(tmp_path, stub):
    stub.reply = {"memory": [{"text": "Someone said Alice was promoted to admin this morning."},
                             {"text": "Bananas are yellow."}]}
    wrapped = spacy_factwash.wrap(new_memory(tmp_path, stub, "m"), audit_log=tmp_path / "audit.jsonl")
    wrapped.add(HEARSAY, user_id="u2")
    memories = wrapped.get_all(filters={"user_id": "u2"})["results"]
    by_text = {m["memory"]: m for m in memories}
    assert set(by_text) == {"Someone said Alice was promoted to admin this morning.", "Bananas are yellow."}
    assert (by_text["Bananas are yellow."].get("metadata") or {}).get("factwash_verification") == "unverified"
    kept = by_text["Someone said Alice was promoted to admin this morning."].get("metadata") or {}
    assert kept.get("factwash_verification") == "attributed" and kept.get("factwash_source", "").startswith("src:")
    actions = [json.loads(line)["action"] for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert actions == ["store", "store_unverified"]
    levels = [item["verification"] for item in wrapped.provenance.to_json()]
    assert levels == ["attributed", "attributed", "unverified"]  # the messages, then each fact derived from them


def test_verbatim_adds_and_updates_are_gated_too(tmp_path, stub):
    wrapped = spacy_factwash.wrap(new_memory(tmp_path, stub, "v"), audit_log=tmp_path / "audit.jsonl")
    source = "The cluster has 4,500 nodes, Bob said."
    result = wrapped.add("The cluster has 5,400 nodes.", infer=False, source=source, user_id="u3")
    assert result["results"] == [] and stored(wrapped, "u3") == []
    kept = wrapped.add("Bob said the cluster has 4,500 nodes.", infer=False, source=source, user_id="u3")
    [memory_id] = [r["id"] for r in kept["results"]]
    refused = wrapped.update(memory_id, text="The cluster has 5,400 nodes.")
    assert refused["message"].startswith("not updated") and stored(wrapped, "u3") == ["Bob said the cluster has 4,500 nodes."]
    paths = [json.loads(line)["path"] for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert paths == ["add_verbatim", "add_verbatim", "update"]


def test_a_bad_policy_is_refused(tmp_path, stub):
    with pytest.raises(ValueError, match="policy must map"):
        spacy_factwash.wrap(new_memory(tmp_path, stub, "p"), audit_log=tmp_path / "a.jsonl", policy={"pass": "keep"})


def test_with_a_fixer_a_held_fact_is_stored_in_its_fixed_form(tmp_path, stub):
    from anthropic_stub import mock_client, require_sdk

    require_sdk()
    from spacy_factwash.models.fixer import Fixer

    fixer = Fixer(client=mock_client([{"memory": "Someone said Alice was promoted to admin this morning."}]))
    wrapped = spacy_factwash.wrap(new_memory(tmp_path, stub, "f"), audit_log=tmp_path / "audit.jsonl", fixer=fixer)
    wrapped.add(HEARSAY, user_id="u4")
    assert stored(wrapped, "u4") == ["Someone said Alice was promoted to admin this morning."]
    paths = [json.loads(line)["path"] for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert paths == ["add", "fix", "fix"]  # the held fact, the fixer's proposal and its acceptance, the fix gated


def test_with_a_witness_a_hedge_the_lexicon_missed_no_longer_holds_the_fact(tmp_path, stub):
    from anthropic_stub import mock_client, require_sdk

    require_sdk()
    from spacy_factwash.models.review import Review

    hedged = [{"role": "user", "content": "Alice might be promoted to admin."}]
    fact = "Alice will, one would imagine, be promoted to admin."
    stub.reply = {"memory": [{"text": fact}]}
    plain = spacy_factwash.wrap(new_memory(tmp_path, stub, "w0"), audit_log=tmp_path / "plain.jsonl")
    plain.add(hedged, user_id="u5")
    assert stored(plain, "u5") == []  # the lexicon does not know "one would imagine": held for rewrite
    witness_says = {"hedges": True, "hedge_words": ["one would imagine"], "attributes": False, "attribution_words": []}
    review = Review.build(witness=True, client=mock_client([witness_says]))
    wrapped = spacy_factwash.wrap(new_memory(tmp_path, stub, "w1"), audit_log=tmp_path / "audit.jsonl", review=review)
    wrapped.add(hedged, user_id="u5")
    assert stored(wrapped, "u5") == [fact]
    [record] = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert record["verdict"] == "pass" and [n["type"] for n in record["report"]["notes"]] == ["lowered_by_witness"]
