"""Which token patterns are checked in place, and their checks: fixed-length patterns of plain constraints.

The anchored matcher (``matcher.py``) runs a token pattern near each hit of its anchor. A pattern whose tokens
each ask only for attribute values (a string attribute equal to a word, in or not in a list of words, or matching
a regular expression; a flag true or false) and whose only operator is ``?`` (an optional token: one more alternative of a fixed length) needs
no Matcher there: each alternative starts where the hit's token stands in it, and is checked at that one start
(``passes.FixedPatterns``). ``fixed_checks`` compiles a pattern to those checks, or says it cannot (None): an
unbounded operator, a part of speech, a fuzzy match or an extension attribute stays with spaCy's Matcher.
The attributes are read as spaCy's Matcher reads them (``TEXT`` is ``ORTH``, ``IS_SENT_START`` is the token's
sentence start), so a pattern is found where the Matcher finds it (tests/test_anchored.py checks both on random
patterns).
"""

import re
from itertools import product
from typing import Any, Dict, List, Optional, Sequence, Tuple

from spacy.attrs import IDS
from spacy.strings import StringStore

from .passes import EQUAL, IN, NOT_IN, REGEX

STRING_ATTRS = {"LOWER": "LOWER", "ORTH": "ORTH", "TEXT": "ORTH", "NORM": "NORM", "SHAPE": "SHAPE",
                "PREFIX": "PREFIX", "SUFFIX": "SUFFIX"}
FLAG_ATTRS = {name: name for name in ("IS_ALPHA", "IS_ASCII", "IS_DIGIT", "IS_LOWER", "IS_UPPER", "IS_TITLE",
                                      "IS_PUNCT", "IS_SPACE", "IS_STOP", "IS_BRACKET", "IS_QUOTE", "IS_LEFT_PUNCT",
                                      "IS_RIGHT_PUNCT", "IS_CURRENCY", "LIKE_NUM", "LIKE_URL", "LIKE_EMAIL")}
FLAG_ATTRS["IS_SENT_START"] = "SENT_START"
MOST_OPTIONAL = 4  # optional tokens a pattern may have (2 ** 4 alternatives) and still be checked in place

Check = Tuple[int, int, Any]  # (attribute id, EQUAL/IN/NOT_IN/REGEX, a value, the values or a compiled expression)


def token_checks(spec: Dict[str, Any], strings: StringStore) -> Optional[List[Check]]:
    """The checks of one token of a pattern (its ``OP`` aside; its regular expressions last), or None when one of
    its constraints is not a plain value, an ``IN``/``NOT_IN`` list of words, a ``REGEX`` or a flag."""
    checks: List[Check] = []
    searched: List[Check] = []
    for name, value in spec.items():
        if name == "OP":
            continue
        if name in STRING_ATTRS:
            attr = IDS[STRING_ATTRS[name]]
            if isinstance(value, str):
                checks.append((attr, EQUAL, strings.add(value)))
                continue
            if isinstance(value, dict) and len(value) == 1:
                (how, words), = value.items()
                if how in ("IN", "NOT_IN") and isinstance(words, (list, tuple)) and all(
                        isinstance(word, str) for word in words):
                    checks.append((attr, IN if how == "IN" else NOT_IN, tuple(strings.add(word) for word in words)))
                    continue
                if how == "REGEX" and isinstance(words, str):
                    searched.append((attr, REGEX, re.compile(words)))  # as spaCy's Matcher searches it
                    continue
            return None
        if name in FLAG_ATTRS and isinstance(value, bool):
            checks.append((IDS[FLAG_ATTRS[name]], EQUAL, int(value)))
            continue
        return None
    return checks + searched


def fixed_checks(pattern: Sequence[Dict[str, Any]], strings: StringStore, anchor: int
                 ) -> Optional[List[Tuple[int, List[List[Check]]]]]:
    """The alternatives of a token pattern as (the offset of token ``anchor`` in it, its tokens' checks), one per
    choice of its optional tokens; None when a token has another operator than ``?`` (or its ``OP`` is no operator:
    spaCy's Matcher refuses that), ``anchor`` is optional, a constraint is not one ``token_checks`` compiles (a key
    in lower case among them: left to the Matcher, which reads it), or it has more than ``MOST_OPTIONAL`` optional
    tokens."""
    tokens, optional = [], []
    for index, spec in enumerate(pattern):
        optional_token = spec.get("OP") == "?"
        checks = token_checks(spec, strings)
        if checks is None or ("OP" in spec and not optional_token) or (optional_token and index == anchor):
            return None
        tokens.append(checks)
        if optional_token:
            optional.append(index)
    if not tokens or len(optional) > MOST_OPTIONAL:
        return None
    alternatives = []
    for kept in product((True, False), repeat=len(optional)):
        dropped = {index for index, keep in zip(optional, kept) if not keep}
        chosen = [index for index in range(len(tokens)) if index not in dropped]
        if chosen:
            alternatives.append((chosen.index(anchor), [tokens[index] for index in chosen]))
    return alternatives
