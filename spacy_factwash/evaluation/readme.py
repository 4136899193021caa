"""Keeping the README's held-out table tethered to a measurement.

The README holds the table between two markers. ``replace_table`` writes a
freshly measured table there; ``table_drift`` compares the README's table
with a measured one cell by cell and names every figure that differs, so a
test fails with the row, column and both values.
"""

import re
from typing import Dict, List, Tuple

START = "<!-- factwash:heldout-table:start -->"
END = "<!-- factwash:heldout-table:end -->"


class TableMissing(ValueError):
    """The README has no held-out table between the markers."""


def extract_table(readme: str) -> str:
    """The text between the markers."""
    match = re.search(re.escape(START) + r"\n(.*?)" + re.escape(END), readme, flags=re.S)
    if match is None:
        raise TableMissing(f"README has no block between {START} and {END}")
    return match.group(1)


def replace_table(readme: str, table: str) -> str:
    """The README with its table block replaced by ``table``."""
    extract_table(readme)
    return re.sub(re.escape(START) + r"\n.*?" + re.escape(END),
                  lambda _: f"{START}\n{table}{END}", readme, count=1, flags=re.S)


def _cells(table: str) -> Tuple[List[str], Dict[Tuple[str, str], List[str]], List[str]]:
    """Header cells, the rows keyed by (corpus, class), and the non-table lines."""
    header: List[str] = []
    rows: Dict[Tuple[str, str], List[str]] = {}
    prose: List[str] = []
    for line in table.splitlines():
        if not line.startswith("|"):
            prose.append(line.strip())
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not header:
            header = cells
        elif not set("".join(cells)) <= set("-:"):
            rows[(cells[0], cells[1])] = cells
    return header, rows, prose


def table_drift(readme_table: str, measured_table: str) -> List[str]:
    """Every difference between the README's table and the measured one, named."""
    header, written, written_prose = _cells(readme_table)
    _, measured, measured_prose = _cells(measured_table)
    drift = []
    if written_prose != measured_prose:
        drift.append(f"caption differs: README {' '.join(written_prose)!r} vs measured {' '.join(measured_prose)!r}")
    for key in sorted(set(written) | set(measured)):
        if key not in measured:
            drift.append(f"row {key[0]} / {key[1]} is in the README but was not measured")
        elif key not in written:
            drift.append(f"row {key[0]} / {key[1]} was measured but is not in the README")
        else:
            for column, old, new in zip(header, written[key], measured[key]):
                if old != new:
                    drift.append(f"{key[0]} / {key[1]} / {column}: README says {old}, measured {new}")
    return drift
