"""One lock per pipeline, held by every caller that annotates with it while another may be in a memory zone.

``nlp.memory_zone()`` forgets, when it ends, every string added to the
vocabulary while it was open, whichever thread added it; a Doc another thread
made meanwhile then points at strings that are gone (spaCy's error E018). So
every memory zone of this package is entered through ``zone(nlp)``, and every
annotation it makes outside one (``inspect``) holds ``exclusive(nlp)``: two
threads sharing a pipeline take turns instead of corrupting each other.

A zone also forgets strings a component adds for good at its first document
(``factwash_cues`` compiles its lexicon there when it was neither initialized
nor loaded: its match keys are strings). So before a pipeline's first zone,
``zone`` runs it once on an empty text, outside any zone.

A zone also keeps no tokenizer cache entry and no word it met: inside one,
every word is looked up afresh each time (a short pair costs about ten times
what it does outside; more than half of a corpus annotation's time). So
``tokenized`` (one call's texts, ``annotated``: ``inspect``; a batch's, in
``Gate.gate_batch`` and ``records.annotate_batch``) tokenizes a text outside the
zone while the lexemes the pipeline has kept for good, and those the text could
add (at most one per character), are within a budget (``WARM_LEXEMES``), and
inside it past that: the vocabulary of a long-running service or corpus run
grows by at most the budget, with the words it meets first, and stays there
(the tokenizer's cache is capped by spaCy), and every word it knows is read at
the speed of a warm pipeline. Only the tokenizer runs outside the zone; what the
components add is forgotten when it ends. ``annotated`` runs the components on
each Doc as ``nlp(doc)`` runs them (``run_pipeline``), their list read once per
call, not once per Doc.
"""

import re
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, List, Sequence, Tuple
from weakref import WeakKeyDictionary, WeakSet

from spacy.errors import Errors
from spacy.language import Language
from spacy.tokens import Doc

from .syntax.text import made_from

_LOCKS: "WeakKeyDictionary[Language, threading.RLock]" = WeakKeyDictionary()
_GUARD = threading.Lock()
_PRIMED: "WeakSet[Language]" = WeakSet()
_WARMED: "WeakKeyDictionary[Language, int]" = WeakKeyDictionary()  # lexemes ``annotated`` added, by pipeline
WARM_LEXEMES = 50_000  # the most lexemes ``annotated`` adds to a pipeline's vocabulary for good (about 0.55 kB each)
LONGEST_KEPT_WORD = 64  # the longest word ``annotated`` keeps: at most about 1.2 kB a lexeme, 61 MB in all
_LONG_RUN = re.compile(r"\S{%d}" % (LONGEST_KEPT_WORD + 1))


def exclusive(nlp: Language) -> threading.RLock:
    """The reentrant lock of this pipeline (made at first use, gone with the pipeline)."""
    with _GUARD:
        lock = _LOCKS.get(nlp)
        if lock is None:
            lock = _LOCKS[nlp] = threading.RLock()
        return lock


@contextmanager
def zone(nlp: Language) -> Iterator[None]:
    """``nlp.memory_zone()`` while holding the pipeline's lock: only plain data may leave it."""
    with exclusive(nlp):
        if nlp not in _PRIMED:
            nlp("")  # what components load at their first document stays (see above)
            _PRIMED.add(nlp)
        with nlp.memory_zone():
            yield


def tokenized(nlp: Language, texts: Sequence) -> list:
    """Each text as a Doc of the pipeline's tokenizer made now, outside any memory zone, while the lexemes this
    has added to the pipeline's vocabulary for good, with those the text could add (at most one per character),
    are within ``WARM_LEXEMES``; past that the text itself, for the caller to tokenize inside its zone (and a
    text that is not a string, for the pipeline to refuse there). A text with a run of more than
    ``LONGEST_KEPT_WORD`` characters without a space is always left to the zone, so no word kept is longer: the
    budget bounds bytes, not only words. The lexemes are counted here, after each text (a text that fails still
    counts what came before it): spaCy's ``len(vocab)`` also counts every lexeme a zone made and forgot. Holds
    the pipeline's lock: no other thread is in a zone that would forget the words kept."""
    with exclusive(nlp):
        added, made = _WARMED.get(nlp, 0), []
        try:
            for text in texts:
                if isinstance(text, str) and added + len(text) <= WARM_LEXEMES and _LONG_RUN.search(text) is None:
                    before = len(nlp.vocab)
                    try:
                        made.append(made_from(nlp.make_doc(text), text, nlp.tokenizer))
                    finally:
                        added += len(nlp.vocab) - before
                else:
                    made.append(text)
        finally:
            _WARMED[nlp] = added
        return made


def as_doc(nlp: Language, item) -> Doc:
    """An item of ``tokenized``: its Doc, or its text tokenized now (inside the caller's zone)."""
    return item if isinstance(item, Doc) else made_from(nlp.make_doc(item), item, nlp.tokenizer)


@contextmanager
def zone_after_tokenizing(nlp: Language, texts: Sequence) -> Iterator[list]:
    """``zone(nlp)`` for the block, the texts tokenized just before it (``tokenized``: each a Doc, or the text
    itself past the budget), the pipeline's lock held throughout, so no other thread's zone comes between."""
    with exclusive(nlp):
        made = tokenized(nlp, texts)
        with zone(nlp):
            yield made


@contextmanager
def annotated(nlp: Language, texts: Sequence[str]) -> Iterator[List[Doc]]:
    """The texts annotated by the pipeline inside ``zone(nlp)``, each tokenized before the zone while the
    vocabulary's budget lasts (``tokenized``), inside it past that (a text that is not a string is left to the
    pipeline to refuse)."""
    with zone_after_tokenizing(nlp, texts) as made:
        # a Doc at a time: a call's few Docs are no batch (``nlp.pipe``'s generators cost more)
        pipeline = nlp.pipeline  # read once: spaCy builds the list anew at every read (nlp(doc) reads it)
        yield [run_pipeline(nlp, pipeline, doc) if isinstance(doc, Doc) else nlp(doc) for doc in made]


def run_pipeline(nlp: Language, pipeline: Sequence[Tuple[str, Callable[[Doc], Doc]]], doc: Doc) -> Doc:
    """``nlp(doc)`` for a Doc, with the components of ``pipeline`` (``nlp.pipeline``, read once by the caller for
    all its Docs): each component's error goes to its error handler (the pipeline's default, unless the component
    has its own), a ``KeyError`` is spaCy's E109 and a component that returns no Doc is E005, as in
    ``Language.__call__``, which reads ``nlp.pipeline`` again for every Doc (about 10 us a Doc here)."""
    for name, proc in pipeline:
        handler = proc.get_error_handler() if hasattr(proc, "get_error_handler") else nlp.default_error_handler
        try:
            doc = proc(doc)
        except KeyError as error:  # a component that was not initialized, as spaCy says it
            raise ValueError(Errors.E109.format(name=name)) from error
        except Exception as error:
            handler(name, proc, [doc], error)
        if not isinstance(doc, Doc):
            raise ValueError(Errors.E005.format(name=name, returned_type=type(doc)))
    return doc
