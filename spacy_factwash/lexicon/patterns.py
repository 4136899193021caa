"""The token patterns a lexicon may hold: no ``REGEX`` that can take exponential time, none that marks every token.

spaCy runs a token pattern's ``REGEX`` with Python's backtracking ``re`` on each token it is tried on, so a pattern
such as ``^(a+)+$`` takes seconds on a 26-letter token (issue 25.7). A ``REGEX`` is refused unless it compiles, is
at most ``MAX_REGEX`` characters long, refers back to no group, and repeats nothing that itself repeats or offers
alternatives that can start with one character ("(a+)+", "(a|a)*", "(\\w+\\s?)*"). One repetition inside another
is kept when it is the only one in each round and the round starts or ends with a character it cannot match
("(\\.\\d+)+": every round starts at a dot, the packaged version-number pattern; "(\\d+,)*"). The check reads the
pattern's parse (the ``re`` module's own parser); where it cannot tell what a piece matches, it refuses.

A pattern that matches every token ("[{}]", ``[{"TEXT": {"REGEX": ".*"}}]``, ``[{"LOWER": {"NOT_IN": []}}]``, a
word it may skip and nothing else) would mark every token of every text as a cue: it is refused too. A pattern that
names a word, a list of words, a flag or a number for a token it needs is not such a pattern; any other is tried on
a Doc of tokens no lexicon names, and refused when it matches every one of them.
"""

import re
from functools import lru_cache
from typing import Any, Dict, Iterable, List, Optional, Sequence

try:  # the re module's parser: re._parser from Python 3.11, sre_parse before
    from re import _constants as _c, _parser as _sre
except ImportError:  # Python < 3.11
    import sre_constants as _c
    import sre_parse as _sre

MAX_REGEX = 256
# tokens no lexicon names: a pattern that matches every one of them matches every token
PROBE_WORDS = ("Zqxv", "wuxt", "7", "3.5", ".", ",", "-", "qzp'k", "ÉTÉ", "жщ", "中文", "\n", "XQZ", "_", "@#")
# characters a repeated piece is tried on, to tell whether two pieces can start alike
SAMPLE = "".join(chr(c) for c in range(32, 127)) + "\t\n é中ж٣\u00a0"
REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT) + ((_c.POSSESSIVE_REPEAT,) if hasattr(_c, "POSSESSIVE_REPEAT") else ())
REQUIRED_OPS = (None, "+", "1")
NEEDS = (str, bool, int, float)


def token_pattern_problem(pattern: Sequence[Dict[str, Any]]) -> Optional[str]:
    """Why a token pattern is refused (an unsafe ``REGEX``, or it matches every token), or None."""
    for regex in _regexes(pattern):
        problem = regex_problem(regex)
        if problem:
            return f"REGEX {regex[:80]!r} refused: {problem}"
    if not any(_needs_a_named_token(token) for token in pattern) and _matches_every_token(pattern):
        return "the token pattern matches every token (it needs no word it names): it would mark every token as a cue"
    return None


def regex_problem(regex: str) -> Optional[str]:
    """Why a ``REGEX`` is refused, or None when it is safe."""
    if len(regex) > MAX_REGEX:
        return f"longer than {MAX_REGEX} characters"
    try:
        re.compile(regex)
        parsed = _sre.parse(regex)
    except (re.error, RecursionError, OverflowError) as err:
        return f"it does not compile ({err})"
    return _piece_problem(list(parsed))


def _regexes(value: Any) -> Iterable[str]:
    """Every ``REGEX`` value in a token pattern, at any depth (``{"_": {"ext": {"REGEX": ...}}}`` too)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "REGEX" and isinstance(item, str):
                yield item
            else:
                yield from _regexes(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _regexes(item)


def _piece_problem(items: List) -> Optional[str]:
    """Why a parsed piece of a regex can take exponential time, or None."""
    for op, av in items:
        if op in (_c.GROUPREF, _c.GROUPREF_EXISTS):
            return "it refers back to a group"
        for inner in _inner(op, av):
            problem = _piece_problem(inner)
            if problem:
                return problem
        if op in REPEATS and av[1] > 1:
            body = list(av[2])
            if _holds_repetition(body) and not _delimited(body):
                return "a repetition of something that itself repeats (a nested quantifier)"
            if _alternatives_overlap(body):
                return "a repetition of alternatives that can start alike"
    return None


def _inner(op, av) -> List[List]:
    """The sub-pieces a parsed item holds."""
    if op in REPEATS:
        return [list(av[2])]
    if op == _c.SUBPATTERN:
        return [list(av[-1])]
    if op == _c.BRANCH:
        return [list(branch) for branch in av[1]]
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        return [list(av[1])]
    if hasattr(_c, "ATOMIC_GROUP") and op == _c.ATOMIC_GROUP:
        return [list(av)]
    return []


def _holds_repetition(items: List) -> bool:
    """Whether a piece repeats something a varying number of times, at any depth."""
    for op, av in items:
        if op in REPEATS and av[0] != av[1]:
            return True
        if any(_holds_repetition(inner) for inner in _inner(op, av)):
            return True
    return False


def _delimited(body: List) -> bool:
    """Whether each round of a repeated piece is marked off by a literal character its one inner repetition cannot
    match, at its start or its end ("\\.\\d+": a dot, then digits; "\\d+,"): then a round ends at one place only."""
    items = _flattened(body)
    varying = [item for item in items if item[0] in REPEATS and item[1][0] != item[1][1]]
    if len(varying) != 1:
        return False
    inner = _flattened(list(varying[0][1][2]))
    if len(inner) != 1 or any(op not in REPEATS and op not in (_c.LITERAL, _c.NOT_LITERAL, _c.IN, _c.ANY, _c.AT)
                              for op, _ in items):
        return False
    return any(edge[0] == _c.LITERAL and not _can_match(inner[0], chr(edge[1])) for edge in (items[0], items[-1]))


def _flattened(items: List) -> List:
    """A piece with its groups opened (a group changes nothing the check reads)."""
    flat = []
    for op, av in items:
        if op == _c.SUBPATTERN:
            flat += _flattened(list(av[-1]))
        else:
            flat.append((op, av))
    return flat


def _alternatives_overlap(body: List) -> bool:
    """Whether a repeated piece offers alternatives two of which can start with the same character."""
    for op, av in _flattened(body):
        if op == _c.BRANCH:
            starts = [_first(list(branch)) for branch in av[1]]
            for n, first in enumerate(starts):
                for other in starts[n + 1:]:
                    if first is None or other is None or any(
                            _can_match(first, char) and _can_match(other, char) for char in SAMPLE):
                        return True
    return False


def _first(items: List):
    """The single-character item a piece starts with, or None when it starts otherwise (it may be empty)."""
    items = _flattened(items)
    if items and items[0][0] in (_c.LITERAL, _c.NOT_LITERAL, _c.IN, _c.ANY):
        return items[0]
    return None


def _can_match(item, char: str) -> bool:
    """Whether a single-character item of a parse can match ``char`` (True when it is not one: the safe answer)."""
    op, av = item
    if op == _c.LITERAL:
        return char == chr(av)
    if op == _c.NOT_LITERAL:
        return char != chr(av)
    if op == _c.ANY:
        return char != "\n"
    if op != _c.IN:
        return True
    negate = bool(av) and av[0][0] == _c.NEGATE
    found = any(_in_set(member, char) for member in (av[1:] if negate else av))
    return found != negate


def _in_set(member, char: str) -> bool:
    """Whether one member of a character set matches ``char``."""
    op, av = member
    if op == _c.LITERAL:
        return char == chr(av)
    if op == _c.RANGE:
        return av[0] <= ord(char) <= av[1]
    if op == _c.CATEGORY:
        return bool(re.match(_CATEGORY_PATTERNS.get(av, "(?s)."), char))
    return True


_CATEGORY_PATTERNS = {getattr(_c, name): pattern for name, pattern in (
    ("CATEGORY_DIGIT", r"\d"), ("CATEGORY_NOT_DIGIT", r"\D"), ("CATEGORY_SPACE", r"\s"),
    ("CATEGORY_NOT_SPACE", r"\S"), ("CATEGORY_WORD", r"\w"), ("CATEGORY_NOT_WORD", r"\W"))}


def token_operator(token: Dict[str, Any]) -> Optional[str]:
    """A pattern token's operator, its key written in any case ("OP", "op": spaCy's Matcher reads both)."""
    return next((value for key, value in token.items() if key.upper() == "OP"), None)


def _needs_a_named_token(token: Dict[str, Any]) -> bool:
    """Whether a pattern's token is one it needs (not optional) and names what it is: a word, a list of words, a
    flag or a number (a set of words to avoid, a regex or a comparison name no token for sure)."""
    if token_operator(token) not in REQUIRED_OPS:
        return False
    for attr, value in token.items():
        if attr.upper() == "OP":
            continue
        if isinstance(value, NEEDS):
            return True
        if isinstance(value, dict) and isinstance(value.get("IN"), list) and value["IN"] and len(value) == 1:
            return True
    return False


def _matches_every_token(pattern: Sequence[Dict[str, Any]]) -> bool:
    """Whether the pattern matches each token of a Doc of tokens no lexicon names."""
    from spacy.matcher import Matcher

    doc = _probe()
    matcher = Matcher(doc.vocab)
    try:
        matcher.add("probe", [list(pattern)])
    except ValueError:  # spaCy refused it: the pattern's own validation says why, not this check
        return False
    covered = set()
    for _, start, end in matcher(doc):
        covered.update(range(start, end))
    return len(covered) == len(doc)


@lru_cache(maxsize=1)
def _probe():
    """The Doc of tokens no lexicon names (one vocabulary, made once)."""
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

    return Doc(Vocab(), words=list(PROBE_WORDS))
