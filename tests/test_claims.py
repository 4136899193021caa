"""The claim-level gate: clauses, binding, alignment, normalised matching, and its invariants as properties."""

import pytest
from hypothesis import HealthCheck, example, given, strategies as st
from properties import properties

from spacy_factwash import check, default_pipeline, inspect

GATE = default_pipeline().get_pipe("factwash_compare")


def claims_of(text):
    return [(claim.kind, claim.text) for claim in GATE.claims(default_pipeline()(text)).claims]


def bound(text, cue_text):
    """The claims a cue of the text qualifies."""
    doc = default_pipeline()(text)
    claims = GATE.claims(doc)
    return sorted(claim.text for claim in claims.claims for cues in claim.qualifiers.values() for cue in cues
                  if cue.text == cue_text)


# -- clauses and what each cue qualifies ------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("The budget was approved, not the hire.", [("claim", "The budget was approved"), ("claim", "not the hire.")]),
    ("Alice was promoted, and the weather may turn.",
     [("claim", "Alice was promoted"), ("claim", "and the weather may turn.")]),
    ("The software has time tracking, a project suite, and automated backups.",
     [("claim", "The software has time tracking, a project suite, and automated backups.")]),
    ("If the audit passes, access is granted.", [("condition", "If the audit passes"), ("claim", "access is granted.")]),
    ("Bob, who did not approve the budget, leads the team.",
     [("claim", "Bob ... leads the team."), ("claim", "who did not approve the budget")]),
])
def test_a_sentence_splits_into_claims_at_clauses_not_at_list_commas(text, expected):
    assert claims_of(text) == expected


@pytest.mark.parametrize("text, cue, expected", [
    ("Someone said Alice was promoted.", "said", ["Someone said Alice was promoted."]),
    ("According to Bob, the build broke and the tests failed.", "According to",
     ["the build broke and the tests failed."]),
    ("The budget, Bob said, was cut.", "said", ["The budget ... was cut."]),
    ("Alice has admin. Not sure though.", "Not sure", ["Alice has admin."]),
    ("Alice was promoted, and the weather may turn.", "may", ["and the weather may turn."]),
    ("If the audit passes, access is granted.", "If", ["access is granted."]),
    ("If the audit passes, we proceed. Access is then granted.", "If", ["Access is then granted.", "we proceed."]),
    ("The vendor might miss the deadline. Bob said so in a meeting.", "said",
     ["Bob said so in a meeting.", "The vendor might miss the deadline."]),
])
def test_each_cue_qualifies_the_claims_it_scopes(text, cue, expected):
    assert bound(text, cue) == expected


def test_a_negation_in_a_comment_after_the_claim_negates_the_comment_not_the_claim():
    assert bound("The launch might slip, but nobody has confirmed it.", "nobody") == []
    assert bound("I don't think the launch will slip.", "n't") == ["I don't think the launch will slip."]


def test_changes_name_the_claims_they_compared_with_offsets_in_both_texts():
    source = "Bob leads the team. Someone said Carol falsified the data."
    memory = "Carol, who falsified the data, runs the lab."
    changes = [c for c in inspect(source, memory).changes if c.type == "dropped_attribution"]
    change = next(c for c in changes if c.memory_claim.text == "who falsified the data")
    assert memory[change.memory_claim.start_char:change.memory_claim.end_char] == "who falsified the data"
    assert source[change.source_claim.start_char:change.source_claim.end_char] == (
        "Someone said Carol falsified the data.")
    assert change.memory.text == memory and change.source.text == "Someone said Carol falsified the data."


# -- alignment --------------------------------------------------------------------------------------------


def test_a_memory_claim_may_draw_on_several_source_sentences_each_checked_against_its_own():
    report = inspect("Alice leads the Berlin team. Bob might move to the Paris office next spring.",
                     "Alice leads the Berlin team, and Bob moves to the Paris office.")
    assert [c.type for c in report.changes] == ["strengthened_certainty", "dropped_temporal_scope"]
    assert all(c.source_claim.text.startswith("Bob might move") for c in report.changes)


def test_an_exact_copy_of_any_source_sentence_passes_whatever_its_neighbours_say():
    source = "The meeting is on Monday. Alice has admin. Not sure though. Alice has admin."
    assert check(source, "Alice has admin.") == "pass"


@pytest.mark.parametrize("memory", ["ALICE LEADS THE TEAM.", "alice leads the team.", "Alice leads the team.\n"])
def test_case_and_trailing_whitespace_do_not_break_alignment(memory):
    assert check("Alice leads the team.", memory) == "pass"


# -- normalisation: a cue is found whatever bytes spell it, with offsets in the original text ---------------


@pytest.mark.parametrize("memory", [
    "ALICE DID NOT APPROVE IT.",
    "Alice did n\u200bot approve it.",
    "Alice did n\u043et approve it.",  # a Cyrillic o
    "Alice did no\u00adt approve it.",  # a soft hyphen
    "Alice did ｎｏｔ approve it.",  # full-width letters
])
def test_a_hidden_negation_is_still_a_negation(memory):
    report = inspect("Alice approved it.", memory)
    assert [c.type for c in report.changes] == ["reversed_polarity"]
    [cue] = report.changes[0].cues
    assert memory[cue.start_char:cue.end_char] == cue.text and cue.entry.startswith("negation:")


def test_a_struck_through_word_is_read_as_struck_out():
    assert check("Alice might win.", "Alice m\u0336i\u0336g\u0336h\u0336t\u0336 win.") == "rewrite"
    assert check("The team won the final.", "The team l\u043est the final.") == "reject"
    assert check("The disk holds 50 GB.", "The disk holds 5\u200b0 GB.") == "pass"


def test_shouted_and_unicode_text_without_cues_costs_no_shadow_and_changes_nothing():
    nlp = default_pipeline()
    plain, shouted = nlp("NASA said the launch slipped."), nlp("The café opened.")
    assert [c.text for c in plain.spans["factwash_cues"]] == ["said"]
    assert list(shouted.spans["factwash_cues"]) == []


# -- invariants ------------------------------------------------------------------------------------------

WORDS = ["Alice", "said", "might", "not", "if", "the", "audit", "passes", "on", "Monday", "5", "GB", "about", "$",
         "40", "never", "reportedly", "until", "Friday", ",", ".", ";", "and", "but", "which", "who", "no", "longer",
         "former", "CEO", "at", "least", "rose", "fell", "%", "Not", "sure", "though", "I", "think", "according", "to",
         "Bob", "(", ")", "—", "even", "unless", "because", "that", "it", "so", "is", "was", "team", "won", "lost",
         "without", "ALICE", "NOT", "n\u200bot", "m\u0456ght", "\u00a0", "'", '"', "3:00", "pm", "2020", "June", "7",
         "half", "a", "quarter", "million", "km", "between", "or", "more", "from", "-", "\n"]
TEXTS = st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join)
WHITESPACE = st.sampled_from(["", " ", "\n", "\n\n", "\t "])
SETTINGS = properties(200, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(TEXTS, WHITESPACE)
@example("about Alice Alice 5 5", "")  # found by CI: the plain 5 was matched to the approximated one
@example("Alice ; Alice", "")  # found by CI: a name after ";" was counted as a word, and two names read as French
@example("Alice ; CEO", "")  # found by CI: the copy's words counted twice made two words enough to be read as French
def test_any_text_gated_against_itself_passes(text, trailing):
    report = inspect(text + trailing, text + trailing)
    assert report.verdict == "pass" or (report.empty_memory and report.verdict == "uncheckable"), str(report)


# whole sentences and fragments, some opening alike, so a claim recurs in sentences that say different things
SENTENCES = ["Watch the video:", "Watch the video: the firm fired six people and paid 9,525 dollars.",
             "Watch the video: Alice said the launch might slip to Monday.", "Read more:", "Read more: costs rose 5%.",
             "The team won.", "The team won, but only if the audit passes.", "Bob reportedly left in June.",
             "Prices fell by about 40 km.", "It was not the CEO.", "Not sure.", "\n"]
SENTENCE_TEXTS = st.lists(st.sampled_from(SENTENCES), max_size=8).map(" ".join)


@SETTINGS
@given(SENTENCE_TEXTS)
@example("Watch the video: the firm fired six people and paid 9,525 dollars. Watch the video: Alice said the launch "
         "might slip to Monday. Watch the video:")  # a FRANK article of this shape, gated against itself, was
# flagged: its copy of "Watch the video:" was checked against the sentence of the first copy, with its values
def test_a_text_of_recurring_sentences_gated_against_itself_passes(text):
    report = inspect(text, text)
    assert report.verdict == "pass" or (report.empty_memory and report.verdict == "uncheckable"), str(report)


@pytest.mark.parametrize("source, memory", [
    ("About 5 servers and 5 disks failed.", "5 servers and 5 disks failed."),
    ("Roughly 5 people came and 5 left.", "5 people came and 5 left."),
])
def test_an_approximation_washed_off_one_of_two_equal_values_is_found(source, memory):
    """A memory value is compared with the equal source value counting its noun, and only then with the one
    bounded alike, so a plain twin elsewhere in the source does not cover the washed approximation."""
    assert [c.type for c in inspect(source, memory).changes] == ["dropped_approximation"]


LAUNDERED = [  # (source, memory that drops the qualifier, the class of cue the memory must not borrow)
    ("Alice might get admin access.", "Alice will get admin access", "HEDGE"),
    ("Someone said the office will close.", "The office will close", "ATTRIBUTION"),
    ("Bob did not approve the budget.", "Bob approved the budget", "NEGATION"),
    ("As of Monday, Alice leads the team.", "Alice leads the team", "TEMPORAL"),
    ("Access is granted if the audit passes.", "Access is granted", "CONDITIONAL"),
]
UNRELATED = {  # clauses about something else, each holding a cue of one class
    "HEDGE": ["and the weather may turn", "but lunch might be late", "which is possibly good news"],
    "ATTRIBUTION": ["and Bob said lunch is at noon", "but according to Carol the canteen is closed"],
    "NEGATION": ["and the printer does not work", "but nobody asked Carol"],
    "TEMPORAL": ["and the canteen closed on Friday", "but the printer broke last week"],
    "CONDITIONAL": ["and the canteen opens if it rains", "but the printer works unless it jams"],
}


@SETTINGS
@given(st.sampled_from(LAUNDERED), st.data(), st.sampled_from([", ", "; ", " — "]))
def test_an_unrelated_clause_with_a_cue_never_turns_a_flag_into_pass(laundered, data, joint):
    source, memory, label = laundered
    assert check(source, memory + ".") != "pass"
    clause = data.draw(st.sampled_from(UNRELATED[label]))
    assert check(source, memory + joint + clause + ".") != "pass"


SENTENCES = ["Someone said Alice was promoted.", "Bob might leave in June.", "The cluster has 4,500 nodes.",
             "If the audit passes, access is granted.", "Carol did not sign the contract.",
             "As of Monday, the office is closed.", "Revenue rose 5% to $2 billion.", "Alice has admin. Not sure though."]


@SETTINGS
@given(st.permutations(SENTENCES), st.sampled_from(SENTENCES))
def test_reordering_the_source_never_changes_the_verdict_of_an_exact_copy(order, memory):
    assert check(" ".join(order), memory) == check(" ".join(SENTENCES), memory) == "pass"


# -- linear cost: counted in function calls, not seconds (a timed test would be noise on a shared machine) -------


@pytest.mark.parametrize("texts", ["repetitive_document", "dense_text"])
def test_comparing_is_linear_in_the_length_of_the_texts(work_growth_result, texts):
    """Past the point where each memory claim has its full set of candidate source claims (``align.CANDIDATES``),
    doubling both texts doubles the work (the sentence-level gate's grew 3.5x on the repetitive source)."""
    assert work_growth_result[texts]["growth"] < 2.3, work_growth_result[texts]


# -- candidate selection: more look-alike source claims than alignment scores (align.CANDIDATES) -----------------


@properties(6)
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=299))
def test_a_claim_copied_from_a_long_templated_source_passes_in_any_order_of_the_source(rnd, pick):
    """300 source claims that differ only in their number (every word common to all of them): the memory's copy of
    one of them finds it by its number, wherever it stands; a number the source never gives is never passed."""
    from spacy_factwash.pipes.gate.align import CANDIDATES

    sentences = [f"Alice paid {i} euros." for i in range(1, 301)]
    assert len(sentences) > CANDIDATES
    rnd.shuffle(sentences)
    memory = f"Alice paid {pick + 1} euros."
    sentences.remove(memory)
    for order in (sentences + [memory], [memory] + sentences):  # the copied claim last, past the cap, and first
        assert check(" ".join(order), memory) == "pass"
    assert check(" ".join(sentences), "Alice paid 1000 euros.") == "reject"


@pytest.mark.parametrize("copy_last", [True, False])
def test_a_copy_with_only_common_words_and_no_number_passes_past_the_cap(copy_last):
    """300 source claims with the same words as the memory's in another order ("Bob paid Alice."): every key is
    common to all of them and no number tells them apart, so scoring stops at the first ``CANDIDATES``; the exact
    copy is found wherever it stands, and the look-alikes alone never pass for it."""
    from spacy_factwash.pipes.gate.align import CANDIDATES

    look_alikes = ["Bob paid Alice."] * 300
    assert len(look_alikes) > CANDIDATES
    order = look_alikes + ["Alice paid Bob."] if copy_last else ["Alice paid Bob."] + look_alikes
    assert check(" ".join(order), "Alice paid Bob.") == "pass"
    assert check(" ".join(look_alikes), "Alice paid Bob.") != "pass"


@pytest.mark.parametrize("look_alike, closest, memory", [
    ("Bob paid Alice the money.", "Alice paid Bob.", "Alice paid Bob the rent."),
    ("The team moved the servers to Berlin.", "The servers moved to Berlin.", "The servers moved to Berlin in May."),
])
def test_which_source_claims_are_scored_past_the_cap_does_not_depend_on_their_order(look_alike, closest, memory):
    """A memory claim that copies no source claim and whose every key is common to more source claims than are
    scored: the closest claim was scored only when it stood among the first ``CANDIDATES`` in the source, so the
    verdict turned with the order ("Alice paid Bob the rent." was reject with "Alice paid Bob." last, pass with it
    first). One claim of each wording is scored now, wherever it stands."""
    from spacy_factwash.pipes.gate.align import CANDIDATES

    look_alikes = [look_alike] * (CANDIDATES + 44)
    last, first = check(" ".join(look_alikes + [closest]), memory), check(" ".join([closest] + look_alikes), memory)
    assert last == first == check(f"{closest} {look_alike}", memory)
