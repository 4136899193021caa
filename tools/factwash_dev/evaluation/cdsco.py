"""*SEM 2012 CD-SCO (Morante & Blanco 2012): negation cues in Conan Doyle stories, CoNLL format.

Sentences are rebuilt by joining tokens with spaces. A cue that is a whole
token (or several) is gold NEGATION; an affixal cue ("un" of "unpleasant")
is gold too but kept in its own group, ``factwash_gold_affixal``, since a
word list is not meant to find it and it is reported separately.

Each negation also comes with its gold scope (``GoldScope``): the tokens
whose scope column is filled, which by the corpus's convention exclude the
cue, except the word an affixal cue is part of ("conventional" of
"unconventional" lies in the scope). Items keep the corpus's tokens and
part-of-speech tags, which the official evaluation reads to leave
punctuation out.
"""

from pathlib import Path
from typing import Iterator, List, Tuple

from .gold import GoldScope, GoldSpan, GoldText

AFFIXAL_KEY = "factwash_gold_affixal"
BASE = Path("starsem-st-2012-data") / "cd-sco" / "corpus"
FILES = {
    "train": ["training/SEM-2012-SharedTask-CD-SCO-training-09032012.txt"],
    "dev": ["dev/SEM-2012-SharedTask-CD-SCO-dev-09032012.txt"],
    "test": [
        "test-gold/SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt",
        "test-gold/SEM-2012-SharedTask-CD-SCO-test-circle-GOLD.txt",
    ],
}
FIRST_NEGATION_COLUMN = 7


def _sentences(path: Path) -> Iterator[List[List[str]]]:
    rows: List[List[str]] = []
    for line in path.read_text(encoding="utf8").splitlines():
        if line.strip():
            rows.append(line.split("\t"))
        elif rows:
            yield rows
            rows = []
    if rows:
        yield rows


def _gold_sentence(rows: List[List[str]], subset: str) -> GoldText:
    words = [row[3] for row in rows]
    starts, position = [], 0
    for word in words:
        starts.append(position)
        position += len(word) + 1
    spans: List[GoldSpan] = []
    columns = len(rows[0])
    for column in range(FIRST_NEGATION_COLUMN, columns - 2, 3):
        run = None  # (start, end) of the current multi-token cue run
        for i, row in enumerate(rows):
            cue = row[column]
            if cue in ("_", "***"):
                continue
            if cue != words[i]:
                offset = max(words[i].lower().find(cue.lower()), 0)
                spans.append(GoldSpan(starts[i] + offset, starts[i] + offset + len(cue), "NEGATION", AFFIXAL_KEY))
                continue
            end = starts[i] + len(words[i])
            if run is not None and run[1] + 1 == starts[i]:
                run = (run[0], end)
            else:
                if run is not None:
                    spans.append(GoldSpan(run[0], run[1], "NEGATION"))
                run = (starts[i], end)
        if run is not None:
            spans.append(GoldSpan(run[0], run[1], "NEGATION"))
    chapter, number = rows[0][0], rows[0][1]
    return GoldText("cdsco", subset, chapter, f"{chapter}:{number}", " ".join(words), spans,
                    scopes=_scopes(rows, starts), words=tuple(words), tags=tuple(row[5] for row in rows))


def _scopes(rows: List[List[str]], starts: List[int]) -> Tuple[GoldScope, ...]:
    """Every negation of a sentence: its cue (whole tokens, or the affix inside one) and its scope tokens."""
    found = []
    for column in range(FIRST_NEGATION_COLUMN, len(rows[0]) - 2, 3):
        cue, scope, affixal = [], [], False
        for i, row in enumerate(rows):
            word, start = row[3], starts[i]
            if row[column] not in ("_", "***"):
                affixal = affixal or row[column] != word
                offset = max(word.lower().find(row[column].lower()), 0) if row[column] != word else 0
                cue.append((start + offset, start + offset + len(row[column])))
            if row[column + 1] != "_":
                scope.append((start, start + len(word)))
        if cue:
            found.append(GoldScope("NEGATION", tuple(cue), tuple(scope), affixal))
    return tuple(found)


def read(root: Path) -> Iterator[GoldText]:
    """Gold sentences of the official train, dev and test files under ``root``."""
    for subset, names in FILES.items():
        for name in names:
            for rows in _sentences(root / BASE / name):
                yield _gold_sentence(rows, subset)
