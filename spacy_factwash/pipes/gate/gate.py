"""The one way to gate texts: a pipeline that has ``factwash_compare``, texts in, reports out.

``inspect`` and ``check``, the command line, the mem0 wrapper, the fixer,
drift, the memory bench and the evaluation all gate through a ``Gate``:

- ``check(source, memory)`` annotates both texts and compares them inside
  a memory zone (``zones.py``: the pipeline's lock is held, so threads
  sharing it take turns, and only the plain report leaves; the texts are
  tokenized before it while the vocabulary is under its budget), handing the
  report and both Docs to a ``review`` first when one is given (the model
  components, which may only lower a verdict);
- ``pipe(pairs)`` gates a stream in batches, in order, each batch in one
  memory zone; a text a batch holds more than once is annotated and read
  into claims once. With ``n_process`` > 1 the batches go to an executor
  (``executor=``, or the one registered as ``"dask"``: the gate itself never
  starts a process);
- ``compare(source_doc, memory_doc)`` compares Docs the pipeline made.

Each text is read as a person sees it before it is annotated (``reading.py``: markup, right-to-left controls,
control and invisible characters, look-alike letters), and the report's offsets are given back in the text as
given, with a note for each stretch read otherwise; a text that reads as written is annotated as it is.
"""

from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from ...errors import FactwashError, batch_size_of
from ...executors import executor_for
from ...syntax.text import doc_text
from ...zones import annotated, as_doc, zone_after_tokenizing
from ..names import COMPARE, CUES
from .reading import ReadText, on_original, read_text
from .report import Report

Review = Callable[[Report, Doc, Doc], Report]


class GateError(FactwashError, ValueError):
    """A pipeline that cannot gate (no ``factwash_compare``), or a pair that is not two texts."""

    code = "E015"


class Gate:
    """Gate (source, memory) texts with a pipeline that has ``factwash_compare``."""

    def __init__(self, nlp: Language, name: str = COMPARE) -> None:
        if not isinstance(nlp, Language):
            raise GateError(f"a gate needs a spaCy pipeline, got {type(nlp).__name__}")
        if name not in nlp.pipe_names:
            raise GateError(f"the pipeline given has no {name} (its components: "
                            f"{', '.join(nlp.pipe_names) or 'none'}); build it with spacy_factwash.load()")
        self.nlp = nlp
        self.component = nlp.get_pipe(name)

    @property
    def lexicon_version(self) -> str:
        """The version of the cue lexicon the pipeline judges with."""
        return self.nlp.get_pipe(CUES).lexicon_version

    def compare(self, source: Doc, memory: Doc) -> Report:
        """Compare two Docs the pipeline made (the caller keeps them alive: no zone here). A Doc whose text a
        person reads otherwise than it is written is annotated again on its text as read; the report's offsets
        are in the Docs' texts."""
        sides = read_text(doc_text(source)), read_text(doc_text(memory))
        read = [doc if side.shadow is None else self.nlp(side.read) for doc, side in zip((source, memory), sides)]
        return on_original(self.component.compare(*read), *sides)

    def check(self, source: str, memory: str, review: Optional[Review] = None) -> Report:
        """Read both texts as a person does, annotate them, compare them, and let ``review`` (if any) see the
        report and the Docs of the texts as given; inside one memory zone, so only the report leaves (the words
        of texts tokenized before it, while the vocabulary has room, stay known: ``zones.annotated``)."""
        sides = read_text(source), read_text(memory)
        with annotated(self.nlp, [side.read for side in sides]) as read:
            report = on_original(self.component.compare(*read), *sides)
            if review is None:
                return report
            given = [doc if side.shadow is None else self.nlp(side.text) for doc, side in zip(read, sides)]
            return review(report, *given)

    def pipe(self, pairs: Iterable, *, batch_size: int = 256, as_tuples: bool = False, n_process: int = 1,
             executor=None) -> Iterator:
        """Gate (source, memory) pairs in batches, in order; with ``as_tuples``, items are ((source, memory),
        context) and results (report, context). ``n_process`` > 1 hands the batches to ``executor`` (default: the
        executor registered as ``"dask"``, a local cluster of that many worker processes)."""
        batch_size = batch_size_of(batch_size, "Gate.pipe")
        items = (item if as_tuples else (item, None) for item in pairs)
        if n_process > 1:
            results = (executor or executor_for("dask")).gate(self.nlp, items, batch_size=batch_size,
                                                               n_workers=n_process, name=self.component.name)
        else:
            results = (result for batch in minibatch(items, batch_size) for result in self.gate_batch(batch))
        for report, context in results:
            yield (report, context) if as_tuples else report

    def gate_batch(self, batch: List[Tuple[Tuple[str, str], object]]) -> List[Tuple[Report, object]]:
        """Annotate one batch of pairs and compare each, inside a memory zone: only plain reports leave it (its
        texts tokenized before the zone while the vocabulary's budget lasts: ``zones.tokenized``). A text
        the batch holds more than once (one source, several memories made from it) is annotated and read into
        claims once per side: comparing reads Docs and claims and changes neither (the claims' caches are emptied
        when the batch ends)."""
        texts = list(dict.fromkeys(text for (source, memory), _ in batch for text in (source, memory)))
        sides: Dict[str, ReadText] = {text: read_text(text) for text in texts}
        with zone_after_tokenizing(self.nlp, [sides[text].read for text in texts]) as warm:
            docs = dict(zip(texts, self.nlp.pipe([as_doc(self.nlp, item) for item in warm],
                                                 batch_size=len(texts) or 1)))
            return self._compared(batch, docs, sides)

    def _compared(self, batch: List[Tuple[Tuple[str, str], object]], docs: Dict[str, Doc],
                  sides: Dict[str, ReadText]) -> List[Tuple[Report, object]]:
        """The report of each pair of ``batch`` from the Docs of its texts (inside the caller's zone), each text's
        Doc read into claims once per side."""
        read: Dict[Tuple[int, str], object] = {}

        def claims_of(doc: Doc, side: str):
            if (id(doc), side) not in read:  # the Docs live in ``docs`` until the batch ends
                read[id(doc), side] = self.component.claims(doc)
            return read[id(doc), side]

        try:
            return [(on_original(self.component.compare_reading(docs[source], docs[memory], claims_of),
                                 sides[source], sides[memory]), context)
                    for (source, memory), context in batch]
        finally:  # the claims' records point back at them: emptied, the batch's Docs go with it, not with the GC
            for claims in read.values():
                claims.cache.clear()
