"""The gate's work per pair, counted in Python calls (the same on every run, unlike seconds on a shared machine): what
a comparison never needs is never read, and what it needs is read once. A Doc's sentences are read once per
comparison, an English pair is not read by the language model, a sentence with no number is not handed to the value
reader, a memory claim's strength is read only when the source claim's could be strengthened, and a claim's record
reads each kind of part only when a check asks for it. A checked pair's Docs and claims are freed when the call ends,
never left as cycles for the garbage collector."""

import pytest
from factwash_dev.evaluation.work import counted

from spacy_factwash.pipes.gate.gate import Gate
from spacy_factwash.pipes.gate.records import read_certainty, read_comparison, read_mood, record_of
from spacy_factwash.pipes.strength.claim import strength_of_cues
from spacy_factwash.syntax.sentences import sentences

FASTTEXT = "fasttext/FastText.py"  # the model's Python wrapper: every reading of a text by the model runs here
QUANTITIES = "gate/values/quantities.py"  # where a sentence's values are read
STRENGTH = "strength/claim.py"  # where a claim's strength is decided from its cue spans
SENTENCES = "syntax/sentences.py"  # where a Doc's sentences are read from its sentence starts


@pytest.fixture(scope="module")
def gate(default_nlp):
    gate = Gate(default_nlp)
    gate.check("Revenue was 1.2 million dollars, Alice said.", "Revenue was 1.2 million euros.")  # all loaded
    gate.check("Der Vertrag wurde gestern von beiden Seiten unterschrieben.", "Alice signed it.")
    return gate


def annotated(gate, source, memory):
    return list(gate.nlp.pipe([source, memory]))


def test_each_docs_sentences_are_read_once_per_comparison(gate):
    # before: the language check read the memory's sentences again after its claims had (three reads per pair)
    docs = annotated(gate, "Alice might get admin access. Bob left the team.", "Alice will get admin access. Bob left.")
    once = counted(lambda: sentences(docs[0]), SENTENCES)
    assert counted(lambda: gate.compare(*docs), SENTENCES) == 2 * once


def test_an_english_pair_is_not_read_by_the_language_model(gate):
    # before: fastText read both texts of every pair; an English text's stop words alone settle its language
    english = annotated(gate, "Bob said that the vendor was going to raise the prices before the deadline.",
                        "The vendor will raise the prices after the deadline.")
    assert counted(lambda: gate.compare(*english), FASTTEXT) == 0
    foreign = annotated(gate, "Der Lieferant wird die Preise vor Ablauf der Frist deutlich erhöhen.",
                        "Le fournisseur augmentera fortement les prix avant la date limite.")
    assert counted(lambda: gate.compare(*foreign), FASTTEXT) > 0  # the guard sees a reading when there is one


def test_a_pair_without_numbers_is_not_handed_to_the_value_reader(gate):
    plain = annotated(gate, "Alice might get admin access if the audit passes.", "Alice will get admin access.")
    assert counted(lambda: gate.compare(*plain), QUANTITIES) == 0
    valued = annotated(gate, "Alice might get 5 new servers.", "Alice will get 6 new servers.")
    assert counted(lambda: gate.compare(*valued), QUANTITIES) > 0


def test_the_memory_claims_strength_is_read_only_when_the_source_claims_could_be_strengthened(gate):
    # the source Doc holds no strength cue: no memory claim can strengthen it, so no strength is decided at all
    # (before the claim level: both claims' strengths were, for every aligned pair; then the source claim's own was)
    docs = annotated(gate, "Alice got admin access on Monday.", "Alice got admin access on Monday, which caused delays.")
    one_claim = counted(lambda: strength_of_cues(docs[0], []), STRENGTH)
    assert one_claim > 0 and counted(lambda: gate.compare(*docs), STRENGTH) == 0
    weaker = annotated(gate, "Coffee is associated with lower risk.", "Coffee lowers risk.")
    assert counted(lambda: gate.compare(*weaker), STRENGTH) > one_claim  # both read: this one can be strengthened


def test_a_claims_record_reads_a_kind_only_when_asked_for_it(gate):
    doc = gate.nlp("Alice is probably the best engineer, as good as Bob.")
    claims = gate.component.claims(doc)
    record = record_of(claims, claims.claims[0])
    assert [p.value for p in record.of("certainty")] == ["likely"]
    assert list(record.read) == [read_certainty]  # the other kinds not read
    assert [p.value for p in record.of("comparison")] == ["superlative", "equative"]
    assert list(record.read) == [read_certainty, read_comparison]
    # every kind, in the readers' order, when the record is shown whole
    assert list(record.parts) == ["certainty", "comparison", "tense"] and read_mood in record.read


def test_a_checked_pair_leaves_no_cycle_for_the_garbage_collector(gate):
    # before: the claim records cached in a Doc's claims pointed back at them, so every pair's Docs, claims, spans
    # and words (about 180 objects) waited for the collector instead of going when the call ended
    import gc

    pairs = [("Alice might get 5 new servers, Bob said.", "Alice will get 6 new servers."),
             ("Coffee is associated with lower risk.", "Coffee lowers risk."),
             ("If the audit passes, Alice probably gets admin access.", "Alice gets admin access.")]
    for source, memory in pairs:
        gate.check(source, memory)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for source, memory in pairs:
            gate.check(source, memory)
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert not left & {"Doc", "DocClaims", "Claim", "ClaimRecord", "Span", "Word"}, left
