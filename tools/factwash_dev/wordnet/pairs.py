"""Pairs of senses WordNet links by a sense relation: antonyms, and derivations for alignment.

Both read every entries file (the links are written on senses) and keep
each linked pair of senses once, however many of its two ends write the
link down, so a pair linked from the base's side only ("reliable" ->
"unreliable") is found as surely as one linked from both.

- ``antonym_candidates``: adjectives and adverbs (``seeds.json``). Each pair
  gives two groups, one per side ("reliable|unreliable" holds "reliable",
  its value the other side's group), as the gate's antonym entries name
  each other. An affixal negation pair (un-, in-, im-, il-, ir-, dis-,
  non- + a base that is the other side) is of kind ``affixal:un-`` ...,
  any other of kind ``lexical``.
- ``derivation_candidates``: nouns, verbs and adjectives linked across parts
  of speech by ``derivation`` ("deny" ~ "denial"), ``pertainym`` or
  ``participle``: one group per pair of words, holding both, of kind
  ``v-n`` ...; a pair spelled alike ("say" the noun and the verb) adds
  nothing to an alignment by words and is left out.
"""

from typing import Any, Iterator, List, Mapping, Sequence, Tuple

from .candidate import Candidate
from .reader import Sense, WordNet

POS_ORDER = {"v": 0, "a": 1, "n": 2, "r": 3}  # which side of a derivation pair is named first ("deny|denial")


def linked_pairs(wordnet: WordNet, relations: Sequence[str],
                 parts: Sequence[str]) -> Iterator[Tuple[str, Sense, Sense]]:
    """Each pair of senses of ``parts`` of speech linked by one of ``relations``, once: (relation, one, other),
    ``one`` the sense that was read first."""
    seen = set()
    for _, senses in wordnet.lemmas():
        for sense in senses:
            if sense.pos not in parts:
                continue
            for relation in relations:
                for other_id in sense.related(relation):
                    key = (relation, *sorted((sense.id, other_id)))
                    if key not in seen:
                        seen.add(key)
                        other = wordnet.sense(other_id)
                        if other.pos in parts:
                            yield relation, sense, other


def affix(one: str, other: str, prefixes: Sequence[str]) -> str:
    """``affixal:<prefix>-`` when one word is the other with a negative prefix (hyphened or not), else
    ``lexical``."""
    for word, base in ((one.lower(), other.lower()), (other.lower(), one.lower())):
        for prefix in prefixes:
            if word in (prefix + base, f"{prefix}-{base}"):
                return f"affixal:{prefix}-"
    return "lexical"


def antonym_candidates(wordnet: WordNet, seeds: Mapping[str, Any]) -> List[Candidate]:
    """Both sides of every antonym pair of the seeds' parts of speech, each its own group naming the other."""
    found: List[Candidate] = []
    for _, one, other in linked_pairs(wordnet, ("antonym",), seeds["pos"]):
        kind = affix(one.lemma, other.lemma, seeds["prefixes"])
        for this, that in ((one, other), (other, one)):
            found.append(Candidate(this.lemma, this.pos, f"{this.lemma}|{that.lemma}", "antonym",
                                   (this.synset, that.synset), kind, f"{that.lemma}|{this.lemma}", (this.id, that.id),
                                   wordnet.synset(this.synset).definition))
    return found


def derivation_candidates(wordnet: WordNet, seeds: Mapping[str, Any]) -> List[Candidate]:
    """Both words of every pair linked across parts of speech by the seeds' relations, in one group a pair."""
    found: List[Candidate] = []
    for relation, one, other in linked_pairs(wordnet, seeds["relations"], seeds["pos"]):
        if one.pos == other.pos or one.lemma.lower() == other.lemma.lower():
            continue
        first, second = sorted((one, other), key=lambda sense: (POS_ORDER[sense.pos], sense.lemma))
        group = f"{first.lemma}|{second.lemma}"
        found.extend(Candidate(this.lemma, this.pos, group, relation, (first.synset, second.synset),
                               f"{first.pos}-{second.pos}", senses=(first.id, second.id),
                               definition=wordnet.synset(this.synset).definition) for this in (first, second))
    return found
