# cython: language_level=3, boundscheck=False, wraparound=False
"""The anchored matcher's work on a Doc in C: its phrase passes sorted in one loop, fixed token patterns checked in place.

``AnchoredMatcher`` (``matcher.py``) finds phrase entries and the anchors of its token patterns with spaCy's
PhraseMatcher. ``PhrasePasses`` runs those PhraseMatchers' own search (``find_matches``) and sorts what it finds in
the same loop: a phrase entry's match (kept unless its first token must open a sentence and does not), or an anchor
hit (kept unless its anchor asks for exact case and the token's text is not one of its values), with no Python call
and no Python tuple per raw match.

``FixedPatterns`` holds the token patterns of a fixed length (an optional token makes one more alternative) whose
every constraint is a plain value, an ``IN``/``NOT_IN`` list or a ``REGEX`` of an attribute, or a flag (``fixed.py``
compiles them and says which); each is checked at the one start its anchor hit places it, reading the attribute the way
spaCy's Matcher reads it (``get_token_attr_for_matcher``), instead of running a Matcher over a window of the Doc.
A pattern it cannot hold stays with the anchored matcher's spaCy Matcher. Both are built once per compile and read
while holding the GIL; pickled as what they were built from (a worker process builds its own).
"""

from cymem.cymem cimport Pool
from libc.stdint cimport uint64_t
from libcpp.vector cimport vector
from preshed.maps cimport MapStruct, map_get, map_init, map_set
from preshed.maps cimport PreshMap
from spacy.attrs cimport attr_id_t
from spacy.matcher.phrasematcher cimport PhraseMatcher
from spacy.structs cimport SpanC
from spacy.tokens.doc cimport Doc, get_token_attr_for_matcher
from spacy.typedefs cimport attr_t

EQUAL, IN, NOT_IN, REGEX = 0, 1, 2, 3  # how a check compares a token's attribute with its values


cdef class PhrasePasses:
    """The LOWER and SHAPE PhraseMatchers of an anchored matcher, and how their keys are read."""

    cdef readonly tuple matchers
    cdef readonly object phrase_keys, openers, exact_case
    cdef PreshMap _phrases
    cdef PreshMap _openers
    cdef PreshMap _exact  # anchor key -> a map of the orth ids its hits must have
    cdef Pool _mem

    def __cinit__(self, *args, **kwargs):
        # made before ``__init__``: an instance that skips it finds nothing
        self._phrases, self._openers, self._exact, self._mem = PreshMap(), PreshMap(), PreshMap(), Pool()
        self.matchers, self.phrase_keys, self.openers, self.exact_case = (), frozenset(), frozenset(), {}

    def __init__(self, matchers, phrase_keys, openers, exact_case):
        """``matchers``: the PhraseMatchers to run; ``phrase_keys``: the keys that are phrase entries (any other key
        is an anchor); ``openers``: the phrase keys whose first token must open a sentence; ``exact_case``: anchor
        key -> the orth ids of the texts its hits must have."""
        self.matchers = tuple(matchers)
        self.phrase_keys, self.openers, self.exact_case = frozenset(phrase_keys), frozenset(openers), dict(exact_case)
        cdef MapStruct* orths
        for key in self.phrase_keys:
            self._phrases.set(key, <void*>1)
        for key in self.openers:
            self._openers.set(key, <void*>1)
        for key, allowed in self.exact_case.items():
            orths = <MapStruct*>self._mem.alloc(1, sizeof(MapStruct))
            map_init(self._mem, orths, 8)
            for orth in allowed:
                map_set(self._mem, orths, orth, <void*>1)
            self._exact.set(key, <void*>orths)

    def __reduce__(self):
        return (PhrasePasses, (self.matchers, self.phrase_keys, self.openers, self.exact_case))

    def run(self, Doc doc, tuple matchers, list found, dict hits):
        """Run ``matchers`` (some of ``self.matchers``) over ``doc``: each phrase entry's match appended to ``found``
        as (key, start, end), each anchor hit's start added to ``hits[key]`` (a set)."""
        cdef PhraseMatcher matcher
        cdef vector[SpanC] raw
        cdef size_t i
        cdef attr_t key
        cdef int start
        cdef MapStruct* orths
        for matcher in matchers:
            raw.clear()
            matcher.find_matches(doc, 0, doc.length, &raw)
            for i in range(raw.size()):
                key, start = raw[i].label, raw[i].start
                if self._phrases.get(key) != NULL:
                    if self._openers.get(key) == NULL or doc.c[start].sent_start > 0:
                        found.append((key, start, raw[i].end))
                    continue
                orths = <MapStruct*>self._exact.get(key)
                if orths != NULL and map_get(orths, doc.c[start].lex.orth) == NULL:
                    continue
                positions = hits.get(key)
                if positions is None:
                    positions = hits[key] = set()
                positions.add(start)


cdef struct Check:
    attr_id_t attr
    int how          # EQUAL, IN, NOT_IN or REGEX
    attr_t value     # EQUAL; REGEX: the index of its compiled expression in ``_expressions``
    MapStruct* values  # IN, NOT_IN


cdef struct Fixed:
    attr_t key
    int length
    int anchor       # the offset of its anchor token
    int first        # its first token's index in ``tokens``


cdef class FixedPatterns:
    """Token patterns of a fixed length, each under the anchor key whose hits place it, checked in C."""

    cdef Pool _mem
    cdef vector[Check] _checks
    cdef vector[int] _tokens  # token t's checks are _checks[_tokens[t]:_tokens[t + 1]]
    cdef vector[Fixed] _fixed
    cdef dict _by_anchor      # anchor key -> indices into _fixed
    cdef list _expressions    # the compiled regular expressions of REGEX checks
    cdef readonly list added  # what ``add`` was given, in order: what a pickle carries

    def __cinit__(self, *args, **kwargs):
        self._mem = Pool()  # made before ``__init__``: an instance that skips it holds no pattern
        self._tokens.push_back(0)
        self._by_anchor = {}
        self._expressions = []
        self.added = []

    def __reduce__(self):
        return (_rebuilt, (self.added,))

    def __contains__(self, anchor_key):
        """Whether some pattern is placed by the hits of ``anchor_key``."""
        return anchor_key in self._by_anchor

    def __len__(self):
        """The number of patterns (alternatives counted apiece)."""
        return self._fixed.size()

    def add(self, attr_t key, attr_t anchor_key, int anchor, tokens):
        """A pattern under match key ``key``, placed by the hits of ``anchor_key`` on its token ``anchor``; ``tokens``:
        for each token, its checks as (attribute id, EQUAL/IN/NOT_IN/REGEX, value, values or a compiled expression
        searched in the attribute's string), the REGEX checks last."""
        cdef Fixed fixed
        cdef Check check
        if not 0 <= anchor < len(tokens):
            raise ValueError(f"FixedPatterns: anchor {anchor} is not a token of a pattern of {len(tokens)}")
        fixed.key, fixed.length, fixed.anchor, fixed.first = key, len(tokens), anchor, self._tokens.size() - 1
        for checks in tokens:
            for attr, how, values in checks:
                check.attr = attr
                check.how = how
                check.value = 0
                check.values = <MapStruct*>NULL
                if how == EQUAL:
                    check.value = values
                elif how == IN or how == NOT_IN:
                    check.values = <MapStruct*>self._mem.alloc(1, sizeof(MapStruct))
                    map_init(self._mem, check.values, 8)
                    for value in values:
                        map_set(self._mem, check.values, value, <void*>1)
                elif how == REGEX:
                    check.value = len(self._expressions)
                    self._expressions.append(values)
                else:
                    raise ValueError(f"FixedPatterns: no way {how!r} to compare a token's attribute")
                self._checks.push_back(check)
            self._tokens.push_back(self._checks.size())
        self._by_anchor.setdefault(anchor_key, []).append(self._fixed.size())
        self._fixed.push_back(fixed)
        self.added.append((key, anchor_key, anchor, tokens))

    def find(self, Doc doc, dict hits, list found):
        """Append to ``found`` the (key, start, end) of each pattern that matches where a hit of its anchor (``hits``:
        anchor key -> starts) places it."""
        cdef int index, start, position
        for anchor_key, positions in hits.items():
            placed = self._by_anchor.get(anchor_key)
            if placed is None:
                continue
            for index in placed:
                for position in positions:
                    start = position - self._fixed[index].anchor
                    if self._matches(doc, index, start):
                        found.append((self._fixed[index].key, start, start + self._fixed[index].length))

    cdef bint _matches(self, Doc doc, int index, int start):
        """Whether pattern ``index`` matches ``doc`` from token ``start``."""
        cdef Fixed fixed = self._fixed[index]
        cdef int i, c
        cdef attr_t value
        cdef Check* check
        if start < 0 or start + fixed.length > doc.length:
            return False
        for i in range(fixed.length):
            for c in range(self._tokens[fixed.first + i], self._tokens[fixed.first + i + 1]):
                check = &self._checks[c]
                value = get_token_attr_for_matcher(&doc.c[start + i], check.attr)
                if check.how == EQUAL:
                    if value != check.value:
                        return False
                elif check.how == REGEX:
                    if self._expressions[check.value].search(doc.vocab.strings[value]) is None:
                        return False
                elif (map_get(check.values, value) != NULL) != (check.how == IN):
                    return False
        return True


def _rebuilt(added):
    """A ``FixedPatterns`` holding what ``added`` lists (unpickling)."""
    patterns = FixedPatterns()
    for key, anchor_key, anchor, tokens in added:
        patterns.add(key, anchor_key, anchor, tokens)
    return patterns
