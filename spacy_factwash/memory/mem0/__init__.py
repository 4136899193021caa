"""wrap(): gate every write to a mem0 store, record what became of it, and keep what is held for review.

Nothing is lost. Every write leaves a ``decision`` record in the audit log (``memory/audit.py``) before anything
is stored and an ``outcome`` record after: ``stored`` with mem0's ids, ``held`` with the review-queue row,
``dropped``, or ``failed``, which is also raised to the caller (``NotStored``). Provenance
(``memory/provenance.py``) lives in the same SQLite database as the review queue (``memory/queue.py``): each
fact is an item derived from its source, never more verified than it, and its verification and source go into
the fact's metadata. mem0 is an optional extra, imported only by this package, and only when a store is wrapped.

The modules, by job:

- ``validation.py``: what a write may carry (text messages, the caller's metadata, a scope);
- ``decisions.py``: a write gated and decided, its provenance, and its audit records;
- ``policy.py``: what each verdict does (store, store unverified, hold, drop; a fixer's rewrite);
- ``hook.py``: mem0's extraction call intercepted, its reply read exactly as mem0 reads it;
- ``context.py``: what the extraction read (the session's last messages and the call's), turn by turn: hearsay an
  earlier turn reports, and the reply's other fields checked against the turns a fact comes from;
- ``storing.py``: a decided fact written to the store and confirmed; update, delete, reset, approve, reject;
- ``adding.py``: the paths of ``add`` (mem0's own write with the hook inside it, verbatim, procedural);
- ``recovery.py``: settling decisions whose outcome could not be written;
- ``drivers.py``: ``GatedMemory`` and ``AsyncGatedMemory``, which run the steps with or without ``await``.
"""

from .drivers import AsyncGatedMemory, GatedMemory, gated_class
from .storing import NotStored

__all__ = ["AsyncGatedMemory", "GatedMemory", "NotStored", "gated_class"]
