"""quantulum3's patterns and unit chooser as the fence rewrites them for speed (``values/quantulum.py``,
``values/tries.py``): the same matches, groups and choices as quantulum3's own, and less work per value read."""

import re

import pytest
from factwash_dev.evaluation.work import counted
from hypothesis import given
from hypothesis import strategies as st
from properties import properties

from spacy_factwash.pipes.gate.values import quantulum
from spacy_factwash.pipes.gate.values.tries import trie, words_of

LANG = quantulum.QUANTULUM_LANGUAGE
# letters the engine folds together under IGNORECASE ("k", "K" and the Kelvin sign; "s", "S" and the long s), a
# letter it does not fold, a digit and marks
LETTERS = ["k", "K", "\u212a", "s", "S", "\u017f", "i", "I", "\u0130", "\u0131", "a", "b", "1", ".", " ", "$"]


@pytest.fixture(scope="module")
def quantulum3():
    quantulum._parser()
    from quantulum3 import load, no_classifier, regex

    return regex, no_classifier, load


def alternation(words):
    """The alternation quantulum3 writes: escaped words, longest first."""
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


@properties(300)
@given(st.lists(st.text(st.sampled_from(LETTERS), min_size=1, max_size=4), min_size=1, max_size=12),
       st.text(st.sampled_from(LETTERS + ["x"]), max_size=24), st.sampled_from([0, re.IGNORECASE, re.VERBOSE,
                                                                              re.IGNORECASE | re.VERBOSE]))
def test_a_trie_matches_what_the_longest_first_alternation_matches(words, text, flags):
    # a word must be followed by "b" or "x", so a longer word that leaves neither is given up for a shorter one
    ordered = sorted(words, key=len, reverse=True)
    first, second = (re.compile(f"(?:{body})(?:b|x)", flags) for body in (alternation(words), trie(ordered, flags)))
    assert [m.span() for m in first.finditer(text)] == [m.span() for m in second.finditer(text)]


def test_an_alternation_is_read_back_into_its_words_or_refused():
    assert words_of(alternation(["km", "m", "a b", "$", "\\"])) == ["a b", "km", "m", "$", "\\"]
    assert words_of("km|(m)") is None
    assert words_of("km||m") is None


VALUE_WORDS = ["km", "KM", "m", "mi", "miles", "per", "hour", "h", "kg", "GB", "MB", "°C", "°F", "%", "$", "€", "£",
               "USD", "people", "million", "thousand", "hundred", "two", "five", "a", "an", "and", "&", "half", "third",
               "quarter", "minus", "times", "x", "/", "-", "to", "between", "ms", "s", "sq", "ft", "square", "metres"]
VALUE_TEXTS = st.lists(st.sampled_from(VALUE_WORDS) | st.integers(0, 10 ** 6).map(str) |
                       st.sampled_from(["1.5", "2,500", "3/4", "½", "10^3", "5e3"]),
                       max_size=8).map(" ".join)


def matches(pattern, text):
    return [(m.span(), m.groupdict(), m.groups()) for m in pattern.finditer(text)]


@properties(300)
@given(VALUE_TEXTS)
def test_the_rewritten_unit_pattern_matches_as_quantulums_own(quantulum3, text):
    regex, _, _ = quantulum3
    assert regex.units_regex(LANG) is not regex.units_regex.__wrapped__(LANG)  # rewritten, not handed through
    assert matches(regex.units_regex(LANG), text) == matches(regex.units_regex.__wrapped__(LANG), text)


@properties(300)
@given(VALUE_TEXTS)
def test_the_rewritten_number_word_pattern_matches_as_quantulums_own(quantulum3, text):
    regex, _, _ = quantulum3
    faster, own = regex.text_pattern_reg(LANG), regex.text_pattern_reg.__wrapped__(LANG)
    assert faster is not own
    assert [(m.span(), m.group()) for m in faster.finditer(text)] == [(m.span(), m.group())
                                                                       for m in own.finditer(text)]


@properties(150)
@given(st.data())
def test_the_unit_chooser_chooses_as_quantulums_own(quantulum3, data):
    _, no_classifier, load = quantulum3
    units = load.units(LANG)
    trained = sorted({example["unit"] for example in load.training_set(LANG)})
    names = data.draw(st.lists(st.sampled_from(trained), min_size=2, max_size=4, unique=True))
    candidates = [units.names[name] for name in names if name in units.names]
    text = data.draw(VALUE_TEXTS | st.sampled_from(["the angle was 30 minutes of arc", "it weighs 5 pounds",
                                                    "a 3 ton truck", "the fare was 5 pounds sterling"]))
    own = no_classifier.disambiguate_no_classifier.__wrapped__
    assert no_classifier.disambiguate_no_classifier(candidates, text, LANG) is \
        own(sorted(candidates, key=lambda unit: unit.name), text, LANG)


def test_a_value_is_read_without_trying_every_unit_in_turn(quantulum3):
    # quantulum3's unit chooser split every training text again for each candidate unit of each value read; the
    # rewritten one reads each unit's counted words (the split is done once, at the first value)
    regex, no_classifier, load = quantulum3
    quantulum.read_values("The fare was 5 pounds.")
    splits = counted(lambda: quantulum.read_values("The fare was 7 pounds."), "quantulum3/no_classifier.py")
    assert splits == 0
