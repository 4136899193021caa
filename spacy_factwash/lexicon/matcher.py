"""Token patterns run only where they can match: anchored on their rarest literal token.

spaCy's Matcher walks every pattern over every token, and set predicates
(``IN``, ``REGEX``) call back into Python, so a few dozen patterns cost the
cue layer several times the tokenizer. Most lexicon patterns, though, name
at least one token literally ("per", a month, an ``IN`` list of verb forms,
a ``SHAPE`` such as ``dddd``). This module picks, per pattern, the required
token whose literal values are rarest in running text as its anchor (see
``anchor_cost``), finds anchors with two PhraseMatchers (on LOWER and on
SHAPE: hash look-ups; an exact-case anchor is found on LOWER and its case
checked on the hit), and checks a pattern only where an anchor hit places it:
a pattern of a fixed length and plain constraints at the one start the hit
gives it, in C (``fixed.py``, ``passes.pyx``), any other with its own Matcher
on a window around the hit. A pattern made of literal lower-case words only
("could" + "not|never") is no Matcher at all: the phrases it spells join the
LOWER PhraseMatcher (``literal_phrases``; one whose first word must open a
sentence is checked on the hit). Patterns with no literal token
run over every document, as before.

The result is the same set of matches the plain Matcher would return.
Phrase entries share the LOWER PhraseMatcher with the anchors, so a document
costs one hash pass per attribute, whatever the size of the lexicon (its
matches sorted into entries and anchor hits in the same loop in C:
``passes.PhrasePasses``); and a
caller that keeps facts of each token text (``text_facts``) tells which
passes a document needs: every phrase needs one of its words (its rarest, by
``anchor_cost``), every anchor its value, so a pass is made only over a
document one of whose lexemes has one of those.
"""

from itertools import product
from math import prod
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokens import Doc
from spacy.vocab import Vocab

from .fixed import fixed_checks
from .frozen import Entry
from .passes import FixedPatterns, PhrasePasses
from .patterns import REQUIRED_OPS, token_operator
from .phrases import PhraseWords


class Match(NamedTuple):
    """A raw lexicon match: token offsets and the entry's key in the string store."""

    start: int
    end: int
    key: int


def longest_first(matches: Sequence[Match]) -> List[Match]:
    """Non-overlapping matches, preferring the longest and then the earliest (as spaCy's filter_spans); the
    tokens already taken are kept in a set, so this is linear in the matches' length, not quadratic."""
    kept: List[Match] = []
    taken: Set[int] = set()
    for match in sorted(matches, key=lambda m: (m.start - m.end, m.start)):
        tokens = range(match.start, match.end)
        if taken.isdisjoint(tokens):
            kept.append(match)
            taken.update(tokens)
    kept.sort()
    return kept


Found = Tuple[int, int, int]  # (match key, start, end), as spaCy's matchers give them
ANCHOR_ATTRS = {"LOWER": "LOWER", "ORTH": "ORTH", "TEXT": "ORTH", "SHAPE": "SHAPE"}
SHAPE_COST = 50  # a shape ("dddd") stands for many words
FUNCTION_WORD_COST = 1000  # "in", "the", "were", "-": in nearly every sentence
CAPITALISED_FUNCTION_WORD_COST = 100  # "Were", "Should": mostly at a sentence start
UNBOUNDED = ("*", "+")
LITERAL_PHRASE_LIMIT = 5000  # word sequences a literal pattern may spell and still be matched as phrases
LOWER_PASS, SHAPE_PASS = 1, 2  # what ``AnchoredMatcher.text_facts`` says of a token text, as bits


def _literal_values(constraint: Any) -> Optional[Tuple[str, ...]]:
    """The literal strings a token constraint accepts, if it is a plain value or a bare IN list."""
    if isinstance(constraint, str):
        return (constraint,)
    if isinstance(constraint, dict) and set(constraint) == {"IN"} and all(isinstance(v, str) for v in constraint["IN"]):
        return tuple(constraint["IN"])
    return None


def anchor_cost(attr: str, values: Sequence[str]) -> int:
    """How often an anchor is expected to fire: function words and shapes cost most."""
    if attr == "SHAPE":
        return SHAPE_COST * len(values)
    cost = 0
    for value in values:
        if value.lower() not in STOP_WORDS and any(char.isalnum() for char in value):
            cost += 1
        elif attr == "ORTH" and value[:1].isupper():
            cost += CAPITALISED_FUNCTION_WORD_COST
        else:
            cost += FUNCTION_WORD_COST
    return cost


def choose_anchor(pattern: Sequence[Dict[str, Any]]) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """The (attribute, values) of the cheapest literal token the pattern requires, or None."""
    anchor = anchor_token(pattern)
    return anchor[1:] if anchor is not None else None


def anchor_token(pattern: Sequence[Dict[str, Any]]) -> Optional[Tuple[int, str, Tuple[str, ...]]]:
    """The index, anchor attribute and values of the cheapest literal token the pattern requires (the first of
    equal cost), or None."""
    best: Optional[Tuple[int, int, str, Tuple[str, ...]]] = None
    for index, token in enumerate(pattern):
        if token_operator(token) not in REQUIRED_OPS:  # an optional token is never the anchor
            continue
        for attr, anchor_attr in ANCHOR_ATTRS.items():
            values = _literal_values(token.get(attr))
            if values is None:
                continue
            if anchor_attr == "LOWER":
                values = tuple(sorted({v.lower() for v in values}))
            cost = anchor_cost(anchor_attr, values)
            if best is None or cost < best[0]:
                best = (cost, index, anchor_attr, values)
    return best[1:] if best is not None else None


def literal_phrases(pattern: Sequence[Dict[str, Any]]) -> Optional[List[Tuple[str, ...]]]:
    """The word sequences a token pattern matches, when every token of it asks for its LOWER to be one literal
    word or one of a bare ``IN`` list of words written in lower case (no operator, no other attribute), and they
    are no more than ``LITERAL_PHRASE_LIMIT``; else None. On LOWER, a PhraseMatcher finds exactly these where the
    Matcher finds the pattern (a word with a capital, which no token's LOWER equals, is never made a phrase)."""
    choices = []
    for token in pattern:
        if set(token) != {"LOWER"}:
            return None
        values = _literal_values(token["LOWER"])
        if values is None or not all(value and value == value.lower() for value in values):
            return None
        choices.append(sorted(set(values)))
    if not choices or not 0 < prod(len(choice) for choice in choices) <= LITERAL_PHRASE_LIMIT:
        return None
    return list(product(*choices))


def sentence_start_phrases(pattern: Sequence[Dict[str, Any]]) -> Optional[List[Tuple[str, ...]]]:
    """The word sequences of a pattern that ``literal_phrases`` would take but for ``IS_SENT_START: true`` on its
    first token (a participle opening a sentence): phrases whose first token is then checked to open a sentence,
    as the Matcher checks it (``Token.is_sent_start`` is True)."""
    if not pattern or pattern[0].get("IS_SENT_START") is not True:
        return None
    first = {attr: value for attr, value in pattern[0].items() if attr != "IS_SENT_START"}
    return literal_phrases([first, *pattern[1:]])


def by_class(found: Iterable[Found], classify: Callable[[int], Tuple[str, bool]]
             ) -> Dict[str, Tuple[List[Match], List[Match]]]:
    """Matches grouped by the class their key stands for (``classify``: key -> (class, is it an exclusion)),
    candidates and exclusions apart; a class none of whose keys matched has no entry."""
    grouped: Dict[str, Tuple[List[Match], List[Match]]] = {}
    for key, start, end in found:
        label, is_exclusion = classify(key)
        bucket = grouped.get(label)
        if bucket is None:
            bucket = grouped[label] = ([], [])
        bucket[is_exclusion].append(Match(start, end, key))
    return grouped


def _rarest_word(phrase: Sequence[str]) -> str:
    """The word (a LOWER text) of a phrase expected rarest in running text (``anchor_cost``; the longest of equal
    cost): a Doc without it on some token cannot hold the phrase."""
    return min(phrase, key=lambda word: (anchor_cost("LOWER", [word]), -len(word)))


def lower_forms(vocab: Vocab, words: Sequence[str]) -> Tuple[str, ...]:
    """The LOWER texts of the tokens ``Doc(vocab, words=words)`` would hold, without the Doc (a lexeme made for each
    word, as the Doc makes one)."""
    return tuple(vocab[word].lower_ for word in words)


def _shape_word(shape: str) -> str:
    """A word whose spaCy shape is ``shape`` (``dddd`` -> ``1111``, ``Xxxx`` -> ``Aaaa``)."""
    return shape.replace("d", "1").replace("X", "A").replace("x", "a")


class AnchoredMatcher:
    """Phrase entries and token patterns in one matcher; each token pattern runs only near its anchor."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab
        self.anchors = {attr: PhraseMatcher(vocab, attr=attr) for attr in ("LOWER", "SHAPE")}
        self.exact_case: Dict[int, Set[str]] = {}
        self.active: Tuple[PhraseMatcher, ...] = ()
        self._by_need: Tuple[Tuple[PhraseMatcher, ...], ...] = ((), (), (), ())  # the passes to run, by ``needs``
        self._passes: Optional[PhrasePasses] = None  # made from the phrase passes at the first call after a change
        self.unanchored = Matcher(vocab)
        self.phrase_keys: Set[int] = set()
        self.sentence_openers: Set[int] = set()  # phrase keys whose first token must open a sentence
        self.anchor_keys: Set[int] = set()
        self.fixed = FixedPatterns()  # the token patterns checked where an anchor hit places them (``fixed.py``)
        self.fixed_keys: Set[int] = set()
        self.matchers: Dict[int, Matcher] = {}  # the other anchored patterns: a Matcher per anchor, run on windows
        self.reach: Dict[int, Optional[int]] = {}
        # the values (hashes) of which a Doc needs one on some token for any entry to match it, by attribute: a
        # word of each phrase, each anchor's values (exact-case anchors: their ORTH)
        self.needed: Dict[str, Set[int]] = {"LOWER": set(), "ORTH": set(), "SHAPE": set()}

    def __len__(self) -> int:
        """The number of entry keys (phrase entries and token patterns)."""
        return (len(self.phrase_keys) + len(self.fixed_keys) + sum(len(m) for m in self.matchers.values())
                + len(self.unanchored))

    def add_entry(self, entry: Entry, tokenizer) -> int:
        """Add a lexicon entry (its phrases split by ``tokenizer``: a ``PhraseWords``, shared by a whole compile so
        each distinct phrase is tokenized once, or a tokenizer; or its token pattern); its key's hash."""
        if entry.is_token_pattern:
            self.add_pattern(entry.id, list(entry.pattern))
        else:
            words = PhraseWords.over(tokenizer)
            self.add_words(entry.id, [words(phrase) for phrase in entry.phrases])
        return self.vocab.strings[entry.id]

    def add_phrases(self, key: str, phrases: List[Doc]) -> None:
        """Add phrase patterns (tokenized Docs, matched on LOWER) under ``key``."""
        self.add_words(key, [tuple(token.lower_ for token in phrase) for phrase in phrases])

    def add_words(self, key: str, phrases: Sequence[Sequence[str]]) -> None:
        """Add phrase patterns under ``key``, each given as the LOWER texts of its tokens (``PhraseWords``,
        ``lower_forms``), matched on LOWER as the Docs they stand for are."""
        strings = self.vocab.strings
        self.phrase_keys.add(strings.add(key))
        self._add_anchor("LOWER", key, [tuple(strings.add(word) for word in phrase) for phrase in phrases])
        self._need("LOWER", [strings.add(_rarest_word(phrase)) for phrase in phrases if len(phrase)])

    def add_pattern(self, key: str, pattern: List[Dict[str, Any]]) -> None:
        """Add one token pattern under ``key``: a pattern of literal lower-case words only (``literal_phrases``)
        as the phrases it spells, matched in the same LOWER pass as the phrase entries; any other anchored on its
        rarest literal token, and checked where a hit of the anchor places it when it is a pattern of a fixed length
        and plain constraints (``fixed.fixed_checks``), else run by a Matcher on a window around each hit."""
        phrases = literal_phrases(pattern)
        opening = sentence_start_phrases(pattern) if phrases is None else None
        if phrases is not None or opening is not None:
            if opening is not None:
                self.sentence_openers.add(self.vocab.strings.add(key))
            self.add_words(key, [lower_forms(self.vocab, words) for words in phrases or opening])
            return
        anchor = anchor_token(pattern)
        if anchor is None:
            self.unanchored.add(key, [pattern])
            return
        index, attr, values = anchor
        anchor_key = f"#anchor:{attr}:{'|'.join(values)}"
        key_hash = self.vocab.strings.add(anchor_key)
        if key_hash not in self.anchor_keys:
            self.anchor_keys.add(key_hash)
            if attr == "ORTH":
                self.exact_case[key_hash] = set(values)
            words = [_shape_word(v) for v in values] if attr == "SHAPE" else sorted({v.lower() for v in values})
            # each word's lexeme, as a one-word Doc of it holds: its SHAPE, or its LOWER, is the anchor's value
            found = [self.vocab[word].shape if attr == "SHAPE" else self.vocab[word].lower for word in words]
            self._add_anchor("SHAPE" if attr == "SHAPE" else "LOWER", anchor_key, [(value,) for value in found])
            if attr == "ORTH":  # a hit is kept only where the token's text is one of the values
                self._need("ORTH", [self.vocab.strings.add(value) for value in values])
            else:
                self._need(attr if attr == "SHAPE" else "LOWER", found)
        alternatives = fixed_checks(pattern, self.vocab.strings, index)
        if alternatives is not None:
            for offset, tokens in alternatives:
                self.fixed.add(self.vocab.strings.add(key), key_hash, offset, tokens)
            self.fixed_keys.add(self.vocab.strings.add(key))
            return
        if key_hash not in self.matchers:
            self.matchers[key_hash] = Matcher(self.vocab)
            self.reach[key_hash] = 0
        self.matchers[key_hash].add(key, [pattern])
        unbounded = any(token_operator(token) in UNBOUNDED for token in pattern)
        reach = self.reach[key_hash]
        self.reach[key_hash] = None if unbounded or reach is None else max(reach, len(pattern))

    def _add_anchor(self, attr: str, key: str, phrases: List[Tuple[int, ...]]) -> None:
        """Add phrases, each as its tokens' values of ``attr`` (the form the PhraseMatcher keeps a pattern Doc in),
        to one anchor matcher, and run that matcher from now on."""
        self.anchors[attr].add(key, phrases)
        self.active = tuple(matcher for matcher in self.anchors.values() if len(matcher))
        lower, shape = ((matcher,) if len(matcher) else () for matcher in self.anchors.values())
        self._by_need = ((), lower, shape, self.active)
        self._passes = None

    def _need(self, attr: str, values: Iterable[int]) -> None:
        """Record values a Doc needs on some token to be matched (one per phrase or anchor value added). (Facts a
        caller kept from ``text_facts`` before are out of date: the cue component adds entries and makes its case
        forms, which keep them, again.)"""
        self.needed[attr].update(values)

    def text_facts(self, text: str) -> int:
        """What one token text has, as a lexeme of this vocab, of the values a Doc needs on some token to be matched
        (``needed``), as bits: ``LOWER_PASS`` when the LOWER pass needs it (its LOWER or ORTH is needed),
        ``SHAPE_PASS`` when the SHAPE pass does (its SHAPE is); both for a text this vocab has no lexeme of (no
        lexeme is made to tell). A caller keeps these by text and or-s them over a Doc's tokens (``__call__``'s
        ``needs``)."""
        if text not in self.vocab:
            return LOWER_PASS | SHAPE_PASS
        lexeme = self.vocab[text]
        needed = self.needed
        return (LOWER_PASS * (lexeme.lower in needed["LOWER"] or lexeme.orth in needed["ORTH"])
                + SHAPE_PASS * (lexeme.shape in needed["SHAPE"]))

    def _windows(self, doc: Doc, key: int, positions: Iterable[int]) -> List[Tuple[int, int]]:
        """Merged token windows around anchor hits in which the pattern could match."""
        reach = self.reach[key]
        if reach is None:
            return [(0, len(doc))]
        windows: List[Tuple[int, int]] = []
        for position in sorted(positions):
            start, end = max(0, position - reach + 1), min(len(doc), position + reach)
            if windows and start <= windows[-1][1]:
                windows[-1] = (windows[-1][0], max(end, windows[-1][1]))
            else:
                windows.append((start, end))
        return windows

    def __call__(self, doc: Doc, needs: Optional[int] = None) -> List[Found]:
        """All matches of all entries, as (key, start, end) token offsets into ``doc``, in no set order (a Doc no
        anchor or phrase is found in costs the hash passes and nothing more). ``needs``: the or of ``text_facts``
        over the Doc's token texts, when the caller worked it out for a Doc of this vocab: only the passes it
        names run (none, when no entry can match)."""
        found: List[Found] = self.unanchored(doc) if len(self.unanchored) else []
        hits: Dict[int, Set[int]] = {}
        passes = self.active if needs is None or doc.vocab is not self.vocab else self._by_need[needs]
        if passes:
            if self._passes is None:
                self._passes = PhrasePasses(self.active, self.phrase_keys, self.sentence_openers, {
                    key: {self.vocab.strings.add(value) for value in values} for key, values in self.exact_case.items()})
            self._passes.run(doc, passes, found, hits)
        if hits:
            self.fixed.find(doc, hits, found)
            for key, positions in hits.items():
                matcher = self.matchers.get(key)
                if matcher is not None:
                    for start, end in self._windows(doc, key, positions):
                        found += [(k, start + s, start + e) for k, s, e in matcher(doc[start:end])]
        return list(set(found)) if len(found) > 1 else found
