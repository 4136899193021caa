"""Tense and aspect: a past state stated as present, or a present one as past (``changed_tense``).

The source places the claim in the past with a marker of a past state or
habit ("used to", "formerly", "ex-", "was ... until 2022") and the memory
states it in the present (its be, have or do in the present, or the shared
verb in its present form: "manages"); or the source states a present state
("still", "currently", "is") and the memory places it in the past with such
a marker. "used to lead" -> "formerly led" keeps the past.
"""

from typing import List, Optional

from ..claims import Claim
from ..records import Part
from ..report import Change
from .base import Pair


def _verb_tense(pair: Pair, claim: Claim, other: Claim) -> Optional[Part]:
    """The tense of the claim's first verb both claims share, from its form: the lemma plus -s is present ("manages"),
    any other inflected form past ("managed", "ran"); None when no shared word is inflected so."""
    strings = claim.doc.vocab.strings
    for i, k in sorted(claim.key_at.items()):
        token = claim.doc[i]
        if k not in other.keys or k not in strings:
            continue
        lemma = strings[k]
        if token.lower_ in (lemma + "s", lemma + "es") and not lemma.endswith("s"):
            return Part("tense", "present", None, (claim.doc[i:i + 1],))
        if token.lower_ != lemma and token.lower_.endswith("ed"):
            return Part("tense", "past", None, (claim.doc[i:i + 1],))
    return None


def _tense(pair: Pair, claim: Claim, other: Claim, parts: List[Part]) -> Optional[Part]:
    be = [p for p in parts if p.value in ("past", "present")]
    return be[0] if be else _verb_tense(pair, claim, other)


def check_tense(pair: Pair) -> List[Change]:
    """changed_tense when a marked past state becomes present, or a marked present state past."""
    source, memory = pair.records()
    source_past = [p for p in source.of("tense") if p.value == "past_state"]
    memory_past = [p for p in memory.of("tense") if p.value == "past_state"]
    if source_past and not memory_past:
        now = _tense(pair, pair.memory, pair.source, memory.of("tense"))
        if now is not None and now.value == "present":
            return [pair.change("changed_tense", f"the source places this claim in the past ({source_past[0].text}); "
                                f"the memory states it as present ({now.text})",
                                pair.part_evidence(source_past, "source") + pair.part_evidence([now], "memory"))]
    if memory_past and not source_past:
        still = [p for p in source.of("tense") if p.value == "present"]
        if still:
            return [pair.change("changed_tense", f"the source states this claim as present ({still[0].text}); the "
                                f"memory places it in the past ({memory_past[0].text})",
                                pair.part_evidence(still[:1], "source") + pair.part_evidence(memory_past, "memory"))]
    return []
