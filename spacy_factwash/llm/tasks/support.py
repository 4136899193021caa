"""The unsupported-claim detector ("added"): does the source support what one memory sentence claims?

For each memory sentence the model sees the source and that one sentence and
answers supported, unsupported or cannot_tell. Supported and unsupported must
both quote the source verbatim (unsupported quotes the closest source text,
proving it read before claiming absence), and unsupported also quotes the
words of the sentence the source does not support. Quotes are validated with
``quotes.quote_problem``; a quote must hold at least ``MIN_QUOTE_WORDS`` words.

What it adds to a report is a note, never a change: an ``unsupported_claim``
note (marked reject-class, as the finding is serious, and ``applied: false``)
with offsets in both texts, and a ``support_not_established`` note for every
sentence the model could not settle (cannot_tell, a discarded reply, a failed
call, a reply that stopped for anything but its tool call, an exhausted
budget or a passed deadline, a source too long to send). A model may only lower
a verdict, so the verdict never moves; a reader who wants the finding to
block a write acts on the note, knowing it came from a model.
"""

from dataclasses import dataclass, replace
from typing import List, Optional, Tuple

from spacy.tokens import Doc

from ...pipes.gate.report import Change, Excerpt
from ...syntax.sentences import sentences
from ..budget import BudgetExhausted, DeadlineReached
from ..client import ModelComponent, unfinished
from ..quotes import locate, normalise, quote_problem

TOOL = {
    "name": "judge_support",
    "description": "Say whether the source supports the sentence, quoting the source (and the unsupported words).",
    "input_schema": {
        "type": "object",
        "properties": {
            "judgement": {"type": "string", "enum": ["supported", "unsupported", "cannot_tell"]},
            "source_quote": {"type": "string"},
            "sentence_quote": {"type": "string"},
        },
        "required": ["judgement", "source_quote", "sentence_quote"],
        "additionalProperties": False,
    },
}
UNSUPPORTED = "unsupported_claim"
NOT_ESTABLISHED = "support_not_established"
MIN_QUOTE_WORDS = 2
CANNOT_TELL = "the model could not tell"


@dataclass(frozen=True)
class SupportAnswer:
    """A validated judgement with its quotes located: offsets in the source and in the sentence."""

    judgement: Optional[str]  # "supported", "unsupported", or None when nothing was established
    source_span: Optional[Tuple[int, int]] = None
    sentence_span: Optional[Tuple[int, int]] = None
    reason: str = ""
    model: str = ""
    prompt: str = ""


def _quoted(text: str, quote: object, what: str) -> Tuple[Optional[Tuple[int, int]], str]:
    """The quote's offsets in ``text``, or None and why it does not count."""
    if not isinstance(quote, str) or len(normalise(quote).split()) < min(MIN_QUOTE_WORDS, len(text.split())):
        return None, f"the {what} quote is missing or shorter than {MIN_QUOTE_WORDS} words"
    problem = quote_problem(text, quote)
    return (None, f"the {what} quote is not in the {what}: {problem}") if problem else (locate(text, quote), "")


def validate(source: str, sentence: str, reply: object) -> SupportAnswer:
    """Check a tool input: a known judgement, and for a decided one, quotes that are really there."""
    if not isinstance(reply, dict) or reply.get("judgement") not in ("supported", "unsupported", "cannot_tell"):
        return SupportAnswer(None, reason="malformed reply")
    judgement = reply["judgement"]
    if judgement == "cannot_tell":
        return SupportAnswer(None, reason=CANNOT_TELL)
    source_span, why = _quoted(source, reply.get("source_quote"), "source")
    if source_span is None:
        return SupportAnswer(None, reason=why)
    if judgement == "supported":
        return SupportAnswer("supported", source_span)
    sentence_span, why = _quoted(sentence, reply.get("sentence_quote"), "sentence")
    if sentence_span is None:
        return SupportAnswer(None, reason=why)
    return SupportAnswer("unsupported", source_span, sentence_span)


@dataclass
class SupportJudge(ModelComponent):
    """Ask a model whether the source supports one memory sentence at a time."""

    max_tokens: int = 400
    max_source_chars: int = 20_000

    @staticmethod
    def content(source: str, sentence: str) -> str:
        """What one call sends besides the prompt and the tool: the whole source and the one sentence."""
        return f"SOURCE:\n{source}\n\nSENTENCE:\n{sentence}"

    def sends(self, source: str) -> bool:
        """Whether a source is short enough to be sent (``max_source_chars``)."""
        return len(source) <= self.max_source_chars

    def judge(self, source: str, sentence: str) -> SupportAnswer:
        """The validated judgement for one sentence; raises ``BudgetExhausted`` or ``DeadlineReached`` when no
        call may be made."""
        if not self.sends(source):
            return SupportAnswer(None, reason=f"the source has {len(source):,} characters, over max_source_chars "
                                              f"({self.max_source_chars:,}); it was not sent")
        reply, failure = self.try_ask("added", TOOL, self.content(source, sentence))
        if reply is None:
            answer = SupportAnswer(None, reason=failure, model=self.model)
        elif unfinished(reply) or reply.input is None:
            answer = SupportAnswer(None, reason=f"no finished tool call in the reply (stop_reason "
                                                f"{reply.stop_reason})")
        else:
            answer = validate(source, sentence, reply.input)
        if answer.judgement is None and answer.reason != CANNOT_TELL:
            self.discarded += 1
        return answer if reply is None else replace(answer, model=reply.model, prompt=reply.prompt)


def _note(kind: str, sent: Excerpt, source: str, answer: SupportAnswer) -> Change:
    """An ``unsupported_claim`` or ``support_not_established`` note with its evidence."""
    stamp = {"model": answer.model, "prompt": answer.prompt}
    if kind == NOT_ESTABLISHED:
        return Change(kind, "model:added", f"support not established: {answer.reason}", sent, None, [],
                      {**stamp, "reason": answer.reason})
    (s_start, s_end), (m_start, m_end) = answer.source_span, answer.sentence_span
    memory = Excerpt(sent.text[m_start:m_end], sent.start_char + m_start, sent.start_char + m_end)
    closest = Excerpt(source[s_start:s_end], s_start, s_end)
    return Change(kind, "model:added",
                  f"a model judges {memory.text!r} unsupported by the source; closest source text {closest.text!r}",
                  memory, closest, [], {**stamp, "class": "reject", "applied": False})


def judged_sentences(memory: Doc) -> List:
    """The memory sentences the judge is asked about: every one with a word or number in it."""
    return [sent for sent in sentences(memory) if any(token.is_alpha or token.like_num for token in sent)]


def review_support(report, source: str, memory: Doc, judge: SupportJudge):
    """The report with a note for each memory sentence the model found unsupported or could not settle.

    Every memory sentence with a word or number in it is asked about, one
    call each. The verdict and the changes are left as they are.
    """
    notes: List[Change] = []
    stopped = ""  # why no more calls are made: the budget or the run's deadline
    for sent in judged_sentences(memory):
        excerpt = Excerpt(sent.text, sent.start_char, sent.end_char)
        if not stopped:
            try:
                answer = judge.judge(source, sent.text)
            except (BudgetExhausted, DeadlineReached) as stop:
                stopped = "budget exhausted" if isinstance(stop, BudgetExhausted) else "the run's deadline passed"
        if stopped:
            answer = SupportAnswer(None, reason=f"{stopped}: not asked")
        if answer.judgement == "unsupported":
            notes.append(_note(UNSUPPORTED, excerpt, source, answer))
        elif answer.judgement is None:
            notes.append(_note(NOT_ESTABLISHED, excerpt, source, answer))
    return replace(report, notes=list(report.notes) + notes) if notes else report
