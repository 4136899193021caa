"""Claim records: every part of a claim read, and compared by what it does (issue 21).

The properties are the rewriter's and the attacker's: a restriction, a quantifier below "all", a frequency below
"always", a question or a modal the source has and the memory drops never passes; two role fillers swapped never
pass; a qualifier replaced by a member of its own equivalence class keeps an otherwise exact copy passing.
"""

import json

import pytest
from hypothesis import given, strategies as st

import spacy_factwash
from spacy_factwash import check, inspect
from spacy_factwash.pipes.gate.gate import Gate
from spacy_factwash.pipes.gate.records import records
from spacy_factwash.pipes.gate.words import load_gate_words
from spacy_factwash.lexicon.frozen import load_lexicons
from properties import properties

NAMES = ["Priya", "Omar", "Alice", "Bob", "Dana", "Viktor", "Helga", "Ines", "Marco", "Lena"]
NOUNS = ["nodes", "invoices", "tickets", "servers", "patients", "orders", "reports", "accounts", "devices", "members"]
PREDICATES = ["restarted overnight", "were paid late", "failed the audit", "arrived damaged", "recovered quickly",
              "were flagged for review", "timed out twice", "were archived", "showed errors", "were upgraded"]
RESTRICTIONS = ["Among smokers over 60,", "At the Leeds site,", "In the pilot study,", "For users on the free plan,",
                "In patients over 70,", "At the Berlin office,", "Among new customers,", "In the trial,"]
QUANTIFIERS = ["A few", "Some", "Several", "Most", "Many", "A handful of", "A small number of", "The majority of"]
FREQUENCIES = ["occasionally", "sometimes", "often", "usually", "rarely", "frequently", "seldom", "from time to time"]
MODALS = ["must", "should", "would", "could have", "plans to", "hopes to", "is required to", "is supposed to"]
ADJECTIVES = ["open", "late", "ready", "closed", "available", "broken", "full", "paid"]
ROLE_VERBS = ["mentored", "paid", "hired", "blamed", "trained", "replaced", "reported", "invited", "sued", "promoted"]
FLAGGED = ("rewrite", "reject", "uncheckable")


@properties(60)
@given(st.sampled_from(RESTRICTIONS), st.sampled_from(NOUNS), st.sampled_from(PREDICATES))
def test_a_restriction_the_memory_drops_never_passes(restriction, noun, predicate):
    claim = f"the {noun} {predicate}."
    report = inspect(f"{restriction} {claim}", claim[0].upper() + claim[1:])
    assert report.verdict != "pass", report


@properties(60)
@given(st.sampled_from(QUANTIFIERS), st.sampled_from(NOUNS), st.sampled_from(PREDICATES),
       st.sampled_from(["The {noun}", "All {noun}", "All the {noun}", "Every one of the {noun}"]))
def test_a_quantifier_below_all_widened_never_passes(quantifier, noun, predicate, widened):
    report = inspect(f"{quantifier} {noun} {predicate}.", f"{widened.format(noun=noun)} {predicate}.")
    assert report.verdict != "pass", report


@properties(60)
@given(st.sampled_from(NAMES), st.sampled_from(FREQUENCIES), st.sampled_from(["misses the standup",
                                                                              "forgets the badge",
                                                                              "works from home", "skips lunch"]))
def test_a_frequency_below_always_dropped_never_passes(name, frequency, habit):
    report = inspect(f"{name} {frequency} {habit}.", f"{name} {habit}.")
    assert report.verdict != "pass", report


@properties(40)
@given(st.sampled_from(NOUNS), st.sampled_from(ADJECTIVES))
def test_a_question_stated_as_fact_never_passes(noun, adjective):
    report = inspect(f"Are the {noun} {adjective}?", f"The {noun} are {adjective}.")
    assert report.verdict != "pass", report


@properties(60)
@given(st.sampled_from(NAMES), st.sampled_from(MODALS), st.sampled_from(["sign the contract", "approve the budget",
                                                                         "move the servers", "pay the invoice"]))
def test_a_modal_the_memory_drops_never_passes(name, modal, act):
    verb, rest = act.split(" ", 1)
    past = {"sign": "signed", "approve": "approved", "move": "moved", "pay": "paid"}[verb]
    report = inspect(f"{name} {modal} {act}.", f"{name} {past} {rest}.")
    assert report.verdict != "pass", report


@properties(60)
@given(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(ROLE_VERBS), st.booleans())
def test_swapping_two_role_fillers_never_passes(first, second, verb, tail):
    if first == second:
        return
    rest = " last year." if tail else "."
    report = inspect(f"{first} {verb} {second}{rest}", f"{second} {verb} {first}{rest}")
    assert report.verdict != "pass", report


@pytest.mark.parametrize("source, memory", [
    ("Priya mentored Omar.", "Omar was mentored by Priya."),
    ("Alice met Bob in Leeds.", "Bob met Alice in Leeds."),
    ("Alice and Bob founded the firm.", "Bob and Alice founded the firm."),
])
def test_a_passive_with_its_agent_and_a_symmetric_predicate_keep_the_roles(source, memory):
    assert check(source, memory) == "pass"


def _classes():
    """Pairs of words that stand for each other: members of one entry of the gate's quantity, frequency and mood
    lists, one word each (the same rank, the same mood)."""
    words = load_gate_words()
    found = []
    for entry in words.entries:
        if entry.label in ("QUANTIFIER", "FREQUENCY") and entry.value not in ("all", "always"):
            phrases = [p for p in entry.phrases if " " not in p and p.isalpha()]
            found += [(entry.label, a, b) for a, b in zip(phrases, phrases[1:])]
    return found


CLASSES = _classes()


@properties(80)
@given(st.sampled_from(CLASSES), st.sampled_from(NOUNS), st.sampled_from(PREDICATES))
def test_a_qualifier_replaced_by_a_member_of_its_own_class_keeps_a_copy_passing(pair, noun, predicate):
    label, word, other = pair
    if label == "QUANTIFIER":
        source, memory = f"{word.capitalize()} {noun} {predicate}.", f"{other.capitalize()} {noun} {predicate}."
    else:
        source, memory = f"The {noun} {word} {predicate}.", f"The {noun} {other} {predicate}."
    report = inspect(source, memory)
    assert report.verdict == "pass", report


def test_every_claim_has_a_readable_record():
    gate = Gate(spacy_factwash.default_pipeline())
    doc = gate.nlp("Among smokers over 60, the drug most likely lowered blood pressure. Did Bob say it must stop?")
    shown = "\n".join(str(record) for record in records(gate.component.claims(doc)))
    assert "restriction fronted ('Among smokers over 60'" in shown and "mood question" in shown
    assert "mood obligation ('must'" in shown and "certainty very_likely ('likely'" in shown
    assert len(shown.splitlines()) < 12


@pytest.mark.parametrize("source, memory, change", [
    ("Someone said Alice was promoted.", "HR confirmed Alice was promoted.", "changed_source"),
    ("Someone said the office is closing, and the CEO confirmed the budget cuts.",
     "The CEO confirmed the office is closing and the budget cuts.", "changed_source"),
    ("Someone said Alice was promoted.", "Alice was promoted, Bob whispered.", "dropped_attribution"),
    ("Reportedly the supplier cut prices.", "According to the official records, the supplier cut prices.",
     "changed_source"),
    ("Alice might be promoted.", "Alice will probably be promoted.", "strengthened_certainty"),
    ("It is one of the cheapest plans.", "It is the cheapest plan.", "strengthened_comparison"),
    ("Alice used to manage the team.", "Alice manages the team.", "changed_tense"),
    ("The March invoice is unpaid.", "The March invoice is paid.", "reversed_polarity"),
    ("The pump switches off when the tank is full.", "The pump switches off.", "dropped_condition"),
])
def test_each_part_is_compared_with_evidence_in_both_texts(source, memory, change):
    report = inspect(source, memory)
    found = [c for c in report.changes if c.type == change]
    assert found, report
    for cue in found[0].cues:
        text = source if cue.side == "source" else memory
        assert text[cue.start_char:cue.end_char] == cue.text and cue.entry and cue.lexicon_version
    assert json.dumps(report.to_dict())


@pytest.mark.parametrize("source, memory", [
    ("Dr Varga explains that the scan shows no fracture.", "Dr Varga clarifies that the scan shows no fracture."),
    ("The current price is 12 euros a month.", "The present price is 12 euros a month."),
    ("Revenue is expected to grow.", "Revenue is projected to grow."),
    ("Most users prefer the dark theme.", "The majority of users prefer the dark theme."),
    ("Ezra hasn't paid the rent yet.", "Ezra's rent is still unpaid."),
    ("Mei asked whether the clinic takes walk-ins.", "Mei asked if the clinic takes walk-ins."),
    ("Residents may park in bay C.", "Residents are allowed to park in bay C."),
])
def test_a_part_kept_in_other_words_passes(source, memory):
    assert check(source, memory) == "pass", inspect(source, memory)


def _frame_verbs():
    """Past forms of the gate's communication verbs of the 'say' stance (FRAME) that are no attribution cue of the
    cue lexicon (those keep an attribution in other words; a cue's speaker is compared by check_sources)."""
    cues = {p for e in load_lexicons().for_label("ATTRIBUTION") for p in e.phrases}
    words = load_gate_words()
    return sorted({p for e in words.entries if e.label == "FRAME" and "say" in e.value.split(",")
                   for p in e.phrases if p.isalpha() and p.endswith("ed") and p not in cues})


FRAME_VERBS = _frame_verbs()


@properties(60)
@given(st.sampled_from(NAMES), st.sampled_from(FRAME_VERBS), st.sampled_from(NOUNS), st.sampled_from(PREDICATES))
def test_hearsay_reported_by_a_named_speaker_never_passes(name, verb, noun, predicate):
    """The attacker keeps a reporting verb but gives the hearsay a speaker the source never named."""
    source = f"Someone said the {noun} {predicate}."
    for memory in (f"The {noun} {predicate}, {name} {verb}.", f"{name} {verb} that the {noun} {predicate}."):
        assert check(source, memory) != "pass", inspect(source, memory)


@properties(60)
@given(st.sampled_from(NAMES), st.sampled_from(NOUNS), st.sampled_from(PREDICATES))
def test_a_named_speaker_kept_with_another_reporting_verb_passes(name, noun, predicate):
    source = f"{name} said the {noun} {predicate}."
    assert check(source, f"The {noun} {predicate}, {name} explained.") == "pass", inspect(
        source, f"The {noun} {predicate}, {name} explained.")


def test_broadened_and_weakened_are_checked():
    report = inspect("Alice approved it.", "Alice approved it.")
    assert "broadened" not in report.not_checked and "weakened" not in report.not_checked


DECOYS = [", and the canteen {word} close early", "; the weather {word} turn", ", but the {word} rota is new"]


@properties(60)
@given(st.sampled_from(NAMES), st.sampled_from(MODALS), st.sampled_from(DECOYS))
def test_the_dropped_modal_borrowed_by_an_unrelated_clause_never_passes(name, modal, decoy):
    """The attacker keeps the modal's word in another clause of the memory."""
    word = modal.split()[0]
    report = inspect(f"{name} {modal} sign the contract.", f"{name} signed the contract{decoy.format(word=word)}.")
    assert report.verdict != "pass", report


@properties(60)
@given(st.sampled_from(QUANTIFIERS), st.sampled_from(NOUNS), st.sampled_from(PREDICATES),
       st.sampled_from(NOUNS))
def test_a_quantifier_moved_to_another_noun_never_keeps_the_first(quantifier, noun, predicate, other):
    if noun == other:
        return
    report = inspect(f"{quantifier} {noun} {predicate}.", f"The {noun} {predicate}, and {quantifier.lower()} "
                                                            f"{other} did too.")
    assert report.verdict != "pass", report
