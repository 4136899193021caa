"""``check_strength`` returns at once for a source Doc with no strength cue: such a claim's strength is never one a
memory can raise to a cause, so reading it could give no change."""

from hypothesis import given
from hypothesis import strategies as st

import spacy_factwash
from spacy_factwash.pipes.gate.compare.strength import strength_of
from spacy_factwash.pipes.strength.claim import STRENGTH_KEY, STRENGTHENABLE, decide

from properties import properties

WORDS = st.sampled_from(["Alice", "may", "reduce", "risk", "is", "associated", "with", "lower", "might", "could",
                         "should", "higher", "in", "causes", "the", ",", ".", "NOT", "é", " ", "\n", "42", "if"])


def test_no_strength_cue_is_no_strength_to_raise():
    """The rule the shortcut stands on: no cue spans decide a strength no memory can raise."""
    assert decide([])[0] not in STRENGTHENABLE


@given(st.lists(WORDS, max_size=16))
@properties(60)
def test_a_doc_without_strength_cues_has_no_claim_to_strengthen(words):
    """Any text (odd casing, unicode, whitespace tokens, empty) whose Doc holds no strength cue: none of its claims
    reads as a strength a memory can raise, the strength ``check_strength`` would have read before returning."""
    nlp = spacy_factwash.default_pipeline()
    gate = nlp.get_pipe("factwash_compare")
    doc = nlp(" ".join(words))
    if len(doc.spans[STRENGTH_KEY]):
        return
    for claim in gate.claims(doc).claims:
        assert strength_of(claim).label not in STRENGTHENABLE
