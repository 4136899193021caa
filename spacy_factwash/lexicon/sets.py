"""The registry of frozen sets: every lexicon and table the package ships, the files each holds, and where.

A set is a folder of files frozen under one ``manifest.json`` (``frozen.py``
reads, verifies and freezes it). Its files are entry lists (one JSONL file
per label, in the format of ``entries.py``) or data files (a table in its own
format: JSON, TSV, msgpack), or both. This module is data: the modules that
read a set import its file names from here, never the other way.

A **table** set is read by functions that know no pipeline (the clause words
of ``syntax/clauses.py``, the units of the gate's value reader): a process
reads one version of it (``tables.py``). Every other set is held by the
component that uses it.
"""

from dataclasses import dataclass, field
from typing import Dict, Mapping, Tuple

CLASS_FILES = {
    "hedge.jsonl": "HEDGE",
    "attribution.jsonl": "ATTRIBUTION",
    "negation.jsonl": "NEGATION",
    "conditional.jsonl": "CONDITIONAL",
    "temporal.jsonl": "TEMPORAL",
}
LABELS = tuple(CLASS_FILES.values())
AUTHORITY_FILES = {"change.jsonl": "CHANGE", "restatement.jsonl": "RESTATEMENT", "mention.jsonl": "MENTION"}
STRENGTH_FILES = {"causal.jsonl": "CAUSAL", "association.jsonl": "ASSOCIATION", "comparison.jsonl": "COMPARISON",
                  "modal.jsonl": "MODAL", "nonclaim.jsonl": "NONCLAIM"}
SCALE_FILE = "scale.json"
GATE_FILES = {
    "negative.jsonl": "NEGATIVE",
    "antonym.jsonl": "ANTONYM",
    "approximator.jsonl": "APPROXIMATOR",
    "bound.jsonl": "BOUND",
    "direction.jsonl": "DIRECTION",
    "fraction.jsonl": "FRACTION",
    "relation.jsonl": "RELATION",
    "era.jsonl": "ERA",
    "stance.jsonl": "STANCE",
    "condition.jsonl": "CONDITION",
    # the claim record's words (pipes/gate/records.py)
    "quantifier.jsonl": "QUANTIFIER",
    "frequency.jsonl": "FREQUENCY",
    "partial.jsonl": "PARTIAL",
    "complete.jsonl": "COMPLETE",
    "comparison.jsonl": "COMPARISON",
    "mood.jsonl": "MOOD",
    "tense.jsonl": "TENSE",
    "standing.jsonl": "STANDING",
    "restrictor.jsonl": "RESTRICTOR",
    "certainty.jsonl": "CERTAINTY",
    "symmetric.jsonl": "SYMMETRIC",
    # equivalences mined from Open English WordNet (training/MINING.md, revisions 3 to 5)
    "synonym.jsonl": "SYNONYM",
    "frame.jsonl": "FRAME",
    "spoken.jsonl": "SPOKEN",
    "affixal.jsonl": "NEGATIVE",
}
SENSE_FILES = {"verbal.jsonl": "VERBAL", "clausal.jsonl": "CLAUSAL", "propositional.jsonl": "PROPOSITIONAL",
               "modifier.jsonl": "MODIFIER", "ability.jsonl": "ABILITY"}
CLAUSE_WORDS_FILE = "clause_words.json"
SCOPE_WORDS_FILE = "scope_words.json"
CONFUSABLES_FILE = "confusables.tsv"
UNITS_FILE = "units.json"
TIMEX_FILE = "timex.json"
LEMMA_FILE = "lemma_lookup.msgpack"


@dataclass(frozen=True)
class SetKind:
    """One kind of frozen set: its name, its files, and where the package keeps it (``place``: the data folder
    and the path inside it; empty for a set the package does not ship, such as the lemma table a pipeline saves)."""

    name: str
    class_files: Mapping[str, str] = field(default_factory=dict)
    data_files: Tuple[str, ...] = ()
    place: Tuple[str, ...] = ()
    table: bool = False


CUES = SetKind("cues", CLASS_FILES, place=("lexicons",))
AUTHORITY = SetKind("authority", AUTHORITY_FILES, place=("lexicons", "authority"))
STRENGTH = SetKind("strength", STRENGTH_FILES, (SCALE_FILE,), place=("lexicons", "strength"))
GATE = SetKind("gate", GATE_FILES, place=("lexicons", "gate"))
SENSE = SetKind("sense", SENSE_FILES, place=("lexicons", "sense"), table=True)
SYNTAX = SetKind("syntax", data_files=(CLAUSE_WORDS_FILE, SCOPE_WORDS_FILE, CONFUSABLES_FILE),
                 place=("tables", "syntax"), table=True)
VALUES = SetKind("values", data_files=(UNITS_FILE, TIMEX_FILE), place=("tables", "values"), table=True)
# the lookup lemmas a pipeline saves (from spacy-lookups-data when it is initialized; no packaged folder)
LEMMAS = SetKind("lemmas", data_files=(LEMMA_FILE,))

# the sets the package ships, by name: what ``freeze_set`` (and the ``freeze-lexicons`` command) can freeze
SETS: Dict[str, SetKind] = {kind.name: kind for kind in (CUES, AUTHORITY, STRENGTH, GATE, SENSE, SYNTAX, VALUES)}
