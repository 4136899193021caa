"""The witness: one sentence in, "does it hedge? does it attribute?" out, with the exact words as proof.

It perceives and never judges: it sees one sentence, never the other text,
and returns two booleans and the markers that made it say yes. Every marker
is checked against the sentence (``quotes.quote_problem``: lower-cased, curly
quotes folded, whitespace collapsed, at word boundaries, holding a word that
is not a function word); a reply that cites words not in the sentence, or
only punctuation or function words, says yes without a marker, is malformed, is a refusal, or fails is
discarded and counted, and the deterministic result stands. The anthropic
client is built only when the witness first makes a call.
"""

from dataclasses import dataclass, replace
from typing import List, Optional, Tuple

from ...pipes.gate.policy import verdict
from ...pipes.gate.report import Change, Excerpt
from ..budget import BudgetExhausted
from ..client import ModelComponent, Reply
from ..quotes import locate, quote_problem

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
LOWERED = "lowered_by_witness"
DISPROVES = {"strengthened_certainty": "hedges", "dropped_attribution": "attributes"}  # change -> what disproves it


@dataclass(frozen=True)
class WitnessAnswer:
    """What the witness saw in one sentence; ``usable`` is False when the reply was discarded."""

    usable: bool
    hedges: bool = False
    attributes: bool = False
    hedge_words: Tuple[str, ...] = ()
    attribution_words: Tuple[str, ...] = ()
    reason: str = ""
    model: str = ""
    prompt: str = ""
    failed_call: bool = False  # no reply at all (network, timeout, retries spent), as opposed to a bad reply

    def words(self, flag: str) -> Tuple[str, ...]:
        return self.hedge_words if flag == "hedges" else self.attribution_words


def validate(sentence: str, reply: object) -> WitnessAnswer:
    """Check a tool input against the sentence: every yes needs markers, and every marker must be in the sentence."""
    if not isinstance(reply, dict):
        return WitnessAnswer(False, reason="reply is not an object")
    answers = {}
    for flag, words_key in (("hedges", "hedge_words"), ("attributes", "attribution_words")):
        said, words = reply.get(flag), reply.get(words_key)
        if not isinstance(said, bool) or not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            return WitnessAnswer(False, reason=f"malformed {flag}/{words_key}")
        words = [w for w in words if w.strip()]
        if said and not words:
            return WitnessAnswer(False, reason=f"{flag} is true but no words are quoted")
        problems = [problem for problem in (quote_problem(sentence, w) for w in words) if problem]
        if problems:
            return WitnessAnswer(False, reason="quoted words that cannot be the cue: " + "; ".join(problems))
        answers[flag] = (said, tuple(words))
    return WitnessAnswer(True, answers["hedges"][0], answers["attributes"][0], answers["hedges"][1],
                         answers["attributes"][1])


def read_reply(sentence: str, reply: Reply) -> WitnessAnswer:
    """The validated answer for one reply, stamped with its model and prompt version."""
    if reply.input is None:
        answer = WitnessAnswer(False, reason=f"no tool call in the reply (stop_reason {reply.stop_reason})")
    else:
        answer = validate(sentence, reply.input)
    return replace(answer, model=reply.model, prompt=reply.prompt)


@dataclass
class Witness(ModelComponent):
    """Ask a model about one sentence at a time, through the anthropic SDK."""

    timeout: float = 20.0
    max_tokens: int = 300

    def ask(self, sentence: str) -> WitnessAnswer:
        """The witness's validated answer for one sentence; raises ``BudgetExhausted`` when no call may be made."""
        reply, failure = self.try_ask("witness", TOOL, sentence)
        answer = (read_reply(sentence, reply) if reply
                  else WitnessAnswer(False, reason=failure, model=self.model, failed_call=True))
        self.discarded += not answer.usable
        return answer


def _lowering_note(change: Change, answer: WitnessAnswer, flag: str) -> Change:
    """The evidence for a removed flag: the witness's first quoted marker, located in the memory."""
    sentence = change.memory
    word = answer.words(flag)[0]
    start, end = locate(sentence.text, word)
    return Change(LOWERED, "model:witness",
                  f"the witness quotes {sentence.text[start:end]!r} as a {'hedge' if flag == 'hedges' else 'source'} "
                  f"the lexicon missed, so {change.type} was removed",
                  Excerpt(sentence.text[start:end], sentence.start_char + start, sentence.start_char + end),
                  change.source, list(change.cues),
                  {"removed": change.type, "model": answer.model, "prompt": answer.prompt,
                   "quoted": list(answer.words(flag))})


def lower_with_witness(report, witness: Witness):
    """The report with every dropped-hedge or dropped-attribution flag the witness disproves removed.

    The witness is asked only about memory sentences the gate flagged for
    those two changes; a usable "yes, it hedges / attributes" means the
    memory kept the cue the lexicon missed, so that flag goes, and a
    ``lowered_by_witness`` note records the quoted words and where they are.
    No flag is ever added, so the verdict can only stay or become more
    lenient. When the budget allows no more calls, the remaining flags stay.
    """
    kept: List[Change] = []
    notes: List[Change] = []
    for change in report.changes:
        flag: Optional[str] = DISPROVES.get(change.type)
        if flag is not None:
            try:
                answer = witness.ask(change.memory.text)
            except BudgetExhausted:  # counted by the meter (refused calls); the flag stays
                answer = WitnessAnswer(False, reason="budget exhausted")
            if answer.usable and getattr(answer, flag):
                notes.append(_lowering_note(change, answer, flag))
                continue
        kept.append(change)
    if not notes:
        return report
    return replace(report, changes=kept, notes=list(report.notes) + notes,
                   verdict=verdict((c.type for c in kept), report.uncheckable, empty_memory=report.empty_memory))
