"""Mining candidate equivalence lists from Open English WordNet (developer tooling: nothing reads WordNet at run
time, and nothing here writes into ``lexicons/``).

- ``reader``: the resource's YAML sources, parsed file by file as a query needs them and kept in a parse cache
  (``cache``): senses and synsets of a lemma, members, hypernyms and hyponyms (transitive, bounded), antonyms,
  derivations, similar and also, a synset's lexicographer file.
- ``frames``, ``synonyms``, ``pairs`` (antonyms, derivations): the candidate extractors, each returning
  ``candidate.Candidate`` objects that keep the synsets and relation path that proposed each word, started from
  ``seeds.json``.
- ``writer``: chosen candidates as a frozen lexicon set in the project's format (one entry per term group).
- ``command``: ``python tools/dev.py wordnet-candidates --out DIR``.

Which candidates join a list is decided on dev data under training/MINING.md's rule, not here.
"""
