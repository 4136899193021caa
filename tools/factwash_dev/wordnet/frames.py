"""Reporting and cognition verbs for attribution frames, grouped by the stance they express.

Each stance (say, ask, propose, claim, deny, confirm, believe, inform) has
root synsets in ``seeds.json`` (the right senses of communicate, state,
say, tell, ask, inform, suggest, propose, claim, deny, confirm, announce,
report, explain, believe, think, and a few parents of those senses, each
with why). Every synset below a root (hyponyms, walked only through the
seed's lexicographer files, verb.communication and verb.cognition) takes
the stance of its *nearest* root: "state" lies under "tell", which lies
under "inform", so a verb under "state" is a plain report (say), a verb
under "explain" but no nearer root informs. A synset as near to roots of
two stances is proposed for both.
"""

from typing import Any, Dict, List, Mapping, Sequence

from .candidate import Candidate
from .reader import Route, WordNet, WordNetError


def frame_roots(wordnet: WordNet, seeds: Mapping[str, Any]) -> Dict[str, str]:
    """Root synset -> its stance, each root checked against the resource: filed in one of the walked
    lexicographer files, with the lemma the seeds name among its members, and rooting one stance only."""
    lexfiles = seeds["lexfiles"]
    stance_of: Dict[str, str] = {}
    for stance, roots in seeds["stances"].items():
        for root in roots:
            synset = wordnet.synset(root["synset"])
            if synset.lexfile not in lexfiles or root["lemma"] not in synset.members:
                raise WordNetError(f"frame root {root['synset']} ({stance}): expected {root['lemma']!r} in one of "
                                   f"{', '.join(lexfiles)}, found {', '.join(synset.members)} in {synset.lexfile}")
            if stance_of.setdefault(synset.id, stance) != stance:
                raise WordNetError(f"frame root {synset.id} roots both {stance_of[synset.id]} and {stance}")
    return stance_of


def nearest_roots(wordnet: WordNet, stance_of: Mapping[str, str], lexfiles: Sequence[str], depth: int) \
        -> Dict[str, Dict[str, Route]]:
    """Every synset at most ``depth`` hyponym steps below a root -> {stance: its route from the nearest root
    of that stance}, keeping only the stances whose roots are nearest (level by level from all roots at once)."""
    below = wordnet.hyponym_index(lexfiles)
    reached: Dict[str, Dict[str, Route]] = {}
    level: Dict[str, Dict[str, Route]] = {root: {stance: (root,)} for root, stance in stance_of.items()}
    for _ in range(depth + 1):
        reached.update(level)
        following: Dict[str, Dict[str, Route]] = {}
        for synset_id, routes in level.items():
            for under in below.get(synset_id, ()):
                if under not in reached:
                    for stance, route in routes.items():
                        following.setdefault(under, {}).setdefault(stance, route + (under,))
        level = following
    return reached


def frame_candidates(wordnet: WordNet, seeds: Mapping[str, Any]) -> List[Candidate]:
    """One candidate per member of every synset reached, per nearest stance; the candidate's group and value
    are the stance, its kind the synset's lexicographer file, its synsets the route from the root."""
    stance_of = frame_roots(wordnet, seeds)
    found: List[Candidate] = []
    for synset_id, routes in nearest_roots(wordnet, stance_of, seeds["lexfiles"], seeds["depth"]).items():
        synset = wordnet.synset(synset_id)
        for stance, route in routes.items():
            found.extend(Candidate(member, "v", stance, "root" if len(route) == 1 else "hyponym", route,
                                   synset.lexfile, stance, definition=synset.definition) for member in synset.members)
    return found
