"""What mem0's extraction read, as the source its facts are checked against, and what a turn tells of a fact.

mem0 (2.x) asks its LLM for facts with the session's last messages (``db.get_last_messages``: the earlier
``add`` calls of the same user, agent and run, each cut to 300 characters) and this call's messages. So a fact
is gated against all of it: ``Context`` is those turns in mem0's order, one a line, system messages left out,
each with its role and its offsets in the text.

Two readings need the turns, not only the text (``TurnReview``, run inside the gate's check with both Docs):

- **hearsay an earlier turn reports.** "Someone in the chat told me something." / "What?" / "Alice was
  promoted to admin.": each sentence on its own attributes nothing, but the last turn is what the first one
  reports. When a fact holds no attribution of its own and the gate found none dropped, and it aligns to a turn
  that an earlier turn of the same speaker (role) attributes, the fact is hearsay: a ``dropped_attribution``
  change is added with that earlier turn's cue as its evidence (offsets in the source). Any attribution cue of
  an earlier turn counts, so "Bob said hi." before a plain claim holds it too: held for review, never lost.
- **the turns a fact comes from**, for the fields of the extraction reply that mem0 stores beside the fact
  (``attributed_to``: "user" or "assistant", who provided it): kept only when it names the role of a turn the
  fact aligns to.
"""

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ...pipes.gate.policy import verdict
from ...pipes.gate.report import Change, Cue, Excerpt, Report
from ...pipes.cues.extensions import CUES_KEY

ATTRIBUTION = "ATTRIBUTION"
ATTRIBUTING = frozenset({"dropped_attribution", "changed_source"})  # the gate already found the attribution
EARLIER_TURN = "earlier_turn_attribution"
ROLE_FIELD = "attributed_to"  # the reply field mem0 stores as who provided a fact


@dataclass(frozen=True)
class Turn:
    """One message the extraction read: its role, its offsets in the context's text, and whether it came from the
    session history (an earlier ``add``) rather than this call."""

    role: str
    start: int
    end: int
    earlier: bool


@dataclass(frozen=True)
class Context:
    """The turns mem0's extraction read, as one text (one turn a line)."""

    text: str
    turns: Tuple[Turn, ...]

    def turn_at(self, char: int) -> Optional[int]:
        """The index of the turn holding a character offset of the text (None between turns)."""
        return next((n for n, turn in enumerate(self.turns) if turn.start <= char < turn.end), None)


def history_text(message: Mapping[str, Any]) -> str:
    """A history message as mem0 shows it to its LLM (``_truncate_content``: cut to its limit)."""
    content = message.get("content") or ""
    try:
        from mem0.configs.prompts import _truncate_content
    except ImportError:  # another mem0: the whole message
        return content
    return _truncate_content(content)


def read_context(history: Sequence[Mapping[str, Any]], messages: Sequence[Mapping[str, Any]]) -> Context:
    """The session history mem0 read (oldest first) and this call's messages, as mem0 sends them: history cut as
    mem0 cuts it, messages without text and system messages left out."""
    pieces: List[Tuple[str, str, bool]] = []
    for earlier, listed in ((True, history), (False, messages)):
        for message in listed:
            text = history_text(message) if earlier else message.get("content")
            if message.get("role") and message.get("role") != "system" and isinstance(text, str) and text:
                pieces.append((message["role"], text, earlier))
    turns, parts, at = [], [], 0
    for role, text, earlier in pieces:
        turns.append(Turn(role, at, at + len(text), earlier))
        parts.append(text)
        at += len(text) + 1
    return Context("\n".join(parts), tuple(turns))


def aligned(report: Report) -> bool:
    """Whether a report aligned any claim of the memory to the source (a change, or a sentence not uncheckable)."""
    return bool(report.changes) or (not report.not_english and len(report.uncheckable) < report.memory_sentences)


class TurnReview:
    """The review ``Gate.check`` is given for one fact of a context: hearsay an earlier turn reports, the turns
    the fact aligns to (``self.turns``, worked out when ``find_turns``), then the caller's own review (if any)."""

    def __init__(self, gate, context: Context, then=None, find_turns: bool = False) -> None:
        self.gate = gate
        self.context = context
        self.then = then
        self.find_turns = find_turns
        self.turns: Optional[List[int]] = None  # the turns the fact aligns to, when worked out

    def __call__(self, report: Report, source_doc, memory_doc) -> Report:
        """The report with hearsay from an earlier turn added, then reviewed by the caller's review."""
        attributing = self._attributing(source_doc)
        hearsay = self._needs_turns(report, memory_doc, attributing)
        if hearsay or self.find_turns:
            self.turns = self._aligned_turns(report, memory_doc)
        if hearsay:
            report = self._carried(report, attributing, memory_doc)
        return report if self.then is None else self.then(report, source_doc, memory_doc)

    def _attributing(self, source_doc) -> Dict[int, Any]:
        """Turn index -> the first attribution cue it holds (a span of the source Doc)."""
        found: Dict[int, Any] = {}
        for cue in source_doc.spans.get(CUES_KEY, []):
            turn = self.context.turn_at(cue.start_char)
            if cue.label_ == ATTRIBUTION and turn is not None:
                found.setdefault(turn, cue)
        return found

    def _reporters(self, attributing: Dict[int, Any], turn: int) -> List[int]:
        """The earlier turns of the same role as ``turn`` that hold an attribution cue."""
        role = self.context.turns[turn].role
        return [n for n in sorted(attributing) if n < turn and self.context.turns[n].role == role]

    def _needs_turns(self, report: Report, memory_doc, attributing: Dict[int, Any]) -> bool:
        """Whether the fact may be hearsay of an earlier turn: it attributes nothing itself, the gate found no
        attribution dropped, and some turn has an earlier attributing turn of its role."""
        if any(change.type in ATTRIBUTING for change in report.changes) or report.verdict == "reject":
            return False
        if any(cue.label_ == ATTRIBUTION for cue in memory_doc.spans.get(CUES_KEY, [])):
            return False
        return any(self._reporters(attributing, n) for n in range(len(self.context.turns)))

    def _aligned_turns(self, report: Report, memory_doc) -> List[int]:
        """The turns the fact aligns to, each compared with the fact on its own (one turn: the report says)."""
        if len(self.context.turns) == 1:
            return [0] if aligned(report) else []
        texts = [self.context.text[turn.start:turn.end] for turn in self.context.turns]
        return [n for n, doc in enumerate(self.gate.nlp.pipe(texts)) if aligned(self.gate.compare(doc, memory_doc))]

    def _carried(self, report: Report, attributing: Dict[int, Any], memory_doc) -> Report:
        """The report with a ``dropped_attribution`` change when every turn the fact aligns to is reported by an
        earlier turn of its speaker."""
        reported = [(n, self._reporters(attributing, n)) for n in self.turns or []]
        if not reported or not all(reporters for _, reporters in reported):
            return report
        turn, reporters = reported[0]
        cue = attributing[reporters[0]]
        span = self.context.turns[turn]
        change = Change(
            "dropped_attribution", EARLIER_TURN,
            f"an earlier message attributes what this one says ({cue.text!r}, message {reporters[0] + 1} of the "
            f"{len(self.context.turns)} mem0's extraction read); the memory states it as fact",
            Excerpt(memory_doc.text, 0, len(memory_doc.text)),
            Excerpt(self.context.text[span.start:span.end], span.start, span.end),
            [Cue("source", ATTRIBUTION, cue.text, cue.start_char, cue.end_char, cue.id_, report.lexicon_version)],
            {"message": turn + 1, "reported_by": reporters[0] + 1})
        changes = list(report.changes) + [change]
        return replace(report, changes=changes, verdict=verdict((c.type for c in changes), report.uncheckable,
                                                                 report.empty_memory, bool(report.not_english)))


def checked_fields(fact: Mapping[str, Any], context: Context, turns: Optional[List[int]]) -> Tuple[Dict, Dict]:
    """(the fields of an extracted fact mem0 is given back besides its text, the fields refused and why).

    mem0 stores ``attributed_to`` from the reply; it is kept only when it names the role of a turn the fact
    aligns to. Every other field of the reply item is dropped (mem0 2.x stores none of them), and recorded.
    """
    kept, refused = {}, {}
    for name, value in fact.items():
        if name == "text":
            continue
        if name != ROLE_FIELD:
            refused[name] = "not a field the gate checks: not given to mem0"
            continue
        roles = sorted({context.turns[n].role for n in turns or []})
        if isinstance(value, str) and value in roles:
            kept[name] = value
        else:
            refused[name] = (f"names {value!r}, but the fact aligns to "
                             + (f"a message of {' and '.join(roles)}" if roles else "no message") + ": not stored")
    return kept, refused
