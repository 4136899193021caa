"""Claim records: every part of a claim a rewrite can wash away or change, read by what it does.

A claim (``claims.py``) is read into a record of parts, each a ``Part``
with its value, its rank on the part's ordered scale where it has one, the
words that set it (gate words, cues, or a piece of structure such as a
question mark), and the content keys it bears on:

- ``source``: who the claim is attributed to, one part per attribution cue
  (so "Bob said Alice thinks ..." has two levels), ranked by the speaker's
  *standing*: unknown or hearsay < a named person < the claim's own subject
  < an authority or a record;
- ``certainty``: how sure the claim is worded, on the scale slight < possible
  < likely < very likely < certain (no hedge: certain);
- ``mood``: obligation, permission or ability, intent, hypothetical, a
  frame that puts the claim outside the real world (a dream, a joke), a
  request, a question (read from the sentence's question mark too);
- ``quantity``, ``frequency``, ``partial``, ``complete``, ``comparison``: how
  much of the claim holds (few < some < most < all; rarely < sometimes <
  often < always; partly, begun, "70% done"; equative < comparative,
  one-of < superlative);
- ``restriction``: the population, place, subgroup or study the claim is
  limited to ("Among smokers over 60, ...", "at the Leeds site");
- ``tense``: a past state or habit ("used to", "was ... until"), or the tense
  of be, have and do.

Polarity, conditions, times and values keep their own readings
(``compare/``); the record lists what a user needs to see why a claim was
compared as it was: ``str(record)`` is short. A bare plural or a bare verb
reads as the top of the quantity and frequency scales, so a quantifier or a
frequency word the memory drops is read as widened.
"""

from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple

from spacy.tokens import Span

from .claims import DETERMINERS, Claim, DocClaims
from .words import Word

QUANTITY = {"few": 1, "some": 2, "most": 3, "all": 4}
FREQUENCY = {"rarely": 1, "sometimes": 2, "often": 3, "always": 4}
CERTAINTY = {"slight": 0, "possible": 1, "likely": 2, "very_likely": 3, "certain": 4}
STANDING = {"hearsay": 0, "named": 1, "subject": 2, "authority": 3, "record": 3}
COMPARISON = {"near_equative": 0, "equative": 1, "comparative": 2, "one_of": 2, "superlative": 3}
UNMARKED = 4  # a bare plural or bare verb: the top of the quantity and frequency scales
RESTRICTING_PREPOSITIONS = frozenset({"among", "in", "at", "for", "within", "across", "amongst"})
FRONTED_PREPOSITIONS = RESTRICTING_PREPOSITIONS | {"on", "under", "with", "outside", "inside", "throughout"}
SUPERLATIVE_WORDS = frozenset({"best", "worst", "most", "least", "top", "foremost", "first", "last"})
ORDINALS = frozenset({"first", "last"})  # superlatives only after "one of" / "among" ("among the first to ...")
COMPARATIVE_WORDS = {"better": "more", "worse": "less", "more": "more", "less": "less", "fewer": "less"}
Reader = Callable[[DocClaims, Claim], List["Part"]]  # a claim's parts of one kind (or two)
PRONOUNS = {"i": "1s", "me": "1s", "we": "1p", "us": "1p", "you": "2", "he": "3m", "him": "3m", "she": "3f",
            "her": "3f", "they": "3p", "them": "3p", "it": "3n"}


@dataclass(frozen=True)
class Part:
    """One part of a claim's record: its kind, value, rank on the kind's scale (None when it has none), the words
    that set it, the content keys it bears on, and for a comparison the direction and the compared word."""

    kind: str
    value: str
    rank: Optional[int]
    spans: Tuple[Span, ...]
    words: Tuple[Word, ...] = ()
    bears_on: FrozenSet[int] = frozenset()
    detail: Tuple = ()

    @property
    def text(self) -> str:
        """The words that set the part, for a message."""
        return ", ".join(repr(span.text) for span in self.spans) or "(its structure)"

    def __str__(self) -> str:
        where = "; ".join(f"[{s.start_char}:{s.end_char}]" for s in self.spans)
        return f"{self.kind} {self.value} ({self.text} {where})".replace(" ()", "")


@dataclass
class ClaimRecord:
    """A claim with the parts of it a rewrite can wash away, by kind. Each kind is read at its first look-up (a
    check that finds no part of its kind on one side never has the other side's read)."""

    claim: Claim
    claims: DocClaims
    read: Dict[Reader, Dict[str, List[Part]]] = field(default_factory=dict)  # each reader's parts, by kind

    def of(self, kind: str) -> List[Part]:
        """The parts of one kind (none when the claim has none)."""
        reader = READER_OF.get(kind)
        if reader is None:
            return []
        found = self.read.get(reader)
        return (self._read(reader) if found is None else found).get(kind, [])

    def _read(self, reader: Reader) -> Dict[str, List[Part]]:
        """What one reader gives the claim, by kind in the order it gives them (read once)."""
        if reader not in self.read:
            found: Dict[str, List[Part]] = {}
            for part in reader(self.claims, self.claim):
                found.setdefault(part.kind, []).append(part)
            self.read[reader] = found
        return self.read[reader]

    @property
    def parts(self) -> Dict[str, List[Part]]:
        """The parts of every kind the claim has, by kind: the readers' kinds in their order, each reader's in the
        order it gave them."""
        return {kind: parts for _, reader in READERS for kind, parts in self._read(reader).items()}

    def __iter__(self) -> Iterator[Part]:
        return (part for parts in self.parts.values() for part in parts)

    def __str__(self) -> str:
        head = f"claim [{self.claim.start_char}:{self.claim.end_char}] {self.claim.text!r}"
        return "\n".join([head] + [f"  {part}" for part in self]) if self.parts else head + " (no qualifying parts)"


def record_of(claims: DocClaims, claim: Claim) -> ClaimRecord:
    """The claim's record, made once per claim and kept in the Doc's claims (its kinds read as they are asked
    for)."""
    records = claims.cache.setdefault("records", {})
    if claim.index not in records:
        records[claim.index] = ClaimRecord(claim, claims)
    return records[claim.index]


# -- readers: each a function from a claim to its parts of one kind ----------------------------------------------

def _word_parts(claim: Claim, label: str, kind: str, scale: Optional[Dict[str, int]], width: int = 3,
                skip=lambda claim, word: False) -> List[Part]:
    """The parts one list of gate words sets, each bearing on the content it precedes (or follows)."""
    return [Part(kind, word.entry.value, scale.get(word.entry.value) if scale else None, (word.span,), (word,),
                 claim.focus(word.span, width)) for word in claim.words_of(label) if not skip(claim, word)]


def _next_is_number(claim: Claim, word: Word) -> bool:
    """Whether a number follows the word ("some 40 people": an approximator, not a quantifier)."""
    doc, end = claim.doc, word.span.end
    return end < len(doc) and (doc[end].like_num or doc[end].is_currency)


def _not_a_quantifier(claim: Claim, word: Word) -> bool:
    """"some 40", "the most popular", "most likely": words of the list that are not quantifiers there."""
    doc, start, end = claim.doc, word.span.start, word.span.end
    if _next_is_number(claim, word):
        return True
    before = doc[start - 1].lower_ if start > 0 else ""
    after = doc[end].lower_ if end < len(doc) else ""
    return word.span.text.lower() in {"most", "all"} and (before in {"the", "a", "at"} or after in {"likely", "of all"})


def read_quantity(claims: DocClaims, claim: Claim) -> List[Part]:
    """Quantifiers (few < some < most < all), each bearing on the noun it quantifies."""
    return _word_parts(claim, "QUANTIFIER", "quantity", QUANTITY, 1, _not_a_quantifier)


def read_frequency(claims: DocClaims, claim: Claim) -> List[Part]:
    """Frequency adverbs (rarely < sometimes < often < always), bearing on the whole claim."""
    return [Part("frequency", w.entry.value, FREQUENCY[w.entry.value], (w.span,), (w,), claim.keys)
            for w in claim.words_of("FREQUENCY")]


def read_partial(claims: DocClaims, claim: Claim) -> List[Part]:
    """What holds only in part or has only begun ("partly", "has started"), and a share short of all that is done
    ("70% complete"); and what is stated as complete ("done", "fully")."""
    parts = [Part("partial", w.entry.value, None, (w.span,), (w,), claim.keys) for w in claim.words_of("PARTIAL")
             if not _next_is_number(claim, w)]
    doc = claim.doc
    for word in claim.words_of("COMPLETE"):
        before = doc[max(claim.clause.start, word.span.start - 3):word.span.start]
        share = [t for t in before if t.like_num or t.text == "%" or t.lower_ in {"percent", "per"}]
        if share and not any(t.text in {"100", "100%"} for t in share):
            parts.append(Part("partial", "share", None, (doc[share[0].i:word.span.end],), (word,), claim.keys))
        else:
            parts.append(Part("complete", "complete", None, (word.span,), (word,), claim.keys))
    return parts


def read_comparison(claims: DocClaims, claim: Claim) -> List[Part]:
    """Degrees of comparison: "as X as" (equative), "X-er than" / "more X than" (comparative, with its direction),
    "one of the X-est" (one of), "the X-est" (superlative); each with the compared word's key. The words are read
    as lower-case strings from the Doc's token attributes (``Claim.view``); a Token is made only for a word that
    forms a comparison, and a lemma looked up only for a word ending in "-er" or "-est"."""
    doc, parts = claim.doc, []
    one_of = [w for w in claim.words_of("COMPARISON") if w.entry.value == "one_of"]
    at = list(claim.indices())
    strings, lower_ids = doc.vocab.strings, claim.view.lower
    lowers = [strings[lower_ids[i]] for i in at]

    def lemma(n: int) -> str:
        key = claims.key.of(doc, at[n], lower_ids[at[n]])
        return strings[key] if key in strings else lowers[n]

    for n, i in enumerate(at):
        lower = lowers[n]
        if lower == "as" and n + 2 < len(at) and lowers[n + 2] == "as" and doc[at[n + 1]].is_alpha:
            near = n > 0 and lowers[n - 1] in {"almost", "nearly", "not quite", "roughly"}
            value = "near_equative" if near else "equative"
            begin = i - 1 if near else i
            parts.append(Part("comparison", value, COMPARISON[value], (doc[begin:i + 3],),
                              detail=("same", claims.key(doc[at[n + 1]]))))
            continue
        after_one_of = [w.span for w in one_of if w.span.end <= i and i - w.span.end <= 2]
        superlative = (lower in SUPERLATIVE_WORDS and n > 0 and lowers[n - 1] in {"the", "its", "their", "our"}
                       and (lower not in ORDINALS or bool(after_one_of))) \
            or (lower.endswith("est") and len(lower) > 4 and lemma(n) != lower)
        if superlative:
            compared = at[n + 1] if lower in {"most", "least"} and n + 1 < len(at) else i
            value = "one_of" if after_one_of else "superlative"
            direction = "less" if lower == "least" else "more"
            parts.append(Part("comparison", value, COMPARISON[value],
                              tuple(doc[s.start:s.end] for s in after_one_of) + (doc[i:i + 1],),
                              detail=(direction, claims.key(doc[compared]))))
            continue
        comparative = lower in COMPARATIVE_WORDS or (lower.endswith("er") and len(lower) > 3 and lemma(n) != lower)
        if comparative and "than" in lowers[n + 1:]:
            direction = COMPARATIVE_WORDS.get(lower, "more")
            compared = at[n + 1] if lower in {"more", "less", "fewer"} and n + 1 < len(at) else i
            if lower in {"more", "less", "fewer"} and lowers[n + 1] == "than":
                compared = i
            parts.append(Part("comparison", "comparative", COMPARISON["comparative"], (doc[i:i + 1],),
                              detail=(direction, claims.key(doc[compared]) if lower in COMPARATIVE_WORDS
                                      and compared != i else claims.key(doc[i]))))
    return parts


def _would_reported(claim: Claim, word: Word) -> bool:
    """"would" under an attribution is the reported form of "will" (future in the past), not a hypothetical."""
    return word.span.text.lower() == "would" and bool(claim.cues("ATTRIBUTION"))


def read_mood(claims: DocClaims, claim: Claim) -> List[Part]:
    """The claim's mood when it is not a plain assertion: the gate's MOOD words (obligation, permission or ability,
    intent, hypothetical, a frame, a request, a question) and a question mark ending its sentence."""
    parts = []
    conditional = [(c.start, c.end) for c in claims.cues if c.label_ == "CONDITIONAL"]
    for word in claim.words_of("MOOD"):
        if any(s <= word.span.start < e for s, e in conditional):
            continue  # "Should sales fall, ...": the inverted condition's word, not an obligation
        value = "intent" if _would_reported(claim, word) else word.entry.value
        if value == "hypothetical" and word.span.text.lower() in {"almost", "nearly"} and (
                _next_is_number(claim, word) or any(c.span.start == word.span.end for c in claim.words_of("COMPLETE"))
                or (word.span.end < len(claim.doc) and claim.doc[word.span.end].lower_ == "as")):
            continue  # "almost 40", "nearly done": an approximator or a partial, not a counterfactual
        parts.append(Part("mood", value, None, (word.span,), (word,), claim.focus(word.span, 4)))
    sentence = claim.sentence
    last = next((t for t in reversed(sentence) if not t.is_space), None)
    if last is not None and last.text == "?" and claim.end_char <= last.idx + 1:
        parts.append(Part("mood", "question", None, (claim.doc[last.i:last.i + 1],), (), claim.keys))
    return parts


PASSIVE_BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "'s", "'re"})


def _utilised(claim: Claim, word: Word) -> bool:
    """Whether "used to" is a passive or "get used to", not a past habit: "is used to address", "got used to"."""
    start = word.span.start
    return word.span.text.lower() == "used to" and start > 0 and claim.doc[start - 1].lower_ in PASSIVE_BE


def read_tense(claims: DocClaims, claim: Claim) -> List[Part]:
    """A past state or habit ("used to", "formerly", "until 2022" with a past be), and the tense of the claim's
    first be, have or do."""
    parts = []
    words = claim.words_of("TENSE")
    for word in words:
        if word.entry.id == "tense:past_habit" and not _utilised(claim, word):
            parts.append(Part("tense", "past_state", None, (word.span,), (word,), claim.keys))
    for word in claim.words_of("ERA"):
        if word.entry.value == "former":
            parts.append(Part("tense", "past_state", None, (word.span,), (word,), claim.keys))
    for word in words:
        if word.entry.value == "future":
            parts.append(Part("tense", "future", None, (word.span,), (word,), claim.keys))
    be = next((w for w in words if w.entry.id in {"tense:past_be", "tense:present_be"}), None)
    if be is not None:
        parts.append(Part("tense", be.entry.value, None, (be.span,), (be,), claim.keys))
    return parts


def _standing(claims: DocClaims, claim: Claim, speaker: Span) -> Tuple[str, Tuple[Word, ...]]:
    """Where a named speaker stands: hearsay (an indefinite speaker: "someone", "a friend", "sources"), authority
    or record (the gate's STANDING words), the claim's own subject (the speaker's head is the claim's first
    content word: "Alice said she was promoted"), else a person the text names ("Karl", "my manager", "she")."""
    found = claims.words_at(speaker, "STANDING")
    if found:
        best = max(found, key=lambda w: STANDING[w.entry.value])
        return best.entry.value, (best,)
    words = [t for t in speaker if t.is_alpha and not t.is_stop]
    first = next((k for i, k in sorted(claim.key_at.items())), None)
    if words and first is not None and claims.key(words[-1]) == first:
        return "subject", ()
    return "named", ()


def _name(claims: DocClaims, token) -> bool:
    """Whether a word reads as a name: capitalised inside its sentence, an acronym, or capitalised at the start of
    its sentence and neither a function word nor an inflected form the lemma table knows ("Alice said"; not
    "Clients reported")."""
    if token.is_upper and len(token) > 1:
        return True
    if not token.is_title:
        return False
    return not token.is_sent_start or (not token.is_stop and claims.key(token) == token.lower)


def read_source(claims: DocClaims, claim: Claim) -> List[Part]:
    """One part per attribution cue bound to the claim: the speaker's standing, with the cue and speaker as its
    words. An evidential with no speaker ("reportedly", "rumour has it") and what was heard ("I heard that", not
    "I heard from Hana that") are hearsay; a reporting verb whose speaker was not found is not ranked."""
    parts = []
    doc = claim.doc
    for cue in claim.cues("ATTRIBUTION"):
        speakers = claims.speakers_of(cue)
        speaker = speakers[0] if speakers else None
        if speaker is None and cue.id_ not in claims.evidentials:
            continue
        value, words = ("hearsay", ()) if speaker is None else _standing(claims, claim, speaker)
        heard_from = cue.end + 1 < len(doc) and doc[cue.end].lower_ == "from" and _name(claims, doc[cue.end + 1])
        if cue.text.lower() in {"heard", "hear", "overheard"} and value != "record" and not heard_from:
            value = "hearsay"
        spans = (cue,) + ((speaker,) if speaker is not None else ())
        # a reporting verb bears on what it frames: the words after it ("Someone said X, and the CEO confirmed Y":
        # the CEO stands behind Y only); one after its claim ("X, she said") bears on the whole claim
        after = frozenset(k for i, k in claim.key_at.items() if i >= cue.end)
        parts.append(Part("source", value, STANDING[value], spans, words, after or claim.keys, (cue.id_,)))
    return parts


AS_REACH = 12  # words back from a likelihood word to the "as" opening its clause, at most


def in_as_clause(doc, i: int) -> bool:
    """Whether a word stands in a comparative "as" clause ("as expected, ...", "..., as everyone predicted"): such
    a clause takes the claim as given, so a likelihood word in it does not hedge the claim. The clause opens at a
    sentence start or after punctuation, at most ``AS_REACH`` words back."""
    start = i
    while start > max(0, i - AS_REACH) and not doc[start - 1].is_punct and not doc[start].is_sent_start:
        start -= 1
    opens = start == 0 or doc[start].is_sent_start or doc[start - 1].is_punct
    return opens and doc[start].lower_ == "as" and start < i


def read_certainty(claims: DocClaims, claim: Claim) -> List[Part]:
    """How likely the claim is worded: each hedge cue bound to the claim at the rank of the gate's CERTAINTY word
    it holds (possible when it holds none), and CERTAINTY words that are no cue ("projected", "almost
    certainly")."""
    words = claim.words_of("CERTAINTY")
    parts = []
    doc = claim.doc
    for cue in claim.cues("HEDGE"):
        if in_as_clause(doc, cue.start):
            continue
        inside = [w for w in words if cue.start <= w.span.start and w.span.end <= cue.end or
                  w.span.start <= cue.start and cue.end <= w.span.end]
        value = min((w.entry.value for w in inside), key=CERTAINTY.__getitem__, default="possible")
        parts.append(Part("certainty", value, CERTAINTY[value], (cue,), tuple(inside), claim.focus(cue)))
    covered = {w.span.start for p in parts for w in p.words}
    hedged = [(c.start, c.end) for c in claim.cues("HEDGE")]
    for word in words:
        if word.span.start in covered or any(s <= word.span.start < e for s, e in hedged) or \
                in_as_clause(doc, word.span.start):
            continue
        if word.entry.value == "certain" or (word.span.start > 0 and doc[word.span.start - 1].lower_ in DETERMINERS):
            continue  # "the might of the river": a noun where a determiner stands before it
        parts.append(Part("certainty", word.entry.value, CERTAINTY[word.entry.value], (word.span,), (word,),
                          claim.focus(word.span)))
    return parts


def _phrase_keys(claim: Claim, start: int, end: int) -> FrozenSet[int]:
    """The content keys of a stretch of the claim."""
    return frozenset(k for i, k in claim.key_at.items() if start <= i < end)


def _restricting(claim: Claim, start: int, end: int) -> FrozenSet[int]:
    """What a restriction restricts to: its content keys and its numbers ("over 60": the 60 is the restriction)."""
    return _phrase_keys(claim, start, end) | numbers(claim.doc, start, end)


def numbers(doc, start: int, end: int) -> FrozenSet[int]:
    """The numbers of a stretch of a Doc, by their text's hash."""
    return frozenset(t.orth for t in doc[start:end] if t.like_num)


def read_restriction(claims: DocClaims, claim: Claim) -> List[Part]:
    """The population, place, subgroup or study the claim is limited to: a prepositional phrase that opens the
    claim and ends at a comma ("Among smokers over 60, ..."), or one whose noun is a RESTRICTOR word ("in
    patients over 70", "at the Leeds site"). A phrase that is only a time is the time's (``TEMPORAL``)."""
    doc, parts = claim.doc, []
    times = claim.cues("TEMPORAL")
    start, end = claim.clause.start, claim.clause.end
    taken = set()
    framed = {w.span.start for w in claim.words_of("MOOD") if w.entry.value == "frame"}
    if doc[start].lower_ in FRONTED_PREPOSITIONS:
        comma = next((t.i for t in doc[start:end] if t.text == ","), None)
        reported = comma is not None and any(comma < c.start <= comma + 4 for c in claims.cues
                                             if c.label_ == "ATTRIBUTION")  # "In the chat, someone said ...": where it was said
        if comma is not None and comma - start <= 12 and not reported and not any(start <= i < comma for i in framed):
            keys = _restricting(claim, start + 1, comma)
            if keys and not any(c.start <= start + 1 and comma <= c.end + 1 for c in times):
                parts.append(Part("restriction", "fronted", None, (doc[start:comma],), (), keys,
                                  (numbers(doc, start + 1, comma),)))
                taken.update(range(start, comma))
    for word in claim.words_of("RESTRICTOR"):
        i = word.span.start
        if i in taken:
            continue
        preposition = next((t.i for t in reversed(doc[max(start, i - 4):i]) if t.lower_ in RESTRICTING_PREPOSITIONS), None)
        if preposition is None:
            continue
        stop = word.span.end
        while stop < end and stop - word.span.end < 3 and (doc[stop].like_num or doc[stop].lower_ in
                                                            {"over", "under", "aged", "above", "below", "older",
                                                             "younger", "than", "who", "with", "site", "plant"}):
            stop += 1
        keys = _restricting(claim, preposition + 1, stop) or frozenset({claims.key(doc[i])})
        if any(c.start <= preposition and stop <= c.end for c in times):
            continue
        parts.append(Part("restriction", word.entry.value, None, (doc[preposition:stop],), (word,), keys,
                          (numbers(doc, preposition + 1, stop),)))
        taken.update(range(preposition, stop))
    return parts


def _conditions(claims: DocClaims):
    """Read once per Doc: the tokens inside conditional cues, and for each claim the condition clauses next to it
    in its sentence (the claim just before or just after) that a CONDITION word that is no cue opens, with that
    word."""
    if "conditions" not in claims.cache:
        cued = {i for c in claims.cues if c.label_ == "CONDITIONAL" for i in range(c.start, c.end)}
        governs: Dict[int, List[Tuple[Claim, Word]]] = {}
        for n, claim in enumerate(claims.claims):
            word = next((w for w in claim.words_of("CONDITION")
                         if w.span.start == claim.clause.start and w.span.start not in cued), None)
            if word is None or not claim.keys:
                continue
            for neighbour in claims.claims[max(0, n - 1):n] + claims.claims[n + 1:n + 2]:
                if neighbour.clause.sentence == claim.clause.sentence:
                    governs.setdefault(neighbour.index, []).append((claim, word))
        claims.cache["conditions"] = (frozenset(cued), governs)
    return claims.cache["conditions"]


def read_condition(claims: DocClaims, claim: Claim) -> List[Part]:
    """Conditions no conditional cue sets ("as long as", "when", "once", "provided", the gate's CONDITION words that
    are no cue): a condition clause next to the claim in its sentence (just before or after it), or the words after
    such a word inside the claim; each part bears on the condition's content words. (A conditional cue's
    condition is the conditions check's.)"""
    doc, parts = claim.doc, []
    cued, governs = _conditions(claims)
    inside = [w for w in claim.words_of("CONDITION") if w.span.start not in cued]
    for word in inside:
        if word.span.start > claim.clause.start:
            keys = _phrase_keys(claim, word.span.end, claim.clause.end)
            if keys:
                parts.append(Part("condition", word.span.text.lower(), None,
                                  (doc[word.span.start:claim.clause.end],), (word,), keys))
    if not inside:
        for other, word in governs.get(claim.index, ()):
            parts.append(Part("condition", word.span.text.lower(), None, tuple(other.pieces), (word,), other.keys))
    return parts


READERS = ((("source",), read_source), (("certainty",), read_certainty), (("mood",), read_mood),
           (("quantity",), read_quantity), (("frequency",), read_frequency), (("partial", "complete"), read_partial),
           (("comparison",), read_comparison), (("restriction",), read_restriction), (("tense",), read_tense),
           (("condition",), read_condition))  # the kinds of part each reader gives, and the reader
READER_OF = {kind: reader for kinds, reader in READERS for kind in kinds}


def records(claims: DocClaims) -> List[ClaimRecord]:
    """Every claim of a Doc with its record, in text order."""
    return [record_of(claims, claim) for claim in claims.claims]


def shown(records_: Sequence[ClaimRecord]) -> str:
    """Records as a person reads them: one claim a line, its parts indented under it."""
    return "\n".join(str(record) for record in records_)
