"""Values bound to what they measure: the number, its unit, the noun it counts, and the words around it.

- ``changed_value``: a memory value the source never gives (in any unit it
  converts to); a value moved to another noun ("2 servers and 8 disks" ->
  "8 servers and 2 disks"); a bound turned around ("at least" -> "at most");
  a direction turned around ("rose" -> "fell").
- ``changed_unit``: the same number in another unit that is not a
  conversion ("5 GB" -> "5 MB", "$5" -> "€5").
- ``dropped_values``: the memory sentence gives no value where the source
  sentence gives at least ``min_source_values``, or the memory counts a
  source value's noun or unit with a quantity word and no number ("9 hours"
  -> "many hours").
- ``dropped_approximation``: "about", "up to", "at least" or a range the
  memory states as a plain point.
- notes: ``introduced_value`` (a value no sentence of the source gives, where
  the aligned source sentence had none), ``moved_value`` (one the source
  gives in another sentence only)
  and ``ambiguous_unit`` (a data size that matches only if a decimal prefix
  is read as a binary one).

Values are searched in the source claim's whole sentence (a memory may cut a
sentence into claims differently), but a value must stay with its noun.
Numbers that are times (inside a TEMPORAL cue, or a year after a time word)
are left to ``times.py``.
A number the gate cannot read as a finite one ("1e999 km", "NaN":
``values/quantities.py``) matches only the same number written the same way,
so a memory stating another number beside it is a ``changed_value``.
"""

import re
from dataclasses import dataclass, replace
from typing import Dict, FrozenSet, List, Optional, Sequence

from spacy.tokens import Span

from ..claims import Claim, DocClaims, span_text
from ..report import Change
from ..words import Word
from ..values.quantities import Quantity, counted_noun, quantities, same_quantity, same_value, words_before
from .base import Pair

YEAR = re.compile(r"(?<![\d,.])\d{4}(?![\d,.])")
ASCII_DIGIT = re.compile(r"[0-9]")
YEAR_WORDS = frozenset({"in", "since", "between", "from", "until", "till", "by", "during", "before", "after",
                        "year", "years", "circa", "early", "late", "mid", "fy", "fiscal"})
LOWER_BOUNDS, UPPER_BOUNDS = frozenset({"ge", "gt"}), frozenset({"le", "lt"})


@dataclass(frozen=True)
class Value:
    """A quantity in context: the noun it counts (a content key) and the bound or approximator before it."""

    quantity: Quantity
    noun: Optional[int]
    bound: Optional[str]  # ge, gt, le, lt, up_to, about (an approximator), or None
    soft: bool = False  # a fraction word ("a quarter"): it can match a value, never stands as one alone

    def describe(self) -> Dict[str, object]:
        """The value as a change's evidence gives it (``value`` None for one the gate cannot read as a number)."""
        q = self.quantity
        return {"value": q.value if q.readable else None, "unit": q.unit, "surface": q.surface,
                "start_char": q.start_char, "end_char": q.end_char}


def _quoted(values: Sequence[Value]) -> str:
    """The values as a message quotes them, each the gate cannot read as a finite number said to be so."""
    return ", ".join(repr(v.quantity.surface) + ("" if v.quantity.readable else " (no finite number the gate reads)")
                     for v in values)


def is_time(times: Sequence[Span], quantity: Quantity, sentence: Span) -> bool:
    """Whether a quantity is a time, not a value: inside one of the TEMPORAL cues ``times`` (a date or clock
    time) and not a value with a unit ("2 hours", "$5 per month"), or a year: four digits from 1000 to 2100 without a unit,
    after a word that introduces a time ("in 1994", "since 2011", "between 1994 and 2011")."""
    if quantity.has_unit:
        return False  # a duration ("2 hours") or a rate ("$5 per month") is a value, whatever time word it holds
    if any(c.start_char < quantity.end_char and quantity.start_char < c.end_char for c in times):
        return True
    if quantity.unit != "dimensionless" or not quantity.value.is_integer() or not 1000 <= quantity.value <= 2100:
        return False  # "1000%" is a share, never a year
    if str(int(quantity.value)) not in YEAR.findall(quantity.surface):
        return False
    at = quantity.start_char - sentence.start_char  # reading the sentence's text, never the Doc's (rebuilt on each call)
    before = re.findall(r"[A-Za-z]+", sentence.text[max(0, at - 30):at])
    words = quantity.surface.lower().split()[:1] + [w.lower() for w in before[-1:]]
    return any(word in YEAR_WORDS for word in words)


def sentence_values(claims: DocClaims, claim: Claim) -> List[Value]:
    """The values of a claim's sentence (worked out once per Doc and sentence), times left out, fraction words
    added as soft values."""
    cache = claims.cache.setdefault("values", {})
    index = claim.clause.sentence
    if index in cache:
        return cache[index]
    sentence, doc, key = claim.sentence, claim.doc, claims.key
    times = claims.cues_in(sentence, "TEMPORAL")
    words = [w for other in claims.by_sentence.get(index, []) for w in other.words]
    bounds = [(w.span.start, w.span.end, w.entry.value or "about") for w in words if w.label in ("BOUND", "APPROXIMATOR")]
    found = []
    for q in _read_quantities(claims, sentence, index):
        if is_time(times, q, sentence):
            continue
        noun = counted_noun(sentence, q)
        start, end = words_before(sentence, q)
        after = doc.char_span(q.end_char, q.end_char + 1, alignment_mode="expand")
        bound = next((b for s, e, b in bounds if start <= s and e <= end + 1), None) or next(
            (b for s, e, b in bounds if after is not None and after.start <= s <= after.start + 1
             and doc[s].lower_ in ("or", "and")), None)  # "5 or more", "10 and up"
        found.append(Value(q, key(doc[noun]) if noun is not None else None, bound))
    for w in words:
        if w.label == "FRACTION" and not any(v.quantity.start_char <= w.span.start_char < v.quantity.end_char
                                               for v in found):
            value = float(w.entry.value)
            q = Quantity(value, "dimensionless", "dimensionless", w.span.text, w.span.start_char, w.span.end_char,
                         "dimensionless", (value,))
            found.append(Value(q, None, None, soft=True))
    cache[index] = found
    return found


def values_read(claims: DocClaims, claim: Claim) -> tuple:
    """What the values check reads from a claim's sentence: its values, by amount, unit, noun and bound (copies of
    a claim in sentences that read alike give the same changes)."""
    return tuple((v.quantity.value, v.quantity.unit, v.noun, v.bound, v.soft) for v in sentence_values(claims, claim))


def document_values(claims: DocClaims) -> List[Value]:
    """The values of every sentence of a Doc that holds a claim (each sentence read once)."""
    first = {claim.clause.sentence: claim for claim in reversed(claims.claims)}
    return [v for claim in first.values() for v in sentence_values(claims, claim)]


def _read_quantities(claims: DocClaims, sentence: Span, index: int) -> List[Quantity]:
    """The quantities of a sentence (``index``: its place in the Doc), read on the normalised text ("5\u200b0 GB"
    is 50 GB) with offsets and surfaces of the original."""
    reading = claims.reading
    if reading.shadow is None:
        return list(quantities(sentence)) if _may_hold_number(claims, sentence, index) else []
    found, text, offset = [], sentence.text, sentence.start_char  # the sentence's text, not the Doc's joined anew
    for q in quantities(reading.span(sentence)):
        start, end = reading.original(q.start_char, q.end_char)
        found.append(replace(q, start_char=start, end_char=end, surface=text[start - offset:end - offset]))
    return found


def _may_hold_number(claims: DocClaims, sentence: Span, index: int) -> bool:
    """Whether a sentence can hold a value ``quantities`` reads: a token spaCy reads as a number, a digit, or the
    "nan" or "inf" of a number printed as a program prints one (a sentence that is not all ASCII is read whatever it
    holds). A sentence with none of them is not handed to ``quantities``, which would find no number in it."""
    if claims.has_numbers(index):
        return True
    text = span_text(sentence)
    lower = text.lower()
    return not text.isascii() or ASCII_DIGIT.search(text) is not None or "nan" in lower or "inf" in lower


def time_cues(claims: DocClaims, claim: Claim) -> List[Span]:
    """The TEMPORAL cues bound to a claim that say when it held: a cue word inside a value is part of the value
    ("hours" of "2 hours", "quarter" of "a quarter"), not a time."""
    cues = claim.cues("TEMPORAL")
    if not cues or not claims.has_numbers(claim.clause.sentence) and not claim.words_of("FRACTION"):
        return cues
    values = sentence_values(claims, claim)
    return [c for c in cues if not any(v.quantity.start_char <= c.start_char and c.end_char <= v.quantity.end_char
                                       for v in values)]


def _inside(values: Sequence[Value], claim: Claim) -> List[Value]:
    return [v for v in values if claim.start_char <= v.quantity.start_char < claim.end_char]


def check_values(pair: Pair) -> List[Change]:
    """changed_value, changed_unit, dropped_values and dropped_approximation; introduced_value and
    ambiguous_unit as notes."""
    if pair.candidates and pair.source is not pair.candidates[0]:
        return []  # values are compared once, against the sentences of every source claim the memory claim merged
    source_pool = []
    for sentence in {c.clause.sentence: c for c in (pair.candidates or [pair.source])}.values():
        source_pool += sentence_values(pair.source_claims, sentence)
    memory_sentence = sentence_values(pair.memory_claims, pair.memory)
    memory_values = _inside(memory_sentence, pair.memory)
    changes: List[Change] = []
    hard_source = [v for v in source_pool if not v.soft]
    if len(hard_source) >= pair.min_source_values and not [v for v in memory_sentence if not v.soft]:
        changes.append(pair.change(
            "dropped_values",
            f"the source gives the values ({', '.join(v.quantity.surface for v in hard_source)}); "
            "the memory keeps none of them", values={"source": [v.describe() for v in hard_source]}))
        return changes
    vague = _made_vague(pair, hard_source, memory_sentence)
    if vague:
        return vague
    for value in memory_values:
        changes += _compare(pair, value, source_pool)
    changes += _direction(pair)
    return changes


VAGUE_REACH = 4  # tokens after a quantity word where the noun it counts stands ("a large number of patients")


def _measured(claims: DocClaims, value: Value) -> FrozenSet[int]:
    """What a value measures, as content keys: the noun it counts ("1,240 *patients*") and its unit word ("9
    *hours*", "14 *km*")."""
    keys = {value.noun} if value.noun is not None else set()
    doc = claims.doc
    span = doc.char_span(value.quantity.start_char, value.quantity.end_char, alignment_mode="expand")
    if span is not None and value.quantity.has_unit and span[-1].is_alpha:
        keys.add(claims.key(span[-1]))
    return frozenset(keys)


def _counted_vaguely(claim: Claim, claims: DocClaims) -> Dict[int, Word]:
    """The nouns a claim counts with a quantity word and no number ("many *hours*", "plenty of *RAM*"), by content
    key, each with its quantity word."""
    doc, found = claim.doc, {}
    for word in claim.words_of("QUANTIFIER"):
        for token in doc[word.span.end:min(len(doc), word.span.end + VAGUE_REACH)]:
            if token.is_punct or token.like_num:
                break
            if token.is_alpha and not token.is_stop:
                found.setdefault(claims.key(token), word)
                break
    return found


def _made_vague(pair: Pair, source_values: Sequence[Value], memory_values: Sequence[Value]) -> List[Change]:
    """dropped_values: a source value whose noun or unit the memory claim counts with a quantity word instead, and
    with no number ("9 hours" -> "many hours", "1,240 patients" -> "a large number of patients", "64 GB of RAM"
    -> "plenty of RAM"): the value made vague."""
    counted = _counted_vaguely(pair.memory, pair.memory_claims)
    if not counted:
        return []
    numbered = frozenset().union(*(_measured(pair.memory_claims, v) for v in memory_values if not v.soft))
    for value in source_values:
        for key in _measured(pair.source_claims, value) - numbered:
            if key in counted:
                word = counted[key]
                return [pair.change("dropped_values", f"the source gives {value.quantity.surface!r}; the memory "
                                    f"says {word.span.text!r} instead, with no number",
                                    pair.word_evidence([word], "memory"), values={"source": [value.describe()]})]
    return []


def _compare(pair: Pair, value: Value, pool: Sequence[Value]) -> List[Change]:
    """What became of one memory value: found as it is, moved to another noun, bounded otherwise, changed."""
    q = value.quantity
    same = [s for s in pool if same_quantity(s.quantity, q, approximate="about" in (value.bound, s.bound))]
    described = {"memory": value.describe(), "source": [s.describe() for s in pool]}
    if not same:
        if value.soft:
            return []
        elsewhere = [s for s in document_values(pair.source_claims) if not s.soft and same_quantity(s.quantity, q)]
        if not [s for s in pool if not s.soft]:
            if elsewhere:
                return [pair.change("moved_value", f"the memory gives {q.surface!r} here; the source gives it in "
                                    "another sentence, not in the one this claim aligns to",
                                    values={"memory": value.describe(), "source": [s.describe() for s in elsewhere]},
                                    check="changed_value")]
            return [pair.change("introduced_value", f"the memory gives {q.surface!r}, which no claim of the source "
                                "gives", values={"memory": value.describe()}, check="changed_value")]
        same_number = [s for s in pool if q.has_unit and s.quantity.has_unit and same_value(s.quantity.value, q.value)]
        if same_number:
            s = same_number[0].quantity
            return [pair.change("changed_unit", f"the memory keeps the value but says {q.unit} ({q.surface!r}) where "
                                f"the source says {s.unit} ({s.surface!r})", values=described)]
        also = f" (the source gives {q.surface!r} in another sentence)" if elsewhere else ""
        return [pair.change("changed_value", f"the memory says {_quoted([value])}; the aligned source sentence says "
                            f"{_quoted(pool)}{also}", values=described)]
    changes = []
    if value.noun is not None:
        counted = [s for s in pool if s.noun == value.noun]
        if counted and not any(same_quantity(s.quantity, q, approximate="about" in (value.bound, s.bound))
                               for s in counted):
            return [pair.change("changed_value", f"the memory gives {_quoted([value])} for what the source counts as "
                                f"{_quoted(counted)}: a value moved to another noun", values=described)]
    source = _closest(same, pair.source, value)
    changes += _bounds(pair, value, source, pool, described)
    if _only_binary(source.quantity, q):
        changes.append(pair.change("ambiguous_unit", f"{q.surface!r} equals {source.quantity.surface!r} only "
                                   "when a decimal prefix is read as a binary one", values=described,
                                   check="changed_unit"))
    return changes


def _closest(same: Sequence[Value], claim: Claim, value: Value) -> Value:
    """Of the source values equal to a memory value, the one it reads as: inside the aligned claim if one is,
    counting the same noun if one does ("about 5 servers and 5 disks": the memory's "5 servers" is the first),
    and then bounded alike ("about Alice 5 5" copied: the plain 5 is the plain 5)."""
    candidates = _inside(same, claim) or list(same)
    candidates = [s for s in candidates if value.noun is not None and s.noun == value.noun] or candidates
    return next((s for s in candidates if s.bound == value.bound), candidates[0])


def _spread(pair: Pair, source: Value, pool: Sequence[Value]) -> bool:
    """Whether a source value is one end of a range the memory does not keep: a spread ("between 90 and 100"),
    not a change written "from 120 ms to 80 ms" beside a direction word; and the memory claim does not give the
    other end too."""
    q = source.quantity
    if not q.ranged or (q.path and pair.source.words_of("DIRECTION")):
        return False
    ends = [v for v in pool if v.quantity.surface == q.surface and v.quantity.start_char == q.start_char and v is not source]
    memory = sentence_values(pair.memory_claims, pair.memory)
    return not any(same_quantity(end.quantity, m.quantity) for end in ends for m in _inside(memory, pair.memory))


def _bounds(pair: Pair, value: Value, source: Value, pool: Sequence[Value], described) -> List[Change]:
    """A bound turned around, or a bound, approximator or range the memory states as a point."""
    sb, mb = source.bound, value.bound
    if (sb in LOWER_BOUNDS and mb in UPPER_BOUNDS) or (sb in UPPER_BOUNDS and mb in LOWER_BOUNDS):
        return [pair.change("changed_value", f"the source bounds {source.quantity.surface!r} one way ({sb}); the "
                            f"memory the other ({mb})", values=described)]
    spread = _spread(pair, source, pool)
    if mb is None and not value.quantity.ranged and (sb is not None or spread):
        what = "a range" if spread and sb is None else f"'{sb}'"
        return [pair.change("dropped_approximation", f"the source gives {source.quantity.surface!r} as {what}; the "
                            f"memory states {value.quantity.surface!r} as an exact value", values=described)]
    return []


def _only_binary(a: Quantity, b: Quantity) -> bool:
    """Whether two data sizes agree only when one's decimal prefix is read as binary."""
    if a.dimension != "data storage" or a.unit == b.unit:
        return False
    return not any(same_value(x, y) for x in a.base[:1] for y in b.base[:1])


def _direction(pair: Pair) -> List[Change]:
    """A direction of change turned around: a direction word only the memory uses ("decreasing") against one
    only the source uses ("increasing"), with no word of the source's direction among the memory's own."""
    key = pair.source_claims.key

    def by_key(words):
        return {key(w.span[0]): w for w in words}

    source, memory = by_key(pair.source.words_of("DIRECTION")), by_key(pair.memory.words_of("DIRECTION"))
    source_only = [w for k, w in source.items() if k not in memory]
    memory_only = [w for k, w in memory.items() if k not in source]
    memory_ways = {w.entry.value for w in memory_only}
    for lost in source_only:
        turned = [w for w in memory_only if w.entry.value != lost.entry.value]
        if turned and lost.entry.value not in memory_ways:
            return [pair.change("changed_value", f"the source says the value went {lost.entry.value} "
                                f"({lost.span.text!r}); the memory says {turned[0].entry.value} ({turned[0].span.text!r})",
                                pair.word_evidence([lost], "source") + pair.word_evidence(turned[:1], "memory"))]
    return []
