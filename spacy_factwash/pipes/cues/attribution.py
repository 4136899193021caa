"""Attribution: the claim is someone else's ("Alice said", "according to the audit", "reportedly").

Reporting verbs are listed in every inflection (say, says, said, saying), so
no lemmatizer is needed. Where the lexicon entry says on which side its
speaker usually stands (``"source": "before"`` for "Alice said",
``"after"`` for "according to Alice"), the detector records the speaker as a
source span. The heuristic reads word shapes and function words only, since
the default pipeline has no tagger or parser; hearsay markers with no speaker
("reportedly", "rumor has it") get no source. With a parse, ``sense.py``
drops reporting words in another sense ("the state of Texas", "a comment
section", "heard a noise").
"""

import re
from typing import List, Optional, Sequence

from spacy.tokens import Doc, Span, Token

from ...lexicon.frozen import Entry
from ...syntax.normalise import may_hold_hash
from ...syntax.sense import holds_sense
from ...syntax.text import doc_text
from .component import register_factory
from .detector import CueDetector, Match

MAX_SOURCE_TOKENS = 6
# Function words that end a speaker phrase: a clause starts, or the phrase is over.
CLAUSE_WORDS = frozenset(
    "that which who whom whose and but or because when while if as to is was were are be been "
    "will would could might may should can do does did not n't".split()
)
# Words that may stand between a speaker and the reporting verb ("Alice has also said"); a form of "be" there
# makes the verb passive ("Revenue was reported"), and what stands before it is not the speaker.
BETWEEN_SPEAKER_AND_VERB = frozenset(
    "has have had 've also later earlier previously once publicly privately repeatedly "
    "reportedly allegedly never recently".split()
)
DETERMINERS = frozenset("the a an this that these those his her their our my your its one some several".split())
NOT_A_SPEAKER = frozenset({"it", "there", "this", "that"})
PHRASE_MARKS = frozenset({"'s", "’s", "-", "&"})  # marks inside a speaker phrase ("Alice's manager", "AT&T")
MARKDOWN_HEADING = re.compile(r"[ \t]{0,3}#{1,6}[ \t]")


def _ends_phrase(token: Token) -> bool:
    """Whether a token cannot belong to a speaker phrase: punctuation, a symbol or emoji (no letter or digit),
    or a word that starts a clause."""
    if token.text in PHRASE_MARKS:
        return False
    if token.is_punct or not any(char.isalnum() for char in token.text):
        return True
    return token.lower_ in CLAUSE_WORDS


def _in_heading(text: str, at: int) -> bool:
    """Whether the character at ``at`` stands on a markdown heading line ("## Notes from Alice"): a title, not a
    reporting clause."""
    return MARKDOWN_HEADING.match(text, text.rfind("\n", 0, at) + 1) is not None


def _speaker_before(doc: Doc, cue: Span) -> Optional[Span]:
    """The phrase before a reporting verb: "the CEO said", "Alice's manager told me"."""
    i = cue.start - 1
    while i >= 0 and doc[i].lower_ in BETWEEN_SPEAKER_AND_VERB:
        i -= 1
    end = i + 1
    start = end
    while i >= 0 and end - i <= MAX_SOURCE_TOKENS and not _ends_phrase(doc[i]) and not doc[i].is_space:
        start = i
        if doc[i].lower_ in DETERMINERS and not _ends_name(doc, i, end):
            if i >= 2 and doc[i - 1].lower_ == "of" and end - i + 2 <= MAX_SOURCE_TOKENS:
                i -= 2  # "a critic of the mayor": the phrase goes on before "of"
                continue
            break
        i -= 1
    return _speaker_span(doc, start, end)


def _ends_name(doc: Doc, i: int, end: int) -> bool:
    """Whether a determiner word is the capitalised last word of a name ("Capital One", "Formula One"): the
    phrase's last word, after a capitalised word."""
    return i == end - 1 and i > 0 and doc[i].is_title and doc[i - 1].is_title


def _speaker_after(doc: Doc, cue: Span, require_name: bool) -> Optional[Span]:
    """The phrase after a cue: "according to the audit", ", said Alice"."""
    tokens: List[Token] = []
    for token in doc[cue.end : cue.end + MAX_SOURCE_TOKENS]:
        if _ends_phrase(token) or token.is_space:
            break
        if tokens and token.lower_ in DETERMINERS:
            break
        if tokens and token.is_lower and tokens[-1].is_title and tokens[-1].lower_ not in DETERMINERS:
            break
        tokens.append(token)
    if not tokens or (require_name and not (tokens[0].is_title or tokens[0].is_upper)):
        return None
    return _speaker_span(doc, tokens[0].i, tokens[-1].i + 1)


def _speaker_span(doc: Doc, start: int, end: int) -> Optional[Span]:
    """The phrase as a span, unless it is empty or a dummy subject ("it is said")."""
    if start >= end:
        return None
    span = doc[start:end]
    if span.text.lower() in NOT_A_SPEAKER:
        return None
    return span


class AttributionDetector(CueDetector):
    """Resolve attribution cues and find the speaker each one names."""

    label = "ATTRIBUTION"
    name = "attribution"
    reads_parse = True

    def keep(self, doc: Doc, cue: Match) -> bool:
        """With a parse, drop a reporting word in another sense ("the state of Texas", "added salt"; sense.py)."""
        return holds_sense(doc, cue, self.label)

    def resolve(self, doc: Doc, cues: Sequence[Match], exclusions: Sequence[Match]) -> List[Match]:
        """Drop reporting words on a markdown heading line ("## Notes from Alice") first, reading the text once
        (``Doc.text`` joins every token on each access: once per cue made long documents quadratic), and only when
        a token holds the "#" a heading needs (``may_hold_hash``: most Docs are not joined at all)."""
        if cues and may_hold_hash(doc):
            text = doc_text(doc)
            cues = [cue for cue in cues if not _in_heading(text, doc[cue.start].idx)]
        return super().resolve(doc, cues, exclusions)

    def source_of(self, doc: Doc, cue: Span, entry: Entry) -> Optional[Span]:
        """The speaker on the entry's side; a verb with nobody before it looks after (", said Alice")."""
        if entry.source_side == "after":
            return _speaker_after(doc, cue, require_name=False)
        if entry.source_side == "before":
            return _speaker_before(doc, cue) or _speaker_after(doc, cue, require_name=True)
        return None


make_attribution = register_factory("factwash_attribution", lambda: [AttributionDetector()])
