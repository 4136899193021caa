"""Tense and aspect: a past state stated as present, or a present one as past (``changed_tense``).

The source places the claim in the past with a marker of a past state or
habit ("used to", "formerly", "ex-", "was ... once") and the memory states
it in the present: its be, have or do in the present, or the verb of "used
to" in its present form ("used to manage" -> "manages"). Or the source marks
a present state ("still", "currently", "to this day") and the memory places
it in the past with such a marker, or the memory marks a past state the
source states in the present ("runs" -> "used to run", "is" -> "was
formerly"). "used to lead" -> "formerly led" keeps the past; a tense
changed without a marker on either side is a summary's usual freedom, not
read.
"""

from typing import List, Optional

from ..claims import Claim
from ..records import Part
from ..report import Change
from .base import Pair


MARKED_VERB_REACH = 3  # tokens after a past-state marker where its verb stands ("used to be owned")


BE = frozenset({"be", "been", "being"})


def _habit_verb(claims, claim: Claim, habit: Part) -> Optional[int]:
    """The key of the verb after a past-state marker ("used to *manage*", "formerly *chaired*", "used to be
    *owned*", "used to *own*": a stop word too), or None."""
    doc, end = claim.doc, habit.spans[0].end
    for token in doc[end:min(len(doc), end + MARKED_VERB_REACH)]:
        if token.is_alpha and token.lower_ not in BE:
            return claims.key(token)
    return None


def _present(pair: Pair, memory: Claim, parts: List[Part], verb: Optional[int]) -> Optional[Part]:
    """What states the memory claim in the present: its be, have or do in the present, or the habit's verb in its
    present form (the lemma plus -s)."""
    be = [p for p in parts if p.value in ("past", "present")]
    if be:
        return be[0] if be[0].value == "present" else None
    strings = memory.doc.vocab.strings
    for i, key in memory.key_at.items():
        if key == verb and key in strings and memory.doc[i].lower_ in (strings[key] + "s", strings[key] + "es"):
            return Part("tense", "present", None, (memory.doc[i:i + 1],))
    return None


def _past(pair: Pair, memory: Claim, parts: List[Part]) -> Optional[Part]:
    """What states the memory claim as done: a past be, have or do, or a word of the claim inflected in -ed."""
    be = [p for p in parts if p.value in ("past", "present")]
    if be:
        return be[0] if be[0].value == "past" else None
    strings = memory.doc.vocab.strings
    for i, key in sorted(memory.key_at.items()):
        token = memory.doc[i]
        if key in strings and token.lower_ != strings[key] and token.lower_.endswith("ed"):
            return Part("tense", "past", None, (memory.doc[i:i + 1],))
    return None


def check_tense(pair: Pair) -> List[Change]:
    """changed_tense when a marked past state becomes present, or a marked present state past."""
    source, memory = pair.records()
    source_past = [p for p in source.of("tense") if p.value == "past_state"]
    memory_past = [p for p in memory.of("tense") if p.value == "past_state"]
    if source_past and not memory_past:
        verb = _habit_verb(pair.source_claims, pair.source, source_past[0])
        now = _present(pair, pair.memory, memory.of("tense"), verb)
        if now is not None:
            return [pair.change("changed_tense", f"the source places this claim in the past ({source_past[0].text}); "
                                f"the memory states it as present ({now.text})",
                                pair.part_evidence(source_past, "source") + pair.part_evidence([now], "memory"))]
    future = [p for p in source.of("tense") if p.value == "future"]
    if future and not [p for p in memory.of("tense") if p.value == "future"]:
        done = _past(pair, pair.memory, memory.of("tense"))
        if done is not None:
            return [pair.change("changed_tense", f"the source states this claim as to come ({future[0].text}); the "
                                f"memory as done ({done.text})", pair.part_evidence(future[:1], "source") +
                                pair.part_evidence([done], "memory"))]
    if memory_past and not source_past:
        still = [p for p in source.of("tense") if p.value == "present" and p.words
                 and p.words[0].entry.id == "tense:still"]
        said = [p for p in memory_past if _of_the_claim(p)]  # "used to", "formerly"; not "the former CEO"
        now = still[0] if still else None if not said else _present(pair, pair.source, source.of("tense"),
                                                                   _habit_verb(pair.memory_claims, pair.memory, said[0]))
        if now is not None:  # "Nadia runs the bakery" -> "Nadia used to run the bakery"
            return [pair.change("changed_tense", f"the source states this claim as present ({now.text}); the "
                                f"memory places it in the past ({memory_past[0].text})",
                                pair.part_evidence([now], "source") + pair.part_evidence(memory_past, "memory"))]
    return []


def _of_the_claim(part: Part) -> bool:
    """Whether a past-state marker places the whole claim in the past ("used to", "formerly", "previously"), not
    only a noun of it ("the former CEO", "the previous quarter")."""
    return bool(part.words) and (part.words[0].entry.id == "tense:past_habit"
                                 or part.spans[0].text.lower().endswith("ly"))


def says_past_state(pair: Pair, side: str) -> bool:
    """Whether one side's claim marks a past state or habit ("used to", "formerly", "ex-"): the other side's
    "previously" or "former" is kept by it ("Omar previously worked" -> "Omar used to work")."""
    source, memory = pair.records()
    return any(p.value == "past_state" for p in (source if side == "source" else memory).of("tense"))
