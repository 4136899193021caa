"""Each cue class on sentences written for these tests: what must fire, and what must not.

Positives name the cue text that must be found (and, where it matters, the
lexicon entry); negatives name a class that must stay silent, which is how
the exclusions and class rules are pinned.
"""

import pytest
from conftest import cues_of

POSITIVE = {
    "HEDGE": [
        ("Alice might get admin access.", "might"),
        ("The results suggest that the protein binds DNA.", "suggest"),
        ("It is possible that the server restarted.", "possible"),
        ("I think the meeting moved to Friday.", "I think"),
        ("The drug probably reduces inflammation.", "probably"),
        ("This appears to be a bug in the parser.", "appears"),
        ("Perhaps the budget was approved.", "Perhaps"),
        ("The deal is likely to close next month.", "likely"),
        ("We believe the outage was caused by DNS.", "believe"),
        ("Alice has admin. Not sure though.", "Not sure"),
        ("The release may slip.", "may"),
        ("Maybe she left early.", "Maybe"),
    ],
    "ATTRIBUTION": [
        ("Someone said Alice was promoted.", "said"),
        ("Sources say the merger is off.", "Sources say"),
        ("According to the audit team, the budget was cut.", "According to"),
        ("The CEO reportedly resigned.", "reportedly"),
        ("Rumor has it that the office will close.", "Rumor has it"),
        ("Word is the release slipped.", "Word is"),
        ("Alice told me the server was down.", "told"),
        ("The minister allegedly took bribes.", "allegedly"),
        ("Per Alice, badges expire yearly.", "Per Alice"),
        ("Bob claims the numbers are wrong.", "claims"),
        ("I heard that the team was disbanded.", "heard"),
        ("They say the bridge is unsafe.", "They say"),
    ],
    "NEGATION": [
        ("Alice is not an admin.", "not"),
        ("The build didn't pass.", "n't"),
        ("She never approved the request.", "never"),
        ("Bob no longer works here.", "no longer"),
        ("The patch failed to apply.", "failed to"),
        ("The report lacks detail.", "lacks"),
        ("He left without saying goodbye.", "without"),
        ("No errors were found.", "No"),
        ("Nobody answered the phone.", "Nobody"),
        ("Neither option works.", "Neither"),
        ("We cannot confirm the date.", "cannot"),
        ("The test can’t run offline.", "n’t"),
    ],
    "CONDITIONAL": [
        ("Access is granted if the audit passes.", "if"),
        ("Unless the vendor agrees, the deal is off.", "Unless"),
        ("You may stay provided that you pay.", "provided that"),
        ("The loan is approved on condition that you repay it.", "on condition that"),
        ("In case of fire, use the stairs.", "In case of"),
        ("Assuming the data is right, revenue grew.", "Assuming"),
        ("In the event that the server fails, restart it.", "In the event that"),
        ("Should the audit fail, access is revoked.", "Should the audit"),
        ("Only if both agree will it proceed.", "Only if"),
        ("Supposing the vendor refuses, we switch suppliers.", "Supposing"),
        ("Even if it rains, the event goes ahead.", "Even if"),
    ],
    "TEMPORAL": [
        ("As of Monday, Alice is an admin.", "As of"),
        ("The office is closed until further notice.", "until"),
        ("Bob has lived here since 2019.", "since 2019"),
        ("Alice is currently on leave.", "currently"),
        ("For now, the feature is disabled.", "For now"),
        ("At the time, the price was lower.", "At the time"),
        ("Back in 2019 the team had five people.", "Back in 2019"),
        ("She previously worked at Acme.", "previously"),
        ("He was formerly the CFO.", "formerly"),
        ("The deploy happened this morning.", "this morning"),
        ("Sales dropped last week.", "last week"),
        ("The contract was signed on 12 March 2021.", "12 March 2021"),
        ("The server went down three days ago.", "three days ago"),
    ],
}

NEGATIVE = {
    "HEDGE": [
        "The paper appeared in the journal last year.",
        "The launch is scheduled for May 5.",
        "We met in May and signed the contract.",
        "There is no doubt that the test passed.",
        "You can log in with your badge.",
        "The team could not reproduce the crash.",
        "The server restarted at noon.",
    ],
    "ATTRIBUTION": [
        "The audit team cut the budget.",
        "Interest rose by two per cent.",
        "The state of the system is stable.",
        "She wrote the code for the exporter.",
        "Add salt to the water.",
        "The report is attached.",
    ],
    "NEGATION": [
        "There is no doubt that it works.",
        "It is not only fast but also cheap.",
        "He did nothing but complain.",
        "Whether or not it rains, we go.",
        "The answer is yes.",
        "See rule No 5 for details.",
    ],
    "CONDITIONAL": [
        "We tested if the gene was expressed.",
        "Prices are subject to change.",
        "He is assuming command of the fleet.",
        "It looks as if it will rain.",
        "She asked if the meeting was over.",
        "I am not sure if it works.",
    ],
    "TEMPORAL": [
        "The protein binds DNA.",
        "May I ask a question?",
        "Since the data were noisy, we smoothed them.",
        "The team has 2019 members.",
        "We will meet again.",
    ],
}


def _cases(table):
    return [(label, case) for label, cases in table.items() for case in cases]


@pytest.mark.parametrize("label,case", _cases(POSITIVE))
def test_positive_sentence_fires_its_cue(nlp, label, case):
    text, cue_text = case
    found = [text for _, text, _ in cues_of(nlp(text), label)]
    assert cue_text in found, f"{label} {cue_text!r} not found in {text!r}; found {cues_of(nlp(text))}"


@pytest.mark.parametrize("label,text", _cases(NEGATIVE))
def test_negative_sentence_stays_silent(nlp, label, text):
    assert cues_of(nlp(text), label) == []


def test_each_class_has_ten_positives_and_five_negatives():
    for label in POSITIVE:
        assert len(POSITIVE[label]) >= 10 and len(NEGATIVE[label]) >= 5, label


def test_issue_example_annotates_all_five_classes(nlp):
    doc = nlp("Someone said Alice might not get admin access if the audit fails, as of Monday.")
    assert cues_of(doc) == [
        ("ATTRIBUTION", "said", "attribution:say"),
        ("HEDGE", "might", "hedge:might"),
        ("NEGATION", "not", "negation:not"),
        ("CONDITIONAL", "if", "conditional:if"),
        ("TEMPORAL", "as of", "temporal:as_of"),
        ("TEMPORAL", "Monday", "temporal:weekday"),
    ]


@pytest.mark.parametrize("form", ["say", "says", "said", "saying"])
def test_every_inflection_of_a_reporting_verb_is_one_entry(nlp, form):
    doc = nlp(f"The engineers {form} the build is green.")
    assert ("ATTRIBUTION", form, "attribution:say") in cues_of(doc)


@pytest.mark.parametrize(
    "text,cue,source",
    [
        ("Someone said Alice was promoted.", "said", "Someone"),
        ("According to the audit team, the budget was cut.", "According to", "the audit team"),
        ("The budget was cut, Alice said.", "said", "Alice"),
        ("The budget was cut, said Alice.", "said", "Alice"),
        ("Alice's manager has also said the budget was cut.", "said", "Alice's manager"),
        ("The budget was reportedly cut.", "reportedly", None),
        ("It is said that the budget was cut.", "It is said", None),
    ],
)
def test_attribution_records_the_speaker_where_there_is_one(nlp, text, cue, source):
    doc = nlp(text)
    [span] = [s for s in doc.spans["factwash_cues"] if s.label_ == "ATTRIBUTION" and s.text == cue]
    found = span._.factwash_source
    assert (found.text if found is not None else None) == source


def test_month_may_is_not_a_hedge_but_the_modal_is(nlp):
    assert cues_of(nlp("The audit moved to May because staff were away."), "HEDGE") == []
    assert [c[1] for c in cues_of(nlp("May the audit be delayed? It may."), "HEDGE")] == ["May", "may"]


def test_overlapping_cues_of_one_class_keep_the_longest(nlp):
    doc = nlp("Bob no longer works here.")
    assert cues_of(doc, "NEGATION") == [("NEGATION", "no longer", "negation:no_longer")]


def test_empty_and_whitespace_text_give_an_empty_group(nlp):
    for text in ["", "   \n\t "]:
        doc = nlp(text)
        assert "factwash_cues" in doc.spans and list(doc.spans["factwash_cues"]) == []
        assert doc.user_data["factwash_lexicon_version"] == nlp.get_pipe("factwash_cues").lexicon_version


def test_non_string_input_is_refused_with_an_error(nlp):
    with pytest.raises((TypeError, ValueError)):
        nlp(12345)


def test_explain_names_the_entry_and_its_provenance(nlp):
    doc = nlp("The CEO reportedly resigned.")
    [span] = doc.spans["factwash_cues"]
    entry = nlp.get_pipe("factwash_cues").explain(span)
    assert entry.id == span.id_ == "attribution:reportedly"
    assert "reportedly" in entry.phrases and entry.provenance["source"] == "seed"


def test_a_doc_from_another_pipeline_is_annotated(nlp):
    import spacy

    other = spacy.blank("en")
    doc = nlp.get_pipe("factwash_cues")(other("Someone said it might rain."))
    assert cues_of(doc) == [("ATTRIBUTION", "said", "attribution:say"), ("HEDGE", "might", "hedge:might")]
    assert doc.spans["factwash_cues"][0]._.factwash_source.text == "Someone"
