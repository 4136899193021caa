"""Timings any commit's package can be measured with, and the script that measures one side of the speed table.

It imports only spaCy and the public names of ``spacy_factwash`` (``load``, ``inspect``, the gate's
``pipe_pairs`` and the ``annotate`` command), nothing else of the package or of ``factwash_dev``, so that an
older commit's interpreter can run this file by path: ``python -I timing.py INPUTS OUT`` times the rows of the
speed table (``speed_table.py``) in that interpreter, on the inputs the table's command chose, and writes the
seconds as JSON. ``speed.py`` times with the same functions.

Where valgrind is installed, it also counts the instructions of the sentence and per-call rows
(``instructions``): each measurement runs in a fresh interpreter under callgrind, counted for its measured pass
only (``python -I timing.py --instructions NAME INPUTS`` runs one). Instructions do not vary with the load of a
shared machine as seconds do, so the ratios they give are the same in every run.
"""

import gc
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, Sequence, Tuple

import spacy
from spacy.language import Language

# where quantulum3's results are kept, in this checkout and at dfa0e77 (before the package was reorganised)
QUANTITY_MODULES = ("spacy_factwash.pipes.gate.values.quantities", "spacy_factwash.gate.quantities")


def floor_pipeline() -> Language:
    """Blank English with the sentencizer: the least any pipeline here does."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def cue_pipeline() -> Language:
    """The floor plus ``factwash_cues``: what the cue layer costs on its own."""
    import spacy_factwash  # noqa: F401  (registers the factories)

    nlp = floor_pipeline()
    nlp.add_pipe("factwash_cues")
    return nlp


def clear_caches() -> None:
    """Forget quantulum3 results, so that a timed run parses every text afresh (a clear error where the package
    keeps them somewhere ``QUANTITY_MODULES`` does not name: a run that silently kept them would time a cache)."""
    for name in QUANTITY_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        module._parse.cache_clear()
        return
    raise LookupError(f"quantulum3's cache is in none of {', '.join(QUANTITY_MODULES)}: name its module there")


def _seconds(nlp: Language, texts: Sequence[str], batch_size: int) -> float:
    """Wall time of one pass over the texts, starting from a collected heap."""
    gc.collect()
    started = time.perf_counter()
    for _ in nlp.pipe(texts, batch_size=batch_size):
        pass
    return time.perf_counter() - started


def best_seconds(pipelines: Dict[str, Language], texts: Sequence[str], repeat: int = 5,
                 batch_size: int = 1000) -> Dict[str, float]:
    """The best of ``repeat`` interleaved passes of each pipeline over ``texts``, after one warm-up pass each."""
    if not texts:
        raise ValueError("no sentences to time")
    for nlp in pipelines.values():
        _seconds(nlp, texts[:200], batch_size)  # warm caches
    best = {name: float("inf") for name in pipelines}
    for _ in range(max(1, repeat)):
        for name, nlp in pipelines.items():
            best[name] = min(best[name], _seconds(nlp, texts, batch_size))
    return best


def per_call_seconds(pairs: Sequence[Tuple[str, str]], repeat: int = 5) -> Tuple[float, float]:
    """Seconds of ``inspect`` called once per pair, and of the floor pipeline run on both texts of each pair one
    call at a time: the best of ``repeat`` interleaved passes of each, after a warm-up pass, quantulum3's cache
    emptied before each."""
    from spacy_factwash import inspect

    floor = floor_pipeline()

    def inspected() -> None:
        for source, memory in pairs:
            inspect(source, memory)

    def floored() -> None:
        for source, memory in pairs:
            floor(source)
            floor(memory)

    best = {inspected: float("inf"), floored: float("inf")}
    for run in best:
        run()
    for _ in range(max(1, repeat)):
        for run in best:
            clear_caches()
            gc.collect()
            started = time.perf_counter()
            run()
            best[run] = min(best[run], time.perf_counter() - started)
    return best[inspected], best[floored]


def measuring(name: str) -> None:
    """Say on stderr which measurement starts (the last line says where a run that fails or hangs was)."""
    print(f"timing {name}", file=sys.stderr, flush=True)


def _timed(name: str, run) -> float:
    """Seconds of ``run()``, quantulum3's cache emptied and the heap collected first."""
    measuring(name)
    clear_caches()
    gc.collect()
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def pipe_pairs_seconds(gate, pairs: Sequence[Tuple[str, str]], workers: int = 0) -> Dict[str, float]:
    """Seconds of the floor pipeline over both texts of every pair (one stream), of the gate's ``pipe_pairs`` in
    one process and, with ``workers``, of ``pipe_pairs(n_process=workers)`` (the workers started inside the run),
    after a warm-up batch."""
    floor, texts = floor_pipeline(), [text for pair in pairs for text in pair]
    list(gate.pipe_pairs(pairs[:50]))
    seconds = {name: _timed(name, run) for name, run in (
        ("floor/pairs", lambda: list(floor.pipe(texts, batch_size=256))),
        ("pipe_pairs/1", lambda: list(gate.pipe_pairs(pairs))))}
    if workers:
        seconds["pipe_pairs/2"] = _timed("pipe_pairs/2", lambda: list(gate.pipe_pairs(pairs, n_process=workers)))
    return seconds


def annotate_options() -> str:
    """The help text of this package's ``annotate`` command (which ways of running it has)."""
    return _command(["annotate", "--help"], Path(tempfile.gettempdir()))


def _command(arguments: Sequence[str], folder: Path) -> str:
    """Run ``python -I -m spacy_factwash ARGUMENTS`` in ``folder`` (so no checkout there shadows the package); its
    output, or a clear error with its last line of stderr."""
    done = subprocess.run([sys.executable, "-I", "-m", "spacy_factwash", *arguments], cwd=folder,
                          capture_output=True, text=True)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"spacy_factwash {' '.join(arguments)} exited with {done.returncode}: {last}")
    return done.stdout


def annotate_seconds(lines: Path, workers: int) -> Tuple[Dict[str, float], Dict[str, str]]:
    """Seconds of whole ``annotate`` runs on the JSONL file ``lines`` (a fresh interpreter each: start, pipeline
    and output included): one process, ``--n-process workers``, ``--scheduler local --workers workers``, and
    ``workers`` one-process runs side by side on as many shares of the lines (``side_by_side_seconds``); and the
    runs this package has no option for, each with the reason."""
    runs = {"annotate/1": [], "annotate/n_process": ["--n-process", str(workers)]}
    skipped = {}
    if "--scheduler" in annotate_options():
        runs["annotate/scheduler"] = ["--scheduler", "local", "--workers", str(workers)]
    else:
        skipped["annotate/scheduler"] = "no `annotate --scheduler` at this commit"
    seconds = {}
    with tempfile.TemporaryDirectory() as folder:
        for index, (name, options) in enumerate(runs.items()):
            measuring(name)
            started = time.perf_counter()
            _command(["annotate", str(lines), str(Path(folder) / f"out-{index}"), *options], Path(folder))
            seconds[name] = time.perf_counter() - started
        measuring("annotate/side_by_side")
        seconds["annotate/side_by_side"] = side_by_side_seconds(lines, workers, Path(folder))
    return seconds, skipped


def side_by_side_seconds(lines: Path, workers: int, folder: Path) -> float:
    """Seconds from starting ``workers`` one-process ``annotate`` runs at once, each on its own share of the
    lines of ``lines`` (in order, as even as whole lines allow, written to ``folder`` first), until the last ends:
    what that many processes give on this machine with nothing shared and nothing to coordinate, the most a run
    on as many workers can hope for (a clear error with a run's last line of stderr when one fails)."""
    given = lines.read_text(encoding="utf8").splitlines(keepends=True)
    cut = [len(given) * share // workers for share in range(workers + 1)]
    shares = []
    for share in range(workers):
        shares.append(folder / f"share-{share}.jsonl")
        shares[-1].write_text("".join(given[cut[share]:cut[share + 1]]), encoding="utf8")
    logs = [path.with_suffix(".log") for path in shares]
    started = time.perf_counter()
    runs = []
    for path, log in zip(shares, logs):
        with log.open("w", encoding="utf8") as stderr:  # a file, not a pipe: no run waits on a full pipe
            runs.append(subprocess.Popen([sys.executable, "-I", "-m", "spacy_factwash", "annotate", str(path),
                                          str(folder / f"{path.stem}-out.jsonl")], cwd=folder,
                                         stdout=subprocess.DEVNULL, stderr=stderr))
    codes = [run.wait() for run in runs]
    took = time.perf_counter() - started
    for code, log in zip(codes, logs):
        if code:
            last = (log.read_text(encoding="utf8", errors="replace").strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"spacy_factwash annotate of one share exited with {code}: {last}")
    return took


def measure_side(inputs: dict) -> dict:
    """One timed pass of every row of the speed table (after warm-ups) on ``inputs`` (``speed_table.side_inputs``),
    in this interpreter: the seconds of each measurement, the rows this package cannot run and why, and what was
    measured (versions, where the package was imported from, what ``pipe_pairs(n_process=...)`` ran on)."""
    import spacy_factwash

    from spacy_factwash import load

    sentences, workers = inputs["sentences"], inputs["workers"]
    measuring("the sentences: floor, cues, load")
    nlp = load()
    seconds = {f"{name}/sentences": value for name, value in best_seconds(
        {"floor": floor_pipeline(), "cues": cue_pipeline(), "load": nlp}, sentences, repeat=1).items()}
    for kind in ("plain", "digits"):
        measuring(f"inspect/{kind}")
        seconds[f"inspect/{kind}"], seconds[f"floor/{kind}"] = per_call_seconds(
            [tuple(pair) for pair in inputs[kind]], repeat=1)
    seconds.update(pipe_pairs_seconds(nlp.get_pipe("factwash_compare"), [tuple(pair) for pair in inputs["pairs"]],
                                      workers if inputs["dask"] else 0))
    skipped = {}
    if inputs["dask"]:
        annotated, skipped = annotate_seconds(Path(inputs["lines"]), workers)
        seconds.update(annotated)
    return {"seconds": seconds, "skipped": skipped, "python": sys.version.split()[0], "spacy": spacy.__version__,
            "version": spacy_factwash.__version__, "package": str(Path(spacy_factwash.__file__).resolve().parent),
            "pipe_pairs_workers": ("Dask" if "distributed" in sys.modules else "processes") if inputs["dask"]
            else None}


# what ``instructions`` counts: the floor, the cue pipeline and load() over the sentences, and inspect() once per
# written pair, without digits and with, beside the floor pipeline on both texts of each pair
INSTRUCTION_MEASUREMENTS = ("floor/sentences", "cues/sentences", "load/sentences", "floor/plain", "inspect/plain",
                            "floor/digits", "inspect/digits")


def instructions(inputs_path: Path, names: Sequence[str] = INSTRUCTION_MEASUREMENTS) -> Dict[str, int]:
    """The instructions of each measurement ``names`` names (``INSTRUCTION_MEASUREMENTS``) on the inputs file
    (``--instructions`` run in a fresh interpreter under valgrind's callgrind, counting its measured pass only); none
    where valgrind is not installed (a clear error, with valgrind's last line, when a count fails)."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        return {}
    counts = {}
    for name in names:
        measuring(f"instructions {name}")
        done = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
                               sys.executable, "-I", str(Path(__file__).resolve()), "--instructions", name,
                               str(inputs_path)], capture_output=True, text=True)
        found = re.findall(r"Collected : (\d+)", done.stderr)
        if done.returncode or not found:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"counting the instructions of {name} failed ({done.returncode}): {last}")
        counts[name] = int(found[-1])
    return counts


def _counting(switch: str) -> None:
    """Turn callgrind's counting on or off for this process (run under ``valgrind --instr-atstart=no``)."""
    subprocess.run(["callgrind_control", "-i", switch, str(os.getpid())], capture_output=True, check=True)


def count_pass(name: str, inputs: dict) -> None:
    """One of ``INSTRUCTION_MEASUREMENTS`` in this interpreter: a warm-up pass, then the measured pass with
    callgrind counting on (quantulum3's cache emptied, but for the floor, and the heap collected first, as for the
    timings)."""
    what, given = name.split("/")
    run: Callable[[], object]
    if given == "sentences":
        nlp = floor_pipeline() if what == "floor" else cue_pipeline() if what == "cues" else _load()
        sentences = inputs["sentences"]

        def run() -> None:
            for _ in nlp.pipe(sentences, batch_size=1000):
                pass
    else:
        pairs, floor = [tuple(pair) for pair in inputs[given]], floor_pipeline()
        check = floor if what == "floor" else None
        if check is None:
            from spacy_factwash import inspect as check

        def run() -> None:
            for source, memory in pairs:
                if what == "floor":
                    floor(source)
                    floor(memory)
                else:
                    check(source, memory)
    run()
    if what != "floor":  # the floor reads no value: the package need not even be imported
        clear_caches()
    gc.collect()
    _counting("on")
    run()
    _counting("off")


def _load():
    """``spacy_factwash.load()`` (imported only by the counts that run it)."""
    from spacy_factwash import load

    return load()


def main(arguments: Sequence[str]) -> None:
    """``timing.py INPUTS OUT [--count-instructions]``: measure this interpreter's side of the speed table on the
    JSON ``INPUTS`` (and count its instructions) and write the result to ``OUT``; ``timing.py --instructions NAME
    INPUTS``: one counted pass (run under valgrind by ``instructions``)."""
    if arguments[0] == "--instructions":
        count_pass(arguments[1], json.loads(Path(arguments[2]).read_text(encoding="utf8")))
        return
    inputs_path, out = Path(arguments[0]), Path(arguments[1])
    result = measure_side(json.loads(inputs_path.read_text(encoding="utf8")))
    if "--count-instructions" in arguments[2:]:
        result["instructions"] = instructions(inputs_path)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf8")


if __name__ == "__main__":
    main(sys.argv[1:])
