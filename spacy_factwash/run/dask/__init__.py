"""Annotating corpora and gating pair streams on Dask (the ``dask`` extra: ``pip install spacy-factwash[dask]``).

- ``annotate_corpus`` / ``gate_corpus``: input files cut into partitions of
  lines, each partition done on a Dask worker and written as JSONL (and, for
  annotation, a spaCy ``DocBin``), with a ``manifest.json`` listing every
  partition in input order; a partition that fails is retried and, if it
  still fails, reported in the manifest and the run's summary, never left
  out silently (``corpus.py``; the work of a partition: ``run/partitions.py``).
- The ``"dask"`` executor (``executor.py``): ``Gate.pipe(n_process=N)`` and
  ``annotate --n-process N`` send one stream of batches over a local cluster
  of N worker processes, results in input order (``stream.py``).

Every worker builds its pipeline once (``worker.py``) and annotates and
compares whole batches inside ``nlp.memory_zone()``, so only plain records
travel back and memory stays flat. Nothing here is imported by
``import spacy_factwash``; ``distributed`` is imported when a cluster is used.
"""

from .cluster import ScaleError
from .corpus import annotate_corpus, gate_corpus, records

__all__ = ["ScaleError", "annotate_corpus", "gate_corpus", "records"]
