"""Right-to-left controls resolved: a text put in the order a screen shows it ("\u202ediaS\u202c" shows "Said").

The Unicode bidirectional algorithm (UAX #9) decides the order in which a line's characters are shown. An
override (RLO ... PDF) shows Latin letters right to left, so "\u202etoN\u202c" is read "Not"; an embedding or an
isolate (RLE, RLI) leaves the letters of a word in order but can reverse the order of words. A paragraph that holds
one of these explicit controls is put in display order here: its paragraph level (P2, P3), the explicit levels
and overrides (X1-X10), the weak, neutral and implicit rules (W1-W7, N1, N2, I1, I2) on each isolating run
sequence, trailing whitespace (L1), reversal (L2) and mirrored brackets (L4, for the ASCII and guillemet pairs).
Bracket pairs (N0) are not resolved: a neutral bracket takes its direction from N1 and N2, which can differ from a
renderer's in a paragraph that mixes directions inside brackets. Text with no explicit control is left in its
stored order (right-to-left letters of their own, Hebrew or Arabic, are not English and are left to the language
check); the controls themselves are read as nothing.

``display_edits`` gives, for each stretch shown in another order than it is stored, the stretch as shown (one
piece: any offset inside it maps to the whole stretch), and the controls to drop. Reordering costs a pass per
embedding level; a paragraph whose levels span more than ``MAX_SHOWN_DEPTH`` (no text written for people nests
so deep) is not put in order but noted ``bidi-unresolved``, and the gate makes a pair holding one uncheckable,
never pass.
"""

import unicodedata
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from .textmap import Edit, Note

EXPLICIT = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
EMBEDDINGS = frozenset({"LRE", "RLE", "LRO", "RLO"})
ISOLATES = frozenset({"LRI", "RLI", "FSI"})
REMOVED = EMBEDDINGS | {"PDF", "BN"}  # X9
NEUTRALS = frozenset({"B", "S", "WS", "ON", "LRI", "RLI", "FSI", "PDI"})
PARAGRAPH_BREAKS = frozenset("\n\r\x1c\x1d\x1e\x85\u2029")
MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹"))
MAX_DEPTH = 125
MAX_SHOWN_DEPTH = 8
UNRESOLVED = "bidi-unresolved"


def display_edits(text: str) -> Tuple[List[Edit], List[Note]]:
    """The stretches of ``text`` shown in another order than stored, each as shown, and its explicit controls
    read as nothing; a note for each stretch reordered and each control dropped."""
    if EXPLICIT.isdisjoint(text):
        return [], []
    edits: List[Edit] = []
    notes: List[Note] = []
    start = 0
    for end in [i for i, char in enumerate(text) if char in PARAGRAPH_BREAKS] + [len(text)]:
        if not EXPLICIT.isdisjoint(text[start:end]):
            paragraph_edits, paragraph_notes = _paragraph_edits(text, start, end)
            edits += paragraph_edits
            notes += paragraph_notes
        start = end + 1
    return edits, notes


def _paragraph_edits(text: str, start: int, end: int) -> Tuple[List[Edit], List[Note]]:
    """The edits of one paragraph ``text[start:end]`` (reordered stretches and dropped controls) and their notes."""
    shown = display_order(text[start:end])
    controls = [i for i in range(start, end) if text[i] in EXPLICIT]
    if shown is None:  # nested too deep to put in order: the controls dropped, the paragraph noted
        return [(i, i + 1, "", False) for i in controls], [(UNRESOLVED, start, end)]
    order, mirrored = shown
    kept = [i for i in range(end - start) if text[start + i] not in EXPLICIT]
    edits: List[Edit] = []
    block_start = 0
    highest = -1
    for position, index in enumerate(order):
        highest = max(highest, index)
        if highest != kept[position]:
            continue
        stored = kept[block_start:position + 1]
        if order[block_start:position + 1] != stored:
            edits.append((start + stored[0], start + stored[-1] + 1, "".join(
                MIRRORED.get(text[start + i], text[start + i]) if i in mirrored else text[start + i]
                for i in order[block_start:position + 1]), False))
        block_start = position + 1
    notes: List[Note] = [("bidi", low, high) for low, high, _, _ in edits]
    # the controls outside every reordered stretch, each read as nothing (both in text order)
    dropped: List[Edit] = []
    at = 0
    for i in controls:
        while at < len(edits) and edits[at][1] <= i:
            at += 1
        if not (at < len(edits) and edits[at][0] <= i):
            dropped.append((i, i + 1, "", False))
            notes.append(("bidi", i, i + 1))
    return sorted(edits + dropped), notes


def display_order(paragraph: str) -> Optional[Tuple[List[int], FrozenSet[int]]]:
    """The indexes of ``paragraph``'s characters in the order they are shown, its explicit controls left out, and
    the brackets among them shown mirrored (L4: shown right to left); None when its levels span more than
    ``MAX_SHOWN_DEPTH``."""
    types = [unicodedata.bidirectional(char) or "L" for char in paragraph]
    matching = _matching_isolates(types)
    base = _paragraph_level(types, 0, len(types), matching)
    levels, resolved = _explicit_levels(types, base, matching)
    kept = [i for i, t in enumerate(types) if t not in REMOVED]
    position = {i: n for n, i in enumerate(kept)}
    embedding = list(levels)  # sos and eos read the explicit levels, not those resolved so far
    for sequence in _isolating_sequences(kept, levels, matching):
        _resolve_sequence(sequence, levels, embedding, resolved, types, base, kept, position)
    for i, t in enumerate(types):
        if t in REMOVED:  # X9: removed characters take the level of the character before
            levels[i] = levels[i - 1] if i else base
    _trailing_whitespace(types, levels, base)
    if max(levels) - min(levels) > MAX_SHOWN_DEPTH:
        return None
    mirrored = frozenset(i for i, char in enumerate(paragraph) if levels[i] % 2 and char in MIRRORED)
    # reversed with the controls in place (an isolate's initiator parts the runs beside it), then left out
    return [i for i in _reversed_runs(list(range(len(paragraph))), levels) if paragraph[i] not in EXPLICIT], mirrored


def _matching_isolates(types: Sequence[str]) -> Dict[int, int]:
    """Each isolate initiator's matching PDI (BD9), by index."""
    matching: Dict[int, int] = {}
    open_isolates: List[int] = []
    for i, t in enumerate(types):
        if t in ISOLATES:
            open_isolates.append(i)
        elif t == "PDI" and open_isolates:
            matching[open_isolates.pop()] = i
    return matching


def _paragraph_level(types: Sequence[str], start: int, end: int, matching: Dict[int, int]) -> int:
    """P2, P3: 1 when the first strong character of ``types[start:end]`` (isolates skipped) is right-to-left."""
    i = start
    while i < end:
        t = types[i]
        if t == "L":
            return 0
        if t in ("R", "AL"):
            return 1
        i = matching.get(i, end) if t in ISOLATES else i + 1
    return 0


def _explicit_levels(types: Sequence[str], base: int, matching: Dict[int, int]) -> Tuple[List[int], List[str]]:
    """X1-X8: each character's embedding level and its type after overrides."""
    levels = [base] * len(types)
    resolved = list(types)
    stack: List[Tuple[int, str, bool]] = [(base, "", False)]  # (level, override, isolate)
    overflow_isolates = overflow_embeddings = valid_isolates = 0
    for i, t in enumerate(types):
        level, override, _ = stack[-1]
        if t in EMBEDDINGS or t in ISOLATES:
            levels[i] = level
            if t in ISOLATES and override:
                resolved[i] = override
            rtl = t in ("RLE", "RLO", "RLI") or (
                t == "FSI" and _paragraph_level(types, i + 1, matching.get(i, len(types)), matching) == 1)
            new = (level + 1) | 1 if rtl else (level + 2) & ~1
            if new <= MAX_DEPTH and overflow_isolates == 0 and overflow_embeddings == 0:
                valid_isolates += t in ISOLATES
                stack.append((new, {"RLO": "R", "LRO": "L"}.get(t, ""), t in ISOLATES))
            elif t in ISOLATES:
                overflow_isolates += 1
            elif overflow_isolates == 0:
                overflow_embeddings += 1
        elif t == "PDI":
            if overflow_isolates:
                overflow_isolates -= 1
            elif valid_isolates:
                overflow_embeddings = 0
                while not stack[-1][2]:
                    stack.pop()
                stack.pop()
                valid_isolates -= 1
            levels[i], override, _ = stack[-1]
            if override:
                resolved[i] = override
        elif t == "PDF":
            if overflow_isolates:
                pass
            elif overflow_embeddings:
                overflow_embeddings -= 1
            elif not stack[-1][2] and len(stack) > 1:
                stack.pop()
            levels[i] = level
        elif t == "B":
            levels[i] = base
        else:
            levels[i] = level
            if override and t != "BN":
                resolved[i] = override
    return levels, resolved


def _isolating_sequences(kept: Sequence[int], levels: Sequence[int], matching: Dict[int, int]) -> List[List[int]]:
    """X10: the level runs of the kept characters, joined across isolates into isolating run sequences."""
    runs: List[List[int]] = []
    for i in kept:
        if runs and levels[runs[-1][-1]] == levels[i]:
            runs[-1].append(i)
        else:
            runs.append([i])
    run_starting = {run[0]: n for n, run in enumerate(runs)}
    continued = {matching[run[-1]] for run in runs if run[-1] in matching}
    sequences = []
    for run in runs:
        if run[0] in continued:
            continue
        sequence = list(run)
        while sequence[-1] in matching and matching[sequence[-1]] in run_starting:
            sequence += runs[run_starting[matching[sequence[-1]]]]
        sequences.append(sequence)
    return sequences


def _resolve_sequence(sequence: List[int], levels: List[int], embedding: Sequence[int], resolved: List[str],
                      types: Sequence[str], base: int, kept: Sequence[int], position: Dict[int, int]) -> None:
    """W1-W7, N1, N2, I1, I2 on one isolating run sequence (levels and types changed in place; ``position``: each
    kept character's place in ``kept``)."""
    level = levels[sequence[0]]
    before = kept[position[sequence[0]] - 1] if position[sequence[0]] else None
    after_at = position[sequence[-1]] + 1
    after = kept[after_at] if after_at < len(kept) and types[sequence[-1]] not in ISOLATES else None
    sos = "R" if max(level, embedding[before] if before is not None else base) % 2 else "L"
    eos = "R" if max(level, embedding[after] if after is not None else base) % 2 else "L"
    t = [resolved[i] for i in sequence]
    _weak_types(t, sos)
    _neutral_types(t, sos, eos, level)
    for n, i in enumerate(sequence):  # I1, I2
        if level % 2 == 0:
            levels[i] += 1 if t[n] == "R" else 2 if t[n] in ("AN", "EN") else 0
        elif t[n] in ("L", "EN", "AN"):
            levels[i] += 1


def _weak_types(t: List[str], sos: str) -> None:
    """W1-W7 on a sequence's types (in place)."""
    for n, kind in enumerate(t):  # W1
        if kind == "NSM":
            t[n] = sos if n == 0 else "ON" if t[n - 1] in ISOLATES | {"PDI"} else t[n - 1]
    strong = sos
    for n, kind in enumerate(t):  # W2, W3
        if kind in ("L", "R", "AL"):
            strong = kind
        if kind == "EN" and strong == "AL":
            t[n] = "AN"
    for n, kind in enumerate(t):
        if kind == "AL":
            t[n] = "R"
    for n in range(1, len(t) - 1):  # W4
        if t[n] == "ES" and t[n - 1] == t[n + 1] == "EN":
            t[n] = "EN"
        elif t[n] == "CS" and t[n - 1] == t[n + 1] and t[n - 1] in ("EN", "AN"):
            t[n] = t[n - 1]
    n = 0
    while n < len(t):  # W5
        if t[n] != "ET":
            n += 1
            continue
        end = n
        while end < len(t) and t[end] == "ET":
            end += 1
        if (n > 0 and t[n - 1] == "EN") or (end < len(t) and t[end] == "EN"):
            t[n:end] = ["EN"] * (end - n)
        n = end
    for n, kind in enumerate(t):  # W6
        if kind in ("ES", "ET", "CS"):
            t[n] = "ON"
    strong = sos
    for n, kind in enumerate(t):  # W7
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            t[n] = "L"


def _neutral_types(t: List[str], sos: str, eos: str, level: int) -> None:
    """N1, N2 on a sequence's types (in place): a run of neutrals between two of one direction takes it, any other
    the embedding direction."""
    embedding = "R" if level % 2 else "L"
    n = 0
    while n < len(t):
        if t[n] not in NEUTRALS:
            n += 1
            continue
        end = n
        while end < len(t) and t[end] in NEUTRALS:
            end += 1
        left = sos if n == 0 else _direction(t[n - 1])
        right = eos if end == len(t) else _direction(t[end])
        t[n:end] = [left if left == right else embedding] * (end - n)
        n = end


def _direction(kind: str) -> str:
    """A strong direction as N1 reads it: numbers count as right-to-left."""
    return "L" if kind == "L" else "R"


def _trailing_whitespace(types: Sequence[str], levels: List[int], base: int) -> None:
    """L1: separators, and whitespace and isolate controls before a separator or the end, at the paragraph level."""
    trailing = True
    for i in range(len(types) - 1, -1, -1):
        t = types[i]
        if t in ("S", "B"):
            levels[i] = base
            trailing = True
        elif trailing and (t in ("WS", "PDI") or t in ISOLATES or t in REMOVED):
            levels[i] = base
        else:
            trailing = False


def _reversed_runs(order: List[int], levels: Sequence[int]) -> List[int]:
    """L2: from the highest level down to the lowest odd one, every run at that level or higher reversed."""
    if not order:
        return order
    highest = max(levels[i] for i in order)
    lowest_odd = min((levels[i] for i in order if levels[i] % 2), default=highest + 1)
    for level in range(highest, lowest_odd - 1, -1):
        n = 0
        while n < len(order):
            if levels[order[n]] < level:
                n += 1
                continue
            end = n
            while end < len(order) and levels[order[end]] >= level:
                end += 1
            order[n:end] = order[n:end][::-1]
            n = end
    return order
