"""A text as it is read, with the map back to the characters of the text it was read from.

Every reading of a text (markup read as what it shows, invisible characters dropped, right-to-left runs put in the
order they are shown, look-alike letters read as Latin, shouted words in lower case) gives a :class:`Shadow`: the
text read, and piece by piece where its characters came from. Readings made one after another compose
(``compose``), so offsets found on the last reading map back to the first text in one step.
"""

from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence, Tuple

Piece = Tuple[int, int, int, bool]  # (shadow start, original start, original end, linear)
Edit = Tuple[int, int, str, bool]  # (original start, original end, what it reads as, linear)
Note = Tuple[str, int, int]  # (kind, original start, original end): a stretch read otherwise than written


@dataclass(frozen=True)
class Shadow:
    """The text as read and, piece by piece, where its characters came from in the original.

    ``pieces`` holds ``(shadow_start, original_start, original_end, linear)``: a linear piece maps character
    for character; any other piece (a character folded into several, several into one, a run shown in another
    order) maps as a whole. Original characters that are read as nothing lie between pieces. ``notes`` says what
    was read otherwise than written: ``(kind, original_start, original_end)``.
    """

    text: str
    pieces: Tuple[Piece, ...]
    notes: Tuple[Note, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "_starts", [piece[0] for piece in self.pieces])
        object.__setattr__(self, "_original_starts", [piece[1] for piece in self.pieces])

    def original(self, start: int, end: int) -> Tuple[int, int]:
        """The original character offsets of the shadow's ``[start, end)``."""
        if end <= start:
            return self._map(start, at_end=False), self._map(start, at_end=False)
        return self._map(start, at_end=False), self._map(end - 1, at_end=True)

    def shadow_offset(self, position: int) -> int:
        """Where an original character offset falls in the shadow (the start of a piece folded as a whole)."""
        at = max(0, bisect_right(self._original_starts, position) - 1)
        shadow_start, original_start, original_end, linear = self.pieces[at]
        if linear:
            return shadow_start + min(position - original_start, original_end - original_start)
        return shadow_start

    def _map(self, position: int, at_end: bool) -> int:
        shadow_start, original_start, original_end, linear = self.pieces[
            max(0, bisect_right(self._starts, position) - 1)]
        if linear:
            return original_start + (position - shadow_start) + (1 if at_end else 0)
        return original_end if at_end else original_start

    def _piece_end(self, index: int) -> int:
        """Where piece ``index`` ends in the shadow."""
        return self.pieces[index + 1][0] if index + 1 < len(self.pieces) else len(self.text)


class _Pieces:
    """Pieces collected in shadow order, a linear piece joined to the one before when both run on."""

    def __init__(self) -> None:
        self.pieces: List[List] = []

    def add(self, shadow_start: int, original_start: int, original_end: int, linear: bool) -> None:
        if self.pieces:
            last = self.pieces[-1]
            if linear and last[3] and last[2] == original_start:
                last[2] = original_end
                return
            if not linear and not last[3] and (last[1], last[2]) == (original_start, original_end):
                return
        self.pieces.append([shadow_start, original_start, original_end, linear])

    def done(self) -> Tuple[Piece, ...]:
        return tuple(tuple(piece) for piece in self.pieces) or ((0, 0, 0, True),)


def applied(text: str, edits: Iterable[Edit], notes: Sequence[Note] = ()) -> Shadow:
    """``text`` read with ``edits`` (in text order, not overlapping): each stretch ``[start, end)`` read as its
    replacement (nothing, for a character read as nothing)."""
    parts: List[str] = []
    pieces = _Pieces()
    at = out = 0
    for start, end, replacement, linear in edits:
        if start > at:
            parts.append(text[at:start])
            pieces.add(out, at, start, True)
            out += start - at
        if replacement:
            parts.append(replacement)
            pieces.add(out, start, end, linear and len(replacement) == end - start)
            out += len(replacement)
        at = end
    if at < len(text):
        parts.append(text[at:])
        pieces.add(out, at, len(text), True)
    return Shadow("".join(parts), pieces.done(), tuple(notes))


def compose(outer: Optional[Shadow], inner: Optional[Shadow]) -> Optional[Shadow]:
    """The reading ``outer`` of the text ``inner`` reads, mapped back to the text ``inner`` was read from."""
    if outer is None or inner is None:
        return inner if outer is None else outer
    pieces = _Pieces()
    for start, inner_start, inner_end, linear in outer.pieces:
        if inner_end <= inner_start:
            continue
        if not linear:
            pieces.add(start, *inner.original(inner_start, inner_end), False)
            continue
        at = max(0, bisect_right(inner._starts, inner_start) - 1)
        while at < len(inner.pieces) and inner.pieces[at][0] < inner_end:
            piece_start, original_start, original_end, piece_linear = inner.pieces[at]
            low, high = max(inner_start, piece_start), min(inner_end, inner._piece_end(at))
            if low < high:
                if piece_linear:
                    pieces.add(start + low - inner_start, original_start + low - piece_start,
                               original_start + high - piece_start, True)
                else:
                    pieces.add(start + low - inner_start, original_start, original_end, False)
            at += 1
    notes = inner.notes + tuple((kind, *inner.original(start, end)) for kind, start, end in outer.notes)
    return Shadow(outer.text, pieces.done(), notes)
