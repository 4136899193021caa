"""Values: numbers with their units, in base units, bound to what they count and to the words around them.

quantulum3 reads numbers and units (through ``quantulum.py``, its fence).
It costs milliseconds a call, growing with the text, and a second or more
to import, so it is imported on the first number and runs only on short
windows around tokens spaCy marks ``like_num`` (enough for "$1.2 million",
"1.2 million dollars", "5 GB").
Each value is then

- put in its dimension's base unit (``units.json`` of the value tables: 3 km = 3,000 m,
  30 °C = 86 °F, 2 hours = 120 minutes, 25% = 0.25; a currency is a
  dimension of its own, so no currency equals another; a data size with a
  decimal prefix may mean the binary one, and both readings are kept);
- bound to the noun it counts ("2 *servers*", "8 *disks*");
- given the bound or approximator before it ("at least", "up to", "about",
  from the gate's word lists) and whether it is one end of a range.

A number written as a program prints one is a number too (spaCy's
``like_num`` leaves it out): scientific notation ("1.5e3 km" is 1,500 km)
and the non-finite forms ("NaN", "inf", "-Infinity"). A number the gate
cannot read as a finite float (one that overflows, "1e999"; one that
underflows to zero, "1e-400"; a NaN or an infinity; a numeral longer than
``MAX_NUMERAL`` characters, which quantulum3 is never given; a printed
number quantulum3 reads nothing of, "1e303 million") is kept as
an *unreadable* quantity: its value is NaN, it equals only an unreadable
quantity written the same, and so it never lets another number pass.
"""

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Tuple

from spacy.strings import get_string_id
from spacy.tokens import Span, Token

from ....lexicon.sets import UNITS_FILE, VALUES
from ....lexicon.tables import table_json
from ....syntax.text import doc_text
from .quantulum import LONG_NUMERAL, MAX_NUMERAL, Reading, read_values

DIMENSIONLESS = "dimensionless"
BEFORE, AFTER = 3, 4  # tokens read on each side of a number
SCALE_WORDS = frozenset({"hundred", "thousand", "million", "billion", "trillion"})  # a window never ends before one
SCALES = {"k": 1e3, "m": 1e6, "mn": 1e6, "b": 1e9, "bn": 1e9, "tn": 1e12}  # "£2bn", "$8.2m", "$5k"
ALWAYS_SCALE = frozenset({"bn", "mn", "tn"})  # never a unit: "2bn people"; "m", "k", "b" scale only after a currency
SCALED = re.compile(r"^(\d[\d,]*(?:\.\d+)?)(bn|mn|tn|m|k|b)$", re.IGNORECASE)
PLUS_MINUS = ("±", "+/-", "+-", "plus or minus")
NOUN_REACH = 3  # tokens after a value in which the noun it counts is looked for
APPROXIMATE = 0.05  # how far apart two values given as approximate ("about") may be across a conversion
ARC_MINUTE = re.compile(r"\bmin(ute)?s?\b", re.IGNORECASE)
RANGE_WORDS = re.compile(r"\b(Between|From|BETWEEN|FROM)\b")  # quantulum3 loses a range's offsets after these
HALF_A = re.compile(r"^half an? (hundred|thousand|million|billion|trillion|dozen)\b", re.IGNORECASE)
POINTS_AFTER = re.compile(r"^\s*points?\b", re.IGNORECASE)
MINUS_BEFORE = re.compile(r"\b(minus|negative)\s*$", re.IGNORECASE)
UNIT_AFTER = re.compile(r"^\s*([A-Za-z]+)")
# tried only where a run of spaces starts (tried inside one, the scan went over the rest of the run again at each of its
# characters: quadratic in a run's length, as in "10" + 20,000 spaces + "hectares"); the same matches, since the words
# hold no space and a search gives the leftmost
TRAILING_FUNCTION_WORD = re.compile(r"(?<!\s)\s+(at|in|on|to|a|an|the|for|of|by|and|or|as|with)$", re.IGNORECASE)
# "quarter" as a period of the year ("the fourth quarter", "2 quarters in a row", "the quarter to June"), with its
# ordinal: quantulum3 reads it as a fraction (0.25, "fourth" 0.25 too). A fraction is "a/one/three quarter(s)".
PERIOD_QUARTER = re.compile(r"\b(?:(?:first|second|third|fourth|final|1st|2nd|3rd|4th)[\s-]+)?quarters?\b", re.IGNORECASE)
FRACTION_BEFORE = re.compile(r"\b(?:a|one|three)[\s-]+$", re.IGNORECASE)
# a number as a program prints one, inside a token ("~1e999", "NaN."): scientific notation, NaN and the infinities
# (unsigned, "nan" and "Nan" are a grandmother and a name, "infinity" a word: none of them a number)
PRINTED_NUMBER = re.compile(r"(?<![\w.,])(?:[+-]?(?:(?:\d[\d,]*(?:\.\d*)?|\.\d+)[eE][+-]?\d+|NaN|NAN|inf|Inf|INF)"
                            r"|[+-](?:nan|infinity|Infinity|INFINITY))(?!\w)")
EXPONENT_MARK = re.compile(r"(?<=\d)E(?=[+-]?\d)")  # quantulum3 reads "1.5e3" but not "1.5E3"


@lru_cache(maxsize=1)
def unit_table() -> Tuple[Dict[str, Tuple[str, float, float]], Dict[str, str]]:
    """(quantulum3 unit name -> (dimension, factor, offset), currency code -> currency) from ``units.json`` (the
    value tables this process reads, ``lexicon/tables.py``)."""
    data = table_json(VALUES.name, UNITS_FILE)
    return {name: tuple(row) for name, row in data["units"].items()}, data["currency_codes"]


@lru_cache(maxsize=1)
def misread_units() -> Dict[str, str]:
    """Unit words quantulum3 leaves unread after a number ("10 hectares"), and the unit they name."""
    return table_json(VALUES.name, UNITS_FILE)["misread_units"]


@lru_cache(maxsize=1)
def unit_hashes() -> FrozenSet[int]:
    """Words that, right after a number, are part of its value ("percent", "dollars", "km"), from ``units.json``,
    as string-store hashes."""
    return frozenset(get_string_id(word) for word in table_json(VALUES.name, UNITS_FILE)["unit_words"])


@dataclass(frozen=True)
class Quantity:
    """A value as written, its unit, its value(s) in base units, and where it stands in its text."""

    value: float
    unit: str
    entity: str
    surface: str
    start_char: int
    end_char: int
    dimension: str = DIMENSIONLESS
    base: Tuple[float, ...] = ()
    ranged: bool = False  # one end of a range ("between 5 and 10", "5-10 GB", "from 120 ms to 80 ms")
    path: bool = False  # the range is written "from ... to ...", which may be a change rather than a spread

    @property
    def has_unit(self) -> bool:
        return self.entity != DIMENSIONLESS

    @property
    def readable(self) -> bool:
        """Whether the gate read the value as a finite number (``quantities`` gives one it cannot, in its own unit or
        in the base unit, the value NaN): an unreadable one is compared by how it is written alone."""
        return not math.isnan(self.value)


def _values(quantity: Reading, text: str) -> Tuple[Tuple[float, bool, bool], ...]:
    """The values a quantulum3 reading states, each with whether it is one end of a range and whether the range
    is written "from ... to": a range ("from 120 ms to 80 ms", "5-10 GB") is read as its midpoint and
    half-width, so both ends are given back; a stated uncertainty ("5 ± 0.2 mg") stays one value."""
    spread = quantity.uncertainty
    if spread and not any(mark in quantity.surface.lower() for mark in PLUS_MINUS):
        before = text[:quantity.span[0]].rstrip().lower()
        path = quantity.surface.lower().startswith("from") or before.endswith("from")
        return (quantity.value - spread, True, path), (quantity.value + spread, True, path)
    return ((quantity.value, False, False),)


def _read(quantity: Reading, text: str) -> Tuple[float, str, str, str, int, int]:
    """One quantulum3 reading as (value, unit, entity, surface, start, end), with what it misreads put right:
    "120 minutes" read as an angle, "half a million" read as 1.5 million, "percentage points" read as percent,
    "minus 5" read as 5, a unit left unread ("10 hectares"), and a unit glued to the word after it ("30 °C at" read
    as degree Celsius ampere-turn)."""
    value, unit, entity = quantity.value, quantity.unit, quantity.entity
    start, end = quantity.span
    surface = text[start:end] if start >= 0 else quantity.surface
    if unit == "minute of arc" and ARC_MINUTE.search(surface):
        unit, entity = "minute", "time"  # "120 minutes" is a time far more often than an angle
    if HALF_A.match(surface):
        value /= 3  # quantulum3 reads "half a million" as one and a half million
    if unit == "percentage" and POINTS_AFTER.match(text[end:]):
        unit, entity = "percentage point", "percentage point"
    if MINUS_BEFORE.search(text[:max(start, 0)]):
        value = -value
    unread = UNIT_AFTER.match(text[end:])
    if entity == DIMENSIONLESS and unread and unread.group(1).lower() in misread_units():
        unit = misread_units()[unread.group(1).lower()]
        entity, end = unit_table()[0][unit][0], end + unread.end()
        surface = text[start:end]
    trailing = TRAILING_FUNCTION_WORD.search(surface)
    if entity == "unknown" and trailing:
        again = read_values(surface[:trailing.start()])
        if again:
            return _read(again[0], surface[:trailing.start()])[:4] + (start, start + trailing.start())
    return value, unit, entity, surface, start, end


@lru_cache(maxsize=4096)
def _parse(text: str) -> Tuple[Tuple[float, str, str, str, int, int, bool, bool], ...]:
    """(value, unit, entity, surface, start, end, ranged, path) for each value quantulum3 finds in ``text``."""
    found = []
    original, text = text, _blank_period_quarters(RANGE_WORDS.sub(lambda m: m.group().lower(), text))  # same length
    text = EXPONENT_MARK.sub("e", text)
    for quantity in read_values(text):
        value, unit, entity, surface, start, end = _read(quantity, original)
        for reading, ranged, path in _values(quantity, text):
            found.append((reading * value / quantity.value if quantity.value else reading, unit, entity,
                          surface, start, end, ranged, path))
    return tuple(found)


def _blank_period_quarters(text: str) -> str:
    """The text with each "quarter" that names a period (and its ordinal) blanked to spaces, so that it is never
    read as a value; offsets stay."""
    def blank(match: re.Match) -> str:
        fraction = match.group().lower().startswith("quarter") and FRACTION_BEFORE.search(text[:match.start()])
        return match.group() if fraction else " " * len(match.group())

    return PERIOD_QUARTER.sub(blank, text)


def number_windows(span: Span) -> List[Tuple[Span, Span]]:
    """For every number-like token of the span (``like_num``, or a number printed as a program prints one), the
    window of a few tokens around it (with the token).

    Each number is read in a window of its own, not in one merged window: quantulum3 loses the second value of
    "between $5 and $10" when it reads both at once. A window never ends just before a scale word: cut there,
    "$2 million to $4" reads as a range to four dollars.
    """
    windows = []
    for token in span:
        lower = token.lower_  # a printed number holds a digit and an "e", or "nan" or "inf": only such are searched
        may_print = "e" in lower and "d" in token.shape_ or "nan" in lower or "inf" in lower
        if token.like_num or may_print and _printed(token) or token.text[:1].isdigit() and SCALED.match(token.text):
            end = min(span.end, token.i + AFTER + 1)
            while end < span.end and span.doc[end].lower_ in SCALE_WORDS:  # "$2 million to $4 million", whole
                end += 1
            windows.append((span.doc[max(span.start, token.i - BEFORE): end], span.doc[token.i:token.i + 1]))
    return windows


def _printed(token: Token) -> Optional[Tuple[int, int]]:
    """Where, in its Doc's text, the token writes a number as a program prints one, with a sign spaCy split off it
    ("+", "nan"); None when it writes none."""
    found = PRINTED_NUMBER.search(token.text)
    if found is not None:
        return token.idx + found.start(), token.idx + found.end()
    sign = token.nbor(-1) if token.i > 0 else None
    if sign is None or sign.text not in ("+", "-") or sign.whitespace_:
        return None
    found = PRINTED_NUMBER.match(sign.text + token.text)
    return None if found is None else (sign.idx + found.start(), sign.idx + found.end())


def _unreadable(token: Token) -> Optional[Tuple[int, int]]:
    """Where, in its Doc's text, the token writes a number the gate cannot read as a finite float; None when it
    writes none. That is a numeral longer than ``MAX_NUMERAL`` characters (quantulum3 is never given one), or
    one printed as a program prints it that overflows, is NaN or infinite, or is lost to zero ("1e999", "NaN",
    "-inf", "1e-400")."""
    if LONG_NUMERAL.search(token.text):
        return token.idx, token.idx + len(token.text)
    printed = _printed(token)
    if printed is None:
        return None
    written = doc_text(token.doc)[printed[0]:printed[1]]
    number = float(written.replace(",", ""))
    lost = number == 0 and re.search("[1-9]", re.split("[eE]", written)[0]) is not None
    return printed if lost or not math.isfinite(number) else None


def _unread(span: Span, token: Token, at: Tuple[int, int]) -> Quantity:
    """The unreadable quantity of a number quantulum3 read nothing of ("NaN", "1e303 million"), with the unit word
    right after it ("NaN km")."""
    start, end = at
    after = token.nbor(1) if token.i + 1 < span.end else None
    if end == token.idx + len(token.text) and after is not None and after.lower in unit_hashes():
        end = after.idx + len(after.text)
    return Quantity(math.nan, DIMENSIONLESS, DIMENSIONLESS, doc_text(token.doc)[start:end], start, end)


def _in_base(value: float, unit: str, entity: str, code: Optional[str]) -> Tuple[str, Tuple[float, ...]]:
    """The dimension and the value(s) in its base unit (two readings for a decimal data size)."""
    units, _ = unit_table()
    if code is not None:
        return f"currency:{code}", (value,)
    if unit not in units:
        return f"{entity}:{unit}", (value,)
    dimension, factor, offset = units[unit]
    readings = [value * factor + offset]
    if dimension == "data storage" and factor >= 1000:
        exponent = round(len(str(int(factor))) - 1) // 3
        readings.append(value * 1024 ** exponent * (factor / 1000 ** exponent))
    return dimension, tuple(readings)


def _currency_code(span: Span, start_char: int) -> Optional[str]:
    """A currency code written before a bare number ("USD 5", "EUR 5"): quantulum3 does not read it."""
    _, codes = unit_table()
    doc = span.doc
    token = doc.char_span(start_char, start_char + 1, alignment_mode="expand")
    if token is None or token.start == 0:
        return None
    return codes.get(doc[token.start - 1].text)


def quantities(span: Span) -> Tuple[Quantity, ...]:
    """The quantities of a span, with offsets in its Doc's text; empty when it holds no number. A quantity is
    kept only from the window of a number it covers ("first" does not make "quarter" a value)."""
    found: Dict[Tuple[int, int, float], Quantity] = {}
    powers = _powers(span)
    for power in powers:
        found[(power.start_char, power.end_char, power.value)] = power
    in_powers = [(power.start_char, power.end_char) for power in powers]
    for window, number in number_windows(span):
        token = number[0]  # a numeral spaCy knows is unreadable only when it is long
        if any(start <= token.idx < end for start, end in in_powers):
            continue
        unreadable = _unreadable(token) if token.text[MAX_NUMERAL:] or not token.like_num else None
        scaled = _scaled(span, token)
        if scaled is not None:
            found[(scaled.start_char, scaled.end_char, scaled.value)] = scaled
            continue
        read = _read_window(span, window, number, unreadable, found)
        if not read and token.like_num and window.start < token.i - 1:
            # quantulum3 reads nothing of the 4 in "2 and €4 next year": read it from its own symbol on
            read = _read_window(span, span.doc[token.i - 1:window.end], number, unreadable, found)
        if not read and (unreadable or not token.like_num):  # a number quantulum3 read nothing of: unreadable
            # where it is printed ("1e999"), else the whole token that writes it ("..9b")
            unread = _unread(span, token, unreadable or _printed(token) or (token.idx, token.idx + len(token.text)))
            if not any(q.start_char < unread.end_char and unread.start_char < q.end_char for q in found.values()):
                found[(unread.start_char, unread.end_char, unread.value)] = unread
    return _between(span, sorted(found.values(), key=lambda q: (q.start_char, -math.inf if q.value != q.value
                                                                   else q.value)))


def _powers(span: Span) -> List[Quantity]:
    """Numbers written as powers ("10^999 km", "2^10"), each one unreadable quantity (with the unit word after
    it): quantulum3 reads "10^999 km" as 10 and 999 km, so a memory giving "999 km" passed."""
    doc, powers = span.doc, []
    if "^" not in doc_text(doc)[span.start_char:span.end_char]:
        return powers  # no caret: no Token made for each of the span's words
    for i in range(span.start + 1, span.end - 1):
        base, caret, exponent = doc[i - 1], doc[i], doc[i + 1]
        if (caret.text == "^" and not base.whitespace_ and not caret.whitespace_ and base.text[-1:].isdigit()
                and exponent.text.lstrip("+-")[:1].isdigit()):
            powers.append(_unread(span, exponent, (base.idx, exponent.idx + len(exponent.text))))
    return powers


def _scaled(span: Span, token: Token) -> Optional[Quantity]:
    """A number with a scale suffix, fused or written after it ("£2bn", "$8.2m", "$5 bn", "2bn people"), read as
    the amount it scales to: quantulum3 reads "£2bn" as pounds times bits times newtons and "$8.2m" as dollar
    metres. "bn", "mn" and "tn" always scale; "m", "k" and "b" only after a currency ("8.2m" alone may be metres,
    "5k" a run). None when the token is no such number."""
    doc, fused = span.doc, SCALED.match(token.text)
    if fused:
        number, suffix, end = fused.group(1), fused.group(2).lower(), token.idx + len(token.text)
    elif token.like_num and token.i + 1 < span.end and doc[token.i + 1].lower_.rstrip(".") in SCALES:
        after = doc[token.i + 1]  # "m." at the end of a sentence: the scale without its period
        number, suffix = token.text, after.lower_.rstrip(".")
        end = after.idx + len(suffix)
    else:
        return None
    try:
        amount = float(number.replace(",", "")) * SCALES[suffix]
    except ValueError:
        return None
    before = doc[token.i - 1] if token.i > span.start else None
    currency = _parse(before.text + "1") if before is not None and not before.is_alpha else ()
    code = _currency_code(span, token.idx)
    if currency and currency[0][2] == "currency":
        unit, entity, start, code = currency[0][1], "currency", before.idx, None
    elif code is not None:
        unit, entity, start = DIMENSIONLESS, "currency", before.idx
    elif suffix in ALWAYS_SCALE:
        unit, entity, start = DIMENSIONLESS, DIMENSIONLESS, token.idx
    else:
        return None
    dimension, base = _in_base(amount, unit, entity, code)
    return Quantity(amount, code or unit, entity, doc_text(doc)[start:end], start, end, dimension, base)


def _read_window(span: Span, window: Span, number: Span, unreadable, found: Dict) -> bool:
    """Add to ``found`` the quantities quantulum3 reads in a number's window that cover the number; whether it
    read any."""
    offset, read = window.start_char, False
    for value, unit, entity, surface, s, e, ranged, path in _parse(window.text):
        start, end = offset + s, offset + e
        if not (start < number.end_char and number.start_char < end):
            continue
        read = True
        code = _currency_code(span, start) if entity == DIMENSIONLESS and unit == DIMENSIONLESS else None
        dimension, base = _in_base(value, unit, "currency" if code else entity, code)
        if unreadable or not all(map(math.isfinite, (value, *base))):
            value, base = math.nan, ()
        if any((q.value == value or q.value != q.value and value != value)  # the same reading, or both NaN
               and q.start_char < end and start < q.end_char for q in found.values()):
            continue
        found[(start, end, value)] = Quantity(value, code or unit, "currency" if code else entity, surface, start,
                                              end, dimension, base, ranged, path)
    return read


BETWEEN_REACH = 4  # tokens back from a range's first end to its "between" ("between the range of $90 million and")
RANGE_OPENERS = frozenset({"between", "range", "ranging", "from"})  # "between X and Y", "in the range of X and Y"
RANGE_JOINERS = frozenset({"and", "to", "-", "–", "—"})  # "and" only after "between" or "range"


def _between(span: Span, found: List[Quantity]) -> Tuple[Quantity, ...]:
    """The quantities with both ends of a range marked ranged where quantulum3 gave two points: "between X and Y"
    (it reads each number of "between $90 million and $100 million" in a window of its own) and "X to Y" or "X-Y"
    between values it does not read itself ("£2bn to £4bn"). The "between" (or "range": "in the range of X and
    Y") stands at most ``BETWEEN_REACH`` tokens before the first end, with no punctuation after it; a "from" right
    there makes "from X to Y" a path, as quantulum3 reads it. The two ends are of one dimension. Each end is given
    the whole range's surface and offsets, as quantulum3 gives the ends of "5 to 10"."""
    doc = span.doc
    text = doc_text(doc) if len(found) > 1 else ""
    for n in range(len(found) - 1):
        first, second = found[n], found[n + 1]
        joiner = text[first.end_char:second.start_char].strip().lower()
        unreadable_end = not (first.readable and second.readable)  # "between NaN and 5 km": a range all the same
        if (first.ranged or second.ranged or joiner not in RANGE_JOINERS
                or first.dimension != second.dimension and not unreadable_end):
            continue
        start = doc.char_span(first.start_char, first.end_char, alignment_mode="expand")
        if start is None:
            continue
        opener = ""
        for token in reversed(doc[max(span.start, start.start - BETWEEN_REACH):start.start]):
            if token.is_punct:
                break
            if token.lower_ in RANGE_OPENERS:
                opener = token.lower_
                break
        if joiner == "and" and opener not in ("between", "range", "ranging"):
            continue
        whole = dict(surface=text[first.start_char:second.end_char], start_char=first.start_char,
                     end_char=second.end_char, ranged=True, path=opener == "from" and joiner == "to")
        found[n], found[n + 1] = replace(first, **whole), replace(second, **whole)
    return tuple(found)


def same_value(a: float, b: float) -> bool:
    """Equal up to float noise."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _precision(surface: str) -> float:
    """Half a unit of the last digit written ("1.83 m" -> 0.005), as a share of the value written."""
    digits = re.findall(r"\d[\d,]*(?:\.(\d+))?", surface)
    if not digits:
        return 0.0
    decimals = len(digits[0]) if digits[0] else 0
    number = re.search(r"\d[\d,]*(?:\.\d+)?", surface)
    value = float(number.group().replace(",", "")) if number else 0.0
    return 0.5 * 10 ** -decimals / value if value else 0.0


def same_quantity(a: Quantity, b: Quantity, approximate: bool = False) -> bool:
    """Whether two quantities state the same amount: the same dimension and value; across units, equal to the
    precision the less precise one is written with (6 ft = 1.83 m, 3 miles = 4.8 km), never past 1%, or 5%
    when one is given as approximate ("about 3 miles" = "about 5 km"). An unreadable quantity equals only an
    unreadable one written the same ("1e999 km", "NaN")."""
    if a.dimension != b.dimension:
        return False
    if not (a.readable and b.readable):
        return a.readable == b.readable and a.surface.lower().split() == b.surface.lower().split()
    if a.unit == b.unit:
        return same_value(a.value, b.value)
    tolerance = min(APPROXIMATE if approximate else 0.01, max(_precision(a.surface), _precision(b.surface),
                                                             APPROXIMATE if approximate else 0.0))
    return any(abs(x - y) <= max(1e-9, tolerance) * max(abs(x), abs(y)) for x in a.base for y in b.base)


def counted_noun(span: Span, quantity: Quantity) -> Optional[int]:
    """The token index of the noun a value counts: the first content word within a few tokens after it
    ("2 servers", "8 new disks"), or None."""
    doc = span.doc
    value = doc.char_span(quantity.start_char, quantity.end_char, alignment_mode="expand")
    if value is None:
        return None
    for token in doc[value.end: min(span.end, value.end + NOUN_REACH)]:
        if token.is_punct or token.like_num:
            return None
        if token.is_alpha and not token.is_stop:
            return token.i
    return None


def words_before(span: Span, quantity: Quantity, reach: int = 4) -> Tuple[int, int]:
    """The token range just before a value, where its bound or approximator stands ("at least 5", "about 40", "a
    minimum purchase amount of $3,000"): up to ``reach`` tokens, never past punctuation or another number ("over 3
    servers and 5 disks" bounds the 3 alone)."""
    doc = span.doc
    value = doc.char_span(quantity.start_char, quantity.end_char, alignment_mode="expand")
    if value is None:
        return 0, 0
    start = value.start
    while start > max(span.start, value.start - reach) and not (doc[start - 1].is_punct or doc[start - 1].like_num):
        start -= 1
    return start, value.start
