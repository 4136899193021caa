"""The drivers: ``GatedMemory`` wraps mem0's ``Memory`` and ``AsyncGatedMemory`` its ``AsyncMemory``.

Both run the same steps (``storing.py``, ``adding.py``, ``recovery.py``: generators yielding the mem0 calls to
make), one driven with plain calls and the other with ``await``. No state of a call is kept on the wrapper: each
write carries its own (``decisions.Call``) in a context variable (``hook.py``), so threads and asyncio tasks
sharing one wrapper never see each other's facts. Reads (``get``, ``get_all``, ``search``, ``history``) are the
Memory's own; any other attribute is refused rather than forwarded. ``wrapped.memory`` is the naked store:
writing through it with ``infer=False`` bypasses the gate (with ``infer=True`` the LLM it shares with the
wrapper stores nothing).
"""

from functools import wraps
from inspect import iscoroutinefunction
from pathlib import Path
from typing import Any, Mapping, Optional, Type, Union

from .decisions import Steps
from .hook import GatedLLM
from .policy import checked_policy
from .recovery import RecoveringWrites

READS = frozenset({"get", "get_all", "search", "history", "config", "close", "api_version", "custom_instructions"})
WRITES = ("add", "update", "delete", "delete_all", "reset", "approve", "recover")


def _no_model_downloads() -> None:
    """mem0 downloads a spaCy model at run time when spaCy is installed; turn that off (BM25 then uses the text)."""
    try:
        from mem0.utils import spacy_models
    except ImportError:
        return
    spacy_models._load_failed_full = True
    spacy_models._load_failed_lemma = True


class _GatedWrites(RecoveringWrites):
    """What the sync and async wrappers share: the wrapped Memory, its LLM hooked, and every gated write."""

    def __init__(self, memory, gate, audit_log: Union[str, Path], policy: Optional[Mapping[str, str]] = None,
                 fixer=None, review=None, database: Optional[Union[str, Path]] = None) -> None:
        checked = checked_policy(policy)
        if isinstance(memory.llm, GatedLLM):
            raise ValueError("this Memory is already wrapped: wrap it once and share the wrapper")
        _no_model_downloads()
        self.memory = memory
        super().__init__(gate, audit_log, checked, fixer, review, database)
        memory.llm = GatedLLM(memory.llm, self)

    def __getattr__(self, name: str):
        """The Memory's reads; anything else is refused, never forwarded."""
        if name in READS and "memory" in self.__dict__:
            return getattr(self.memory, name)
        raise AttributeError(f"{type(self).__name__} has no {name!r}: it forwards only the Memory's reads "
                             f"({', '.join(sorted(READS))}); writes go through its gated add, update, delete, "
                             "delete_all and reset (wrapped.memory is the naked store, and bypasses the gate)")


def _advance(steps: Steps, value: Any = None, error: Optional[BaseException] = None):
    """Resume the steps with the last call's result or error: (the next call, None) or (None, the return value)."""
    try:
        return (steps.throw(error) if error is not None else steps.send(value)), None
    except StopIteration as done:
        return None, done


class GatedMemory(_GatedWrites):
    """A mem0 ``Memory`` whose writes pass the gate first; its reads are the Memory's own."""

    def _drive(self, steps: Steps) -> Any:
        """Run the steps, making each mem0 call they yield."""
        op, done = _advance(steps)
        while done is None:
            try:
                value, error = getattr(self.memory, op.name)(*op.args, **op.kwargs), None
            except Exception as err:
                value, error = None, err
            op, done = _advance(steps, value, error)
        return done.value


class AsyncGatedMemory(_GatedWrites):
    """A mem0 ``AsyncMemory`` whose writes pass the gate first: the same steps, each mem0 call awaited."""

    async def _drive(self, steps: Steps) -> Any:
        """Run the steps, awaiting each mem0 call they yield."""
        op, done = _advance(steps)
        while done is None:
            try:
                value, error = await getattr(self.memory, op.name)(*op.args, **op.kwargs), None
            except Exception as err:
                value, error = None, err
            op, done = _advance(steps, value, error)
        return done.value


def gated_class(memory) -> Type[_GatedWrites]:
    """The wrapper for a mem0 store: ``AsyncGatedMemory`` for an ``AsyncMemory`` (its ``add`` is awaited), else
    ``GatedMemory``."""
    return AsyncGatedMemory if iscoroutinefunction(memory.add) else GatedMemory


def _driven(name: str, asynchronous: bool):
    """The public method ``name`` that runs the steps ``_name`` with the wrapper's driver (awaited when
    ``asynchronous``)."""
    steps = getattr(_GatedWrites, f"_{name}")
    if asynchronous:
        async def method(self, *args, **kwargs):
            return await self._drive(steps(self, *args, **kwargs))
    else:
        def method(self, *args, **kwargs):
            return self._drive(steps(self, *args, **kwargs))
    method = wraps(steps)(method)
    method.__name__ = method.__qualname__ = name
    return method


for _name in WRITES:
    setattr(GatedMemory, _name, _driven(_name, asynchronous=False))
    setattr(AsyncGatedMemory, _name, _driven(_name, asynchronous=True))
