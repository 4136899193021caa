"""Keeping the documentation's measured tables tethered to a measurement.

A page of the documentation (``PAGES``: most in ``docs/evaluation.md``) holds
each table between two markers named for it
(``<!-- factwash:heldout-table:start -->`` ...). ``replace_table`` writes a
freshly measured table there; ``table_drift`` compares the README's table
with a measured one cell by cell and names every figure that differs, so a
test fails with the row, column and both values.
"""

import re
from typing import Dict, List, Tuple

HELDOUT = "heldout-table"
GATE = "gate-table"
GATE_CORPUS = "gate-corpus-table"
FRANK = "frank-table"
AUTHORITY = "authority-table"
BENCH = "bench-table"
MODEL_COST = "model-cost-table"
STRENGTH = "strength-table"
SUMMEDITS = "summedits-table"
SCOPE = "scope-table"
PARSER = "parser-table"
PARSE_CUES = "parse-cue-table"
CLAIM_GATE = "claim-gate-table"
CLAIM_RECORDS = "claim-records-table"
REVIEW_EXAMPLE = "review-example"
SPEED = "speed-table"

EVALUATION_PAGE = "docs/evaluation.md"
# the page, relative to the repository root, that holds each table
PAGES = {HELDOUT: EVALUATION_PAGE, GATE: EVALUATION_PAGE, GATE_CORPUS: EVALUATION_PAGE, FRANK: EVALUATION_PAGE,
         SCOPE: EVALUATION_PAGE, CLAIM_GATE: EVALUATION_PAGE, CLAIM_RECORDS: EVALUATION_PAGE, AUTHORITY: "docs/authority.md", BENCH: "docs/memory.md",
         REVIEW_EXAMPLE: "docs/memory.md", MODEL_COST: "docs/gate.md", STRENGTH: "docs/strength.md",
         PARSER: "docs/parser.md", PARSE_CUES: "docs/parser.md", SUMMEDITS: "docs/parser.md", SPEED: "docs/speed.md"}


def _markers(name: str):
    return f"<!-- factwash:{name}:start -->", f"<!-- factwash:{name}:end -->"


class TableMissing(ValueError):
    """The README has no held-out table between the markers."""


def extract_table(readme: str, name: str = HELDOUT) -> str:
    """The text between the markers of table ``name``."""
    start, end = _markers(name)
    match = re.search(re.escape(start) + r"\n(.*?)" + re.escape(end), readme, flags=re.S)
    if match is None:
        raise TableMissing(f"README has no block between {start} and {end}")
    return match.group(1)


def replace_table(readme: str, table: str, name: str = HELDOUT) -> str:
    """The README with the block of table ``name`` replaced by ``table``."""
    extract_table(readme, name)
    start, end = _markers(name)
    return re.sub(re.escape(start) + r"\n.*?" + re.escape(end),
                  lambda _: f"{start}\n{table}{end}", readme, count=1, flags=re.S)


def _is_number(cell: str) -> bool:
    """A figure: a number, or a before/after pair of figures ("0.87 → 0.80", "- → 0.01")."""
    if " → " in cell:
        return all(side == "-" or _is_number(side) for side in cell.split(" → "))
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _split(line: str) -> List[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _cells(table: str) -> Tuple[Dict[Tuple[str, ...], Dict[str, str]], List[str]]:
    """Every row keyed by its leading non-numeric cells, as {column: cell}; and the lines outside tables.

    A table row directly followed by a separator row is a header; the rows
    under it are read with its column names.
    """
    lines = table.splitlines()
    rows: Dict[Tuple[str, ...], Dict[str, str]] = {}
    prose: List[str] = []
    header: List[str] = []
    for index, line in enumerate(lines):
        if not line.startswith("|"):
            prose.append(line.strip())
            continue
        cells = _split(line)
        if set("".join(cells)) <= set("-:"):
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if following.startswith("|") and set("".join(_split(following))) <= set("-:"):
            header = cells
            continue
        width = next((i for i, cell in enumerate(cells) if _is_number(cell)), len(cells))
        rows[tuple(cells[:max(width, 1)])] = dict(zip(header, cells))
    return rows, prose


def table_drift(readme_table: str, measured_table: str) -> List[str]:
    """Every difference between the README's table and the measured one, named."""
    written, written_prose = _cells(readme_table)
    measured, measured_prose = _cells(measured_table)
    drift = []
    if written_prose != measured_prose:
        drift.append(f"caption differs: README {' '.join(written_prose)!r} vs measured {' '.join(measured_prose)!r}")
    for key in sorted(set(written) | set(measured)):
        name = " / ".join(key)
        if key not in measured:
            drift.append(f"row {name} is in the README but was not measured")
        elif key not in written:
            drift.append(f"row {name} was measured but is not in the README")
        else:
            for column, new in measured[key].items():
                old = written[key].get(column)
                if old != new:
                    drift.append(f"{name} / {column}: README says {old}, measured {new}")
    return drift
