"""A qualifier kept in other words: the memory word that does the job of a source cue.

Two equivalence lists of the gate's word lists, mined from Open English
WordNet under training/MINING.md's rule (each entry carries the synset ids
it came from):

- ``SYNONYM``: groups of words that stand for one another in the sense a
  cue is used ("indicating" / "showing" / "denoting", "current" / "present",
  "potential" / "prospective"); a memory word of a group the source cue's
  word belongs to, bearing on the same content, keeps the cue;
- ``FRAME``: communication and cognition verbs by stance (say, ask,
  propose, claim, deny, confirm, believe, inform); a memory claim framed by
  one ("clarifies that", "elaborated on", "inquires whether") keeps the
  source's attribution, when it keeps the speaker too;
- ``SPOKEN``: verbs under a stance whose first sense is another ("publish",
  "release", "expose", "see"): they keep an attribution only where the
  construction gives them their communication sense, with the source's
  speaker as their subject ("The company reported its earnings" -> "The
  company published its earnings") or as a passive judgement ("was deemed
  a threat" -> "was seen as a threat"); "published a novel" frames nothing.
"""

from typing import FrozenSet, List, Sequence

from spacy.tokens import Span

from ..claims import Claim
from ..records import PRONOUNS
from ..words import Word
from .base import Pair


def groups(claim: Claim, spans: Sequence[Span]) -> FrozenSet[str]:
    """The synonym groups (WordNet senses) the words of some cue spans of the claim belong to."""
    return frozenset(group for w in claim.words_of("SYNONYM")
                     if any(s.start <= w.span.start < s.end or w.span.start <= s.start < w.span.end for s in spans)
                     for group in w.entry.value.split(","))


def synonyms(pair: Pair, spans: Sequence[Span], keys: FrozenSet[int]) -> List[Word]:
    """The memory claim's words of a synonym group of the source cue spans, bearing on ``keys`` (or on the whole
    claim)."""
    wanted = groups(pair.source, spans)
    if not wanted:
        return []
    return [w for w in pair.memory.words_of("SYNONYM") if wanted & set(w.entry.value.split(","))
            and (not keys or pair.memory.bears_on(w.span, keys))]


COMPLEMENT = frozenset({"that", "whether", "if", "how", "why", "what", "when", "where", "who", ":", '"', "“", "on",
                        "about", "to"})
BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "'s"})
NEGATORS = frozenset({"not", "n't", "never"})
DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "its", "his", "her", "their", "our", "my",
                         "your", "every", "each", "no", "any", "some"})
SUBJECT_REACH = 4  # words back from a verb that may hold its subject


def framing(claim: Claim, word: Word) -> bool:
    """Whether a communication or cognition verb frames what follows it as what was said or thought: a clause or a
    topic after it ("clarifies that", "inquires whether", "elaborated on"), a passive judgement ("was seen as",
    "is considered to be"), or a report after the claim ("..., she explained."); not a verb with a plain object
    ("Carol falsified the data")."""
    doc, end = claim.doc, word.span.end
    after = doc[end].lower_ if end < len(doc) else ""
    return after in COMPLEMENT or judged(claim, word, ("as", "to", "a", "an", "the")) or (
        (not after or doc[end].is_punct and after != "'s") and _reported_after(doc, word.span.start))


def judged(claim: Claim, word: Word, after_words: Sequence[str] = ("as",)) -> bool:
    """Whether a verb is a passive judgement: a "be" before it (across "not" or an -ly adverb: "was not
    considered", "is widely seen") and one of ``after_words`` after it ("was seen as a threat")."""
    doc, end = claim.doc, word.span.end
    at = word.span.start - 1
    while at > 0 and word.span.start - at <= 2 and _adverb(doc[at]):
        at -= 1
    return at >= 0 and doc[at].lower_ in BE and end < len(doc) and doc[end].lower_ in after_words


def _adverb(token) -> bool:
    """A negation or an -ly adverb standing between a passive's "be" and its verb."""
    return token.lower_ in NEGATORS or (token.is_alpha and token.lower_.endswith("ly") and len(token) > 4)


def _reported_after(doc, start: int) -> bool:
    """Whether a verb closing a clause reports what comes before it: its subject stands between a comma or quote and
    the verb ("..., Bob whispered.", "..., the spokesperson said"), not a noun's determiner ("failed the audit.")."""
    if start and doc[start - 1].lower_ in DETERMINERS and doc[start - 1].pos_ in ("", "DET"):
        return False
    for t in reversed(doc[max(0, start - SUBJECT_REACH - 1):start]):
        if t.is_punct:
            return t.i < start - 1
    return False


def spoken_by(claim: Claim, word: Word, speaker: FrozenSet[int], key) -> bool:
    """Whether the source's speaker (its content keys) stands just before a verb as its subject ("The company
    published its earnings" for "The company reported its earnings")."""
    doc = claim.doc
    before = doc[max(claim.clause.start, word.span.start - SUBJECT_REACH):word.span.start]
    return bool(speaker) and bool(speaker & {key(t) for t in before})


def frames(pair: Pair, keys: FrozenSet[int], stances: FrozenSet[str] = frozenset(),
           speaker: FrozenSet[int] = frozenset()) -> List[Word]:
    """The memory claim's communication and cognition verbs bearing on ``keys`` that frame what follows them, or
    follow the source's speaker as their subject; of one of ``stances`` when given (a denial is kept only by a
    denial). A ``SPOKEN`` verb frames only with that subject or as a passive judgement."""
    key, memory = pair.memory_claims.key, pair.memory
    return [w for w in memory.words_of("FRAME") + memory.words_of("SPOKEN") if memory.bears_on(w.span, keys)
            and ((framing(memory, w) if w.label == "FRAME" else judged(memory, w))
                 or spoken_by(memory, w, speaker, key))
            and not introduces_speaker(pair, w)
            and (not stances or stances & set(w.entry.value.split(",")))]


def same_frame(pair: Pair, spans: Sequence[Span], keys: FrozenSet[int]) -> List[Word]:
    """For a cue that is itself a communication or cognition verb ("suggests", "indicating"), the memory claim's
    verbs of the same stance bearing on ``keys`` ("recommends", "denoting")."""
    stances = frozenset(value for w in pair.source.words_of("FRAME")
                        if any(s.start <= w.span.start < s.end for s in spans) for value in w.entry.value.split(","))
    if not stances:
        return []
    return [w for w in pair.memory.words_of("FRAME") if pair.memory.bears_on(w.span, keys)
            and framing(pair.memory, w) and stances & set(w.entry.value.split(","))]


def pronoun_clash(first: str, second: str) -> bool:
    """Whether two personal pronouns (lower case) name different speakers: "he" and "she", "I" and "he"; "they"
    clashes with no third person (a singular "they", a company's "they" for its "it")."""
    a, b = PRONOUNS.get(first), PRONOUNS.get(second)
    if a is None or b is None or a == b:
        return False
    return not ("3p" in (a, b) and a[0] == b[0] == "3")


def introduces_speaker(pair: Pair, word: Word) -> bool:
    """Whether the words just before a memory verb (its subject, up to four words back and not past punctuation:
    "Bob" of "..., Bob whispered.") hold a content word the source claim's sentence lacks: a speaker the source
    never named ("Someone said X" -> "X, Bob whispered" makes hearsay a named person's word)."""
    doc, key = pair.memory.doc, pair.memory_claims.key
    heard = {pair.source_claims.key(t) for t in pair.source.sentence}
    for t in reversed(doc[max(0, word.span.start - SUBJECT_REACH):word.span.start]):
        if t.is_punct:
            return False
        if t.is_alpha and not t.is_stop and key(t) not in heard:
            return True
    return False
