"""The life of a component whose data are frozen sets, as spaCy's SpanRuler and Lemmatizer live.

A ``LexiconPipe`` holds frozen sets (``lexicon/sets.py``: its own lexicon,
and the tables the functions it runs read) by the key each is saved under.
It is

1. built empty: nothing is read when the pipeline is made;
2. given its sets once: by ``initialize`` (``nlp.initialize()``, ``spacy
   assemble``; settings from ``[initialize.components.<name>]``), by
   ``from_disk``/``from_bytes`` (the sets saved with the pipeline: a saved
   pipeline reads nothing of the package's data), by unpickling (a worker
   process), or, for a component added and used straight away, from its
   configured folders (the package's when null) the first time they are
   asked for (``sets``). Every set is verified against its manifest, so a
   file edited without re-freezing is refused with an error naming it;
3. compiled once per set of sets (``compile``), never per document. The
   table sets among them are installed for the process
   (``lexicon/tables.py``), so the functions that read them read the
   pipeline's tables.

``to_disk`` writes every set, byte for byte with its manifest, into
``<component>/<key>/``; ``to_bytes`` carries the same files.
"""

import warnings
from pathlib import Path
from typing import Dict, Iterable, Iterator, Mapping, Optional, Tuple

import srsly
from spacy import util
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.util import SimpleFrozenList

from ..lexicon.frozen import LexiconSet, load_set, set_from_payload, write_set
from ..lexicon.sets import SetKind
from ..lexicon.tables import install, installed


# The most Docs a component's batch holds (``LexiconPipe.pipe``). A batch of hundreds keeps thousands of annotated
# Docs' objects alive at once: the garbage collector counts them and scans the whole heap every few batches (each
# full collection ~0.1 s once spaCy is imported), and they fall out of the processor's caches. Measured over
# BioScope's 11,871 sentences (nlp.pipe, batch_size 1,000): factwash_cues ran 238 collections a pass, two of them
# full, at 1,000 Docs a component batch, and none at 16; factwash_cues and load() took 15-28% less CPU at 16 than
# at 1,000 (1, 8, 32 and 64 tried too: 1 and 64 cost more, 8 and 32 about the same).
BATCH_DOCS = 16


class LexiconPipe(Pipe):
    """A spaCy component built empty and given its verified frozen sets once, saved and read back with them."""

    #: the sets the component holds, by the key (and folder name) each is saved under
    holds: Mapping[str, SetKind] = {}
    #: the keys a saved component must have: sets a pipeline saved before spacy-factwash carried the others lacks
    #: those, and reads them as a component just added does (with a warning)
    required: Tuple[str, ...] = ()

    def __init__(self, nlp: Language, name: str, *, verify_lexicons: bool = True,
                 folders: Optional[Mapping[str, Optional[str]]] = None) -> None:
        self.name = name
        self.vocab = nlp.vocab
        self.verify_lexicons = verify_lexicons
        self.folders = dict(folders or {})
        self._sets: Optional[Dict[str, LexiconSet]] = None  # set by initialize, from_disk/from_bytes, or first use

    @property
    def sets(self) -> Dict[str, LexiconSet]:
        """The sets in use, by key; a component neither initialized nor loaded reads them from its configured
        folders (the package's when null) the first time they are asked for."""
        if self._sets is None:
            self.load_sets()
        return self._sets

    def load_sets(self, **folders: Optional[str]) -> None:
        """Read, verify and use every set: from the folder ``folders`` names for its key, else its configured one,
        else the package's."""
        self.use_sets({key: self.read_set(key, folders.get(key)) for key in self.holds})

    def read_set(self, key: str, folder: Optional[str] = None) -> LexiconSet:
        """The set held under ``key``, read and verified from ``folder``, else its configured folder, else the
        package's; a table set with no folder given is the one this process reads (read once for every
        component)."""
        folder = folder if folder is not None else self.folders.get(key)
        kind = self.holds[key]
        if kind.table and folder is None:
            return installed(kind.name)
        return load_set(kind, folder, verify=self.verify_lexicons)

    def use_sets(self, sets: Mapping[str, LexiconSet]) -> None:
        """Use these sets from now on: the table sets installed for the process, then everything compiled, once."""
        held = {key: install(kind.name, sets[key]) if kind.table else sets[key] for key, kind in self.holds.items()}
        self.compile(held)
        self._sets = held

    def compile(self, sets: Mapping[str, LexiconSet]) -> None:
        """Build what the component runs from its sets (matchers, tables); called once per set of sets."""

    def restored(self) -> None:
        """What unpickling must do again in this process besides using the sets (registering extensions)."""

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Annotate a stream of Docs a batch at a time, as spaCy's trainable components do: each batch goes
        through this component before any of it goes on to the next, so a component's matchers and tables stay
        in the processor's caches over the batch (doc by doc, the components of a pipeline take turns evicting
        each other's). A batch holds at most ``BATCH_DOCS`` Docs, whatever the caller's ``batch_size`` (a size
        below 1 is one Doc at a time: no Doc is dropped). A Doc that fails goes to the pipeline's error handler
        alone, as in ``Pipe.pipe``."""
        error_handler = self.get_error_handler()
        for docs in util.minibatch(stream, size=max(1, min(batch_size, BATCH_DOCS))):
            done = []
            for doc in docs:
                try:
                    done.append(self(doc))
                except Exception as error:
                    error_handler(self.name, self, [doc], error)
            yield from done

    # -- serialization: the sets travel with the pipeline ----------------------------------------

    def to_disk(self, path, *, exclude: Iterable[str] = SimpleFrozenList()) -> None:
        """Write every set, byte for byte with its manifest, into ``path/<key>``."""
        writers = {key: (lambda folder, lexicons=lexicons: write_set(folder, lexicons))
                   for key, lexicons in self.sets.items()}
        util.to_disk(path, writers, exclude)

    def from_disk(self, path, *, exclude: Iterable[str] = SimpleFrozenList()) -> "LexiconPipe":
        """Use the sets saved with the pipeline in ``path``, verifying every file against its manifest."""
        sets = {}
        for key, kind in self.holds.items():
            folder = Path(path) / key
            if key in exclude or not (folder.is_dir() or key in self.required):
                sets[key] = self._unsaved(key, folder, exclude)
            else:
                sets[key] = load_set(kind, folder, verify=self.verify_lexicons)
        self.use_sets(sets)
        return self

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialize every set's files and manifest."""
        return util.to_bytes({key: (lambda lexicons=lexicons: srsly.msgpack_dumps(lexicons.payload()))
                              for key, lexicons in self.sets.items()}, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()) -> "LexiconPipe":
        """Use the sets serialized in ``bytes_data``, verifying every file against its manifest."""
        given = srsly.msgpack_loads(bytes_data)
        sets = {}
        for key, kind in self.holds.items():
            origin = f"<bytes of {self.name}>/{key}"
            if key in exclude or not (key in given or key in self.required):
                sets[key] = self._unsaved(key, origin, exclude)
            else:
                payload = srsly.msgpack_loads(given[key]) if key in given else {}
                sets[key] = set_from_payload(kind, payload, origin=origin, verify=self.verify_lexicons)
        self.use_sets(sets)
        return self

    def _unsaved(self, key: str, where, exclude: Iterable[str]) -> LexiconSet:
        """A set the load was told to leave (``exclude``), or one a pipeline saved before spacy-factwash carried it
        lacks (with a warning): read as a component just added reads it."""
        if key not in exclude:
            warnings.warn(f"{where}: the saved {self.name} has no {self.holds[key].name} set (saved by an older "
                          "spacy-factwash): read as a component just added reads it; save the pipeline again to "
                          "carry it", UserWarning, stacklevel=3)
        return self.read_set(key)

    def __reduce__(self):
        """Pickle with the sets' bytes (read now, when they were not), so a worker process reads no folder."""
        self.sets
        return (_blank, (type(self),), {"name": self.name, **self.__dict__})

    def __setstate__(self, state: dict) -> None:
        """Unpickled in a process: the attributes back, the sets used again there (the tables installed, the rest
        compiled into this process's vocab: its strings were pickled before the component was), ``restored``."""
        state = dict(state)
        self.name = state.pop("name")
        self.__dict__.update(state)
        self.use_sets(self._sets)
        self.restored()


def _blank(cls):
    """An instance of ``cls`` with nothing set, for unpickling to fill."""
    return cls.__new__(cls)
