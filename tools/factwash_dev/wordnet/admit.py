"""The equivalence round: WordNet candidates admitted into the gate's word lists on dev data (training/MINING.md,
revisions 3 and 4).

Three lists of the gate's set (``lexicons/gate/``) come from here:

- ``synonym.jsonl`` (``SYNONYM``): one entry per word, its value the synonym groups (WordNet senses) it belongs
  to, for the cue words of the hedge, attribution and temporal lexicons and the words of the gate's certainty,
  quantity, frequency and degree lists (verbs only in their communication and cognition senses);
- ``frame.jsonl`` (``FRAME``): communication and cognition verbs, each with the stance of its nearest root, whose
  first verb sense is such a sense ("clarify", "inquire");
- ``spoken.jsonl`` (``SPOKEN``): verbs under a stance root whose first sense is another ("publish", "release",
  "expose", "see"): they keep an attribution only where the construction gives them their communication sense,
  the source's speaker as their subject or a passive judgement ("was seen as");
- ``affixal.jsonl`` (``NEGATIVE``): words whose negation is a prefix WordNet records as the antonym of their base
  ("unpaid" of "paid", "non-compliant" of "compliant"), counted as negations.

A candidate is a word of common use (spaCy's English ``lexeme_prob`` at least ``COMMON``), in lower case, of one
or two words, that is not already a cue of the cue lexicon's classes, and no function word: a spaCy stop word that
UD English EWT (train and dev) does not tag mostly as a verb ("will", "may", "do"; not "see", "show", "call"). The round then admits every candidate and
measures the gate on the dev data (SummEdits' dev domains, ``training/gate_sets``, ``training/claim_records``): a
keeper (a synonym or a frame) that makes a written must-flag pair pass, or that makes at least as many SummEdits
inconsistent edits pass as consistent edits it lets pass, and a negation that flags a pair that must pass, where it
is matched in that pair, is taken out (revisions 4 and 5); the round measures again until no candidate costs the dev
data. Test halves and the kept-aside sets are never read.
"""

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, FrozenSet, List, Mapping, Sequence, Set, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.lookups import load_lookups

from spacy_factwash.lexicon.frozen import freeze_set, load_lexicons, packaged_lexicon_dir
from spacy_factwash.pipes.gate.words import load_gate_words

from .candidate import SOURCE, Candidate
from .frames import frame_candidates
from .reader import COMMIT, WordNet
from .synonyms import synonym_candidates
from .writer import word_forms

COMMON = -15.0  # spaCy's English lexeme_prob: "expound" -14.6, "corroborate" -14.5 are in; "aver" -15.7 is out
VERB_LEXFILES = ("verb.communication", "verb.cognition")
REPO = Path(__file__).resolve().parents[3]
LISTED = ("CERTAINTY", "QUANTIFIER", "FREQUENCY", "PARTIAL")  # gate lists whose words get synonym groups
KEEPERS = ("SYNONYM", "FRAME", "SPOKEN")
CONTENT_POS = frozenset({"VERB"})  # a stop word EWT tags mostly as a verb ("see", "show") is no function word


@dataclass
class Word:
    """A candidate word of one list: its forms, its value (groups or a stance), and the candidates behind it."""

    label: str
    word: str
    pos: str
    values: Set[str] = field(default_factory=set)
    candidates: List[Candidate] = field(default_factory=list)

    def entry(self, commit: str = COMMIT) -> Dict:
        """The word as a lexicon entry, with every synset and route that proposed it."""
        prefix = {"SYNONYM": "synonym", "FRAME": "frame", "SPOKEN": "spoken", "NEGATIVE": "negative:affix"}[self.label]
        routes = sorted({">".join(c.synsets) for c in self.candidates})
        return {"id": f"{prefix}:{self.word.replace(' ', '_')}", "label": self.label, "role": "cue",
                "pattern": word_forms(self.word, self.pos), "value": ",".join(sorted(self.values)),
                "provenance": {"source": SOURCE, "commit": commit,
                               "synsets": sorted({s for c in self.candidates for s in c.synsets}),
                               "relation": "; ".join(sorted({c.relation for c in self.candidates})),
                               "paths": routes, "rule": "training/MINING.md, revision 5 (the equivalence round)"}}


def common(word: str, probabilities) -> bool:
    """A word of common use: every word of it in spaCy's English probabilities at ``COMMON`` or above."""
    return all(probabilities.get(part, -99.0) >= COMMON for part in word.split())


def cue_words() -> Dict[str, Set[str]]:
    """The one-word phrases of the cue lexicon by class (lower case)."""
    lexicons = load_lexicons(packaged_lexicon_dir())
    found: Dict[str, Set[str]] = defaultdict(set)
    for entry in lexicons.entries:
        if entry.role == "cue" and not entry.is_token_pattern:
            found[entry.label].update(p.lower() for p in entry.phrases if " " not in p)
    return found


def seed_words(lemmas) -> Dict[str, Dict[str, str]]:
    """The synonym seeds: the lemmas of the cue words and of the gate's listed words, each with the parts of speech
    to read ("v" for a verb form, "ar" otherwise)."""
    words: Dict[str, Dict[str, str]] = defaultdict(dict)
    for label, phrases in cue_words().items():
        for phrase in sorted(phrases):
            lemma = lemmas.get(phrase, phrase)
            # a lemma read as a verb when any of its listed forms is inflected ("claimed" and "claim" both listed):
            # the parts are joined, so the seeds do not depend on the order a set is read in
            if lemma != phrase or words[label.lower()].get(lemma) == "var":
                words[label.lower()][lemma] = "var"
            else:
                words[label.lower()][lemma] = "ar"
    for entry in load_gate_words().entries:
        if entry.label not in LISTED:
            continue
        for phrase in entry.phrases:
            if " " not in phrase:
                words[entry.label.lower()][phrase] = "ar"
    return words


def synonym_words(wordnet: WordNet, usage: "Usage", lemmas) -> Dict[str, Word]:
    """Every common synonym of a seed word's senses (verb senses only in communication and cognition)."""
    found: Dict[str, Word] = {}
    for kind, words in seed_words(lemmas).items():
        seeds = {"classes": {kind: {}}, "relations": ["similar"]}
        for word, parts in words.items():
            usable = "".join(pos for pos in parts if wordnet.senses(word, pos))
            if usable:
                seeds["classes"][kind][word] = usable
        for candidate in synonym_candidates(wordnet, seeds):
            if candidate.pos == "v" and wordnet.lexfile(candidate.synsets[0]) not in VERB_LEXFILES:
                continue
            word = candidate.word.lower()
            if not usage.usable(word) or not dominant(wordnet, word, candidate.pos, candidate.synsets):
                continue
            entry = found.setdefault(word, Word("SYNONYM", word, candidate.pos))
            entry.values.add(candidate.group)
            entry.candidates.append(candidate)
    return found


def frame_words(wordnet: WordNet, usage: "Usage", seeds: Mapping) -> Dict[str, Dict[str, Word]]:
    """Common verbs under a stance root with their stance (a verb under two stances keeps both), by list: ``FRAME``
    when the verb's first sense is a communication or cognition sense, ``SPOKEN`` otherwise ("publish", "release":
    revision 5). A cue word among them is listed too, for the stance of a cue that is itself such a verb
    ("suggests" -> "recommends")."""
    found: Dict[str, Dict[str, Word]] = {"FRAME": {}, "SPOKEN": {}}
    for candidate in frame_candidates(wordnet, seeds):
        word = candidate.word.lower()
        if not usage.usable(word):
            continue
        label = "FRAME" if dominant_lexfile(wordnet, word) else "SPOKEN"
        if label == "SPOKEN" and not frequent_lexfile(wordnet, word):
            continue
        entry = found[label].setdefault(word, Word(label, word, "v"))
        entry.values.add(candidate.value)
        entry.candidates.append(candidate)
    return found


def affixal_words(antonyms: Sequence[Candidate], usage: "Usage") -> Dict[str, Word]:
    """The prefixed side of WordNet's affixal antonym pairs ("unpaid", "non-compliant"), as negations; a word
    another of the gate's lists already reads ("infrequently" is a frequency, "unlikely" a certainty) is that
    list's."""
    listed = {phrase for entry in load_gate_words().entries if entry.label not in ("FRAME", "SPOKEN")
              and not entry.id.startswith("negative:affix:") for phrase in entry.phrases}
    found: Dict[str, Word] = {}
    for candidate in antonyms:
        if not candidate.kind.startswith("affixal:"):
            continue
        prefix = candidate.kind.split(":", 1)[1].rstrip("-")
        word = candidate.word.lower()
        if not word.replace("-", "").startswith(prefix) or not usage.usable(word) or word in listed:
            continue
        entry = found.setdefault(word, Word("NEGATIVE", word, candidate.pos))
        entry.values.add("not")
        entry.candidates.append(candidate)
    return found


def dominant(wordnet: WordNet, word: str, pos: str, synsets: Sequence[str]) -> bool:
    """Whether the sense a candidate came through is the word's first sense of its part of speech (WordNet lists
    a word's senses most frequent first): "present" stands for "current" ("the present price"), "show" for
    "indicate" only if showing is mostly indicating."""
    senses = wordnet.senses(word, pos)
    return bool(senses) and senses[0].synset in synsets


def dominant_lexfile(wordnet: WordNet, word: str) -> bool:
    """Whether a verb's first sense is a communication or cognition sense ("clarify", "inquire"; not "share",
    "issue", "will", whose first senses are of possession or volition)."""
    senses = wordnet.senses(word, "v")
    return bool(senses) and wordnet.lexfile(senses[0].synset) in VERB_LEXFILES


SPOKEN_SENSES = 4  # a spoken frame's communication or cognition sense is among its first four: "release" (4th)


def frequent_lexfile(wordnet: WordNet, word: str) -> bool:
    """Whether a verb has a communication or cognition sense among its first ``SPOKEN_SENSES`` senses (WordNet
    lists them most frequent first): "publish" (2nd), "release" (4th); not "take" (6th of 42), "construct" (6th),
    light or concrete verbs whose reporting sense is rare (revision 5)."""
    return any(wordnet.lexfile(sense.synset) in VERB_LEXFILES for sense in wordnet.senses(word, "v")[:SPOKEN_SENSES])


def function_words(corpora: Path) -> FrozenSet[str]:
    """spaCy's English stop words but those UD English EWT's train and dev sets tag mostly (by lemma) as verbs:
    "will", "may" and "do" are verbs of WordNet too (EWT tags them mostly AUX), never a frame or a synonym of a cue;
    "see", "show" and "call" are content verbs (revision 5). Quantity words ("many", "few") and time words
    ("last", "former") stay function words: the gate's own lists read them."""
    from factwash_dev.evaluation.ud_ewt import ewt_root, rebuild

    tags: Dict[str, Counter] = defaultdict(Counter)
    root = ewt_root(corpora)
    for split in ("train", "dev"):
        for line in rebuild(root, split).splitlines():
            columns = line.split("\t")
            if len(columns) == 10 and columns[0].isdigit() and columns[2].lower() in STOP_WORDS:
                tags[columns[2].lower()][columns[3]] += 1
    return frozenset(word for word in STOP_WORDS
                     if not tags[word] or tags[word].most_common(1)[0][0] not in CONTENT_POS)


@dataclass(frozen=True)
class Usage:
    """What makes a candidate a word of common use: spaCy's English probabilities and the function words."""

    probabilities: Mapping[str, float]
    function: FrozenSet[str]

    def usable(self, word: str) -> bool:
        """A lower-case word or two-word phrase of letters, of common use, and no function word."""
        return word == word.lower() and len(word.split()) <= 2 and word.replace(" ", "").replace("-", "").isalpha() \
            and common(word, self.probabilities) and not any(part in self.function for part in word.split())


def candidates(corpora: Path, seeds: Mapping, antonyms: Sequence[Candidate]) -> Dict[str, Dict[str, Word]]:
    """The round's candidates by list."""
    wordnet = WordNet.from_corpora(corpora)
    lookups = load_lookups("en", ["lexeme_prob", "lemma_lookup"])
    usage = Usage(lookups.get_table("lexeme_prob"), function_words(corpora))
    return {"SYNONYM": synonym_words(wordnet, usage, lookups.get_table("lemma_lookup")),
            **frame_words(wordnet, usage, seeds),
            "NEGATIVE": affixal_words(antonyms, usage)}


# -- the dev measurement ----------------------------------------------------------------------------------------

def dev_pairs(corpora: Path) -> List[Tuple[str, str, bool, bool]]:
    """(source, memory, whether it must be flagged, whether it is a written pair) of every dev pair: SummEdits' dev
    domains (an inconsistent edit is one the lists may not unflag where the gate without them flags it; a
    consistent one must pass), the written gate sets and the claim-record sets (typed: every must-flag pair is
    laundering the pair was written for)."""
    from factwash_dev.evaluation.summedits import DOMAINS, read

    pairs = [(o, s, label == 0, False) for domain in DOMAINS for o, s, label in read(corpora, domain) if o != s]
    for folder in (REPO / "training" / "gate_sets", REPO / "training" / "claim_records"):
        for path in sorted(folder.glob("*.jsonl")):
            for line in path.read_text(encoding="utf8").splitlines():
                pair = json.loads(line)
                pairs.append((pair["source"], pair["memory"], bool(pair["expect"]), True))
    return pairs


def _flags(gate, pairs: Sequence[Tuple[str, str, bool, bool]]) -> List[bool]:
    return [report.verdict in ("rewrite", "reject") for report in gate.pipe((p[0], p[1]) for p in pairs)]


def _matched(gate, text: str, label: str) -> Set[str]:
    """The ids of the entries of one list matched in a text."""
    doc = gate.nlp(text)
    return {w.entry.id for w in gate.component.words(doc) if w.label == label}


def _keepers(gate, source: str, memory: str) -> Set[Tuple[str, str]]:
    """The memory's equivalence words that could have kept a source qualifier: frames, and synonyms sharing a
    group with a source synonym, that the source does not use itself."""
    found = {label: {w.entry.id: w for w in gate.component.words(gate.nlp(text)) if w.label in KEEPERS}
             for label, text in (("source", source), ("memory", memory))}
    source_groups = {g for w in found["source"].values() if w.label == "SYNONYM" for g in w.entry.value.split(",")}
    kept = set()
    for entry_id, word in found["memory"].items():
        if entry_id in found["source"]:
            continue
        if word.label != "SYNONYM" or set(word.entry.value.split(",")) & source_groups:
            kept.add((word.label, entry_id))
    return kept


def admit(gate_with, lists: Dict[str, Dict[str, Word]], pairs: Sequence[Tuple[str, str, bool, bool]],
          rounds: int = 8) -> Tuple[Dict[str, Dict[str, Word]], List[Dict]]:
    """Take out, round by round, the candidates that cost the dev data (training/MINING.md, revision 4); the lists
    kept and what was taken out, why. ``gate_with(lists)`` builds a gate whose word lists hold ``lists``.

    A keeper (a frame or a synonym) is taken out when it makes a written must-flag pair pass, or when the
    SummEdits inconsistent edits it makes pass are at least as many as the consistent edits it lets pass (no net
    gain on real edits, whose labels name no change); an affixal negation when it flags a pair that must pass; and,
    once nothing costs, a spoken frame that lets no consistent edit pass (revision 5)."""
    baseline = _flags(gate_with({}), pairs)
    removed: List[Dict] = []
    for _ in range(rounds):
        gate = gate_with(lists)
        flags = _flags(gate, pairs)
        written_cost: Dict[Tuple[str, str], List[int]] = defaultdict(list)
        edit_cost: Dict[Tuple[str, str], List[int]] = defaultdict(list)
        gained: Dict[Tuple[str, str], int] = defaultdict(int)
        for n, ((source, memory, must_flag, written), before, now) in enumerate(zip(pairs, baseline, flags)):
            if must_flag and before and not now:
                for key in _keepers(gate, source, memory):
                    (written_cost if written else edit_cost)[key].append(n)
            if not must_flag and before and not now and not written:
                for key in _keepers(gate, source, memory):
                    gained[key] += 1
            if not must_flag and not before and now:
                for entry_id in _matched(gate, source, "NEGATIVE") | _matched(gate, memory, "NEGATIVE"):
                    if entry_id.startswith("negative:affix:"):
                        written_cost[("NEGATIVE", entry_id)].append(n)
        costly = dict(written_cost)
        costly.update({key: where for key, where in edit_cost.items()
                       if key not in costly and len(where) >= gained[key]})
        if not costly:
            removed += _unearned(lists, gained)
            break
        for (label, entry_id), where in sorted(costly.items()):
            word = next((w for w in lists[label].values() if w.entry()["id"] == entry_id), None)
            if word is not None:
                del lists[label][word.word]
                removed.append({"label": label, "word": word.word, "pairs": len(where),
                                "edits_let_pass": gained.get((label, entry_id), 0),
                                "example": {"source": pairs[where[0]][0][:160], "memory": pairs[where[0]][1][:160]}})
    return lists, removed


def _unearned(lists: Dict[str, Dict[str, Word]], gained: Mapping[Tuple[str, str], int]) -> List[Dict]:
    """Take out the spoken frames that let no SummEdits consistent edit pass (revision 5: a verb whose first sense
    is another joins only where it earns its place on dev data); what was taken out, for the report. Taking them
    out cannot unflag a pair: a spoken frame keeps an attribution, it never flags one."""
    unearned = [word for word in lists.get("SPOKEN", {}).values() if not gained.get(("SPOKEN", word.entry()["id"]))]
    for word in unearned:
        del lists["SPOKEN"][word.word]
    return [{"label": "SPOKEN", "word": word.word, "pairs": 0, "edits_let_pass": 0, "why": "earned nothing on dev"}
            for word in sorted(unearned, key=lambda w: w.word)]


FILES = {"SYNONYM": "synonym.jsonl", "FRAME": "frame.jsonl", "SPOKEN": "spoken.jsonl", "NEGATIVE": "affixal.jsonl"}


def write_lists(folder: Path, lists: Mapping[str, Mapping[str, Word]]) -> None:
    """The lists as the gate set's files (every other file of the set copied from the packaged one, the packaged
    manifest left out: the set is frozen where it is read)."""
    import shutil

    source = packaged_lexicon_dir() / "gate"
    folder.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.name != "manifest.json":
            shutil.copy2(path, folder / path.name)
    for label, name in FILES.items():
        words = lists.get(label, {})
        (folder / name).write_text("".join(json.dumps(w.entry(), ensure_ascii=False) + "\n"
                                           for w in sorted(words.values(), key=lambda w: w.word)), encoding="utf8")


def gate_builder(workdir: Path):
    """A function from lists to a gate on the default pipeline whose word lists hold them."""
    import spacy_factwash
    from spacy_factwash.pipes.gate.gate import Gate

    counter = [0]

    def gate_with(lists):
        counter[0] += 1
        folder = workdir / f"lists-{counter[0]}"
        write_lists(folder, lists)
        freeze_set(folder, "0.0.0-round", "gate")
        nlp = spacy_factwash.load()
        nlp.get_pipe("factwash_compare").initialize(lexicon_dir=str(folder))
        return Gate(nlp)

    return gate_with
