"""The speed table of docs/speed.md: the code before the claim level and the code now, measured in one run, and
the record the table is rendered from.

Each side is timed by ``timing.py`` run by path in that side's interpreter (``python -I``: no checkout in the
working folder and no ``PYTHONPATH`` shadows the side's package), on the same inputs chosen here: BioScope
sentences, the written pairs without digits and with, distinct pairs made from BioScope sentences, and a file of
lines to annotate. The sides take turns (before, after, after, before, ...) ``repeat`` times, so both see the
same load of a shared machine; each row keeps the best of its runs and is divided by its floor (or by one
process), timed in the same runs of the same interpreter. Where valgrind is installed, each side's first run also
counts the instructions of the sentence and per-call rows (``timing.instructions``), rendered as a second table:
ratios that do not move with the machine's load. ``speed_record`` measures and returns the record
(``training/bench/speed.json``), ``render`` writes the tables from a record, ``record_problems`` says what a record
lacks; the guard test renders the committed record and compares it with the page.
"""

import difflib
import json
import os
import platform
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

REPOSITORY = Path(__file__).resolve().parents[3]  # tools/factwash_dev/bench/speed_table.py -> the checkout
RECORD = Path("training") / "bench" / "speed.json"
PAGE = Path("docs") / "speed.md"
TIMING = Path(__file__).with_name("timing.py")
COMMAND = "python tools/dev.py bench-table"
SIDES = ("before", "after")
QUICK = "not measured: a run with --no-dask"
MEASURING = (":(top)tools/factwash_dev/bench",)  # the code that times, in a checkout that has it
DEFAULTS = {"--repeat": 3, "--limit": 0, "--pairs": 10_000, "--lines": 20_000, "--workers": 2, "--timeout": 1200}


@dataclass(frozen=True)
class Row:
    """One row of the table: what is timed, what it is divided by, how the figure reads, and its target.

    ``figure`` is ``rate`` (``count`` items per second of ``timed``, with its cost against ``reference`` when
    there is one), ``cost`` (``timed`` over ``reference``: times the floor) or ``speedup`` (``reference`` over
    ``timed``: times one process). ``target`` is (``≤`` or ``≥``, value) on that figure as shown."""

    key: str
    label: str
    timed: str
    reference: Optional[str]
    count: str
    figure: str
    target: Optional[Tuple[str, float]] = None
    dask: bool = False


UNITS = {"sentences": "sentences/s", "plain": "pairs/s", "digits": "pairs/s", "pairs": "pairs/s", "lines": "lines/s"}
ROWS = (
    Row("floor", "floor: tokenizer + sentencizer, {sentences:,} BioScope sentences", "floor/sentences", None,
        "sentences", "rate"),
    Row("cues", "floor + `factwash_cues`", "cues/sentences", "floor/sentences", "sentences", "cost", ("≤", 1.5)),
    Row("load", "`spacy_factwash.load()`", "load/sentences", "floor/sentences", "sentences", "cost", ("≤", 2.0)),
    Row("inspect_plain", "`inspect()` one call per pair, {plain:,} written pairs without digits", "inspect/plain",
        "floor/plain", "plain", "rate", ("≥", 2000)),
    Row("inspect_digits", "`inspect()` one call per pair, {digits:,} written pairs with digits", "inspect/digits",
        "floor/digits", "digits", "rate", ("≥", 1000)),
    Row("pipe_pairs", "`pipe_pairs` in one process, {pairs:,} distinct pairs", "pipe_pairs/1", "floor/pairs",
        "pairs", "rate"),
    Row("pipe_pairs_workers", "`pipe_pairs(n_process={workers})` vs one process", "pipe_pairs/2", "pipe_pairs/1",
        "pairs", "speedup", ("≥", 1.5), dask=True),
    Row("annotate_n_process", "`annotate --n-process {workers}` of {lines:,} lines vs one process",
        "annotate/n_process", "annotate/1", "lines", "speedup", ("≥", 1.5), dask=True),
    Row("annotate_scheduler", "`annotate --scheduler local --workers {workers}` of {lines:,} lines vs one process",
        "annotate/scheduler", "annotate/1", "lines", "speedup", ("≥", 1.5), dask=True),
    Row("annotate_side_by_side", "{workers} one-process `annotate` runs side by side, {lines:,} lines shared "
        "out, vs one process (the most {workers} processes give here)", "annotate/side_by_side", "annotate/1",
        "lines", "speedup", dask=True),
)


# the rows of the instruction table: key, label, what is counted, what it is divided by, per what
INSTRUCTION_ROWS = (
    ("floor", "floor: tokenizer + sentencizer", "floor/sentences", None, "sentences"),
    ("cues", "floor + `factwash_cues`", "cues/sentences", "floor/sentences", "sentences"),
    ("load", "`spacy_factwash.load()`", "load/sentences", "floor/sentences", "sentences"),
    ("inspect_plain", "`inspect()` one call per pair, without digits", "inspect/plain", "floor/plain", "plain"),
    ("inspect_digits", "`inspect()` one call per pair, with digits", "inspect/digits", "floor/digits", "digits"),
)
PER = {"sentences": "a sentence", "plain": "a pair", "digits": "a pair"}


def side_inputs(corpus: Path, sets: Path, limit: int, pairs: int, lines: int, workers: int, dask: bool,
                folder: Path) -> dict:
    """What both sides time: the corpus's sentences (its first ``limit`` when given), the written pairs without
    digits and with (at most ``limit`` of each), ``pairs`` distinct pairs made from the corpus's sentences and,
    with ``dask``, ``lines`` of its sentences (cycled) written to a JSONL file in ``folder`` to annotate."""
    from ..evaluation.bioscope import read_sentences
    from ..evaluation.gate_sets import written_pairs
    from .scale import distinct_pairs
    from .speed import has_digits

    everything = read_sentences(corpus)
    written = written_pairs(sets)
    inputs = {"sentences": everything[:limit or None],
              "plain": [p for p in written if not has_digits(p)][:limit or None],
              "digits": [p for p in written if has_digits(p)][:limit or None],
              "pairs": list(distinct_pairs(everything, pairs)), "workers": workers, "dask": dask, "lines": None}
    if dask:
        inputs["lines"] = str(folder / "lines.jsonl")
        Path(inputs["lines"]).write_text("".join(json.dumps({"text": everything[i % len(everything)]}) + "\n"
                                                 for i in range(lines)), encoding="utf8")
    return inputs


def run_side(python: Path, inputs: Path, folder: Path, timeout: float, count: bool = False) -> dict:
    """One side's timings (with ``count``, and its instructions): ``timing.py`` run by ``python`` in ``folder`` on
    the inputs file, in a session of its own; a clear error naming the side's last line of output (the measurement it
    was on) when it fails, or when it has not finished after ``timeout`` seconds (then it and the worker processes
    it started are ended)."""
    out, log = folder / "side.json", folder / "side.log"
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    counting = ["--count-instructions"] if count else []
    with log.open("w", encoding="utf8") as written:
        process = subprocess.Popen([str(python), "-I", str(TIMING), str(inputs), str(out), *counting], cwd=folder,
                                   env=environment, stdout=written, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            returncode = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise RuntimeError(f"{python}: timing.py did not finish in {timeout:,.0f} s, ended; its last line: "
                               f"{_last_line(log)}") from None
    if returncode:
        raise RuntimeError(f"{python}: timing.py exited with {returncode}: {_last_line(log)}")
    return json.loads(out.read_text(encoding="utf8"))


def _last_line(log: Path) -> str:
    """The last line a side's run wrote."""
    return (log.read_text(encoding="utf8", errors="replace").strip().splitlines() or ["no output"])[-1]


def _git(folder: str, *arguments: str) -> Optional[str]:
    """``git ARGUMENTS`` in ``folder``: its output, or None where that is no checkout."""
    done = subprocess.run(["git", "-C", folder, *arguments], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def checkout(package: str) -> dict:
    """The commit a side's package was imported from: HEAD, its branch, the last commit that changed the package
    or its data, and whether they or the measuring code differ from HEAD (uncommitted changes); None where the
    package is not in a git checkout."""
    top = _git(package, "rev-parse", "--show-toplevel")
    if top is None:
        return {"commit": None, "branch": None, "package_commit": None, "dirty": None}
    kept = [str(path) for path in (Path(package), *(Path(top) / name for name in ("lexicons", "pipelines")))
            if path.exists()]
    changed = _git(top, "status", "--porcelain", "--untracked-files=no", "--", *kept, *MEASURING)
    return {"commit": _git(top, "rev-parse", "HEAD"), "branch": _git(top, "rev-parse", "--abbrev-ref", "HEAD"),
            "package_commit": _git(top, "log", "-1", "--format=%H", "--", *kept), "dirty": bool(changed)}


def machine() -> dict:
    """The machine the run is on: processors, their model, the system."""
    model = next((line.split(":", 1)[1].strip() for line in _cpuinfo().splitlines()
                  if line.lower().startswith("model name")), platform.processor() or "unknown")
    return {"cpus": os.cpu_count(), "cpu": model, "system": platform.platform()}


def _cpuinfo() -> str:
    try:
        return Path("/proc/cpuinfo").read_text(encoding="utf8")
    except OSError:
        return ""


def speed_record(before_python: Path, corpus: Path, sets: Path, out: Path = REPOSITORY / RECORD,
                 doc: Path = REPOSITORY / PAGE, repeat: int = DEFAULTS["--repeat"],
                 limit: int = DEFAULTS["--limit"], dask: bool = True, pairs: int = DEFAULTS["--pairs"],
                 lines: int = DEFAULTS["--lines"], workers: int = DEFAULTS["--workers"],
                 timeout: float = DEFAULTS["--timeout"], after_python: Optional[Path] = None,
                 report: Callable[[str], None] = print, instructions: Optional[bool] = None) -> dict:
    """Measure both sides, taking turns ``repeat`` times, and return the record: the machine, the command that
    reproduces it (writing to ``out`` and ``doc``, as the command that asked for it does), the settings and input
    sizes, each side's interpreter, versions and commit, every run's
    seconds, and the rows (``rows``) with each side's figure or the reason it has none; with ``instructions``
    (by default, where valgrind is installed), each side's instruction counts, from its first run, and their rows
    (``instruction_rows``). ``after_python`` is the interpreter running this (the checkout's) by default;
    ``report`` is told of each run as it ends; a run not done after ``timeout`` seconds ends the measurement with
    an error."""
    if instructions is None:
        instructions = shutil.which("valgrind") is not None and shutil.which("callgrind_control") is not None
    pythons = {"before": Path(before_python), "after": Path(after_python or sys.executable)}
    for side, python in pythons.items():
        if not python.is_file():
            raise ValueError(f"{python}: no such interpreter (the {side} side's python)")
    options = {"--corpus": corpus, "--repeat": repeat, "--limit": limit, "--pairs": pairs, "--lines": lines,
               "--workers": workers, "--timeout": timeout, "--out": out, "--doc": doc}
    record = {"what": "spacy-factwash speed: the code before the claim level and now, measured in one run",
              "command": command_line(before_python, options, dask, instructions),
              "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "machine": machine(), "load_average": {"start": list(os.getloadavg())},
              "settings": {"corpus": str(corpus), "sets": str(sets), "repeat": repeat, "limit": limit, "dask": dask,
                           "pairs": pairs, "lines": lines, "workers": workers, "timeout": timeout,
                           "instructions": instructions},
              "sides": {side: {"python": str(python), "runs": []} for side, python in pythons.items()}}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        inputs = side_inputs(corpus, sets, limit, pairs, lines, workers, dask, Path(folder))
        record["inputs"] = {name: len(inputs[name]) for name in ("sentences", "plain", "digits", "pairs")}
        record["inputs"]["lines"] = lines
        inputs_path = Path(folder) / "inputs.json"
        inputs_path.write_text(json.dumps(inputs), encoding="utf8")
        for turn in range(repeat):
            for side in SIDES if turn % 2 == 0 else SIDES[::-1]:
                run_started = time.perf_counter()
                result = run_side(pythons[side], inputs_path, Path(folder), timeout, instructions and turn == 0)
                _keep(record["sides"][side], result, turn + 1)
                report(f"run {turn + 1}/{repeat}, {side}: {time.perf_counter() - run_started:.0f} s")
    record["load_average"]["end"] = list(os.getloadavg())
    record["took_seconds"] = round(time.perf_counter() - started)
    for side in record["sides"].values():
        side.update(checkout(side["package"]))
    record["rows"] = rows(record)
    if instructions:
        record["instruction_rows"] = instruction_rows(record)
    return record


def _keep(side: dict, result: dict, turn: int) -> None:
    """Add one run's seconds to a side, and what the run says about the side (versions, package, skipped rows)."""
    side["runs"].append({"run": turn, "seconds": result["seconds"]})
    side.update({"python_version": result["python"], "spacy": result["spacy"], "version": result["version"],
                 "package": result["package"], "skipped": result["skipped"],
                 "pipe_pairs_workers": result["pipe_pairs_workers"]})
    if "instructions" in result:
        side["instructions"] = result["instructions"]


def best(side: dict) -> Dict[str, float]:
    """The best (least) seconds of each measurement over a side's runs."""
    found: Dict[str, float] = {}
    for run in side["runs"]:
        for name, seconds in run["seconds"].items():
            found[name] = min(seconds, found.get(name, float("inf")))
    return found


def _value(row: Row, seconds: Dict[str, float], count: int) -> float:
    """A row's figure from one set of seconds."""
    timed = seconds[row.timed]
    if row.figure == "rate":
        return count / timed
    reference = seconds[row.reference]
    return timed / reference if row.figure == "cost" else reference / timed


def _shown(row: Row, value: float) -> float:
    """The figure as the table shows it (whole items per second, ratios to two places)."""
    return round(value) if row.figure == "rate" else round(value, 2)


def _reason(row: Row, side: dict, dask: bool) -> Optional[str]:
    """Why a side has no figure for a row (None when it has one)."""
    if row.dask and not dask:
        return QUICK
    skipped = side.get("skipped", {})
    return skipped.get(row.timed) or (skipped.get(row.reference) if row.reference else None)


def _cell(row: Row, value: float, seconds: Dict[str, float]) -> str:
    """A row's figure for one side as the table shows it."""
    if row.figure == "cost":
        return f"{value:.2f}× the floor"
    if row.figure == "speedup":
        return f"{value:.2f}× one process ({seconds[row.timed]:.1f} s vs {seconds[row.reference]:.1f} s)"
    cell = f"{value:,.0f} {UNITS[row.count]}"
    if row.reference:
        cell += f" ({seconds[row.timed] / seconds[row.reference]:.1f}× the floor)"
    return cell


def _target(row: Row) -> str:
    """A row's target as the table shows it."""
    if row.target is None:
        return "–"
    sign, value = row.target
    if row.figure == "rate":
        return f"{sign} {value:,.0f} {UNITS[row.count]}"
    return f"{sign} {value:g}× " + ("the floor" if row.figure == "cost" else "one process")


def _met(row: Row, value: Optional[float]) -> str:
    """Whether a figure (as shown) meets the row's target: yes, no, or – (no target, or no figure)."""
    if row.target is None or value is None:
        return "–"
    sign, target = row.target
    return "yes" if (_shown(row, value) <= target if sign == "≤" else _shown(row, value) >= target) else "no"


def rows(record: dict) -> List[dict]:
    """Every row of the table from a record's runs: each side's figure (its best runs), the figure of each run,
    the cell the table shows, or the reason it has none; the target and whether the after side meets it."""
    found = []
    for row in ROWS:
        entry = {"key": row.key, "target": _target(row)}
        for name, side in record["sides"].items():
            reason = _reason(row, side, record["settings"]["dask"])
            if reason:
                entry[name] = {"reason": reason, "cell": f"– ({reason})"}
                continue
            seconds, count = best(side), record["inputs"][row.count]
            if not all(name in seconds for name in (row.timed, row.reference) if name):
                entry[name] = {"cell": "?"}  # neither timed nor skipped: ``missing_rows`` names it
                continue
            value = _value(row, seconds, count)
            entry[name] = {"value": value, "cell": _cell(row, value, seconds),
                           "runs": [_value(row, run["seconds"], count) for run in side["runs"]],
                           "seconds": seconds[row.timed],
                           **({"reference_seconds": seconds[row.reference]} if row.reference else {})}
        entry["met"] = _met(row, entry.get("after", {}).get("value"))
        found.append(entry)
    return found


def instruction_rows(record: dict) -> List[dict]:
    """The rows of the instruction table from a record: each side's instructions per item and its ratio to its
    floor (its instructions over the floor's, on the same items)."""
    found = []
    for key, _, counted, reference, count in INSTRUCTION_ROWS:
        entry = {"key": key}
        for name, side in record["sides"].items():
            counts, items = side["instructions"], record["inputs"][count]
            entry[name] = {"per_item": counts[counted] / items,
                           **({"ratio": counts[counted] / counts[reference]} if reference else {})}
        found.append(entry)
    return found


def render_instructions(record: dict) -> List[str]:
    """The lines of the instruction table (none for a record without instruction counts)."""
    if "instruction_rows" not in record:
        return []
    sides = record["sides"]
    lines = ["", "Instructions (valgrind's callgrind, each side's measured pass only, counted in its first run; the "
             "same in every run, whatever the machine's load):", "",
             f"| measure | before ({_short(sides['before'].get('commit'))}) | after "
             f"({_short(sides['after'].get('commit'))}) |", "|---|---|---|"]
    for (_, label, _, _, count), entry in zip(INSTRUCTION_ROWS, record["instruction_rows"]):
        cells = []
        for side in SIDES:
            figure = entry[side]
            cell = f"{figure['per_item']:,.0f} {PER[count]}"
            cells.append(cell + (f" ({figure['ratio']:.2f}× the floor)" if "ratio" in figure else ""))
        lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
    return lines


def _short(commit: Optional[str]) -> str:
    return f"`{commit[:7]}`" if commit else "(not a git checkout)"


def _side_caption(name: str, side: dict) -> str:
    """Which code a side measured: its commit, where the package last changed, uncommitted changes."""
    text = f"{name}: {_short(side.get('commit'))}"
    if side.get("package_commit") and side["package_commit"] != side.get("commit"):
        text += f" (the package as last changed in {_short(side['package_commit'])})"
    if side.get("dirty"):
        text += " with uncommitted changes"
    return text


def _versions(sides: dict) -> str:
    """The Python and spaCy the sides ran: once when they are the same, else per side."""
    shown = {name: f"Python {side['python_version']}, spaCy {side['spacy']}" for name, side in sides.items()}
    if len(set(shown.values())) == 1:
        return next(iter(shown.values()))
    return "; ".join(f"{name} {versions}" for name, versions in shown.items())


def render(record: dict) -> str:
    """The table of docs/speed.md from a record: a caption saying what was measured where and how, the rows
    with both sides, the target and whether it is met, and the command that reproduces it."""
    counts = {**record["inputs"], "workers": record["settings"]["workers"]}
    machine_, sides, repeat = record["machine"], record["sides"], record["settings"]["repeat"]
    lines = [f"Measured {record['date']} on {machine_['cpus']} cores ({machine_['cpu']}), {_versions(sides)}; "
             f"{_side_caption('before', sides['before'])}, {_side_caption('after', sides['after'])}. Best of "
             f"{repeat} run{'s' * (repeat != 1)} of each side, the sides taking turns; load average "
             f"{record['load_average']['start'][0]:.2f} at the start, {record['load_average']['end'][0]:.2f} at the "
             "end.", "",
             f"| measure | before ({_short(sides['before'].get('commit'))}) | after "
             f"({_short(sides['after'].get('commit'))}) | target | met |", "|---|---|---|---|---|"]
    for row, entry in zip(ROWS, rows(record)):
        lines.append(f"| {row.label.format(**counts)} | {entry['before']['cell']} | {entry['after']['cell']} | "
                     f"{entry['target']} | {entry['met']} |")
    ran_on = [f"{name}: {'a local Dask cluster' if side['pipe_pairs_workers'] == 'Dask' else 'worker processes'}"
              for name, side in sides.items() if side.get("pipe_pairs_workers")]
    if ran_on:
        lines += ["", f"`pipe_pairs(n_process={counts['workers']})` ran on " + "; ".join(ran_on) + "."]
    lines += render_instructions(record)
    lines += ["", f"Reproduce: `{record['command']}` (took {record['took_seconds']:,} s)."]
    return "\n".join(lines) + "\n"


def page_drift(page: str, record: dict) -> List[str]:
    """How the page's speed table differs from the one the record renders, as the lines of a diff (none when they
    agree)."""
    from ..evaluation.readme import SPEED, extract_table

    return list(difflib.unified_diff(extract_table(page, SPEED).splitlines(), render(record).splitlines(),
                                     "the page", "the record", lineterm="", n=0))


def missing_rows(record: dict) -> List[str]:
    """The rows a record gives neither a figure nor a reason for, on either side."""
    computed = {entry["key"]: entry for entry in rows(record)}
    return [f"{row.key}: no {side} figure and no reason" for row in ROWS for side in SIDES
            if "value" not in computed[row.key][side] and "reason" not in computed[row.key][side]]


def record_problems(record: dict) -> List[str]:
    """What a committed record lacks: a row without a figure or a reason, its stored rows differing from those
    its runs give, the command that reproduces it, the machine, each side's commit and versions."""
    problems = missing_rows(record)
    if record.get("rows") != rows(record):
        problems.append("the stored rows are not the rows its runs give")
    if record["settings"].get("instructions"):
        if not all(side.get("instructions") for side in record["sides"].values()):
            problems.append("a side has no instruction counts, though the run counted them")
        elif record.get("instruction_rows") != instruction_rows(record):
            problems.append("the stored instruction rows are not the rows its counts give")
    if not str(record.get("command", "")).startswith(COMMAND):
        problems.append(f"it names no command that reproduces it ({COMMAND} ...)")
    if not all(record.get("machine", {}).get(key) for key in ("cpus", "cpu")):
        problems.append("it names no machine (cores, processor)")
    for side in SIDES:
        for key in ("commit", "python_version", "spacy", "version", "package"):
            if not record["sides"][side].get(key):
                problems.append(f"the {side} side names no {key}")
        if len(record["sides"][side]["runs"]) != record["settings"]["repeat"]:
            problems.append(f"the {side} side has not {record['settings']['repeat']} runs")
    return problems


def command_line(before_python: Path, options: Dict[str, object], dask: bool, instructions: bool = True) -> str:
    """The command that measures again what these options measured (``--before-python`` first, an option at its
    default left out)."""
    defaults = {**DEFAULTS, "--out": REPOSITORY / RECORD, "--doc": REPOSITORY / PAGE}
    words = [COMMAND, "--before-python", shlex.quote(str(before_python))]
    words += [f"{option} {shlex.quote(str(value))}" for option, value in options.items()
              if option not in defaults or value != defaults[option]]
    return " ".join(words + ([] if dask else ["--no-dask"]) + ([] if instructions else ["--no-instructions"]))
