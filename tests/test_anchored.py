"""The anchored matcher returns exactly what spaCy's Matcher returns for the same patterns."""

import functools

import pytest
import spacy
from hypothesis import given, strategies as st
from properties import properties
from spacy.matcher import Matcher
from spacy.tokens import Doc

from spacy_factwash.lexicon.frozen import load_lexicons, load_set
from spacy_factwash.lexicon.matcher import AnchoredMatcher, choose_anchor, literal_phrases
from spacy_factwash.lexicon.sets import STRENGTH

PATTERNS = [e for e in load_lexicons().entries + load_set(STRENGTH).entries if e.is_token_pattern]
PATTERN_WORDS = {w for e in PATTERNS for token in e.pattern for v in token.values() if isinstance(v, dict) and "IN" in v
                 for w in v["IN"] if isinstance(w, str)}
VOCAB_WORDS = sorted(
    PATTERN_WORDS | {w.title() for w in PATTERN_WORDS} | {w.upper() for w in list(PATTERN_WORDS)[:40]}
    | {"2019", "1999", "3", "12", "the", "in", "May", "may", "per", "said", "-", "05", "10:30", "pm", "x", "Alice", "."}
)
NLP = spacy.blank("en")


@functools.lru_cache(maxsize=1)
def _matchers():
    """spaCy's Matcher and the anchored one over every lexicon token pattern, compiled once for every example
    (matching leaves a matcher as it was)."""
    plain, anchored = Matcher(NLP.vocab), AnchoredMatcher(NLP.vocab)
    for entry in PATTERNS:
        plain.add(entry.id, [list(entry.pattern)])
        anchored.add_pattern(entry.id, list(entry.pattern))
    return plain, anchored


def _both(words, sent_starts="first"):
    plain, anchored = _matchers()
    if sent_starts == "first":
        sent_starts = [True] + [False] * (len(words) - 1) if words else None
    doc = Doc(NLP.vocab, words=words, sent_starts=sent_starts)
    return sorted(plain(doc)), sorted(anchored(doc), key=lambda m: (m[0], m[1], m[2]))


@properties(150)
@given(st.lists(st.sampled_from(VOCAB_WORDS), min_size=1, max_size=14))
def test_anchored_equals_plain_matcher_on_lexicon_patterns(words):
    plain, anchored = _both(words)
    assert sorted(plain) == sorted(anchored)


def test_lexicon_patterns_with_matches_are_found_at_all():
    plain, anchored = _both(["back", "in", "2019", "since", "2019", "per", "Alice", "3", "days", "ago"])
    assert len(plain) >= 4 and sorted(plain) == sorted(anchored)


@pytest.mark.parametrize(
    "pattern,anchor",
    [
        ([{"LOWER": {"IN": ["in", "since"]}}, {"SHAPE": "dddd"}], ("SHAPE", ("dddd",))),
        ([{"LOWER": "the"}, {"LOWER": {"IN": ["report", "reports"]}}], ("LOWER", ("report", "reports"))),
        ([{"ORTH": "Should", "IS_SENT_START": True}, {"IS_ALPHA": True}], ("ORTH", ("Should",))),
        ([{"LOWER": "rare", "OP": "?"}, {"IS_DIGIT": True}], None),
    ],
)
def test_anchor_is_the_rarest_required_literal(pattern, anchor):
    assert choose_anchor(pattern) == anchor


def test_patterns_of_literal_lower_case_words_are_matched_as_phrases():
    assert literal_phrases([{"LOWER": "could"}, {"LOWER": {"IN": ["not", "never"]}}]) == [("could", "never"),
                                                                                         ("could", "not")]
    assert literal_phrases([{"LOWER": "may"}, {"LIKE_NUM": True}]) is None  # not a word
    assert literal_phrases([{"LOWER": "rare", "OP": "?"}, {"LOWER": "words"}]) is None  # an operator
    assert literal_phrases([{"LOWER": "May"}]) is None  # no token's LOWER is "May": the Matcher never matches it
    assert any(literal_phrases(list(e.pattern)) for e in PATTERNS)  # the lexicons have some, checked above


def test_a_capitalised_literal_pattern_word_matches_as_the_matcher_matches_it():
    plain, anchored = Matcher(NLP.vocab), AnchoredMatcher(NLP.vocab)
    pattern = [{"LOWER": "could"}, {"LOWER": {"IN": ["not", "Never"]}}]
    plain.add("p", [pattern])
    anchored.add_pattern("p", pattern)
    doc = Doc(NLP.vocab, words=["Could", "NOT", "could", "never", "could", "Never"])
    assert sorted(plain(doc)) == sorted(anchored(doc)) and len(plain(doc)) == 1


@properties(100)
@given(st.lists(st.tuples(st.sampled_from(VOCAB_WORDS), st.sampled_from([True, False, None])), min_size=1,
                max_size=10), st.booleans())
def test_anchored_equals_plain_matcher_whatever_the_sentence_starts(pairs, annotated):
    # "IS_SENT_START" patterns matched as phrases check the hit's token as the Matcher does, with sentence starts
    # set anywhere or not at all
    words = [word for word, _ in pairs]
    plain, anchored = _both(words, [start for _, start in pairs] if annotated else None)
    assert sorted(plain) == sorted(anchored)


def test_a_participle_opening_a_sentence_is_a_phrase_checked_on_its_hit():
    pattern = [{"IS_SENT_START": True, "LOWER": {"IN": ["activated", "induced"]}}]
    anchored = AnchoredMatcher(NLP.vocab)
    anchored.add_pattern("p", pattern)
    assert not anchored.matchers and anchored.sentence_openers  # no Matcher window runs for it
    doc = Doc(NLP.vocab, words=["Activated", "cells", ".", "Induced", "and", "activated"],
              sent_starts=[True, False, False, True, False, False])
    assert sorted((s, e) for _, s, e in anchored(doc)) == [(0, 1), (3, 4)]


WORDS = ["may", "May", "MAY", "no", "2019", "12", "x", "."]  # few, so that random patterns often match
REGEXES = [r"^\d+$", r"^[A-Z]", r"ay$", r"^(19|20)\d\d$"]
constraints = st.one_of(
    st.tuples(st.sampled_from(["LOWER", "ORTH", "TEXT", "NORM"]), st.sampled_from(WORDS)),
    st.tuples(st.sampled_from(["LOWER", "ORTH"]), st.tuples(st.sampled_from(["IN", "NOT_IN"]), st.lists(
        st.sampled_from(WORDS), min_size=1, max_size=3)).map(lambda how: {how[0]: how[1]})),
    st.tuples(st.just("SHAPE"), st.sampled_from(["dddd", "dd", "Xxxxx", "xxx", "d"])),
    st.tuples(st.sampled_from(["IS_ALPHA", "LIKE_NUM", "IS_DIGIT", "IS_TITLE", "IS_SENT_START", "IS_PUNCT"]),
              st.booleans()),
    st.tuples(st.sampled_from(["TEXT", "LOWER"]), st.sampled_from(REGEXES).map(lambda r: {"REGEX": r})),
)
token_specs = st.tuples(st.lists(constraints, max_size=2), st.sampled_from([None, None, "?"])).map(
    lambda parts: {**dict(parts[0]), **({"OP": parts[1]} if parts[1] else {})})


@properties(300)
@given(st.lists(token_specs, min_size=1, max_size=4),
       st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from([True, False, None])), min_size=1, max_size=9))
def test_a_pattern_checked_in_place_matches_where_spacys_matcher_matches_it(pattern, pairs):
    """Random patterns of plain values, word lists, shapes, flags, regular expressions and optional tokens: the
    anchored matcher (each pattern it can hold checked in C where its anchor places it, any other on a window
    with its Matcher) finds what spaCy's Matcher finds over the whole Doc."""
    plain, anchored = Matcher(NLP.vocab), AnchoredMatcher(NLP.vocab)
    plain.add("p", [pattern])
    anchored.add_pattern("p", pattern)
    doc = Doc(NLP.vocab, words=[word for word, _ in pairs], sent_starts=[start for _, start in pairs])
    found = anchored(doc)
    assert sorted(set(plain(doc))) == sorted(found) and len(set(found)) == len(found)


def test_patterns_of_plain_constraints_are_checked_in_place_and_no_other():
    anchored = AnchoredMatcher(NLP.vocab)
    anchored.add_pattern("month", [{"LOWER": "may"}, {"LIKE_NUM": True}])
    anchored.add_pattern("year", [{"LOWER": {"IN": ["in", "by"]}, "OP": "?"}, {"SHAPE": "dddd", "TEXT": {"REGEX": "^2"}}])
    anchored.add_pattern("run", [{"LOWER": "if"}, {"LOWER": "whether", "OP": "+"}])
    assert anchored.fixed_keys == {NLP.vocab.strings[key] for key in ("month", "year")} and len(anchored.fixed) == 3
    assert list(anchored.matchers) == [NLP.vocab.strings["#anchor:LOWER:if"]]  # "+" is unbounded: a Matcher's
    doc = Doc(NLP.vocab, words=["May", "12", "in", "2019", "if", "whether", "whether"])
    assert sorted((NLP.vocab.strings[k], s, e) for k, s, e in anchored(doc)) == [
        ("month", 0, 2), ("run", 4, 6), ("run", 4, 7), ("year", 2, 4), ("year", 3, 4)]


def test_an_operator_written_in_lower_case_is_read_as_spacys_matcher_reads_it():
    # spaCy's Matcher takes "op" as "OP": an optional token is never the anchor, and "+" leaves the window open
    for pattern, words in (([{"LOWER": "per"}, {"LOWER": "glax", "op": "?"}], ["per", "here"]),
                           ([{"LOWER": "per"}, {"IS_DIGIT": True, "op": "+"}, {"LOWER": "x"}],
                            ["per", "1", "2", "3", "4", "5", "6", "x"])):
        plain, anchored = Matcher(NLP.vocab), AnchoredMatcher(NLP.vocab)
        plain.add("p", [pattern])
        anchored.add_pattern("p", pattern)
        doc = Doc(NLP.vocab, words=words)
        assert sorted(plain(doc)) == sorted(anchored(doc)) != []


def test_an_op_that_is_no_operator_is_left_to_spacys_matcher_to_refuse():
    anchored = AnchoredMatcher(NLP.vocab)
    with pytest.raises(Exception, match="pattern"):
        anchored.add_pattern("p", [{"LOWER": "per", "OP": None}, {"LOWER": "cent"}])
