"""The model layer offline: the real anthropic SDK against stand-ins, budgets, caches, resumable runs, prompts."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from anthropic_stub import HANG, AnthropicStub, message, mock_client, require_sdk
from hypothesis import given, strategies as st

anthropic, httpx = require_sdk()

from conftest import cli_in_process as cli, made_once, perturbed_drift, readme_drift
from properties import properties

from spacy_factwash import default_pipeline, inspect  # noqa: E402
from spacy_factwash.io.runfile import RunFile, parse_run_name, resume, run_name  # noqa: E402
from spacy_factwash.llm.budget import BudgetExhausted, Meter, UnknownPrice, cost, price_of, worst_case  # noqa: E402
from spacy_factwash.llm.cache import ReplyCache, cache_key  # noqa: E402
from spacy_factwash.llm.client import PromptError, load_prompt, read_prompt  # noqa: E402
from spacy_factwash.llm.quotes import function_words, locate, quote_problem  # noqa: E402
from spacy_factwash.llm.tasks.support import NOT_ESTABLISHED, UNSUPPORTED, SupportJudge, review_support  # noqa: E402
from spacy_factwash.llm.tasks.witness import LOWERED, TOOL, Witness, as_data, lower_with_witness, validate  # noqa: E402

PROMPTS = Path(__file__).resolve().parent.parent / "spacy_factwash" / "llm" / "prompts"
HEDGED = "Alice will be promoted, or so it seems."  # "seems" is a hedge the gate does not bind here
YES = {"hedges": True, "hedge_words": ["it seems"], "attributes": False, "attribution_words": []}
NO = {"hedges": False, "hedge_words": [], "attributes": False, "attribution_words": []}


# -- the request and the reply ----------------------------------------------------------------------

def test_the_request_forces_a_strict_tool_and_the_answer_names_model_and_prompt_version():
    seen = []
    answer = Witness(client=mock_client([YES], seen)).ask(HEDGED)
    [request] = seen
    assert request["tools"][0]["strict"] is True and request["tool_choice"]["name"] == "report_cues"
    assert request["system"] == load_prompt("witness").text and request["model"] == "claude-haiku-4-5"
    assert answer.usable and answer.prompt == "witness-v3" and answer.model == "claude-haiku-4-5"


def test_a_refusal_is_discarded_with_its_stop_reason():
    refusal = httpx.Response(200, json={**message({"model": "m", "tool_choice": {"name": "x"}}, None),
                                        "stop_reason": "refusal"})
    witness = Witness(client=mock_client([refusal]))
    answer = witness.ask(HEDGED)
    assert not answer.usable and "refusal" in answer.reason and witness.discarded == 1


def test_429_and_529_are_retried_after_the_time_the_server_asks_for():
    seen = []
    busy = [httpx.Response(429, headers={"retry-after-ms": "20"},
                           json={"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}),
            httpx.Response(529, headers={"retry-after": "0.02"},
                           json={"type": "error", "error": {"type": "overloaded_error", "message": "busy"}})]
    witness = Witness(client=mock_client(busy + [YES], seen, max_retries=2))
    answer = witness.ask(HEDGED)
    assert answer.usable and len(seen) == 3
    worst = worst_case("claude-haiku-4-5", witness.request_bytes("witness", TOOL, as_data(HEDGED)), witness.max_tokens)
    one_call = cost("claude-haiku-4-5", {"input_tokens": 400, "output_tokens": 50})
    assert witness.meter.unmetered == 2 and witness.meter.spent_usd == pytest.approx(2 * worst + one_call)


def test_retries_that_run_out_leave_a_discarded_reply_not_a_crash():
    seen = []
    busy = httpx.Response(429, headers={"retry-after-ms": "10"},
                          json={"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}})
    witness = Witness(client=mock_client([busy], seen, max_retries=1))
    answer = witness.ask(HEDGED)
    assert not answer.usable and "RateLimitError" in answer.reason and len(seen) == 2 and witness.discarded == 1


def test_a_timeout_from_a_built_client_is_retried_then_discarded(monkeypatch):
    with AnthropicStub(lambda body, n: HANG) as stub:
        for name, value in stub.env().items():
            monkeypatch.setenv(name, value)
        witness = Witness(timeout=0.3, max_retries=1)  # built from the environment, like a user's
        started = time.monotonic()
        answer = witness.ask(HEDGED)
        assert not answer.usable and "APITimeoutError" in answer.reason
        assert len(stub.requests) == 2 and time.monotonic() - started < 10


def test_a_run_stops_calling_at_its_deadline_and_keeps_every_report_made_before_it(monkeypatch):
    """A hung endpoint costs a whole run at most its deadline (per call it cost timeout x attempts: 61.5 s)."""
    from spacy_factwash.llm.review import Review

    memories = [f"{name} will be promoted, or so it seems." for name in ("Alice", "Bob", "Carol", "Dan")]
    reports = [inspect("Someone might be promoted.", memory) for memory in memories]
    assert all(r.verdict == "rewrite" for r in reports)
    with AnthropicStub(lambda body, n: YES if n == 1 else HANG) as stub:
        for name, value in stub.env().items():
            monkeypatch.setenv(name, value)
        review = Review.build(witness=True, deadline_s=3.0)  # the client from the environment: 20 s x 3 attempts
        started = time.monotonic()
        reviewed = [review(report, None, None) for report in reports]
        took = time.monotonic() - started
    assert took < 8 and len(stub.requests) == 2  # the second call was given up at the deadline, no third made
    assert [r.verdict for r in reviewed] == ["pass", "rewrite", "rewrite", "rewrite"]
    assert reviewed[1:] == reports[1:] and review.meter.late == 3 and review.meter.refused == 0
    assert "the run's deadline of 3 s passed: 3 call(s) not made or given up, their flags stand" in review.meter.line()


def test_the_client_is_only_built_when_a_call_is_made():
    witness = Witness()
    report = inspect("Alice leads the team.", "Alice leads the team.")
    assert lower_with_witness(report, witness) is report and witness.client is None


# -- the witness in the gate ------------------------------------------------------------------------

def test_a_lowered_flag_leaves_a_note_pointing_at_the_quoted_words_in_the_memory():
    source, memory = "Someone thinks Alice might be promoted.", "Bob said that Alice will be promoted, or so it seems."
    report = inspect(source, memory)
    assert "strengthened_certainty" in {c.type for c in report.changes}
    lowered = lower_with_witness(report, Witness(client=mock_client([YES])))
    [note] = [n for n in lowered.notes if n.type == LOWERED]
    assert memory[note.memory.start_char:note.memory.end_char] == "seems" and note.values["entry"] == "hedge:seem"
    assert note.values["removed"] == "strengthened_certainty" and note.values["prompt"] == "witness-v3"


@pytest.mark.parametrize("quoted", [".", ",", "a", "wi", "ill be", "was", "the", "it is", "4,500", "  "])
def test_a_quote_that_is_punctuation_a_function_word_or_part_of_a_word_lowers_nothing(quoted):
    source, memory = "Alice might say the cluster has 4,500 nodes.", "It is the case that Alice will say the cluster has 4,500 nodes, was it."
    report = inspect(source, memory)
    witness = Witness(client=mock_client([{**YES, "hedge_words": [quoted]}]))
    lowered = lower_with_witness(report, witness)
    assert lowered.verdict == report.verdict == "rewrite" and not lowered.notes
    assert witness.discarded >= 1


FUNCTION_OR_PUNCTUATION = st.lists(st.sampled_from(sorted(function_words()) + [".", ",", "!", "'", "-", "?"]),
                                   min_size=1, max_size=4).map(" ".join)


@properties(60)
@given(FUNCTION_OR_PUNCTUATION, st.integers(min_value=0, max_value=40), st.integers(min_value=1, max_value=6))
def test_no_quote_of_only_function_words_or_punctuation_or_cut_out_of_a_word_can_count(quoted, start, width):
    sentence = "It is said that the new office in Lisbon would, perhaps, open in the spring."
    assert quote_problem(sentence, quoted) is not None
    piece = sentence[start:start + width]
    inside_a_word = start > 0 and sentence[start - 1].isalnum() and piece[:1].isalnum()
    if inside_a_word and piece.isalpha() and not re.search(rf"\b{re.escape(piece)}", sentence, re.IGNORECASE):
        assert quote_problem(sentence, piece) is not None
    assert validate(sentence, {**NO, "hedges": True, "hedge_words": [quoted]}).usable is False


def test_a_whole_word_quote_is_found_where_it_stands_as_a_word():
    sentence = "Alice was, one would imagine, promoted."
    assert locate(sentence, "imagine") == (sentence.index("imagine"), sentence.index("imagine") + 7)
    assert locate("Bob saw it and was away.", "was") == (15, 18)  # not the "wa" of "saw" ... nor "was" in "washed"
    assert locate("He washed it.", "was") is None and quote_problem(sentence, "one would imagine") is None


# -- the budget ------------------------------------------------------------------------------------

def test_cost_comes_from_usage_and_the_price_table():
    price = price_of("claude-haiku-4-5-20251001")  # a dated id is priced as its alias
    assert cost("claude-haiku-4-5", {"input_tokens": 10**6, "output_tokens": 0}) == price["input"]
    assert cost("claude-haiku-4-5", {"input_tokens": 0, "output_tokens": 10**6}) == price["output"]
    with pytest.raises(UnknownPrice, match="prices.json"):
        price_of("no-such-model")


def test_the_budget_stops_a_run_before_a_call_that_could_pass_it_and_a_rerun_resumes(tmp_path):
    sentences = [f"Sentence {i} might hold." for i in range(10)]
    seen = []
    one_call = cost("claude-haiku-4-5", {"input_tokens": 400, "output_tokens": 50})  # the stand-in's usage
    witness = Witness(client=mock_client([YES], seen))
    worst = worst_case("claude-haiku-4-5", witness.request_bytes("witness", TOOL, as_data(sentences[0])), witness.max_tokens)
    meter = witness.meter = Meter(max_usd=2.5 * one_call + worst)  # room for three calls, judged by their worst case

    def work(sentence):
        return {"usable": witness.ask(sentence).usable}

    path = tmp_path / run_name("witness-test", witness.model, {"n": 10}, 0)
    with RunFile(path) as run, pytest.raises(BudgetExhausted, match="budget"):
        resume(run, ((s, s) for s in sentences), work)
    assert len(RunFile(path).done) == len(seen) == 3 and meter.spent_usd <= meter.max_usd and meter.refused == 1
    witness.meter = Meter(max_usd=1.0)
    with RunFile(path) as run:
        assert resume(run, ((s, s) for s in sentences), work) == 7
    assert len(seen) == 10 and len(RunFile(path).done) == 10


def test_calls_that_time_out_are_charged_at_their_worst_case_so_a_one_call_cap_lets_one_call_through():
    seen = []
    witness = Witness(client=mock_client([httpx.ReadTimeout("no answer")], seen, max_retries=2))
    worst = worst_case("claude-haiku-4-5", witness.request_bytes("witness", TOOL, as_data(HEDGED)), witness.max_tokens)
    witness.meter = Meter(max_usd=3 * worst * 1.5)  # room for one call of three attempts, not two
    assert not witness.ask(HEDGED).usable and len(seen) == 3
    assert witness.meter.unmetered == 3 and witness.meter.spent_usd == pytest.approx(3 * worst)
    for i in range(4):
        with pytest.raises(BudgetExhausted):
            witness.ask(f"Sentence {i} might hold.")
    assert len(seen) == 3 and witness.meter.refused == 4 and "3 attempt(s) charged at their worst case" in \
        witness.meter.line()


@pytest.mark.parametrize("usage", [(-100_000, 50), (400, -50), (10**9, 50), (400, 10**6)])
def test_an_impossible_usage_is_refused_and_charged_at_the_worst_case(usage):
    reply = httpx.Response(200, json=message({"model": "claude-haiku-4-5", "tool_choice": {"name": "report_cues"}},
                                             YES, usage=usage))
    witness = Witness(client=mock_client([reply]))
    worst = worst_case("claude-haiku-4-5", witness.request_bytes("witness", TOOL, as_data(HEDGED)), witness.max_tokens)
    answer = witness.ask(HEDGED)
    assert not answer.usable and "ImpossibleUsage" in answer.reason and witness.discarded == 1
    assert witness.meter.spent_usd == pytest.approx(worst) and witness.meter.input_tokens == 0
    assert len(witness.cache) == 0  # never cached: a re-run asks again


def test_an_unpriced_model_cannot_run_under_a_budget():
    witness = Witness(client=mock_client([YES]), model="no-such-model", meter=Meter(max_usd=1.0))
    with pytest.raises(UnknownPrice):
        witness.ask(HEDGED)


# -- the cache -------------------------------------------------------------------------------------

def test_a_cached_reply_costs_nothing_and_is_validated_again(tmp_path):
    seen = []
    first = Witness(client=mock_client([YES], seen), cache=ReplyCache(tmp_path / "replies.sqlite"))
    assert first.ask(HEDGED).usable and len(seen) == 1
    again = Witness(client=mock_client([YES], seen), cache=ReplyCache(tmp_path / "replies.sqlite"))
    answer = again.ask(HEDGED)
    assert answer.usable and answer.hedge_words == ("it seems",) and len(seen) == 1
    assert again.meter.cached == 1 and again.meter.calls == 0 and again.meter.spent_usd == 0


def test_the_cache_key_holds_the_whole_request():
    witness = Witness()
    base = witness.request(load_prompt("witness"), TOOL, "s")
    variants = [{**base, "model": "n"}, {**base, "max_tokens": 1}, {**base, "system": base["system"] + " "},
                {**base, "tools": [{**TOOL, "description": "other"}]}, {**base, "messages": [{"role": "user",
                                                                                             "content": "t"}]}]
    assert len({cache_key(base), *map(cache_key, variants)}) == 6


def test_a_row_planted_in_the_cache_is_validated_again_and_a_row_under_a_borrowed_key_is_not_read(tmp_path):
    report = inspect("Alice might be promoted.", "Alice will be promoted.")
    cache = ReplyCache(tmp_path / "replies.sqlite")
    witness = Witness(client=mock_client([YES]), cache=cache)
    planted = {"hedges": True, "hedge_words": ["."], "attributes": False, "attribution_words": []}
    cache.put(witness.request(load_prompt("witness"), TOOL, as_data("Alice will be promoted.")), "witness-v3",
              {"input": planted, "stop_reason": "tool_use"})
    assert lower_with_witness(report, witness).verdict == "rewrite"  # the planted full stop removes nothing
    assert witness.meter.cached == 1 and witness.meter.calls == 0 and witness.discarded == 1
    other = witness.request(load_prompt("witness"), TOOL, as_data("Bob will be promoted."))
    with cache._db:  # a row copied under another request's key: its request does not match, so it is a miss
        cache._db.execute("UPDATE requests SET key = ?", (cache_key(other),))
    seen = []
    fresh = Witness(client=mock_client([NO], seen), cache=cache)
    assert fresh.ask("Bob will be promoted.").usable and len(seen) == 1 and fresh.meter.cached == 0


def test_a_broken_cache_file_is_named(tmp_path):
    broken = tmp_path / "replies.sqlite"
    broken.write_bytes(b"this is not a database" * 100)
    with pytest.raises(ValueError, match="replies.sqlite"):
        ReplyCache(broken)


# -- resumable run files ---------------------------------------------------------------------------

def test_an_item_without_a_result_is_left_for_the_next_run(tmp_path):
    with RunFile(tmp_path / "run.jsonl") as run:
        assert resume(run, [("a", 1), ("b", None), ("c", 3)], lambda v: None if v is None else {"v": v}) == 2
        assert run.done == {"a", "c"}


def test_run_names_carry_lineage_and_read_back():
    name = run_name("witness-eval", "claude-haiku-4-5", {"per_class": 200, "prompt": "witness-v2"}, 7)
    assert parse_run_name(name) == {"operation": "witness-eval", "model": "claude-haiku-4-5",
                                    "params": {"per_class": "200", "prompt": "witness-v2"}, "seed": 7}
    with pytest.raises(ValueError, match="not a run file name"):
        parse_run_name("results.jsonl")


def test_a_line_cut_short_by_a_kill_is_dropped_and_asked_again(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text('{"key": "a", "v": 1}\n{"key": "b", "v": 2}\n{"key": "c", "v"', encoding="utf8")
    with RunFile(path) as run:
        assert run.done == {"a", "b"} and run.torn == 1
        assert resume(run, [("a", 1), ("b", 2), ("c", 3)], lambda v: {"v": v}) == 1
    assert [json.loads(line)["key"] for line in path.read_text().splitlines()] == ["a", "b", "c"]


def test_a_broken_line_inside_a_run_file_is_named(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text('{"key": "a"}\nnot json\n{"key": "c"}\n', encoding="utf8")
    with pytest.raises(ValueError, match=r"run.jsonl:2"):
        RunFile(path)


KILLED_RUN = """
import sys
from spacy_factwash.io.runfile import RunFile, resume
from spacy_factwash.llm.tasks.witness import Witness
witness = Witness(max_retries=0)
with RunFile(sys.argv[1]) as run:
    resume(run, ((f"s{i}", f"Sentence {i} might hold.") for i in range(12)),
           lambda s: {"usable": witness.ask(s).usable})
"""


def test_a_run_killed_mid_call_loses_only_the_call_in_flight(tmp_path):
    path = tmp_path / "run.jsonl"
    hang_on = [6]  # the first run's sixth request never returns: the process is killed while it waits

    def respond(body, n):
        return HANG if n == hang_on[0] else {"hedges": False, "hedge_words": [], "attributes": False,
                                             "attribution_words": []}

    with AnthropicStub(respond) as stub:
        env = {**os.environ, **stub.env(), "FACTWASH_MODEL_CACHE": str(tmp_path / "cache.sqlite")}
        child = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(path)], env=env)
        deadline = time.monotonic() + 120
        while len(stub.requests) < 6 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        assert len(RunFile(path).done) == 5  # every answered call is on disk
        hang_on[0] = -1
        subprocess.run([sys.executable, "-c", KILLED_RUN, str(path)], env=env, check=True, timeout=300)
    assert len(RunFile(path).done) == 12
    assert len(stub.requests) == 12 + 1  # the one call lost in flight was asked again, nothing else


# -- prompts ---------------------------------------------------------------------------------------

def test_every_prompt_in_the_manifest_loads_and_an_edited_prompt_is_refused(tmp_path):
    manifest = json.loads((PROMPTS / "manifest.json").read_text())
    assert {load_prompt(name).id for name in manifest} == {f"{n}-v{e['version']}" for n, e in manifest.items()}
    copy = tmp_path / "prompts"
    shutil.copytree(PROMPTS, copy)
    edited = copy / f"witness.v{manifest['witness']['version']}.txt"
    edited.write_text(edited.read_text() + "Also, be brief.\n")
    with pytest.raises(PromptError, match=r"witness\.v\d+\.txt: edited"):
        read_prompt(copy, "witness")
    with pytest.raises(PromptError, match="no prompt 'nothing'"):
        read_prompt(copy, "nothing")


@pytest.fixture(scope="module")
def corpus_texts(corpora):
    """(corpus name, normalised text padded with spaces) for every document of every evaluation corpus."""
    from factwash_dev.evaluation.corpora import CORPORA
    from factwash_dev.evaluation.frank import read_pairs
    from spacy_factwash.llm.quotes import normalise

    texts = [(corpus.name, f" {normalise(item.text)} ") for corpus in CORPORA.values()
             for item in corpus.read(corpora / corpus.raw)]
    for split in ("valid", "test"):
        texts += [("frank", f" {normalise(article + ' ' + summary)} ")
                  for _, article, summary in read_pairs(corpora / "frank" / "raw", split)]
    return texts


def occurrences(examples, corpus_texts):
    """Each example phrase found as whole words in a corpus, with the corpus it was found in."""
    return {e: name for name, text in corpus_texts for e in examples if f" {e} " in text}


def test_no_example_in_a_prompt_occurs_in_any_evaluation_corpus(corpus_texts):
    from spacy_factwash.llm.quotes import normalise

    examples = {normalise(e) for path in PROMPTS.glob("*.txt") for e in re.findall(r'"([^"]+)"', path.read_text())}
    examples -= {"supported", "unsupported", "cannot_tell", "yes", "no"}  # the answers' names, not examples
    assert examples, "the prompts quote no examples: this test would check nothing"
    found = occurrences(examples, corpus_texts)
    assert found == {}, f"prompt examples that occur in an evaluation corpus: {found}"


def test_the_leak_guard_finds_a_phrase_the_corpora_do_hold(corpus_texts):
    found = occurrences({"according to", "may be involved in", "zzz never said qqq"}, corpus_texts)
    assert set(found) == {"according to", "may be involved in"}


# -- the unsupported-claim detector ----------------------------------------------------------------

SOURCE = "Someone in the chat said Alice was promoted to admin this morning."
MEMORY = "Someone in the chat said Alice was promoted to admin this morning. She now leads the Berlin office."


def judged(*replies, seen=None):
    return SupportJudge(client=mock_client(replies, seen))


def test_an_unsupported_sentence_is_noted_with_offsets_in_both_texts_and_the_verdict_stands():
    report = inspect(SOURCE, MEMORY)
    supported = {"judgement": "supported", "source_quote": "Alice was promoted to admin", "sentence_quote": ""}
    unsupported = {"judgement": "unsupported", "source_quote": "Alice was promoted to admin",
                   "sentence_quote": "leads the Berlin office"}
    seen = []
    reviewed = review_support(report, SOURCE, default_pipeline()(MEMORY), judged(supported, unsupported, seen=seen))
    [note] = reviewed.notes[len(report.notes):]
    assert reviewed.verdict == report.verdict and reviewed.changes == report.changes and note.type == UNSUPPORTED
    assert MEMORY[note.memory.start_char:note.memory.end_char] == "leads the Berlin office"
    assert SOURCE[note.source.start_char:note.source.end_char] == "Alice was promoted to admin"
    assert note.values["class"] == "reject" and note.values["applied"] is False and note.values["prompt"] == "added-v1"
    assert [r["messages"][0]["content"].split("SENTENCE:\n")[1] for r in seen] == [
        "Someone in the chat said Alice was promoted to admin this morning.", "She now leads the Berlin office."]


@pytest.mark.parametrize("reply, reason", [
    ({"judgement": "cannot_tell", "source_quote": "", "sentence_quote": ""}, "could not tell"),
    ({"judgement": "supported", "source_quote": "Alice was demoted", "sentence_quote": ""}, "not in the source"),
    ({"judgement": "unsupported", "source_quote": "Alice", "sentence_quote": "Berlin office"}, "shorter than"),
    ({"judgement": "unsupported", "source_quote": "was promoted", "sentence_quote": "Paris office"}, "not in the sentence"),
    ({"judgement": "maybe", "source_quote": "was promoted", "sentence_quote": ""}, "malformed"),
])
def test_a_sentence_the_model_could_not_settle_is_declared_not_passed(reply, reason):
    reviewed = review_support(inspect(SOURCE, MEMORY), SOURCE, default_pipeline()(MEMORY), judged(reply))
    declared = [n for n in reviewed.notes if n.type == NOT_ESTABLISHED]
    assert len(declared) == 2 and all(reason in n.message for n in declared)


def test_supported_sentences_add_nothing():
    reply = {"judgement": "supported", "source_quote": "Alice was promoted to admin", "sentence_quote": ""}
    report = inspect(SOURCE, SOURCE)
    assert review_support(report, SOURCE, default_pipeline()(SOURCE), judged(reply)) is report


JUDGEMENTS = st.fixed_dictionaries({
    "judgement": st.sampled_from(["supported", "unsupported", "cannot_tell", "other"]),
    "source_quote": st.sampled_from(["", "Alice was promoted to admin", "nothing like it", "said Alice"]),
    "sentence_quote": st.sampled_from(["", "the Berlin office", "Alice", "zzz qqq"]),
})
PAIRS = [(SOURCE, MEMORY), ("The cluster has 4,500 nodes, Alice said.", "The cluster has 5,400 nodes."),
         ("Bob might leave.", "Bob will leave.")]
REPORTS = [inspect(s, m) for s, m in PAIRS]
MEMORY_DOCS = [default_pipeline()(m) for _, m in PAIRS]


@properties(60)
@given(st.sampled_from(range(len(PAIRS))), JUDGEMENTS)
def test_whatever_the_support_judge_says_the_verdict_and_changes_do_not_move(index, reply):
    report = REPORTS[index]
    reviewed = review_support(report, PAIRS[index][0], MEMORY_DOCS[index], judged(reply))
    assert reviewed.verdict == report.verdict and reviewed.changes == report.changes
    for note in reviewed.notes[len(report.notes):]:
        memory = PAIRS[index][1]
        assert note.memory.text == memory[note.memory.start_char:note.memory.end_char]


def test_a_source_too_long_to_send_is_declared_without_a_call():
    seen = []
    judge = SupportJudge(client=mock_client([{}], seen), max_source_chars=10)
    reviewed = review_support(inspect(SOURCE, SOURCE), SOURCE, default_pipeline()(SOURCE), judge)
    assert seen == [] and "max_source_chars" in reviewed.notes[-1].message


def test_quotes_are_located_after_documented_normalisation_only():
    text = "Bob\u2019s   manager SAID it,\n apparently."
    assert text[slice(*locate(text, "bob's manager said"))] == "Bob\u2019s   manager SAID"
    assert locate(text, "bobs manager said") is None and locate(text, "apparently") == (text.index("apparently"),
                                                                                      len(text) - 1)


# -- the command line, through a stand-in server on 127.0.0.1 ----------------------------------------

def answer_by_tool(body, n):
    """The witness says "it hedges"; the support judge cannot tell."""
    if body["tool_choice"]["name"] == "report_cues":
        return YES
    return {"judgement": "cannot_tell", "source_quote": "", "sentence_quote": ""}


def test_check_witness_lowers_the_exit_status_and_ends_with_a_cost_line(tmp_path):
    pair = ["--source", "Alice might be promoted.", "--memory", HEDGED]
    with AnthropicStub(answer_by_tool) as stub:
        env = {**os.environ, **stub.env(), "FACTWASH_MODEL_CACHE": str(tmp_path / "replies.sqlite")}
        plain = cli("check", *pair, env=env)
        assert plain.returncode == 4 and stub.requests == [] and "model cost" not in plain.stderr
        first = cli("check", *pair, "--witness", env=env)
        one_call = cost("claude-haiku-4-5", {"input_tokens": 400, "output_tokens": 50})
        assert first.returncode == 0 and len(stub.requests) == 1, first.stderr
        assert f"model cost: 1 call(s), 0 from cache, 400 input and 50 output tokens, ${one_call:.4f}" in first.stderr
        assert "note (lowered_by_witness)" in first.stdout
        again = cli("check", *pair, "--witness", env=env)
        assert again.returncode == 0 and len(stub.requests) == 1 and "0 call(s), 1 from cache" in again.stderr


def test_gate_with_both_model_components_writes_their_notes_and_a_budget_of_zero_calls_nothing(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps(p) for p in [
        {"id": 1, "source": "Alice might be promoted.", "memory": HEDGED},
        {"id": 2, "source": "The cluster has 4,500 nodes.", "memory": "The cluster has 4,500 nodes."}]) + "\n")
    with AnthropicStub(answer_by_tool) as stub:
        env = {**os.environ, **stub.env()}
        result = cli("gate", pairs, tmp_path / "out.jsonl", "--witness", "--unsupported", "--no-cache", env=env)
        assert result.returncode == 0, result.stderr
        reports = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
        assert [r["verdict"] for r in reports] == ["pass", "pass"]
        assert [[n["type"] for n in r["notes"]] for r in reports] == [
            ["lowered_by_witness", "support_not_established"], ["support_not_established"]]
        assert len(stub.requests) == 3 and "model cost: 3 call(s)" in result.stderr


def test_a_run_stopped_by_its_budget_exits_6_and_resumes_where_it_stopped(tmp_path):
    from typer.testing import CliRunner

    from spacy_factwash.cli import app

    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps(p) for p in [
        {"id": 1, "source": "The cluster has 4,500 nodes.", "memory": "The cluster has 4,500 nodes."},
        {"id": 2, "source": "Alice might be promoted.", "memory": HEDGED}]) + "\n")
    with AnthropicStub(answer_by_tool) as stub:
        runner = CliRunner(env=stub.env())
        capped = runner.invoke(app, ["gate", str(pairs), str(tmp_path / "capped.jsonl"), "--witness", "--max-usd", "0",
                                     "--no-cache"])
        assert capped.exit_code == 6 and stub.requests == [] and "refused by the budget" in capped.output
        assert "model budget was reached at" in capped.output and "pairs.jsonl:2" in capped.output
        assert [json.loads(line)["id"] for line in (tmp_path / "capped.jsonl").read_text().splitlines()] == [1]
        resumed = runner.invoke(app, ["gate", str(pairs), str(tmp_path / "capped.jsonl"), "--witness", "--resume",
                                      "--no-cache"])
        assert resumed.exit_code == 0 and len(stub.requests) == 1, resumed.output
        assert [json.loads(line)["verdict"] for line in (tmp_path / "capped.jsonl").read_text().splitlines()] == [
            "pass", "pass"]
        check = runner.invoke(app, ["check", "--source", "Alice might be promoted.", "--memory", HEDGED, "--witness",
                                    "--max-usd", "0", "--no-cache"])
        assert check.exit_code == 6 and "verdict: rewrite" in check.output and len(stub.requests) == 1


def test_an_unpriced_model_or_a_missing_key_is_refused_on_the_command_line_before_any_call(tmp_path):
    env = {**os.environ, "ANTHROPIC_API_KEY": "offline-test-key"}
    result = cli("check", "--source", "a b", "--memory", "a b", "--witness", "--model", "nope", env=env)
    assert result.returncode == 1 and "no price for model 'nope'" in result.stderr
    env.pop("ANTHROPIC_API_KEY")
    (tmp_path / "in.jsonl").write_text('{"id": 1, "source": "a b", "memory": "a b"}\n')
    result = cli("gate", tmp_path / "in.jsonl", tmp_path / "out.jsonl", "--witness", env=env)
    assert result.returncode == 1 and "set ANTHROPIC_API_KEY (nothing was sent)" in result.stderr


# -- the README's cost table is the computation ----------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cost_measured(corpora, frank_reports, tmp_path_factory):
    """The model-cost table, on the gate's FRANK reports the FRANK table reads (the gate runs over FRANK once)."""
    from factwash_dev.evaluation.model_cost import FRANK_SET, cost_table, write_sets

    return made_once(tmp_path_factory, "model_cost_table", lambda: cost_table(
        write_sets(ROOT / "training" / "gate_sets", corpora / "frank" / "raw"), default_pipeline(), "claude-haiku-4-5",
        {FRANK_SET: frank_reports}))


def test_readme_model_cost_table_is_the_computed_table(cost_measured):
    from factwash_dev.evaluation.readme import MODEL_COST

    drift = readme_drift(MODEL_COST, cost_measured)
    assert drift == [], "README model-cost table drifted from the computation:\n" + "\n".join(drift)


def test_model_cost_guard_names_a_perturbed_figure(cost_measured):
    from factwash_dev.evaluation.readme import MODEL_COST

    row = next(line for line in cost_measured.splitlines() if line.startswith("| written gate sets"))
    drift = perturbed_drift(MODEL_COST, cost_measured, "| written gate sets", 4, "9.999")
    assert drift == ["written gate sets / witness $ / 100: README says 9.999, measured "
                     + row.split("|")[4].strip()]


def test_planned_calls_count_what_a_run_would_ask(tmp_path):
    from spacy_factwash.llm.planned import planned_calls

    pairs = [("Alice might be promoted.", "Alice will be promoted."),
             ("Alice might be promoted.", "Alice will be promoted."),  # the same flagged sentence: cached
             ("The sky is blue. Grass is green.", "The sky is blue. Grass is green.")]
    plan = planned_calls(pairs, default_pipeline(), "claude-haiku-4-5")
    assert plan["writes"] == 3 and plan["witness_calls"] == 1 and plan["support_calls"] == 4
    assert 0 < plan["witness_usd"] < plan["support_usd"]


def small_test_halves(folder: Path, per_subset: int = 2) -> Path:
    """Split files that keep every document of the committed ones but put only the first ``per_subset`` test
    documents of each subset in the test half (the rest in dev): the real corpora read, a small half scored."""
    folder.mkdir()
    for committed in (ROOT / "training" / "splits").glob("*.json"):
        split = json.loads(committed.read_text(encoding="utf8"))
        for halves in split.values():
            halves["dev"], halves["test"] = halves["dev"] + halves["test"][per_subset:], halves["test"][:per_subset]
        (folder / committed.name).write_text(json.dumps(split), encoding="utf8")
    return folder


def test_evaluate_witness_stops_at_the_budget_and_a_rerun_fills_the_named_run_file(corpora, tmp_path):
    """The budget and resume mechanism on 8 sentences: the real corpora, read through small test halves. The
    evaluation run before the witness is scored on BioScope alone (``--corpus``): the witness reads its own."""
    from factwash_dev.cli import app as dev_app
    from typer.testing import CliRunner

    splits = small_test_halves(tmp_path / "splits")
    with AnthropicStub(answer_by_tool) as stub:
        runner = CliRunner(env={**stub.env(), "FACTWASH_MODEL_CACHE": str(tmp_path / "replies.sqlite")})
        args = ["evaluate", "--corpora", str(corpora), "--splits", str(splits), "--output-dir", str(tmp_path),
                "--corpus", "bioscope", "--witness", "--per-class", "4"]
        stopped = runner.invoke(dev_app, [*args, "--max-usd", "0"])
        assert stopped.exit_code == 6 and "higher --max-usd" in stopped.output and stub.requests == []
        finished = runner.invoke(dev_app, args)
        assert finished.exit_code == 0, finished.output
        assert len(stub.requests) == 8 and "HEDGE        witness" in finished.output
    [run] = (tmp_path / "model-runs").iterdir()
    assert parse_run_name(run.name) == {"operation": "witness-eval", "model": "claude-haiku-4-5",
                                        "params": {"per_class": "4", "prompt": "witness-v3"}, "seed": 0}
    assert len(RunFile(run).done) == 8
    scored = json.loads((tmp_path / "metrics-test-bioscope.json").read_text(encoding="utf8"))
    assert {row["corpus"] for row in scored["rows"]} == {"bioscope"} and not (tmp_path / "metrics-test.json").exists()


def test_evaluate_names_an_unknown_corpus_in_one_line(tmp_path):
    from factwash_dev.cli import app as dev_app
    from typer.testing import CliRunner

    result = CliRunner().invoke(dev_app, ["evaluate", "--corpus", "bioscope", "--corpus", "bioscop",
                                          "--output-dir", str(tmp_path)])
    assert result.exit_code == 1 and "--corpus 'bioscop': no such corpus (one of bioscope, " in result.output
    assert list(tmp_path.iterdir()) == []


def test_the_html_report_shows_the_model_notes(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"id": "p1", "source": "Alice might be promoted.", "memory": HEDGED}) + "\n")
    with AnthropicStub(answer_by_tool) as stub:
        env = {**os.environ, **stub.env()}
        result = cli("report", pairs, "--html", tmp_path / "r.html", "--witness", "--unsupported", "--no-cache",
                     env=env)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "r.html").read_text()
    assert "lowered_by_witness" in page and "support_not_established" in page and "model cost: 2 call(s)" in result.stderr
