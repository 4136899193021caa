"""The witness: one sentence in, "does it hedge? does it attribute?" out, with the exact words as proof.

It perceives and never judges: it sees one sentence, never the other text,
and returns two booleans and the markers that made it say yes. Every marker
is checked against the sentence (after lower-casing, folding curly quotes
and collapsing whitespace); a reply that cites words not in the sentence,
says yes without a marker, or is malformed is discarded and counted, and the
deterministic result stands. The anthropic client is built only when the
witness is first asked, from the environment's API key unless one is passed.
"""

import re
from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Tuple

from ..gate.policy import verdict
from .client import ModelComponent
TOOL = {
    "name": "report_cues",
    "description": "Report whether the sentence hedges and whether it attributes, with the exact words.",
    "input_schema": {
        "type": "object",
        "properties": {
            "hedges": {"type": "boolean"},
            "hedge_words": {"type": "array", "items": {"type": "string"}},
            "attributes": {"type": "boolean"},
            "attribution_words": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["hedges", "hedge_words", "attributes", "attribution_words"],
        "additionalProperties": False,
    },
}
QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})


def normalise(text: str) -> str:
    """Lower-cased, curly quotes folded, whitespace collapsed: the form markers are checked in."""
    return re.sub(r"\s+", " ", text.translate(QUOTES).lower()).strip()


@dataclass(frozen=True)
class WitnessAnswer:
    """What the witness saw in one sentence; ``usable`` is False when the reply was discarded."""

    usable: bool
    hedges: bool = False
    attributes: bool = False
    hedge_words: Tuple[str, ...] = ()
    attribution_words: Tuple[str, ...] = ()
    reason: str = ""


def validate(sentence: str, reply: Any) -> WitnessAnswer:
    """Check a tool reply against the sentence: every yes needs markers, and every marker must be in the sentence."""
    if not isinstance(reply, dict):
        return WitnessAnswer(False, reason="reply is not an object")
    text = normalise(sentence)
    answers = {}
    for flag, words_key in (("hedges", "hedge_words"), ("attributes", "attribution_words")):
        said, words = reply.get(flag), reply.get(words_key)
        if not isinstance(said, bool) or not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            return WitnessAnswer(False, reason=f"malformed {flag}/{words_key}")
        words = [w for w in words if w.strip()]
        if said and not words:
            return WitnessAnswer(False, reason=f"{flag} is true but no words are quoted")
        missing = [w for w in words if normalise(w) not in text]
        if missing:
            return WitnessAnswer(False, reason=f"quoted words not in the sentence: {missing}")
        answers[flag] = (said, tuple(words))
    return WitnessAnswer(True, answers["hedges"][0], answers["attributes"][0], answers["hedges"][1],
                         answers["attributes"][1])


@dataclass
class Witness(ModelComponent):
    """Ask a model about one sentence at a time, through the anthropic SDK."""

    timeout: float = 20.0
    max_tokens: int = 300
    asked: int = 0
    discarded: int = 0
    cache: Dict[str, WitnessAnswer] = field(default_factory=dict)


    def ask(self, sentence: str) -> WitnessAnswer:
        """The witness's validated answer for one sentence (cached by text)."""
        if sentence in self.cache:
            return self.cache[sentence]
        self.asked += 1
        try:
            answer = validate(sentence, self.ask_tool("witness", TOOL, sentence))
        except Exception as err:  # a failed call is a discarded reply: the deterministic result stands
            answer = WitnessAnswer(False, reason=f"call failed: {type(err).__name__}: {err}")
        if not answer.usable:
            self.discarded += 1
        self.cache[sentence] = answer
        return answer


def lower_with_witness(report, witness: Witness):
    """The report with every dropped-hedge or dropped-attribution flag the witness disproves removed.

    The witness is asked only about memory sentences the gate flagged for
    those two changes; a usable "yes, it hedges / attributes" means the
    memory kept the cue the lexicon missed, so that flag goes. No flag is
    ever added, so the verdict can only stay or become more lenient.
    """
    kept: List = []
    removed: List = []
    for change in report.changes:
        if change.type in ("strengthened_certainty", "dropped_attribution"):
            answer = witness.ask(change.memory.text)
            disproved = answer.usable and (answer.hedges if change.type == "strengthened_certainty"
                                           else answer.attributes)
            if disproved:
                removed.append(change)
                continue
        kept.append(change)
    if not removed:
        return report
    return replace(report, changes=kept,
                   verdict=verdict((c.type for c in kept), report.uncheckable, empty_memory=report.empty_memory))
