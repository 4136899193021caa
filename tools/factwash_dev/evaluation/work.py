"""How the gate's work grows with the length of its texts, counted in Python function calls.

Seconds on a shared machine are noise; the number of Python calls made while
comparing two annotated texts is the same on every run. Each count is made in
a fresh interpreter, after one small warm-up comparison (lexicons, lemma
tables and quantulum3 loaded), so no cache of an earlier count is read and the
order of the counts does not matter. This module imports nothing from the
package at import time and imports the package by its absolute name, so that
``training/claim_gate/measure_before.py`` counts the gate of commit dfa0e77
with the same procedure and the same texts (it loads this file by path in that
commit's environment).
"""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from spacy_factwash.pipes.gate.gate import Gate

WARM_UP = ("Someone said Alice might not get admin access if the audit fails, as of Monday. It costs 5 km.",
           "Alice might get admin access.")


def repetitive_document(sentences: int) -> Tuple[str, str]:
    """A source of ``sentences`` sentences repeating five cue-laden ones, and a memory of every tenth."""
    source = cue_sentences(sentences)
    return " ".join(source), " ".join(source[::10])


def cue_sentences(count: int) -> List[str]:
    """``count`` sentences repeating five cue-laden ones, each with a name of its own."""
    base = ["Someone said {} might not get admin access if the audit fails, as of Monday.",
            "The cluster has 4,500 nodes and 12 racks.", "Bob reportedly left the team last week.",
            "If the review passes, the release ships on Friday.", "Carol did not sign the contract."]
    return [base[i % 5].format(f"Alice{i}") for i in range(count)]


def dense_text(words: int) -> Tuple[str, str]:
    """One sentence-less text of ``words`` cue words, gated against itself."""
    text = " ".join(["not might said if until"] * (words // 5))
    return text, text


LONG_TEXTS: Dict[str, Callable[[int], Tuple[str, str]]] = {
    "repetitive_document": repetitive_document, "dense_text": dense_text}
# the smaller size of each doubling counted: past the point where every memory claim has its full set of
# candidate source claims (the claim gate's ``align.CANDIDATES``), and long enough for a quadratic term to show
# (the sentence-level gate's all-pairs alignment grows 3.1x from 1,000 to 2,000 sentences, 3.5x from 2,000 on)
SIZES = {"repetitive_document": 2000, "dense_text": 1500}
NAMES = {"repetitive_document": "repetitive source (sentences)", "dense_text": "cue-dense text, no sentences (words)"}


def count_calls(texts: str, size: int) -> int:
    """The calls (Python functions and built-ins) the installed package's gate makes comparing the pair ``LONG_TEXTS[texts](size)``
    (annotation not counted), after a warm-up comparison."""
    import spacy_factwash

    nlp = spacy_factwash.default_pipeline()
    gate = Gate(nlp).component  # comparing itself, not the entry point's delegation
    gate.compare(*nlp.pipe(WARM_UP))
    source, memory = nlp.pipe(LONG_TEXTS[texts](size))
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profile)
    try:
        gate.compare(source, memory)
    finally:
        sys.setprofile(None)
    return count


def fresh_count(texts: str, size: int, python: Optional[str] = None) -> int:
    """``count_calls`` in a fresh, isolated interpreter (``python``: another environment's, e.g. the old
    package's; by default this one's)."""
    program = ("import importlib.util, sys\n"
               "spec = importlib.util.spec_from_file_location('factwash_work', sys.argv[1])\n"
               "work = importlib.util.module_from_spec(spec); spec.loader.exec_module(work)\n"
               "print(work.count_calls(sys.argv[2], int(sys.argv[3])))\n")
    done = subprocess.run([python or sys.executable, "-I", "-c", program, str(Path(__file__).resolve()), texts,
                           str(size)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"counting {texts} at {size} failed: {done.stderr.strip().splitlines()[-1:]}")
    return int(done.stdout.split()[-1])


def work_growth(python: Optional[str] = None) -> Dict[str, Dict[str, float]]:
    """For each long text: the calls at its size and at twice its size, and their ratio (2 when linear, 4 when
    quadratic)."""
    with ThreadPoolExecutor(max_workers=2 * len(SIZES)) as pool:
        counts = {(texts, times): pool.submit(fresh_count, texts, times * size, python)
                  for texts, size in SIZES.items() for times in (1, 2)}
    rows = {}
    for texts, size in SIZES.items():
        small, large = counts[texts, 1].result(), counts[texts, 2].result()
        rows[texts] = {"size": size, "calls": small, "calls_doubled": large, "growth": large / small}
    return rows


def cue_pipeline():
    """Blank English, the sentencizer and ``factwash_cues``, as a user who wants only cues builds it."""
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("factwash_cues")
    return nlp


def counted(run: Callable[[], object], within: Optional[str] = None, named: Optional[str] = None) -> int:
    """The calls (Python functions and built-ins) made while ``run()`` runs; with ``within``, only calls of
    Python functions defined in files whose path ends so (e.g. ``syntax/clauses.py``, or a compiled module's source
    such as ``tokenizer.pyx``: spaCy's are built to report their calls), and with ``named`` too, only of the
    functions of that name (``__init__`` in ``tokens/doc.pyx``: the Docs made)."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if within is None:
            count += event in ("call", "c_call")
        elif event == "call" and frame.f_code.co_filename.endswith(within):
            count += named is None or frame.f_code.co_name == named

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def count_annotation_calls(texts: Sequence[str], within: Optional[str] = None) -> int:
    """The calls ``factwash_cues`` makes annotating ``texts`` (tokenizing and sentence boundaries, done before,
    not counted), after a warm-up document; ``within`` as for ``counted``."""
    nlp = cue_pipeline()
    cues, sentencizer = nlp.get_pipe("factwash_cues"), nlp.get_pipe("sentencizer")
    cues(sentencizer(nlp.make_doc(WARM_UP[0])))
    docs = [sentencizer(nlp.make_doc(text)) for text in texts]
    return counted(lambda: [cues(doc) for doc in docs], within)


ANNOTATION_SIZES = {"corpus": 500, "document": 1000}  # texts / sentences of the smaller size counted


def annotation_growth() -> Dict[str, Dict[str, float]]:
    """``factwash_cues``'s calls for a corpus of short texts and for one long document, at a size and twice it,
    and their ratio (2 when linear)."""
    made = {"corpus": cue_sentences, "document": lambda size: [repetitive_document(size)[0]]}
    rows = {}
    for name, size in ANNOTATION_SIZES.items():
        small, large = (count_annotation_calls(made[name](times * size)) for times in (1, 2))
        rows[name] = {"size": size, "calls": small, "calls_doubled": large, "growth": large / small}
    return rows
