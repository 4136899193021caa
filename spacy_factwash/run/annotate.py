"""Annotating a file of texts into a file of records: the work behind ``annotate``.

Each line of input gives one record (``records.annotation_record``), in
input order, however many processes the executor annotates with. The output
is written through ``outputs.atomic_output``: never over the input, renamed
into place when the run ends; a run that stops at a bad line keeps the
records before it.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, Optional, Tuple, Union

from spacy.language import Language

from ..api import DEFAULT_MAX_LENGTH, load
from ..errors import batch_size_of
from ..executors import Executor
from ..io.inputs import InputFile, InputLine, input_file
from ..io.outputs import atomic_output
from ..io.progress import Progress, quiet
from ..io.textfile import line_count
from ..lexicon.frozen import load_lexicons
from ..pipes.names import COMPARE
from .local import executor_of
from .records import EncodedRecord, encoded


@dataclass(frozen=True)
class DefaultPipeline:
    """How a run's processes build the default pipeline to annotate with (on ``lexicon_dir``'s cue lexicon when
    given): a value, so that a worker can tell the default pipeline from any other build (``run.dask.warm``)."""

    max_length: int = DEFAULT_MAX_LENGTH
    lexicon_dir: Optional[str] = None

    def __call__(self) -> Language:
        """The pipeline, as ``api.load`` builds it, with its comparison component disabled: a single Doc passes
        through that component unchanged, and annotating never compares, so the gate's word lists (a third of
        what a pipeline reads and compiles at its first Doc) are never read."""
        nlp = load(self.max_length, lexicon_dir=self.lexicon_dir)
        nlp.disable_pipe(COMPARE)
        return nlp


@dataclass
class AnnotateSummary:
    """What an annotation run wrote: records, empty texts, bad lines skipped, and why it stopped early, if it did."""

    written: int = 0
    empty: int = 0
    bad: int = 0
    stop: Optional[str] = None


def write_annotations(write: Callable[[str], None],
                      results: Iterable[Tuple[InputLine, Union[Dict, EncodedRecord, None]]], input_path: Path,
                      skip_bad_lines: bool) -> AnnotateSummary:
    """Write each record as a JSONL line, in order; stop at the first bad line unless skipping (then count it).
    A record is a dict, or the line a worker already wrote for it (``records.EncodedRecord``), written as it is."""
    summary = AnnotateSummary()
    for item, record in results:
        if record is None:
            if not skip_bad_lines:
                summary.stop = f"{input_path}:{item.number}: {item.error} (use --skip-bad-lines to skip it)"
                break
            summary.bad += 1
            continue
        if not isinstance(record, EncodedRecord):
            record = encoded(record)
        summary.empty += record.empty
        write(record.text)
        summary.written += 1
    return summary


def annotate_file(input_path: Path, output_path: Path, *, max_length: int, batch_size: int = 256,
                  n_process: int = 1, executor: Union[Executor, str, None] = None, skip_bad_lines: bool = False,
                  lexicon_dir: Optional[Path] = None, progress: Progress = quiet) -> AnnotateSummary:
    """Annotate every line of ``input_path`` with the default pipeline (on ``lexicon_dir``'s cue lexicon when
    given, verified before any input is read) into one JSONL file, in order.

    The batches go to ``executor`` (one, or the name of one registered; by default this process, or for
    ``n_process`` > 1 the Dask executor: a local cluster of that many worker processes, the ``dask`` extra),
    which builds the pipeline once per process; records come back in input order.
    """
    batch_size_of(batch_size, "annotate_file")
    input_file(input_path)
    if lexicon_dir is not None:
        load_lexicons(lexicon_dir)
    build = DefaultPipeline(max_length, None if lexicon_dir is None else str(lexicon_dir))
    results = executor_of(executor, n_process).annotate(build, InputFile(input_path, max_length),
                                                        batch_size=batch_size, n_workers=n_process)
    with atomic_output(output_path, [input_path]) as out:
        return write_annotations(out.write, progress(results, total=line_count(input_path), desc="annotate"),
                                 input_path, skip_bad_lines)
