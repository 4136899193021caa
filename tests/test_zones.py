"""Memory zones: ``inspect`` and the batches keep the words they meet for good up to a fixed budget, and none past
it."""

import random
import string
from unittest.mock import patch

import pytest

from hypothesis import given
from hypothesis import strategies as st

import spacy_factwash
from spacy_factwash import inspect
from spacy_factwash.pipes.gate.gate import Gate
from spacy_factwash.zones import _WARMED, LONGEST_KEPT_WORD, WARM_LEXEMES, annotated

from properties import properties


def novel_words(rng: random.Random, n: int) -> str:
    """``n`` made-up words no vocabulary holds."""
    return " ".join("q" + "".join(rng.choice(string.ascii_lowercase) for _ in range(9)) for _ in range(n))


def lexemes(nlp) -> int:
    """The lexemes a pipeline's vocabulary holds (``len(vocab)`` also counts those a memory zone forgot)."""
    return sum(1 for _ in nlp.vocab)


def test_inspect_keeps_new_words_until_the_vocabulary_budget_then_keeps_memory_flat(monkeypatch):
    """A long stream of new words: the vocabulary grows with them by at most ``WARM_LEXEMES`` lexemes, then the
    string store stays as it was; a word met before the budget was reached is known from then on. The budget is
    a tenth of the shipped one here, and so are the pairs: the mechanism is under test, not the figure (the
    shipped one would take ten times as many new words)."""
    budget, per_pair = WARM_LEXEMES // 10, 50
    monkeypatch.setattr(spacy_factwash.zones, "WARM_LEXEMES", budget)
    nlp = spacy_factwash.load()
    rng = random.Random(3)
    first = novel_words(rng, 1)
    inspect("Someone said the ice rose.", "The ice rose.", nlp=nlp)
    start = lexemes(nlp)
    inspect(f"Someone said the {first} rose.", f"The {first} rose.", nlp=nlp)
    assert first in nlp.vocab and lexemes(nlp) == start + 1
    for _ in range(budget // per_pair + 10):  # new words a pair (a text and its copy): the budget and more
        words = novel_words(rng, per_pair)
        inspect(words, words, nlp=nlp)
    full = lexemes(nlp), len(nlp.vocab.strings)
    assert budget - 2 * len(words) < full[0] - start <= budget  # the budget, less a pair's room
    for _ in range(10):
        words = novel_words(rng, per_pair)
        inspect(words, words, nlp=nlp)
    assert (lexemes(nlp), len(nlp.vocab.strings)) == full and words.split()[0] not in nlp.vocab.strings
    assert first in nlp.vocab


@given(st.text(alphabet=st.sampled_from("ab Zé9.,%$-'\n\u200b\u05d0<>"), max_size=40),
       st.text(alphabet=st.sampled_from("ab Zé9.,%$-'\n\u200b\u05d0<>"), max_size=40))
@properties(40)
def test_a_pair_tokenized_before_the_zone_gets_the_report_it_gets_tokenized_inside_it(source, memory):
    """``inspect`` (texts tokenized before the zone while the vocabulary has room) and a batch of one tokenized
    inside its zone (no budget left) give the same report on any pair."""
    gate = Gate(spacy_factwash.default_pipeline())
    with patch.object(spacy_factwash.zones, "WARM_LEXEMES", 0):
        [(zoned, _)] = gate.gate_batch([((source, memory), None)])
    assert inspect(source, memory).to_dict() == zoned.to_dict()


def test_a_word_longer_than_the_longest_kept_is_never_kept():
    """A text with a run of more than ``LONGEST_KEPT_WORD`` characters without a space is tokenized inside the
    zone: its words are forgotten with it, so the budget bounds bytes kept, not only words (a long made-up word
    would otherwise keep its characters for good, however few words the budget counted)."""
    nlp = spacy_factwash.load()
    inspect("Someone said the ice rose.", "The ice rose.", nlp=nlp)
    long_word, short_word = "q" * (LONGEST_KEPT_WORD + 1), "z" * LONGEST_KEPT_WORD
    inspect(f"Someone said the {long_word} rose.", "The ice rose.", nlp=nlp)
    assert long_word not in nlp.vocab.strings and "someone" in nlp.vocab.strings
    inspect(f"Someone said the {short_word} rose.", "The ice rose.", nlp=nlp)
    assert short_word in nlp.vocab.strings


def test_words_a_failing_text_kept_are_counted():
    """A text the pipeline refuses (longer than its ``max_length``) after one that added words: the words the
    first kept are counted against the budget all the same, so refused calls cannot grow the vocabulary past it."""
    nlp = spacy_factwash.load(max_length=1_000)
    rng = random.Random(5)
    words = novel_words(rng, 50)
    before = lexemes(nlp)
    with pytest.raises(ValueError):
        with annotated(nlp, [words, "y " * 600]):
            pass
    assert lexemes(nlp) - before == _WARMED[nlp] >= 50
