"""Cold start: a one-shot ``check`` in a fresh interpreter, against ``import spacy`` timed in the same run.

Machines here are noisy, so every command is run several times, interleaved, and the median kept, both wall time
and the processor time the interpreter used (less moved by other work on the machine); the figure that matters is
the ratio to the floor, an interpreter that only imports spaCy.
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

FLOOR = "python -c 'import spacy' (floor)"
PAIRS = {
    "check, no number": ("Someone said Alice was promoted this morning.", "Alice was promoted to admin."),
    "check, with values": ("The server has 5 GB of RAM and 2 disks.", "The server has 5 MB of RAM and 2 disks."),
}
FIRST_EVER = "check, with values, nothing kept yet"  # an empty cache folder: quantulum3's tables built and kept
VERDICT_STATUSES = (0, 3, 4, 5)  # pass, uncheckable, rewrite, reject


@dataclass(frozen=True)
class StartTime:
    """Median wall and processor seconds of one command in fresh interpreters, and their ratios to the floor's."""

    name: str
    seconds: float
    cpu_seconds: float
    ratio_to_floor: float
    cpu_ratio_to_floor: float


def _timed(arguments: Sequence[str], env: Dict[str, str]) -> Tuple[float, float]:
    """Wall and processor seconds of one fresh interpreter running ``arguments``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *arguments], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in VERDICT_STATUSES:
        raise RuntimeError(f"{' '.join(arguments[:3])} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _commands() -> Dict[str, List[str]]:
    """The floor and the one-shot checks, as interpreter arguments."""
    commands = {FLOOR: ["-c", "import spacy"]}
    for name, (source, memory) in PAIRS.items():
        commands[name] = ["-m", "spacy_factwash", "check", "--source", source, "--memory", memory]
    return commands


def cold_start(runs: int = 5, first_ever: bool = True) -> List[StartTime]:
    """Time the floor and a one-shot ``check`` with and without values, ``runs`` times each, interleaved, after one
    untimed run that fills the cache folder; with ``first_ever``, also a check with values in an empty cache folder
    (what the first use on a machine costs)."""
    commands = _commands()
    env = dict(os.environ)
    for arguments in commands.values():
        _timed(arguments, env)  # a first use: the cache folder holds what quantulum3 keeps, as on any used machine
    times: Dict[str, List[Tuple[float, float]]] = {name: [] for name in commands}
    if first_ever:
        times[FIRST_EVER] = []
    for _ in range(max(1, runs)):
        for name, arguments in commands.items():
            times[name].append(_timed(arguments, env))
        if first_ever:
            with tempfile.TemporaryDirectory() as empty:
                times[FIRST_EVER].append(_timed(commands["check, with values"], {**env, "FACTWASH_CACHE": empty}))
    medians = {name: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
               for name, rows in times.items()}
    floor_wall, floor_cpu = medians[FLOOR]
    return [StartTime(name, wall, cpu, wall / floor_wall, cpu / floor_cpu) for name, (wall, cpu) in medians.items()]


def markdown_rows(results: Sequence[StartTime], runs: Optional[int] = None) -> str:
    """The cold-start table: median seconds, wall and processor, each with its ratio to the floor."""
    lines = [f"Cold start, median of {runs} fresh interpreters each (interleaved):" if runs else "Cold start:", "",
             "| command | wall s | x floor | processor s | x floor |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {r.name} | {r.seconds:.2f} | {r.ratio_to_floor:.2f} | {r.cpu_seconds:.2f} | "
              f"{r.cpu_ratio_to_floor:.2f} |" for r in results]
    return "\n".join(lines)
