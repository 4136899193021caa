"""The words a witness may quote for each of its answers, and where they stand in one sentence.

A model's "yes, it hedges" or "yes, it attributes" counts only when its quote
is a word or phrase that does that job, found where it stands in the memory
sentence. The words come from lists, never from the model:

- for ``attributes``: the attribution cues of the cue lexicon
  (``lexicons/attribution.jsonl``) and, when the gate's word lists carry one,
  its ``FRAME`` list (verbs of communication and cognition);
- for ``hedges``: the hedges of the cue lexicon (``lexicons/hedge.jsonl``)
  and, when the gate's word lists carry one, the words of its ``CERTAINTY``
  scale below ``certain`` (its top: a claim with no hedge is certain).

The lists are matched on the sentence's tokens with the lexicon's own
matcher, and an occurrence an exclusion entry of the same class covers ("In
May", "the report") is no marker. A quote counts when it stands at token
boundaries (never a piece of a word: not the "s" of "Alice's") and holds one
marker, every other word of it a function word or punctuation ("or so I
heard"): the speaker, the claim or the strengthened word itself ("will",
"promoted", the "B" of "Plan B") never do.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..lexicon.frozen import Entry, LexiconSet, load_lexicons
from ..lexicon.matcher import AnchoredMatcher
from ..lexicon.phrases import PhraseWords
from .quotes import normalised_with_offsets, function_words, normalise

ATTRIBUTES, HEDGES = "attributes", "hedges"
CUE_LABELS = {ATTRIBUTES: "ATTRIBUTION", HEDGES: "HEDGE"}
FRAME, CERTAINTY, CERTAIN = "FRAME", "CERTAINTY", "certain"


@dataclass(frozen=True, order=True)
class Marker:
    """A marker found in a sentence: its character offsets there and the entry that matched (ordered by place)."""

    start: int
    end: int
    entry: str


def witness_entries(cues: LexiconSet, gate_words: Optional[LexiconSet] = None) -> Dict[str, List[Entry]]:
    """For each answer, the entries whose words may prove it (exclusions of the cue lexicon included): the cue
    lexicon's class, and the gate's ``FRAME`` list or its ``CERTAINTY`` words below ``certain`` when it has them."""
    found = {job: cues.for_label(label) for job, label in CUE_LABELS.items()}
    if gate_words is not None:
        found[ATTRIBUTES] += [e for e in gate_words.for_label(FRAME) if e.role == "cue"]
        found[HEDGES] += [e for e in gate_words.for_label(CERTAINTY) if e.role == "cue" and e.value != CERTAIN]
    return found


class Markers:
    """The witness's word lists, compiled once: ``find(sentence, job)`` gives the markers of one answer."""

    def __init__(self, entries: Dict[str, Sequence[Entry]]) -> None:
        import spacy

        self.nlp = spacy.blank("en")
        self.matcher = AnchoredMatcher(self.nlp.vocab)
        self.keys: Dict[int, Tuple[str, Entry]] = {}
        self.rank: Dict[int, int] = {}  # the order entries were listed in
        split = PhraseWords(self.nlp.tokenizer)  # an entry listed for both answers is tokenized once
        for job, listed in entries.items():
            for entry in listed:
                # one key per (job, entry): an entry may prove both answers ("suggest")
                keyed = Entry(f"{job}|{entry.id}", entry.label, entry.pattern, entry.role)
                key = self.matcher.add_entry(keyed, split)
                self.keys[key], self.rank[key] = (job, entry), len(self.rank)

    def tokens(self, sentence: str):
        """The sentence's tokens (spaCy's English tokenizer, as the cue pipeline splits words)."""
        return self.nlp.make_doc(sentence)

    def find(self, doc, job: str) -> List[Marker]:
        """The markers of answer ``job`` in a tokenized sentence: matches of its cue entries that no exclusion
        entry of the same answer overlaps."""
        cues, excluded = {}, set()
        for key, start, end in self.matcher(doc):
            owner, entry = self.keys[key]
            if owner != job:
                continue
            if entry.role == "exclusion":
                excluded.update(range(start, end))
            elif (start, end) not in cues or self.rank[key] < self.rank[cues[start, end]]:
                cues[start, end] = key  # words two lists hold are the cue lexicon's entry, listed first
        return sorted(Marker(doc[start].idx, doc[end - 1].idx + len(doc[end - 1]), self.keys[key][1].id)
                      for (start, end), key in cues.items() if excluded.isdisjoint(range(start, end)))

    def prove(self, sentence: str, quote: object, job: str) -> Tuple[Optional[Marker], str]:
        """The marker a quote proves answer ``job`` with (None and why it cannot when it does not)."""
        if not isinstance(quote, str):
            return None, f"a quote must be a string, got {type(quote).__name__}"
        doc = self.tokens(sentence)
        places = list(whole_word_places(doc, quote))
        if not places:
            return None, f"{quote!r} is not in the sentence as whole words"
        markers = self.find(doc, job)
        for start, end in places:
            for marker in markers:
                if start <= marker.start and marker.end <= end and _only_glue(doc, start, end, marker):
                    return marker, ""
        return None, (f"{quote!r} holds no word that {'hedges' if job == HEDGES else 'attributes'} "
                      f"(the witness's word lists), or holds other content besides it")


def whole_word_places(doc, quote: str) -> Iterable[Tuple[int, int]]:
    """Every (start, end) character span where ``quote`` stands in the tokenized sentence, after the quotes'
    normalisation, starting and ending on token boundaries."""
    needle = normalise(quote)
    if not needle:
        return
    haystack, offsets = normalised_with_offsets(doc.text)
    starts = {token.idx for token in doc}
    ends = {token.idx + len(token) for token in doc}
    for match in re.finditer(f"(?={re.escape(needle)})", haystack):
        start, end = offsets[match.start()], offsets[match.start() + len(needle) - 1] + 1
        if start in starts and end in ends:
            yield start, end


def _only_glue(doc, start: int, end: int, marker: Marker) -> bool:
    """Whether every token of ``doc`` in [start, end) outside the marker is a function word or punctuation."""
    glue = function_words()
    return all(token.is_punct or token.is_space or token.lower_ in glue
               for token in doc if start <= token.idx < end and not marker.start <= token.idx < marker.end)


@lru_cache(maxsize=1)
def packaged_markers() -> Markers:
    """The witness's word lists from the packaged cue lexicon and the gate's packaged word lists."""
    from ..pipes.gate.words import load_gate_words

    return Markers(witness_entries(load_lexicons(), load_gate_words()))
