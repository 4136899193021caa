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
"""

import threading
from contextlib import contextmanager
from typing import Iterator
from weakref import WeakKeyDictionary, WeakSet

from spacy.language import Language

_LOCKS: "WeakKeyDictionary[Language, threading.RLock]" = WeakKeyDictionary()
_GUARD = threading.Lock()
_PRIMED: "WeakSet[Language]" = WeakSet()


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
