"""Annotating and gating files: read the inputs (``io``), batch them, hand the batches to an executor (``local``:
this process; ``dask``), write the records (``records``) and the summary of a run (``annotate``, ``gate``,
``partitions`` for a corpus run's pieces)."""
