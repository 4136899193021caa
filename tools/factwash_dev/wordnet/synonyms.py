"""Synonym sets for the closed-class and near-closed-class words the gate compares.

For each seed word of ``seeds.json`` (time, quantity, frequency, degree,
certainty and polarity words, each with the parts of speech to read), every
sense of that part of speech is one group, named as NLTK names a synset
(``current.a.01``: the seed's first adjective sense): the seed itself, the
other members of its synset ("current" -> "present"), and the members of
the synsets its synset is ``similar`` to, in the same part of speech. Each
candidate keeps the seed's synset (and the similar synset it came through).
Senses are kept apart, not merged: "present" of time and "present" of
attendance are two groups, for the admission to tell apart.
"""

from typing import Any, List, Mapping

from .candidate import Candidate
from .reader import Sense, WordNet, WordNetError


def synonym_candidates(wordnet: WordNet, seeds: Mapping[str, Any]) -> List[Candidate]:
    """The synonym candidates of every seed sense; a seed WordNet lacks in a part of speech is an error."""
    found: List[Candidate] = []
    for kind, words in seeds["classes"].items():
        for seed, parts in words.items():
            for pos in parts:
                senses = wordnet.senses(seed, pos)
                if not senses:
                    raise WordNetError(f"synonym seed {seed!r} ({kind}): WordNet has no sense of it with pos {pos!r}")
                for number, sense in enumerate(senses, start=1):
                    found.extend(_sense_group(wordnet, seeds, kind, seed, pos, f"{seed}.{pos}.{number:02d}", sense))
    return found


def _sense_group(wordnet: WordNet, seeds: Mapping[str, Any], kind: str, seed: str, pos: str, group: str,
                 sense: Sense) -> List[Candidate]:
    """One seed sense's group: the seed, its synset's other members, then the members of its related synsets."""
    synset = wordnet.synset(sense.synset)
    found = [Candidate(seed, pos, group, "seed", (synset.id,), kind, seed, (sense.id,), synset.definition)]
    found.extend(Candidate(member, pos, group, "synonym", (synset.id,), kind, seed, definition=synset.definition)
                 for member in synset.members if member != seed)
    words = {candidate.word for candidate in found}
    for relation in seeds["relations"]:
        for other_id in synset.related(relation):
            other = wordnet.synset(other_id)
            for member in other.members:
                if member not in words:
                    words.add(member)
                    found.append(Candidate(member, pos, group, relation, (synset.id, other.id), kind, seed,
                                           definition=other.definition))
    return found
