"""Token patterns of a fixed length found through a run of their literal words: one window per hit, not per anchor.

``AnchoredMatcher`` (``lexicon/matcher.py``) runs a token pattern that is not
all literal words ("to" + a verb after any word but "shown", "found", ...; a
change verb + "by" + a number) with its own Matcher on a window around every
hit of one anchor word: in BioScope a fifth of the sentences hold a change
verb, and a Matcher call costs more than the phrase pass of the whole
lexicon. Such a pattern, when it has no operator and holds a run of two or
more consecutive tokens that each ask for their LOWER to be one of a few
literal words, is gated here instead: the word sequences the run spells join
the anchored matcher's LOWER phrase pass (``AnchoredMatcher.add_words``,
one hash pass for everything), and the pattern's Matcher runs only on the one
window a hit of the run places the pattern in (a hit too near the Doc's
start or end to hold the pattern places none). A pattern of fixed length
matches only where its run matches at its offset, so the matches are the
ones the anchored matcher gives.

This may belong in ``lexicon/matcher.py`` (the cue lexicon's windowed
patterns could be gated the same way); it lives here while that module has
another owner.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple

from spacy.matcher import Matcher
from spacy.tokens import Doc
from spacy.vocab import Vocab

from ...lexicon.entries import Entry
from ...lexicon.matcher import AnchoredMatcher, Found, literal_phrases, lower_forms, sentence_start_phrases

GATE_PREFIX = "#gate:"  # the phrase key of a gated pattern's run: never a lexicon entry's id


def literal_run(pattern: Sequence[Dict[str, Any]]) -> Optional[Tuple[int, List[Tuple[str, ...]]]]:
    """Where a pattern is gated and by what: the offset of its longest run of two or more consecutive literal
    lower-case tokens (each one ``literal_phrases`` takes: its LOWER one word or a bare ``IN`` list of words, no
    other attribute) and the word sequences the run spells; None for a pattern with an operator, one the anchored
    matcher already matches as phrases, or one with no such run (or a run spelling too many sequences)."""
    if any("OP" in token for token in pattern) or literal_phrases(pattern) or sentence_start_phrases(pattern):
        return None
    best: Optional[Tuple[int, List[Tuple[str, ...]]]] = None
    start = 0
    while start < len(pattern):
        end = start
        while end < len(pattern) and literal_phrases(pattern[end:end + 1]) is not None:
            end += 1
        phrases = literal_phrases(pattern[start:end]) if end - start >= 2 else None
        if phrases is not None and (best is None or end - start > len(best[1][0])):
            best = (start, phrases)
        start = end + 1
    return best


class GatedPatterns:
    """The gated token patterns of one lexicon: each with its Matcher, the offset of its run and its length."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab
        self.gates: Dict[int, Tuple[Matcher, int, int]] = {}  # phrase key of a run -> (Matcher, offset, length)

    def add_entry(self, entry: Entry, anchored: AnchoredMatcher) -> Optional[int]:
        """Gate a token pattern entry (its run's phrases added to ``anchored``) and give its key's hash; None, and
        nothing added, when the entry is not a pattern ``literal_run`` gates."""
        pattern = list(entry.pattern) if entry.is_token_pattern else []
        run = literal_run(pattern) if pattern else None
        if run is None:
            return None
        offset, phrases = run
        gate_key = GATE_PREFIX + entry.id
        anchored.add_words(gate_key, [lower_forms(self.vocab, words) for words in phrases])
        matcher = Matcher(self.vocab)
        matcher.add(entry.id, [pattern])
        self.gates[self.vocab.strings[gate_key]] = (matcher, offset, len(pattern))
        return self.vocab.strings[entry.id]

    def matches(self, doc: Doc, found: List[Found]) -> List[Found]:
        """The anchored matcher's matches on ``doc`` with each hit of a gated run replaced by its pattern's match in
        the window the hit places (none when the pattern does not match there)."""
        gates = self.gates
        for key, _, _ in found if gates else ():
            if key in gates:
                break
        else:
            return found  # no gated run hit (the common case): the matches as they are
        kept: List[Found] = []
        for key, start, end in found:
            gate = gates.get(key)
            if gate is None:
                kept.append((key, start, end))
                continue
            matcher, offset, length = gate
            begin = start - offset
            if 0 <= begin and begin + length <= len(doc):
                kept += [(k, begin + s, begin + e) for k, s, e in matcher(doc[begin:begin + length])]
        return kept
