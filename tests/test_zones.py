"""Memory zones: ``inspect`` keeps the words it meets for good up to a fixed budget, and none past it."""

import random
import string

from hypothesis import given
from hypothesis import strategies as st

import spacy_factwash
from spacy_factwash import inspect
from spacy_factwash.pipes.gate.gate import Gate
from spacy_factwash.zones import WARM_LEXEMES

from properties import properties


def novel_words(rng: random.Random, n: int) -> str:
    """``n`` made-up words no vocabulary holds."""
    return " ".join("q" + "".join(rng.choice(string.ascii_lowercase) for _ in range(9)) for _ in range(n))


def lexemes(nlp) -> int:
    """The lexemes a pipeline's vocabulary holds (``len(vocab)`` also counts those a memory zone forgot)."""
    return sum(1 for _ in nlp.vocab)


def test_inspect_keeps_new_words_until_the_vocabulary_budget_then_keeps_memory_flat():
    """A long stream of new words: the vocabulary grows with them by at most ``WARM_LEXEMES`` lexemes, then the
    string store stays as it was; a word met before the budget was reached is known from then on."""
    nlp = spacy_factwash.load()
    rng = random.Random(3)
    first = novel_words(rng, 1)
    inspect("Someone said the ice rose.", "The ice rose.", nlp=nlp)
    start = lexemes(nlp)
    inspect(f"Someone said the {first} rose.", f"The {first} rose.", nlp=nlp)
    assert first in nlp.vocab and lexemes(nlp) == start + 1
    for _ in range(WARM_LEXEMES // 500 + 10):  # 500 new words a pair (a text and its copy): the budget and more
        words = novel_words(rng, 500)
        inspect(words, words, nlp=nlp)
    full = lexemes(nlp), len(nlp.vocab.strings)
    assert WARM_LEXEMES - 2 * len(words) < full[0] - start <= WARM_LEXEMES  # the budget, less a pair's room
    for _ in range(10):
        words = novel_words(rng, 500)
        inspect(words, words, nlp=nlp)
    assert (lexemes(nlp), len(nlp.vocab.strings)) == full and words.split()[0] not in nlp.vocab.strings
    assert first in nlp.vocab


@given(st.text(alphabet=st.sampled_from("ab Zé9.,%$-'\n\u200b\u05d0<>"), max_size=40),
       st.text(alphabet=st.sampled_from("ab Zé9.,%$-'\n\u200b\u05d0<>"), max_size=40))
@properties(40)
def test_a_pair_tokenized_before_the_zone_gets_the_report_it_gets_tokenized_inside_it(source, memory):
    """``inspect`` (texts tokenized before the zone while the vocabulary has room) and a batch of one (tokenized
    inside its zone) give the same report on any pair."""
    gate = Gate(spacy_factwash.default_pipeline())
    [(zoned, _)] = gate.gate_batch([((source, memory), None)])
    assert inspect(source, memory).to_dict() == zoned.to_dict()
