"""The witness: one sentence in, "does it hedge? does it attribute?" out, with the exact words as proof.

It perceives and never judges: it sees one sentence, never the other text,
and returns two booleans and the markers that made it say yes. The sentence
goes to the model as data, inside the ``<memory_sentence>`` tags the prompt
names as untrusted (``&``, ``<`` and ``>`` escaped, so no text closes them):
whatever it asks of the checker, the quote check decides. Every quoted
marker must be a word that does the job claimed, where it stands in the
sentence (``markers.Markers.prove``: a hedge or an attribution cue of the
witness's word lists, at token boundaries, with nothing but function words
around it). A reply that cites anything else, says yes without a marker, is
malformed, stopped for any reason but its tool call (``refusal``,
``max_tokens``), or fails is discarded and counted, and the deterministic
result stands. The anthropic client is built only when the witness first
makes a call.
"""

from dataclasses import dataclass, replace
from typing import List, Optional, Tuple

from ...pipes.gate.policy import verdict
from ...pipes.gate.report import Change, Excerpt
from ..budget import BudgetExhausted, DeadlineReached
from ..client import ModelComponent, Reply, unfinished
from ..markers import ATTRIBUTES, HEDGES, Marker, Markers, packaged_markers

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
DISPROVES = {"strengthened_certainty": HEDGES, "dropped_attribution": ATTRIBUTES}  # change -> what disproves it
WORDS_KEY = {HEDGES: "hedge_words", ATTRIBUTES: "attribution_words"}


@dataclass(frozen=True)
class WitnessAnswer:
    """What the witness saw in one sentence; ``usable`` is False when the reply was discarded. ``markers`` holds,
    for each answer said yes to, where its first quoted marker stands in the sentence and the entry it is."""

    usable: bool
    hedges: bool = False
    attributes: bool = False
    hedge_words: Tuple[str, ...] = ()
    attribution_words: Tuple[str, ...] = ()
    reason: str = ""
    model: str = ""
    prompt: str = ""
    failed_call: bool = False  # no reply at all (network, timeout, retries spent), as opposed to a bad reply
    markers: Tuple[Tuple[str, Marker], ...] = ()

    def words(self, flag: str) -> Tuple[str, ...]:
        """The words quoted for one answer (``hedges`` or ``attributes``)."""
        return self.hedge_words if flag == HEDGES else self.attribution_words

    def marker(self, flag: str) -> Optional[Marker]:
        """Where the first quoted marker of one answer stands in the sentence (None when it was not said yes)."""
        return dict(self.markers).get(flag)


def validate(sentence: str, reply: object, markers: Optional[Markers] = None) -> WitnessAnswer:
    """Check a tool input against the sentence: every yes needs markers, and every quoted marker must do the job
    claimed where it stands in the sentence (``markers``: the packaged word lists by default)."""
    if not isinstance(reply, dict):
        return WitnessAnswer(False, reason="reply is not an object")
    markers = markers if markers is not None else packaged_markers()
    answers, found = {}, []
    for flag in (HEDGES, ATTRIBUTES):
        said, words = reply.get(flag), reply.get(WORDS_KEY[flag])
        if not isinstance(said, bool) or not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            return WitnessAnswer(False, reason=f"malformed {flag}/{WORDS_KEY[flag]}")
        words = [w for w in words if w.strip()]
        if said and not words:
            return WitnessAnswer(False, reason=f"{flag} is true but no words are quoted")
        proofs = [markers.prove(sentence, word, flag) for word in words]
        problems = [why for marker, why in proofs if marker is None]
        if problems:
            return WitnessAnswer(False, reason="quoted words that cannot be the cue: " + "; ".join(problems))
        if said:
            found.append((flag, proofs[0][0]))
        answers[flag] = (said, tuple(words))
    return WitnessAnswer(True, answers[HEDGES][0], answers[ATTRIBUTES][0], answers[HEDGES][1],
                         answers[ATTRIBUTES][1], markers=tuple(found))


def read_reply(sentence: str, reply: Reply, markers: Optional[Markers] = None) -> WitnessAnswer:
    """The validated answer for one reply, stamped with its model and prompt version; a reply that stopped for
    anything but its tool call is discarded whatever it holds."""
    if unfinished(reply):
        answer = WitnessAnswer(False, reason=f"the reply stopped for {reply.stop_reason!r}, not for its tool call")
    elif reply.input is None:
        answer = WitnessAnswer(False, reason=f"no tool call in the reply (stop_reason {reply.stop_reason})")
    else:
        answer = validate(sentence, reply.input, markers)
    return replace(answer, model=reply.model, prompt=reply.prompt)


def as_data(sentence: str) -> str:
    """What one call sends besides the prompt and the tool: the sentence inside the tags the prompt names as
    untrusted data, with ``&``, ``<`` and ``>`` escaped so that nothing in it can close them."""
    escaped = sentence.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"<memory_sentence>\n{escaped}\n</memory_sentence>"


@dataclass
class Witness(ModelComponent):
    """Ask a model about one sentence at a time, through the anthropic SDK; ``markers`` are the word lists its
    quotes are checked against (the packaged cue lexicon and gate word lists by default)."""

    timeout: float = 20.0
    max_tokens: int = 300
    markers: Optional[Markers] = None

    def ask(self, sentence: str) -> WitnessAnswer:
        """The witness's validated answer for one sentence; raises ``BudgetExhausted`` or ``DeadlineReached``
        when no call may be made."""
        reply, failure = self.try_ask("witness", TOOL, as_data(sentence))
        answer = (read_reply(sentence, reply, self.markers) if reply
                  else WitnessAnswer(False, reason=failure, model=self.model, failed_call=True))
        self.discarded += not answer.usable
        return answer


def _lowering_note(change: Change, answer: WitnessAnswer, flag: str) -> Change:
    """The evidence for a removed flag: the witness's first quoted marker, where it stands in the memory."""
    sentence = change.memory
    marker = answer.marker(flag)
    quoted = sentence.text[marker.start:marker.end]
    return Change(LOWERED, "model:witness",
                  f"the witness quotes {quoted!r} ({marker.entry}) as a {'hedge' if flag == HEDGES else 'source'} "
                  f"the gate did not bind, so {change.type} was removed",
                  Excerpt(quoted, sentence.start_char + marker.start, sentence.start_char + marker.end),
                  change.source, list(change.cues),
                  {"removed": change.type, "model": answer.model, "prompt": answer.prompt,
                   "quoted": list(answer.words(flag)), "entry": marker.entry})


def lower_with_witness(report, witness: Witness):
    """The report with every dropped-hedge or dropped-attribution flag the witness disproves removed.

    The witness is asked only about memory sentences the gate flagged for
    those two changes; a usable "yes, it hedges / attributes" whose marker
    does that job in the memory means the memory kept the cue, so that flag
    goes, and a ``lowered_by_witness`` note records the quoted words and
    where the marker is. No flag is ever added, so the verdict can only stay
    or become more lenient. When the budget allows no more calls, or the
    run's deadline has passed, the remaining flags stay.
    """
    kept: List[Change] = []
    notes: List[Change] = []
    for change in report.changes:
        flag: Optional[str] = DISPROVES.get(change.type)
        if flag is not None:
            try:
                answer = witness.ask(change.memory.text)
            except (BudgetExhausted, DeadlineReached) as stop:  # counted by the meter; the flag stays
                answer = WitnessAnswer(False, reason=str(stop))
            if answer.usable and getattr(answer, flag):
                notes.append(_lowering_note(change, answer, flag))
                continue
        kept.append(change)
    if not notes:
        return report
    return replace(report, changes=kept, notes=list(report.notes) + notes,
                   verdict=verdict((c.type for c in kept), report.uncheckable, empty_memory=report.empty_memory))
