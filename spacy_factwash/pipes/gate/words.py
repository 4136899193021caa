"""The gate's own word lists: what a claim's words mean to a check.

A frozen, hash-checked lexicon set (``lexicons/gate/``, the same format and
checks as the cue lexicons; held and saved by ``factwash_compare``) with one
file per kind of word:

- ``NEGATIVE``: words that hold a "not" (lack, fail, refuse, unlikely,
  without), counted in a claim's polarity with the negation cues;
- ``ANTONYM``: opposites with no "not" of their own (win/lose, hire/fire);
  each entry's ``value`` names its opposite's entry;
- ``APPROXIMATOR``, ``BOUND`` (``value``: ge, gt, le, lt, up_to),
  ``DIRECTION`` (up, down), ``FRACTION`` (the number it stands for): the
  words around a value;
- ``RELATION`` (before, after, until) and ``ERA`` (former, current,
  future): how a time is used;
- ``STANCE`` (deny, claim, report, confirm): what a reporting verb does;
- ``CONDITION`` (if, only if, even if, unless): what kind of condition a
  conditional sets.

Every match carries its entry, so a change reports the entry and version
that made it.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Union

from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from ...lexicon.frozen import Entry, LexiconError, LexiconSet, load_set
from ...lexicon.matcher import AnchoredMatcher, Match, longest_first
from ...lexicon.phrases import PhraseWords
from ...lexicon.sets import GATE, GATE_FILES  # noqa: F401  (GATE_FILES: imported from here before)
from ...syntax.normalise import Shadow, carry, case_forms


def load_gate_words(path: Optional[Union[str, Path]] = None, verify: bool = True) -> LexiconSet:
    """The gate's word lists (the packaged ``lexicons/gate`` when ``path`` is None), verified against their
    manifest and checked (``checked_gate_words``)."""
    return checked_gate_words(load_set(GATE, path, verify=verify))


def checked_gate_words(words: LexiconSet) -> LexiconSet:
    """The gate's word lists, refused when an antonym's ``value`` does not name an antonym naming it back."""
    for entry in words.for_label("ANTONYM"):
        other = words.by_id.get(entry.value or "")
        if other is None or other.label != "ANTONYM" or other.value != entry.id:
            raise LexiconError(f"{entry.origin}: antonym {entry.id!r} names {entry.value!r}, which does not name it back")
    return words


@dataclass(frozen=True)
class Word:
    """A gate word found in a text: where, and the entry that matched."""

    span: Span
    entry: Entry

    @property
    def label(self) -> str:
        return self.entry.label


class GateWords:
    """Find the gate's words in a Doc: one matcher pass over every list, on the text as a reader sees it
    (``cues/normalise.py``); overlapping matches of one kind keep the longest."""

    def __init__(self, vocab: Vocab, tokenizer, words: Optional[LexiconSet] = None) -> None:
        self.words = words if words is not None else load_gate_words()
        self.matcher = AnchoredMatcher(vocab)
        self.entries: Dict[int, Entry] = {}
        split = PhraseWords(tokenizer)  # a word listed under several kinds is tokenized once
        for entry in self.words.entries:
            self.entries[self.matcher.add_entry(entry, split)] = entry
        self.case_forms = case_forms(self.words.entries, split)

    @property
    def version(self) -> str:
        return self.words.version

    def __call__(self, doc: Doc, read: Optional[Doc] = None, shadow: Optional[Shadow] = None) -> List[Word]:
        """The gate words of a Doc, in text order, matched on ``read`` (its shadow Doc, when ``shadow`` is given)
        and given back as spans of ``doc``."""
        read = doc if read is None else read
        by_label: Dict[str, List[Match]] = {}
        entries = self.entries
        for key, start, end in self.matcher(read):
            by_label.setdefault(entries[key].label, []).append(Match(start, end, key))
        found = []
        for matches in by_label.values():
            for start, end, key in matches if len(matches) == 1 else longest_first(matches):
                span = Span(read, start, end)
                if shadow is not None:
                    span = carry(doc, shadow, span)
                    start, end = span.start, span.end
                found.append((start, end, len(found), Word(span, entries[key])))
        found.sort()  # in text order; words of one stretch in the order found
        return [word for _, _, _, word in found]
