"""A shadow of a text in which a cue reads as a reader sees it, mapped back to the original characters.

A cue must be found whatever bytes spell it: "NOT" and "DON'T" in shouted text, "n\u200bot" with a zero-width
space, "nоt" with a Cyrillic o, "ѕаіԁ" all in Cyrillic, "n&#111;t" and "s<b></b>aid" in markup, full-width
"ｍight", "no\u00a0longer" with a no-break space, "might\u00adbe" with a soft hyphen. ``normalise`` returns, when a
text needs it, a :class:`Shadow`: the text as a person reads it (``reading.py``: markup read as what it shows,
right-to-left controls resolved, control and default-ignorable characters dropped, look-alike letters read as
Latin where a reader takes them for Latin), then every space character a plain space, format characters dropped,
compatibility forms folded (NFKD, combining marks dropped inside a word that holds an ASCII letter), a word struck
through with combining overlays ("m\u0336i\u0336g\u0336h\u0336t\u0336") left out, as a reader reads it, and
shouted lexicon words in lower case (or in the capitalised form a lexicon pattern asks for: "MONDAY" -> "Monday").
The cue component matches on the shadow and writes its spans on the original tokens through
:meth:`Shadow.original`, so every offset stays in the original text.

A text that needs none of this (the common case) costs one ``isascii`` test and two regular-expression scans; a
Doc whose tokens show it needs none of it is not even joined into its text (``plain``: one pass over its tokens
in C, ``token_passes.pyx``).
"""

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from spacy.attrs import IDX
from spacy.tokens import Doc, Span

from ..lexicon.entries import Entry
from ..lexicon.matcher import LOWER_PASS, SHAPE_PASS, AnchoredMatcher, Found
from ..lexicon.phrases import PhraseWords
from .token_passes import TokenFacts
from .reading import ASCII_MARKS, read
from .sentences import sentences, set_sentence_starts
from .text import doc_text
from .textmap import Edit, Shadow, applied, compose

# a run of non-space characters holding one that is not ASCII (or a space that is not ASCII, and the run after it),
# tried only where such a match can start: where a run starts, or at a space that is not ASCII (tried at every
# character, the scan went back over each run once per character of it)
NON_ASCII_RUN = re.compile(r"(?<!\S)\S*[^\x00-\x7f]\S*|(?=\s)[^\x00-\x7f]\S*")
STRIKE_THROUGH = frozenset("\u0334\u0335\u0336\u0337\u0338")  # combining overlays: the word is struck out
# A shouted word: two capitals or more (with an apostrophe and capitals after them: "DON'T"), or one capital, an
# apostrophe and capitals ("O'NEIL"), standing alone: no word character or apostrophe on either side. Written with
# ``\b`` for "no word character before" (the word starts with one) and the two forms behind one boundary test: the
# same words as the two forms each behind its own look-behind, read in one pass at about twice the speed
# (tests/test_annotation_work.py).
SHOUTED = re.compile(r"\b(?<!['’])(?:[A-Z]{2,}(?:['’][A-Z]+)?|[A-Z]['’][A-Z]+)(?![\w'’])")
APOSTROPHES = ("'", "’")


@dataclass(frozen=True)
class CaseForms:
    """What shouted words become: the lower-case words the lexicon knows, and the capitalised forms it asks for."""

    words: FrozenSet[str]
    capitalised: Dict[str, str]
    # further facts a caller wants of each token text (a number below 32), kept beside its marks in ``facts``,
    # shifted past them (``MARK_BITS``), and read in the same pass (``doc_facts``)
    more: Optional[Callable[[str], int]] = field(default=None, compare=False, repr=False)
    # what each token text met so far holds (``look``), kept by its orth id, for ``plain`` (``doc_facts``)
    facts: TokenFacts = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "facts", TokenFacts(self.look))

    def fold(self, word: str) -> Optional[str]:
        """The form a shouted word is matched in, or None when the lexicon does not know it (an acronym)."""
        lower = word.lower()
        if any(mark in word for mark in APOSTROPHES):
            return lower
        if lower in self.capitalised:
            return self.capitalised[lower]
        return lower if lower in self.words else None

    def marks(self, text: str) -> int:
        """What one token text holds for ``plain``, as bits: ``NEEDS`` when it alone needs a shadow (a character
        that is not ASCII, a control character or a character markup is written with, or a shouted word ``SHOUTED``
        finds in it that the lexicon knows: "NOT", "DON'T"; an acronym the lexicon does not know, "HIV", reads as
        written), ``CAPITAL`` when it holds a capital letter, ``APOSTROPHE`` when it holds an apostrophe."""
        needs = not text.isascii() or ASCII_MARKS.search(text) is not None or any(
            self.fold(word) not in (None, word) for word in SHOUTED.findall(text))
        return NEEDS * needs + CAPITAL * (text.lower() != text) + APOSTROPHE * ("'" in text)

    def look(self, text: str) -> int:
        """What ``facts`` keeps of one token text: its ``marks``, and the facts ``more`` tells past them."""
        return self.marks(text) if self.more is None else self.marks(text) | self.more(text) << MARK_BITS


def _fold_char(char: str, mixed: bool) -> str:
    """What one non-ASCII character reads as (``mixed``: its word also holds an ASCII letter)."""
    category = unicodedata.category(char)
    if category == "Cf":
        return ""
    if char.isspace():
        return " "
    if category == "Mn" and mixed:
        return ""
    folded = unicodedata.normalize("NFKD", char)
    if mixed:
        folded = "".join(c for c in folded if unicodedata.category(c) != "Mn")
    return unicodedata.normalize("NFKC", folded) if folded != char else char


def _fold_characters(text: str) -> Optional[Shadow]:
    """The text with its non-ASCII runs folded and the map back to it, or None when none folds."""
    edits: List[Edit] = []
    for run in NON_ASCII_RUN.finditer(text):
        mixed = any(c.isascii() and c.isalpha() for c in run.group())
        struck = any(c in STRIKE_THROUGH for c in run.group())
        for offset, char in enumerate(run.group()):
            if char.isascii() and not struck:
                continue
            folded = "" if struck else _fold_char(char, mixed)
            if folded != char:
                position = run.start() + offset
                edits.append((position, position + 1, folded, True))
    return applied(text, edits) if edits else None


def _fold_case(text: str, forms: CaseForms) -> str:
    """The text with each shouted word the lexicon knows in the form it is matched in (same length)."""
    changed = False
    parts, at = [], 0
    for word in SHOUTED.finditer(text):
        folded = forms.fold(word.group())
        if folded is None or folded == word.group():
            continue
        parts += [text[at:word.start()], folded]
        at, changed = word.end(), True
    return "".join(parts) + text[at:] if changed else text


def normalise(text: str, forms: CaseForms) -> Optional[Shadow]:
    """The shadow a text is matched on, or None when the text already reads as it is written."""
    person = read(text)
    seen = text if person is None else person.text
    folded = None if seen.isascii() else _fold_characters(seen)
    shadow = person if folded is None else compose(folded, person)
    current = seen if folded is None else folded.text
    cased = _fold_case(current, forms)  # the text itself when it holds no shouted word to fold
    if shadow is None:
        return None if cased == text else Shadow(cased, ((0, 0, len(text), True),))
    return Shadow(cased, shadow.pieces, shadow.notes)


def case_forms(entries: Sequence[Entry], tokenizer, more: Optional[Callable[[str], int]] = None) -> CaseForms:
    """The words a lexicon spells (lower case) and the capitalised forms its patterns ask for, for shouted text
    (with ``more``: further facts of each token text, ``CaseForms.more``). ``tokenizer`` splits the phrases: the
    ``PhraseWords`` the lexicon's matcher was compiled with (each phrase is not tokenized again), or a tokenizer.

    A capitalised form ("Monday") is kept unless its lower-case word is a phrase cue of its own ("May" / "may"):
    shouted text cannot tell those apart, and the phrase's own exclusions read its context.
    """
    split = PhraseWords.over(tokenizer)
    words, phrase_words, capitalised = set(), set(), {}
    for entry in entries:
        if not entry.is_token_pattern:
            phrase_words.update(word for phrase in entry.phrases for word in split(phrase))
            continue
        for token in entry.pattern:
            for attr, constraint in token.items():
                values = constraint.get("IN", []) if isinstance(constraint, dict) else [constraint]
                for value in (v for v in values if isinstance(v, str)):
                    if attr == "LOWER":
                        words.add(value)
                    elif attr in ("ORTH", "TEXT") and value.isalpha() and value.istitle():
                        capitalised[value.lower()] = value
    return CaseForms(frozenset(words | phrase_words),
                     {lower: form for lower, form in capitalised.items() if lower not in phrase_words}, more=more)


def shadow_doc(doc: Doc, shadow: Shadow, tokenizer) -> Doc:
    """The shadow text as a Doc, with the original's sentence starts (and its parse, when the tokens line up)."""
    shadowed = tokenizer(shadow.text)
    if shadow.pieces == ((0, 0, len(shadow.text), True),):  # same characters, one for one (shouted words folded)
        starts = shadowed.to_array(IDX).tolist()
    else:
        starts = [shadow.original(token.idx, token.idx + len(token))[0] for token in shadowed]
    if len(shadowed) == len(doc) and starts == doc.to_array(IDX).tolist():
        attrs = [attr for attr in ("TAG", "POS", "MORPH", "LEMMA") if doc.has_annotation(attr)]
        attrs += ["HEAD", "DEP"] if doc.has_annotation("DEP") else ["SENT_START"] * doc.has_annotation("SENT_START")
        if attrs:
            shadowed.from_array(attrs, doc.to_array(attrs))
    elif doc.has_annotation("SENT_START"):
        sentence_starts = {sent.start_char for sent in sentences(doc)}
        set_sentence_starts(shadowed, [i == 0 or start in sentence_starts for i, start in enumerate(starts)])
    return shadowed


def carry(doc: Doc, shadow: Shadow, span: Span) -> Span:
    """A span of the shadow Doc as the span of original tokens that cover the same characters."""
    start, end = shadow.original(span.start_char, span.end_char)
    return doc.char_span(start, end, label=span.label, alignment_mode="expand")


NEEDS, CAPITAL, APOSTROPHE = 4, 2, 1  # what ``CaseForms.marks`` says of a token text, as bits
MARK_BITS = 3  # the bits they take; ``CaseForms.more`` facts are kept past them (five bits: below 32)
JOINED = 1 << (MARK_BITS + 5)  # in ``doc_facts``: a capital joined, with no space, to a capital or an apostrophe


def doc_facts(doc: Doc, forms: CaseForms) -> int:
    """What a Doc's token texts hold for ``forms`` (``CaseForms.look``: their marks, and the ``more`` facts past
    them), or-ed over the Doc, with ``JOINED`` when a token with a capital is followed, with no space between them,
    by one that holds a capital or an apostrophe (where a shouted word could run across tokens). One pass over the
    tokens in C (``token_passes.TokenFacts``); each token text is looked at once per ``forms``."""
    return forms.facts.over(doc, CAPITAL, CAPITAL | APOSTROPHE, JOINED)


def plain(doc: Doc, forms: CaseForms, facts: Optional[int] = None) -> bool:
    """Whether a Doc surely reads as it is written, decided from its tokens without joining its text: no token
    that needs a shadow alone (``CaseForms.marks``: a character that is not ASCII, a control or markup character,
    a shouted word the lexicon knows), and no capital at the end of a token joined without a space to one that
    holds a capital or an apostrophe (``JOINED``). A shouted word found inside one token is found in the whole text
    too, so this never says plain where ``normalise`` would change the text. ``facts``: the Doc's ``doc_facts``,
    when the caller read them."""
    return not (doc_facts(doc, forms) if facts is None else facts) & (NEEDS | JOINED)


def passes_needed(facts: int) -> int:
    """The matcher passes a Doc's ``doc_facts`` name (its tokens' ``text_facts``, kept past the marks), as
    ``AnchoredMatcher``'s ``needs``."""
    return facts >> MARK_BITS & (LOWER_PASS | SHAPE_PASS)


_HASHES = TokenFacts(lambda text: int("#" in text))  # whether a token text holds a "#" (the same in any vocab)


def may_hold_hash(doc: Doc) -> bool:
    """Whether a Doc's text may hold a "#" (one of its token texts holds one: whitespace never does), as a markdown
    heading needs, told from its tokens (each token text looked at once) without joining its text."""
    return _HASHES.over(doc) != 0


def matched_reading(doc: Doc, forms: CaseForms, tokenizer, matcher: AnchoredMatcher
                    ) -> Tuple[Doc, Optional[Shadow], List[Found]]:
    """The Doc a lexicon is matched on (``reading``), its shadow, and ``matcher``'s raw matches on it. When ``forms``
    keep the matcher's ``text_facts`` beside each token text's marks (``case_forms(..., matcher.text_facts)``), one
    pass over the tokens (``doc_facts``) tells both whether the Doc is plain and, when it is, which of the matcher's
    passes can find something in it (none, in a Doc with no word any entry needs)."""
    facts = doc_facts(doc, forms)
    read, shadow = reading(doc, forms, tokenizer, facts)
    needs = passes_needed(facts) if read is doc and forms.more == matcher.text_facts else None
    return read, shadow, matcher(read, needs)


def reading(doc: Doc, forms: CaseForms, tokenizer, facts: Optional[int] = None) -> Tuple[Doc, Optional[Shadow]]:
    """The Doc a lexicon is matched on (its shadow, when the text needs one) and the shadow that maps matches
    back (None when the Doc is read as it is; a plain Doc is not joined into its text to tell: ``plain``, given
    the Doc's ``doc_facts`` when the caller read them)."""
    if plain(doc, forms, facts):
        return doc, None
    shadow = normalise(doc_text(doc), forms)
    return (doc, None) if shadow is None else (shadow_doc(doc, shadow, tokenizer), shadow)
