"""The gate: alignment, the seven checks and unit drift, evidence, verdict policy, the component."""

import json
import os
import subprocess
import sys

import pytest
import spacy

import spacy_factwash
from spacy_factwash import check, inspect
from spacy_factwash.pipes.gate.policy import verdict


def types(report):
    return sorted(change.type for change in report.changes)


@pytest.mark.parametrize(
    "source,memory,expected",
    [
        ("Someone said Alice was promoted.", "Alice was promoted.", ["dropped_attribution"]),
        ("Rumor has it the office will close.", "The office will close.", ["dropped_attribution"]),
        ("Alice might get admin access.", "Alice will get admin access.", ["strengthened_certainty"]),
        ("I think the meeting moved to Friday.", "The meeting moved to Friday.", ["strengthened_certainty"]),
        ("Bob did not approve the budget.", "Bob approved the budget.", ["reversed_polarity"]),
        ("Bob approved the budget.", "Bob never approved the budget.", ["reversed_polarity"]),
        ("Access is granted if the audit passes.", "Access is granted.", ["dropped_condition"]),
        ("As of Monday, Alice leads the team.", "Alice leads the team.", ["dropped_temporal_scope"]),
        ("The cluster has 4,500 nodes.", "The cluster has 5,400 nodes.", ["changed_value"]),
        ("Retention is 90 days.", "Retention is 30 days.", ["changed_value"]),
        ("Revenue was 2.4 million against costs of 1.8 million, a margin of 25%.", "The margin was healthy.",
         ["dropped_values"]),
        ("Revenue was 1.2 million dollars.", "Revenue was 1.2 million euros.", ["changed_unit"]),
        ("The disk holds 5 GB.", "The disk holds 5 MB.", ["changed_unit"]),
    ],
)
def test_each_change_type_is_found(source, memory, expected):
    assert types(inspect(source, memory)) == expected


@pytest.mark.parametrize(
    "source,memory",
    [
        ("Alice said the deploy failed.", "According to Alice, the deploy failed."),
        ("The deploy might fail.", "The deploy may fail."),
        ("Bob did not approve the budget.", "Bob didn't approve the budget."),
        ("Bob never approved the budget.", "Bob has not approved the budget."),
        ("If the audit passes, access is granted.", "Access is granted if the audit passes."),
        ("As of Monday, Alice leads the team.", "Alice leads the team as of Monday."),
        ("Revenue was 1.2 million dollars.", "Revenue was $1.2 million."),
        ("The cluster has 4,500 nodes.", "The cluster has 4500 nodes."),
        ("Alice leads the platform team.", "Alice leads the platform team."),
    ],
)
def test_paraphrases_that_keep_the_class_pass(source, memory):
    report = inspect(source, memory)
    assert report.verdict == "pass", str(report)


def test_the_issue_example_is_hearsay_turned_into_fact():
    report = inspect("Someone said Alice was promoted this morning.", "Alice was promoted to admin.")
    assert report.verdict == "rewrite"
    assert types(report) == ["dropped_attribution", "dropped_temporal_scope"]


def test_evidence_points_into_both_texts():
    source, memory = "In the chat, someone said Alice was promoted.", "Alice was promoted."
    report = inspect(source, memory)
    [change] = report.changes
    assert source[change.source.start_char:change.source.end_char] == change.source.text
    assert memory[change.memory.start_char:change.memory.end_char] == change.memory.text
    [cue] = change.cues
    assert cue.side == "source" and source[cue.start_char:cue.end_char] == "said"
    assert cue.entry == "attribution:say" and cue.lexicon_version == report.lexicon_version
    assert change.message


def test_a_hedge_in_the_next_sentence_still_counts_but_a_negation_does_not():
    hedged = inspect("Alice has admin. Not sure though.", "Alice has admin.")
    assert "strengthened_certainty" in types(hedged)
    negated = inspect("Alice has admin. Bob does not.", "Alice has admin.")
    assert "reversed_polarity" not in types(negated)


@pytest.mark.parametrize(
    "source,change,raised",
    [
        ("If the audit passes, we proceed. Access is then granted to Alice.", "dropped_condition", True),
        ("Bob said the build broke. Access is then granted to Alice.", "dropped_attribution", False),
        ("We met last week. Access is then granted to Alice.", "dropped_temporal_scope", False),
    ],
)
def test_windows_conditional_wide_attribution_and_temporal_narrow(source, change, raised):
    assert (change in types(inspect(source, "Access is then granted to Alice."))) is raised


def test_a_neighbour_counts_when_it_comments_on_the_claim_or_the_memory_took_words_from_it():
    own_claim = inspect("Alice leads the Berlin team. Bob might move to the Paris office next spring.",
                        "Alice leads the Berlin team.")
    assert "strengthened_certainty" not in types(own_claim)  # Bob's hedge scopes Bob's claim, not Alice's
    merged = inspect("Alice leads the Berlin team. Bob might move to the Paris office next spring.",
                     "Alice leads the Berlin team, and Bob moves to the Paris office.")
    assert "strengthened_certainty" in types(merged)


def test_the_retired_window_settings_load_with_a_warning_and_change_nothing():
    nlp = spacy_factwash.load()
    nlp.remove_pipe("factwash_compare")
    with pytest.warns(DeprecationWarning, match="neighbour_words"):
        gate = nlp.add_pipe("factwash_compare", config={"neighbour_words": 10})
    source, memory = nlp.pipe(["Alice leads the Berlin team. Bob might move to the Paris office next spring.",
                               "Alice leads the Berlin team."])
    assert gate.compare(source, memory).verdict == "pass"


def test_a_memory_longer_than_its_source_gets_a_verdict():
    report = inspect("Alice leads the team.", "Alice leads the team. " * 50 + "She also said it might rain.")
    assert report.verdict == "uncheckable" and report.memory_sentences == 51


def test_a_sentence_that_aligns_to_nothing_is_uncheckable_never_pass():
    report = inspect("The meeting is on Monday.", "Bananas are yellow.")
    assert report.verdict == "uncheckable" and [u.text for u in report.uncheckable] == ["Bananas are yellow."]


def test_one_unaligned_sentence_makes_an_otherwise_clean_memory_uncheckable():
    report = inspect("Alice leads the team.", "Alice leads the team. Bananas are yellow.")
    assert report.verdict == "uncheckable" and len(report.uncheckable) == 1


@pytest.mark.parametrize("memory", ["", "   ", "\n\t"])
def test_an_empty_memory_is_uncheckable(memory):
    report = inspect("Alice said the deploy failed.", memory)
    assert report.verdict == "uncheckable" and report.empty_memory


def test_an_empty_source_leaves_every_memory_sentence_uncheckable():
    assert check("", "Alice leads the team.") == "uncheckable"


def test_identical_texts_pass():
    text = "Someone said Alice might not get access if the audit fails, as of Monday."
    assert check(text, text) == "pass"


@pytest.mark.parametrize("bad", [None, 42, b"bytes", ["a list"]])
def test_non_string_input_is_a_clear_error(bad):
    with pytest.raises(TypeError, match="must be a str"):
        inspect(bad, "Alice leads the team.")
    with pytest.raises(TypeError, match="must be a str"):
        inspect("Alice leads the team.", bad)


def test_markup_control_characters_and_other_languages_get_a_verdict():
    for source, memory in [
        ("<p>Alice <b>said</b> it failed.</p>", "<p>It failed.</p>"),
        ("Alice said it failed.\x00\x07", "It failed.\x1b"),
        ("Der Server ist ausgefallen.", "Der Server ist ausgefallen."),
    ]:
        assert check(source, memory) in {"pass", "rewrite", "reject", "uncheckable"}


def test_a_one_megabyte_source_is_gated():
    source = "The assay ran on the cluster. " * 35_000 + "Someone said the cluster failed."
    assert len(source) > 1_000_000
    assert check(source, "The cluster failed.") == "rewrite"


def test_not_checked_is_always_declared_and_names_what_the_config_turned_off():
    report = inspect("Alice leads the Berlin team.", "Alice leads the team in Berlin.")
    assert report.not_checked == [] and "not checked: nothing" in str(report)
    off = spacy_factwash.load()
    off.replace_pipe("factwash_compare", "factwash_compare", config={"disabled": ["broadened", "weakened"]})
    assert {"broadened", "weakened"} <= set(inspect("Alice leads the team.", "Alice leads the team.", nlp=off).not_checked)


def test_report_is_json_safe_and_prints():
    report = inspect("Someone said Alice was promoted this morning.", "Alice was promoted to admin.")
    data = json.loads(json.dumps(report.to_dict()))
    assert data["verdict"] == "rewrite" and {c["type"] for c in data["changes"]} == {
        "dropped_attribution", "dropped_temporal_scope"}
    assert "dropped_attribution" in str(report) and "not checked: nothing" in str(report)


def test_introduced_date_is_a_note_that_says_whether_it_was_resolved():
    resolved = inspect("We met this morning.", "We met on 3 March 2026.")
    invented = inspect("We met.", "We met on 3 March 2026.")
    assert resolved.verdict == invented.verdict == "pass"
    assert [n.values["resolved_relative"] for n in resolved.notes if n.type == "introduced_time"] == [True]
    assert [n.values["resolved_relative"] for n in invented.notes if n.type == "introduced_time"] == [False]


@pytest.mark.parametrize(
    "types_found,uncheckable,expected",
    [
        (["dropped_attribution", "changed_value"], [], "reject"),
        (["dropped_condition"], ["x"], "rewrite"),
        ([], ["x"], "uncheckable"),
        ([], [], "pass"),
        (["changed_unit"], [], "reject"),
        (["dropped_temporal_scope"], [], "rewrite"),
    ],
)
def test_verdict_policy(types_found, uncheckable, expected):
    assert verdict(types_found, uncheckable) == expected


def test_disabled_checks_are_declared_as_not_checked():
    nlp = spacy_factwash.load()
    nlp.remove_pipe("factwash_compare")
    gate = nlp.add_pipe("factwash_compare", config={"disabled": ["dropped_temporal_scope"]})
    report = gate.compare(nlp("As of Monday, Alice leads the team."), nlp("Alice leads the team."))
    assert report.verdict == "pass" and "dropped_temporal_scope" in report.not_checked


def test_a_bad_gate_config_is_refused():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match="unknown change types"):
        nlp.add_pipe("factwash_compare", config={"disabled": ["nonsense"]})


def test_gate_settings_survive_to_disk(tmp_path):
    nlp = spacy_factwash.load()
    nlp.remove_pipe("factwash_compare")
    nlp.add_pipe("factwash_compare", config={"threshold": 0.6})
    nlp.to_disk(tmp_path / "gate")
    assert spacy.load(tmp_path / "gate").get_pipe("factwash_compare").threshold == 0.6


def test_pipe_pairs_in_two_processes_matches_inspect():
    pairs = [("Someone said Alice was promoted.", "Alice was promoted."),
             ("The cluster has 4,500 nodes.", "The cluster has 5,400 nodes."),
             ("Alice leads the team.", "Alice leads the team.")] * 3
    gate = spacy_factwash.default_pipeline().get_pipe("factwash_compare")
    reports = list(gate.pipe_pairs(pairs, batch_size=2, n_process=2))
    assert [r.to_dict() for r in reports] == [inspect(s, m).to_dict() for s, m in pairs]


@pytest.mark.parametrize("memory, expected", [
    ("Latency fell after the change.", ["dropped_values"]),  # a range states two values
    ("Latency fell to 80 ms after the change.", []),  # one end of the range is a value the source gave
    ("Latency fell from 120 ms to 90 ms after the change.", ["changed_value"]),
])
def test_a_range_is_read_as_both_its_ends(memory, expected):
    assert [c.type for c in inspect("Latency fell from 120 ms to 80 ms after the change.", memory).changes] == expected


def test_a_stated_uncertainty_stays_one_value():
    assert inspect("The dose was 5 ± 0.2 mg.", "The dose was 5 mg.").verdict == "pass"


@pytest.mark.parametrize("source, memory, expected", [
    ("Kim ruled between 1994 and 2011 and restrained the program.", "Kim restrained the program.", []),
    ("Revenue was 1500 and costs were 1200.", "Revenue was reported.", ["dropped_values"]),  # no time word
    ("The plant opened in 1994.", "The plant opened in 1995.", ["changed_time"]),  # a year is a time, compared
])
def test_a_year_after_a_time_word_is_a_time_not_one_of_the_values(source, memory, expected):
    assert [c.type for c in inspect(source, memory).changes] == expected


@pytest.mark.parametrize("source, memory, reversed_", [
    # the negation is the comment's ("nobody has confirmed it"), not the launch's
    ("I heard the launch might slip to June, but nobody has confirmed it.", "The launch might slip to June.", False),
    ("Alice got the job.", "Alice got the job, but nobody told Bob.", False),
    ("Alice did not, in fact, get the job.", "Alice got the job.", True),  # the clause the texts share
    ("There was no evidence of fever.", "There was evidence of fever.", True),
    ("Alice did not get the job, but Bob never applied.", "Alice did not get the job.", False),  # both negate
])
def test_a_negation_counts_only_in_a_clause_the_other_text_shares(source, memory, reversed_):
    assert ("reversed_polarity" in types(inspect(source, memory))) is reversed_


def test_values_are_read_the_same_whatever_the_hash_seed():
    """quantulum3 builds its regexes from sets, so without a fixed order "0.5 /mL" lost its unit under some string
    hash seeds and the gate's verdict on a dropped unit changed from one process to the next."""
    program = ("import json, spacy_factwash\n"
               "pairs = [('Serum held roughly 0.3 to 0.5 IU/mL of the factor.',"
               " 'Serum held roughly 0.3 to 0.5 /mL of the factor.'), ('Titres were 10 to 20 IU/mL.', 'Titres were 10 to 20 /mL.'),"
               " ('It ran at 5 km per hour.', 'It ran at 5 km.')]\n"
               "print(json.dumps([[r.verdict, sorted(c.message for c in r.changes)]"
               " for r in map(lambda p: spacy_factwash.inspect(*p), pairs)]))\n")
    outputs = {subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in (1, 2)}
    assert len(outputs) == 1, outputs
    assert [verdict for verdict, _ in json.loads(outputs.pop())[:2]] == ["reject", "reject"]  # the dropped "IU"


def test_threads_sharing_the_default_pipeline_take_turns_with_its_memory_zones():
    """inspect() in one thread while another gates batches (each in a memory zone that forgets its new words when
    it ends): without one lock per pipeline, inspect read strings the other thread's zone had dropped (E018)."""
    import random
    import string
    import threading

    gate = spacy_factwash.default_pipeline().get_pipe("factwash_compare")
    stop = threading.Event()

    def words(rng, n):
        return " ".join("".join(rng.choice(string.ascii_lowercase) for _ in range(9)) for _ in range(n))

    def gate_batches():
        rng = random.Random(11)  # each thread its own: a shared one makes the inspected texts depend on timing
        while not stop.is_set():
            list(gate.pipe_pairs([(words(rng, 30), words(rng, 30))], batch_size=1))

    other = threading.Thread(target=gate_batches)
    other.start()
    try:
        rng, verdicts = random.Random(7), []
        for _ in range(60):
            # one new word per claim (the string a zone could drop) in an English sentence, so the language check
            # never declares a run of random letters Polish
            claim = f"The {words(rng, 1)} server in the north office might be down for the whole team today."
            verdicts.append(inspect("Someone said " + claim, claim).verdict)
    finally:
        stop.set()
        other.join()
    assert verdicts == ["rewrite"] * 60


def test_a_fresh_pipeline_gates_batch_after_batch():
    """The cue lexicon of a new pipeline compiles at its first document; when that document is inside a memory
    zone, the zone must not take the lexicon's strings with it (the next batch failed with E018)."""
    pairs = [("Someone said it might rain.", "It rains.")] * 3
    reports = list(spacy_factwash.load().get_pipe("factwash_compare").pipe_pairs(pairs, batch_size=1))
    assert [r.verdict for r in reports] == ["rewrite"] * 3


def test_a_batch_that_repeats_a_text_gives_the_reports_of_its_pairs_gated_one_by_one():
    """A batch annotates a text it holds more than once (one source, several memories; a pair of one text) once
    and reads its claims once per side: the reports are those of each pair on its own."""
    source = ("Someone said Alice might get admin access if the audit passes on Monday. The cluster has 4,500 nodes. "
              "Watch the video: the firm paid about $9,525.")
    pairs = [(source, "Alice gets admin access."), (source, "The cluster has 4,800 nodes."), (source, source),
             ("Alice gets admin access.", "Alice gets admin access."), (source, "Alice gets admin access.")]
    nlp = spacy_factwash.default_pipeline()
    gate = nlp.get_pipe("factwash_compare")
    one_by_one = [gate.compare(*nlp.pipe(pair)) for pair in pairs]
    assert [r.verdict for r in one_by_one] == ["rewrite", "reject", "pass", "pass", "rewrite"]
    assert list(gate.pipe_pairs(pairs, batch_size=8)) == one_by_one
