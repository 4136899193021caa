"""Roles: who did what to whom, swapped (``changed_roles``).

Without a parse the roles are read from word order and function words: two
words both claims share (names, nouns, pronouns: "we" and "us" are one
filler) stand on either side of a word both share between them (the
predicate). When the two fillers change sides around the same predicate and
the voice is the same on both sides ("Priya mentored Omar" -> "Omar
mentored Priya", "the supplier owes us" -> "we owe the supplier"), or keep
their sides while the voice turns ("Priya mentored Omar" -> "Priya was
mentored by Omar"), the roles were swapped. A passive with its agent
("Omar was mentored by Priya") keeps them; a symmetric predicate ("met",
"married", "and") swaps nothing.
"""

from typing import Dict, List, Optional, Tuple

from spacy.strings import get_string_id
from spacy.tokens import Doc

from ..claims import Claim
from ..records import PRONOUNS
from ..report import Change, Cue
from .base import Pair

BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "gotten", "'s", "'re"})


DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "our", "their", "its", "his", "her", "my",
                         "your", "every", "each"})


PRONOUN_IDS = {get_string_id(word): person for word, person in PRONOUNS.items()}  # by the hash of the lower case
DETERMINER_IDS = frozenset(get_string_id(word) for word in DETERMINERS)


def _places(claim: Claim) -> Dict[object, int]:
    """The claim's content words and pronouns, each at its one position (a word the claim holds twice is left out:
    its role is not read from order); "we" and "us" are one word."""
    seen: Dict[object, List[int]] = {}
    for i, key in claim.key_at.items():
        seen.setdefault(key, []).append(i)
    lower = claim.view.lower
    for i in claim.indices():
        if lower[i] in PRONOUN_IDS:
            seen.setdefault(("pronoun", PRONOUN_IDS[lower[i]]), []).append(i)
    return {key: places[0] for key, places in seen.items() if len(places) == 1}


def _filler(claim: Claim, i: int) -> bool:
    """Whether the word at ``i`` can fill a role: a name (a capitalised word inside the sentence), a pronoun, or
    the head of a noun phrase (a determiner within the two words before it)."""
    view = claim.view
    if view.lower[i] in PRONOUN_IDS or (view.title[i] and not claim.doc[i].is_stop):
        return True
    return any(view.lower[j] in DETERMINER_IDS for j in range(max(0, i - 2), i))


def _predicate(doc: Doc, i: int) -> bool:
    """Whether the word at ``i`` can be the predicate between two fillers: an inflected form ("mentored",
    "feeds", "owes")."""
    token = doc[i]
    return token.lower_ != token.lemma_.lower() or token.lower_.endswith(("ed", "s"))


def _passive(doc: Doc, predicate: int, agent_after: Optional[int]) -> bool:
    """Whether the predicate is passive with its agent: a form of be or get just before it and "by" after it."""
    before = {doc[i].lower_ for i in range(max(0, predicate - 3), predicate)}
    end = agent_after if agent_after is not None else min(len(doc), predicate + 4)
    return bool(before & BE) and any(doc[i].lower_ == "by" for i in range(predicate + 1, end))


def _symmetric(claim: Claim, start: int, end: int) -> bool:
    """Whether a symmetric predicate ("met", "married", "and") stands between two positions."""
    return any(start < w.span.start < end for w in claim.words_of("SYMMETRIC"))


def _swap(pair: Pair) -> Optional[Tuple[object, object, object]]:
    """The first (filler, predicate, filler) whose roles the memory swapped, or None."""
    source, memory = _places(pair.source), _places(pair.memory)
    shared = sorted((k for k in source if k in memory), key=lambda k: source[k])
    if len(shared) < 3:  # two fillers and a predicate between them, all shared
        return None
    fillers = [k for k in shared if _filler(pair.source, source[k]) and _filler(pair.memory, memory[k])]
    for n, first in enumerate(fillers):
        for second in fillers[n + 1:]:
            s_first, s_second, m_first, m_second = source[first], source[second], memory[first], memory[second]
            between = [p for p in shared if s_first < source[p] < s_second and
                       min(m_first, m_second) < memory[p] < max(m_first, m_second) and p not in fillers
                       and _predicate(pair.source.doc, source[p])]
            if not between or _symmetric(pair.source, s_first, s_second) or \
                    _symmetric(pair.memory, min(m_first, m_second), max(m_first, m_second)):
                continue
            predicate = between[0]
            source_passive = _passive(pair.source.doc, source[predicate], s_second)
            memory_passive = _passive(pair.memory.doc, memory[predicate], max(m_first, m_second))
            swapped_order = m_second < m_first
            if swapped_order != (source_passive != memory_passive):
                return first, predicate, second
    return None


def _evidence(pair: Pair, claim: Claim, places: Dict[object, int], keys, side: str) -> List[Cue]:
    doc = claim.doc
    return [Cue(side, "ROLE", doc[places[k]].text, doc[places[k]].idx, doc[places[k]].idx + len(doc[places[k]]),
                "structure:roles", pair.words_version) for k in keys]


def check_roles(pair: Pair) -> List[Change]:
    """changed_roles when two fillers swap roles around a predicate both claims keep."""
    found = _swap(pair)
    if found is None:
        return []
    first, predicate, second = found
    source, memory = _places(pair.source), _places(pair.memory)
    words = [pair.source.doc[source[k]].text for k in (first, predicate, second)]
    return [pair.change("changed_roles", f"the source has {words[0]!r} and {words[2]!r} on either side of "
                        f"{words[1]!r}; the memory swaps who did what to whom",
                        _evidence(pair, pair.source, source, found, "source") +
                        _evidence(pair, pair.memory, memory, found, "memory"))]
