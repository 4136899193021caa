"""wrap() around a real mem0 Memory, fully offline: a local OpenAI-compatible stub, qdrant on disk, sqlite history."""

import asyncio
import json
import os
import threading

import pytest
from conftest import in_ci
from hypothesis import given, strategies as st

os.environ["MEM0_TELEMETRY"] = "false"  # read by mem0 when it is imported: no telemetry, no second vector store
try:
    import mem0  # noqa: F401
except ImportError:
    if in_ci():
        raise  # the README's test command installs the mem0 extra: missing in CI is a failure
    pytest.skip("mem0 is an optional extra: pip install '.[test,mem0]'", allow_module_level=True)

from mem0_local import audit, events, new_memory, offline, outcomes, threadsafe  # noqa: E402
from openai_standin import new_messages  # noqa: E402
from openai_stub import Stub  # noqa: E402
from properties import properties

import spacy_factwash  # noqa: E402
from spacy_factwash.memory.mem0 import NotStored  # noqa: E402

HEARSAY = [{"role": "user", "content": "Someone in the chat said Alice was promoted to admin this morning."}]
EXTRACTED = {"memory": [{"text": "Alice was promoted to admin."}]}


@pytest.fixture
def stub():
    with Stub(EXTRACTED) as server:
        yield server


@pytest.fixture(autouse=True)
def no_telemetry():
    offline()


def wrapped_memory(tmp_path, stub, name, **options):
    """A wrapped store with its own audit log and database under ``tmp_path``."""
    options.setdefault("audit_log", tmp_path / f"{name}.audit.jsonl")
    options.setdefault("database", tmp_path / f"{name}.sqlite")
    return spacy_factwash.wrap(new_memory(tmp_path, stub.url, name), **options)


def stored(memory, user):
    return [m["memory"] for m in memory.get_all(filters={"user_id": user})["results"]]


def decided(wrapped, key="action"):
    return [record[key] for record in events(wrapped.audit_log, "decision")]


def test_naked_store_loses_the_attribution_and_the_wrapped_store_holds_it_for_review(tmp_path, stub):
    naked = new_memory(tmp_path, stub.url, "naked")
    naked.add(HEARSAY, user_id="u1")
    assert stored(naked, "u1") == ["Alice was promoted to admin."]  # hearsay turned into fact

    wrapped = wrapped_memory(tmp_path, stub, "wrapped")
    assert wrapped.add(HEARSAY, user_id="u1")["results"] == [] and stored(wrapped, "u1") == []
    [record] = events(wrapped.audit_log, "decision")
    assert record["verdict"] == "rewrite" and record["action"] == "hold" and record["fact"] == "Alice was promoted to admin."
    assert {c["type"] for c in record["report"]["changes"]} == {"dropped_attribution", "dropped_temporal_scope"}
    [held] = wrapped.queue.list()
    assert outcomes(wrapped.audit_log)[record["decision"]]["held"] == held.id and held.source == HEARSAY[0]["content"]
    assert held.scope == {"user_id": "u1"} and held.report["verdict"] == "rewrite" and held.state == "held"
    assert stub.chat_requests  # mem0 really asked its LLM


def test_a_supported_fact_is_stored_and_an_unaligned_one_is_marked_unverified(tmp_path, stub):
    stub.reply = {"memory": [{"text": "Someone said Alice was promoted to admin this morning."},
                             {"text": "Bananas are yellow."}]}
    wrapped = wrapped_memory(tmp_path, stub, "m")
    wrapped.add(HEARSAY, user_id="u2")
    by_text = {m["memory"]: m for m in wrapped.get_all(filters={"user_id": "u2"})["results"]}
    assert set(by_text) == {"Someone said Alice was promoted to admin this morning.", "Bananas are yellow."}
    assert (by_text["Bananas are yellow."].get("metadata") or {}).get("factwash_verification") == "unverified"
    kept = by_text["Someone said Alice was promoted to admin this morning."].get("metadata") or {}
    assert kept.get("factwash_verification") == "attributed" and kept.get("factwash_source", "").startswith("src:")
    assert decided(wrapped) == ["store", "store_unverified"]
    settled = outcomes(wrapped.audit_log)
    for record in events(wrapped.audit_log, "decision"):  # every outcome names the ids that now hold the fact
        [memory_id] = settled[record["decision"]]["memory_ids"]
        assert settled[record["decision"]]["outcome"] == "stored" and by_text[record["fact"]]["id"] == memory_id
    levels = [item["verification"] for item in wrapped.provenance.to_json()]
    assert levels == ["attributed", "attributed", "unverified"]  # the messages, then each fact derived from them


@pytest.mark.parametrize("reply", [
    "```json\n" + json.dumps(EXTRACTED) + "\n```",
    "Here are the facts I found:\n" + json.dumps(EXTRACTED),
    "<think>the user wants facts</think>" + json.dumps(EXTRACTED),
    "Sure!\n```json\n" + json.dumps(EXTRACTED) + "\n```\nAnything else?",
])
def test_every_reply_mem0_could_read_is_gated(tmp_path, stub, reply):
    stub.reply = reply
    naked = new_memory(tmp_path, stub.url, "naked")
    naked.add(HEARSAY, user_id="u")
    assert stored(naked, "u") == ["Alice was promoted to admin."]  # mem0 reads it ...
    wrapped = wrapped_memory(tmp_path, stub, "w")
    wrapped.add(HEARSAY, user_id="u")
    assert stored(wrapped, "u") == [] and decided(wrapped) == ["hold"]  # ... so the gate reads it too


@pytest.mark.parametrize("reply,stores", [
    ("I could not find any facts, sorry.", []),
    ('{"memory": [{"text": "Alice was promoted to admin."}', []),  # cut short
    ('{"memory": {"text": "Alice was promoted to admin."}}', []),
    ('{"memory": ["Alice was promoted to admin.", {"text": 7}, {"text": "Someone said Alice was promoted to admin '
     'this morning."}]}', ["Someone said Alice was promoted to admin this morning."]),
])
def test_a_reply_mem0_cannot_read_stores_nothing_and_is_audited_with_the_raw_reply(tmp_path, stub, reply, stores):
    stub.reply = reply
    wrapped = wrapped_memory(tmp_path, stub, "w")
    wrapped.add(HEARSAY, user_id="u")
    assert stored(wrapped, "u") == stores
    [unreadable] = events(wrapped.audit_log, "unreadable")
    assert unreadable["reply"] == reply and unreadable["reason"]
    assert decided(wrapped) == ["store"] * len(stores)


PROSE = st.text(st.sampled_from("abcdefghij klmnop.,!?:\n"), max_size=40)
FACTS = st.lists(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30).filter(str.strip),
                 min_size=1, max_size=3, unique=True)


def wrapped_reply(texts, before, after, language, fenced, thinks):
    """An extraction reply as a model might write it: the JSON, fenced or not, with prose and a think block."""
    body = json.dumps({"memory": [{"text": text} for text in texts]})
    reply = f"```{language}\n{body}\n```" if fenced else body
    reply = f"{before}\n{reply}\n{after}" if before.strip() or after.strip() else reply
    return ("<think>" + before + "</think>" + reply) if thinks else reply


@properties(80)
@given(FACTS, PROSE, PROSE, st.sampled_from(["", "json"]), st.booleans(), st.booleans())
def test_a_fenced_or_chatty_reply_is_read_to_the_last_fact(texts, before, after, language, fenced, thinks):
    from spacy_factwash.memory.mem0.hook import read_extraction

    extraction = read_extraction(wrapped_reply(texts, before, after, language, fenced, thinks))
    assert [fact["text"] for fact in extraction.facts] == texts and extraction.error is None


def test_whatever_mem0_reads_from_a_reply_the_gate_reads_too(tmp_path, stub):
    """The naked store and the wrapped one get the same replies; every fact the naked one stores was gated."""
    naked = new_memory(tmp_path, stub.url, "naked")
    wrapped = wrapped_memory(tmp_path, stub, "w", policy={"pass": "drop", "uncheckable": "drop", "rewrite": "drop",
                                                          "reject": "drop"})
    seen = []

    @properties(12)
    @given(FACTS, PROSE, PROSE, st.sampled_from(["", "json", "JSON", "text"]), st.booleans(), st.booleans())
    def same_replies(texts, before, after, language, fenced, thinks):
        stub.reply = wrapped_reply(texts, before, after, language, fenced, thinks)
        user = f"u{len(seen)}"
        seen.append(user)
        naked.add(HEARSAY, user_id=user)
        wrapped.add(HEARSAY, user_id=user)
        gated = {r["fact"] for r in events(wrapped.audit_log, "decision") if r["scope"] == {"user_id": user}}
        kept = set(stored(naked, user))
        assert kept <= gated and stored(wrapped, user) == []
        read.append(len(kept))

    read = []
    same_replies()
    assert sum(read) >= 6  # the examples were not all replies that mem0 could not read either


def test_verbatim_adds_and_updates_under_both_names_are_gated(tmp_path, stub):
    wrapped = wrapped_memory(tmp_path, stub, "v")
    source = "The cluster has 4,500 nodes, Bob said."
    result = wrapped.add("The cluster has 5,400 nodes.", infer=False, source=source, user_id="u3")
    assert result["results"] == [] and stored(wrapped, "u3") == []
    kept = wrapped.add("Bob said the cluster has 4,500 nodes.", infer=False, source=source, user_id="u3")
    [memory_id] = [r["id"] for r in kept["results"]]
    for name in ("text", "data"):
        refused = wrapped.update(memory_id, **{name: "The cluster has 5,400 nodes."})
        assert refused["message"].startswith("not updated") and stored(wrapped, "u3") == [
            "Bob said the cluster has 4,500 nodes."]
    wrapped.update(memory_id, data="Bob said the cluster has 4,500 nodes in total.")
    assert stored(wrapped, "u3") == ["Bob said the cluster has 4,500 nodes in total."]
    assert decided(wrapped, "path") == ["add_verbatim", "add_verbatim", "update", "update", "update"]
    assert [outcomes(wrapped.audit_log)[d]["outcome"] for d in decided(wrapped, "decision")] == [
        "dropped", "stored", "dropped", "dropped", "stored"]
    with pytest.raises(ValueError, match="both text and data"):
        wrapped.update(memory_id, text="a b c", data="d e f")


def test_a_verbatim_add_without_a_source_follows_the_policy_and_is_audited(tmp_path, stub):
    wrapped = wrapped_memory(tmp_path, stub, "s")
    [result] = wrapped.add("Alice is the admin.", infer=False, user_id="u")["results"]
    assert wrapped.get(result["id"])["metadata"]["factwash_verification"] == "unverified"
    [record] = events(wrapped.audit_log, "decision")
    assert record["verdict"] == "unsourced" and record["action"] == "store_unverified"
    strict = wrapped_memory(tmp_path, stub, "strict", policy={"pass": "store", "uncheckable": "store_unverified",
                                                             "rewrite": "hold", "reject": "drop", "unsourced": "drop"})
    assert strict.add("Alice is the admin.", infer=False, user_id="u")["results"] == []
    assert stored(strict, "u") == [] and decided(strict) == ["drop"]
    with pytest.raises(ValueError, match="policy must map"):
        wrapped_memory(tmp_path, stub, "p", policy={**strict.policy, "unsourced": "store"})


@pytest.mark.parametrize("messages", [
    [{"role": "user", "content": None}],
    [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "http://x"}}]}],
    [{"content": "no role"}],
    42,
])
def test_a_message_that_is_not_text_is_an_error_and_nothing_is_stored(tmp_path, stub, messages):
    wrapped = wrapped_memory(tmp_path, stub, "t")
    for infer in (True, False):
        with pytest.raises(TypeError):
            wrapped.add(messages, infer=infer, user_id="u")
    assert stored(wrapped, "u") == [] and not wrapped.audit_log.exists() and stub.chat_requests == []


def test_the_gate_keys_of_metadata_and_a_custom_llm_are_refused(tmp_path, stub):
    wrapped = wrapped_memory(tmp_path, stub, "k")
    with pytest.raises(ValueError, match="provenance is written by the gate"):
        wrapped.add(HEARSAY, user_id="u", metadata={"factwash_verification": "verified"})
    with pytest.raises(TypeError, match="custom llm"):
        wrapped.add(HEARSAY, user_id="u", llm=object())
    with pytest.raises(AttributeError, match="naked store"):
        wrapped._create_memory("Alice is the admin.", {}, {})
    assert stored(wrapped, "u") == []


def test_procedural_memory_is_gated(tmp_path, stub):
    stub.reply = "Alice was promoted to admin."
    wrapped = wrapped_memory(tmp_path, stub, "proc")
    result = wrapped.add(HEARSAY, agent_id="a1", memory_type="procedural_memory")
    assert result["results"] == [] and wrapped.get_all(filters={"agent_id": "a1"})["results"] == []
    assert decided(wrapped, "path") == ["procedural"] and decided(wrapped) == ["hold"]
    stub.reply = "Someone in the chat said Alice was promoted to admin this morning."
    [kept] = wrapped.add(HEARSAY, agent_id="a2", memory_type="procedural_memory")["results"]
    memory = wrapped.get(kept["id"])
    assert memory["metadata"]["memory_type"] == "procedural_memory"
    assert memory["metadata"]["factwash_verification"] == "attributed"
    stub.reply = "Bananas are yellow."  # unaligned: stored, marked unverified, by the wrapper itself
    [unverified] = wrapped.add(HEARSAY, agent_id="a3", memory_type="procedural_memory")["results"]
    metadata = wrapped.get(unverified["id"])["metadata"]
    assert metadata["memory_type"] == "procedural_memory" and metadata["factwash_verification"] == "unverified"
    assert len(stub.chat_requests) == 3  # one summary per add: the verbatim write asked the model nothing


def test_deletes_are_audited(tmp_path, stub):
    wrapped = wrapped_memory(tmp_path, stub, "d")
    [kept] = wrapped.add("Alice is the admin.", infer=False, user_id="u")["results"]
    wrapped.delete(kept["id"])
    assert stored(wrapped, "u") == []
    record = events(wrapped.audit_log, "decision")[-1]
    assert record["path"] == "delete" and record["fact"] == "Alice is the admin." and record["memory_id"] == kept["id"]
    assert outcomes(wrapped.audit_log)[record["decision"]]["outcome"] == "deleted"
    wrapped.delete_all(user_id="u")
    assert decided(wrapped, "path")[-1] == "delete_all"


def test_a_store_that_fails_quietly_is_recorded_as_failed_and_raised(tmp_path, stub):
    fact = "Someone said Alice was promoted to admin this morning."
    stub.reply = {"memory": [{"text": fact}]}
    stub.embedding_fault = lambda text: "refuse" if text == fact else None  # mem0 skips the fact and says nothing
    naked = new_memory(tmp_path, stub.url, "naked")
    assert naked.add(HEARSAY, user_id="u")["results"] == []  # mem0's own silence
    wrapped = wrapped_memory(tmp_path, stub, "w")
    with pytest.raises(NotStored, match="not stored"):
        wrapped.add(HEARSAY, user_id="u")
    [record] = events(wrapped.audit_log, "decision")
    assert record["action"] == "store" and outcomes(wrapped.audit_log)[record["decision"]]["outcome"] == "failed"
    assert not [r for r in audit(wrapped.audit_log) if r.get("outcome") == "stored"] and stored(wrapped, "u") == []


def threaded_reply(body):
    """The fact the stand-in model extracts from each request: the build number said, stated without its source."""
    said = new_messages(body)
    number = said.split("build ")[1].split(" ")[0] if "build " in said else "0"
    return {"memory": [{"text": f"Build {number} broke on Monday, Bob said."}, {"text": f"Build {number} broke."}]}


def test_threads_sharing_one_wrapper_each_gate_their_own_facts_against_their_own_source(tmp_path, stub):
    stub.reply = threaded_reply
    wrapped = spacy_factwash.wrap(threadsafe(new_memory(tmp_path, stub.url, "threads")),
                                  audit_log=tmp_path / "t.jsonl", database=tmp_path / "t.sqlite")
    errors = []

    def write(number):
        try:
            wrapped.add(f"Bob said build {number} broke on Monday.", user_id="u")
        except Exception as err:  # pragma: no cover - a failure is reported below
            errors.append(err)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(1, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    decisions = events(wrapped.audit_log, "decision")
    assert len(decisions) == 16
    for record in decisions:  # gated against what its own extraction read: the session so far, its message last
        assert record["fact"].split()[1] == record["source"].splitlines()[-1].split("build ")[1].split()[0]
    assert sorted(stored(wrapped, "u")) == sorted(f"Build {n} broke on Monday, Bob said." for n in range(1, 9))
    assert sorted(row.fact for row in wrapped.queue.list()) == sorted(f"Build {n} broke." for n in range(1, 9))


def test_async_memory_is_gated_and_concurrent_adds_keep_their_own_sources(tmp_path, stub):
    stub.reply = threaded_reply
    memory = threadsafe(new_memory(tmp_path, stub.url, "async", asynchronous=True))  # mem0 calls qdrant in threads
    wrapped = spacy_factwash.wrap(memory, audit_log=tmp_path / "a.jsonl", database=tmp_path / "a.sqlite")

    async def run():
        await asyncio.gather(*(wrapped.add(f"Bob said build {n} broke on Monday.", user_id="u") for n in range(1, 5)))
        return await wrapped.get_all(filters={"user_id": "u"})

    found = asyncio.run(run())["results"]
    assert sorted(m["memory"] for m in found) == sorted(f"Build {n} broke on Monday, Bob said." for n in range(1, 5))
    for record in events(wrapped.audit_log, "decision"):
        assert record["fact"].split()[1] == record["source"].splitlines()[-1].split("build ")[1].split()[0]
    assert len(wrapped.queue.list()) == 4


def test_a_held_fact_is_approved_through_the_store_or_rejected_and_who_and_when_are_kept(tmp_path, stub):
    wrapped = wrapped_memory(tmp_path, stub, "r")
    wrapped.add(HEARSAY, user_id="u")
    wrapped.add([{"role": "user", "content": "Someone said Alice was promoted to admin."}], user_id="v")
    first, second = wrapped.queue.list()
    approved = wrapped.approve(first.id, reviewer="carol", note="the chat log confirms it")
    assert stored(wrapped, "u") == ["Alice was promoted to admin."]
    assert approved["held"]["state"] == "approved" and approved["held"]["reviewer"] == "carol"
    assert approved["held"]["reviewed_at"] and approved["held"]["memory_ids"] == [approved["results"][0]["id"]]
    metadata = wrapped.get(approved["results"][0]["id"])["metadata"]
    assert metadata["factwash_reviewed_by"] == "carol" and metadata["factwash_verification"] == "unverified"
    rejected = wrapped.reject(second.id, reviewer="dave", note="hearsay")
    assert rejected["state"] == "rejected" and stored(wrapped, "v") == [] and rejected["reviewer"] == "dave"
    from spacy_factwash.memory.queue import ReviewError

    for action in (lambda: wrapped.approve(first.id, reviewer="eve"), lambda: wrapped.reject(second.id, "eve")):
        with pytest.raises(ReviewError, match="not held"):
            action()
    with pytest.raises(ReviewError, match="reviewer"):
        wrapped.approve(999, reviewer=" ")
    assert [r["outcome"] for r in events(wrapped.audit_log, "outcome")] == ["held", "held", "stored"]


def test_the_queue_and_the_provenance_survive_a_restart(tmp_path, stub):
    wrapped = wrapped_memory(tmp_path, stub, "first", database=tmp_path / "shared.sqlite")
    wrapped.add(HEARSAY, user_id="u")
    items = wrapped.provenance.to_json()
    del wrapped
    again = wrapped_memory(tmp_path, stub, "second", database=tmp_path / "shared.sqlite")
    assert again.provenance.to_json() == items and [row.fact for row in again.queue.list()] == [
        "Alice was promoted to admin."]
    [source, fact] = items
    assert again.provenance.descendants(source["id"]) == [fact["id"]]
    assert again.provenance.quarantine(source["id"]) == [source["id"], fact["id"]]
    assert {i["verification"] for i in again.provenance.to_json()} == {"quarantined"}


def test_the_review_command_lists_shows_approves_and_rejects(tmp_path, stub):
    from mem0_local import mem0_config
    from typer.testing import CliRunner

    from spacy_factwash.cli import app

    wrapped = wrapped_memory(tmp_path, stub, "cli")
    wrapped.add(HEARSAY, user_id="u")
    wrapped.add([{"role": "user", "content": "Someone said Alice was promoted to admin."}], user_id="v")
    wrapped.memory.vector_store.client.close()  # qdrant on disk admits one client at a time
    (tmp_path / "mem0.json").write_text(json.dumps(mem0_config(tmp_path, stub.url, "cli")))
    runner = CliRunner()
    database = ["--database", str(tmp_path / "cli.sqlite")]
    listed = runner.invoke(app, ["review", "list", *database])
    assert listed.exit_code == 0 and "1  held" in listed.output and "Alice was promoted to admin." in listed.output
    shown = runner.invoke(app, ["review", "show", "1", *database])
    assert shown.exit_code == 0 and json.loads(shown.output)["report"]["verdict"] == "rewrite"
    rejected = runner.invoke(app, ["review", "reject", "2", "--reviewer", "dave", *database])
    assert rejected.exit_code == 0 and "rejected by dave" in rejected.output
    approved = runner.invoke(app, ["review", "approve", "1", "--reviewer", "carol", *database, "--mem0-config",
                                   str(tmp_path / "mem0.json"), "--audit-log", str(tmp_path / "cli.audit.jsonl")])
    assert approved.exit_code == 0 and "approved by carol" in approved.output, approved.output
    again = runner.invoke(app, ["review", "approve", "1", "--reviewer", "carol", *database, "--mem0-config",
                                str(tmp_path / "mem0.json"), "--audit-log", str(tmp_path / "cli.audit.jsonl")])
    assert again.exit_code == 1 and "is approved, not held" in again.output
    assert runner.invoke(app, ["review", "show", "7", *database]).output.strip() == "error: [E012] no held fact 7"
    states = runner.invoke(app, ["review", "list", "--state", "all", *database]).output
    assert "approved" in states and "rejected" in states


def test_with_a_fixer_a_held_fact_is_stored_in_its_fixed_form(tmp_path, stub):
    from anthropic_stub import mock_client, require_sdk

    require_sdk()
    from spacy_factwash.llm.tasks.fixer import Fixer

    fixer = Fixer(client=mock_client([{"memory": "Someone said Alice was promoted to admin this morning."}]))
    wrapped = wrapped_memory(tmp_path, stub, "f", fixer=fixer)
    wrapped.add(HEARSAY, user_id="u4")
    assert stored(wrapped, "u4") == ["Someone said Alice was promoted to admin this morning."]
    assert [(r["event"], r.get("path"), r.get("outcome")) for r in audit(wrapped.audit_log)] == [
        ("decision", "add", None), ("fix", None, None), ("decision", "fix", None), ("outcome", None, "fixed"),
        ("outcome", None, "stored")]  # the held fact, the fixer's proposal, the fix gated, then what became of both


def test_with_a_witness_a_hedge_the_lexicon_missed_no_longer_holds_the_fact(tmp_path, stub):
    from anthropic_stub import mock_client, require_sdk

    require_sdk()
    from spacy_factwash.llm.review import Review

    hedged = [{"role": "user", "content": "Alice might be promoted to admin."}]
    fact = "Alice will be promoted to admin, or so it seems."
    stub.reply = {"memory": [{"text": fact}]}
    plain = wrapped_memory(tmp_path, stub, "w0")
    plain.add(hedged, user_id="u5")
    assert stored(plain, "u5") == []  # the gate does not bind "seems" here: held for rewrite
    witness_says = {"hedges": True, "hedge_words": ["it seems"], "attributes": False, "attribution_words": []}
    review = Review.build(witness=True, client=mock_client([witness_says]))
    wrapped = wrapped_memory(tmp_path, stub, "w1", review=review)
    wrapped.add(hedged, user_id="u5")
    assert stored(wrapped, "u5") == [fact]
    [record] = events(wrapped.audit_log, "decision")
    assert record["verdict"] == "pass" and [n["type"] for n in record["report"]["notes"]] == ["lowered_by_witness"]


def test_the_readme_review_example_runs_and_shows_what_it_says(tmp_path, stub, monkeypatch):
    import ast
    from pathlib import Path

    from mem0_local import mem0_config

    from factwash_dev.evaluation.readme import PAGES, REVIEW_EXAMPLE

    readme = (Path(__file__).resolve().parent.parent / PAGES[REVIEW_EXAMPLE]).read_text(encoding="utf8")
    block = readme.split("<!-- factwash:review-example:start -->\n```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    namespace = {"config": mem0_config(tmp_path, stub.url, "readme")}
    shown = 0
    for line in block.splitlines():
        code, _, comment = line.partition("  # ")
        if not code.strip():
            continue
        if comment.strip():
            expected = comment.strip().split(":")[0] if comment.strip()[0].isdigit() else comment.strip()
            assert eval(code, namespace) == ast.literal_eval(expected), line
            shown += 1
        else:
            exec(code, namespace)
    assert shown == 6 and (tmp_path / "factwash.sqlite").is_file() and (tmp_path / "audit.jsonl").is_file()


# -- issue 25: mem0 with its context ----------------------------------------------------------------

PROMOTED = {"memory": [{"text": "Alice was promoted to admin.", "attributed_to": "user"}]}
SPLIT = [{"role": "user", "content": "Someone in the chat told me something."}, {"role": "assistant", "content": "What?"},
         {"role": "user", "content": "Alice was promoted to admin."}]


def held_for_an_earlier_turn(wrapped, source):
    """The one decision of the write: held, for hearsay an earlier message reports, its cue pointing at 'told'."""
    record = events(wrapped.audit_log, "decision")[-1]
    assert record["fact"] == "Alice was promoted to admin." and record["action"] == "hold"
    assert record["source"] == source
    [change] = record["report"]["changes"]
    assert change["type"] == "dropped_attribution" and change["check"] == "earlier_turn_attribution"
    [cue] = change["cues"]
    assert source[cue["start_char"]:cue["end_char"]] == "told" and cue["entry"] == "attribution:tell"
    assert source[change["source"]["start_char"]:change["source"]["end_char"]] == "Alice was promoted to admin."
    return record


def test_hearsay_in_an_earlier_turn_of_the_same_write_holds_the_fact(tmp_path, stub):
    stub.reply = PROMOTED
    naked = new_memory(tmp_path, stub.url, "naked")
    naked.add(SPLIT, user_id="u")
    assert stored(naked, "u") == ["Alice was promoted to admin."]  # mem0 alone: hearsay stored as a fact
    wrapped = wrapped_memory(tmp_path, stub, "split")
    assert wrapped.add(SPLIT, user_id="u")["results"] == [] and stored(wrapped, "u") == []
    source = "\n".join(message["content"] for message in SPLIT)
    record = held_for_an_earlier_turn(wrapped, source)
    [held] = wrapped.queue.list()
    assert held.decision == record["decision"] and held.source == source  # the reviewer sees the whole exchange


def run(result):
    """A wrapper's result, awaited when it is a coroutine (the AsyncMemory wrapper)."""
    return asyncio.run(result) if asyncio.iscoroutine(result) else result


@pytest.mark.parametrize("asynchronous", [False, True])
def test_hearsay_in_an_earlier_add_holds_the_fact_of_the_next(tmp_path, stub, asynchronous):
    memory = new_memory(tmp_path, stub.url, "calls", asynchronous=asynchronous)
    wrapped = spacy_factwash.wrap(memory, audit_log=tmp_path / "calls.jsonl", database=tmp_path / "calls.sqlite")
    for attempt in range(2):  # again after a reset: mem0 replaces its history store, the wrapper still reads it
        stub.reply = {"memory": []}
        run(wrapped.add("Someone in the chat told me something.", user_id="u"))
        stub.reply = PROMOTED
        run(wrapped.add("Alice was promoted to admin.", user_id="u"))
        shown = stub.chat_requests[-1]["messages"][-1]["content"]
        assert "## Last k Messages\nuser: Someone in the chat told me something.\n" in shown  # what mem0 read
        held_for_an_earlier_turn(wrapped, "Someone in the chat told me something.\nAlice was promoted to admin.")
        assert run(wrapped.get_all(filters={"user_id": "u"}))["results"] == []
        run(wrapped.reset())
    run(wrapped.add("Alice was promoted to admin.", user_id="other"))  # another session read none of it
    assert [m["memory"] for m in run(wrapped.get_all(filters={"user_id": "other"}))["results"]] == [
        "Alice was promoted to admin."]
    assert events(wrapped.audit_log, "decision")[-1]["source"] == "Alice was promoted to admin."


def test_attributed_to_and_every_other_field_of_the_reply_are_gated_and_audited(tmp_path, stub):
    stub.reply = {"memory": [
        {"text": "Alice was promoted to admin.", "attributed_to": "assistant", "linked_memory_ids": ["0"]},
        {"text": "The build broke.", "attributed_to": "user"},
        {"text": "Bob likes tea.", "attributed_to": {"name": "the auditor", "verified": True}}]}
    messages = [{"role": "user", "content": "Alice was promoted to admin."},
                {"role": "assistant", "content": "Thanks. The build broke."}, {"role": "user", "content": "Bob likes tea."}]
    naked = new_memory(tmp_path, stub.url, "naked")
    naked.add(messages, user_id="u")
    assert {m["memory"]: m.get("attributed_to") for m in naked.get_all(filters={"user_id": "u"})["results"]}[
        "Alice was promoted to admin."] == "assistant"  # mem0 alone stores what the reply says
    wrapped = wrapped_memory(tmp_path, stub, "fields")
    wrapped.add(messages, user_id="u")
    kept = {m["memory"]: m.get("attributed_to") for m in wrapped.get_all(filters={"user_id": "u"})["results"]}
    assert kept == {"Alice was promoted to admin.": None, "The build broke.": None, "Bob likes tea.": None}
    records = {r["fact"]: r for r in events(wrapped.audit_log, "decision")}
    assert records["Alice was promoted to admin."]["refused_fields"] == {
        "attributed_to": "names 'assistant', but the fact aligns to a message of user: not stored",
        "linked_memory_ids": "not a field the gate checks: not given to mem0"}
    assert "names 'user', but the fact aligns to a message of assistant" in \
        records["The build broke."]["refused_fields"]["attributed_to"]
    assert set(records["Bob likes tea."]["refused_fields"]) == {"attributed_to"}
    stub.reply = {"memory": [{"text": "Carol leads the team.", "attributed_to": "user"}]}
    wrapped.add("Carol leads the team.", user_id="v")
    [carol] = wrapped.get_all(filters={"user_id": "v"})["results"]
    assert carol.get("attributed_to") == "user"  # named right: kept
    assert events(wrapped.audit_log, "decision")[-1]["reply_fields"] == {"attributed_to": "user"}
