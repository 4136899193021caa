"""``cached``: ``functools.cached_property`` without its lock, a value worked out at its first read and kept.

Python 3.11's ``cached_property`` takes a lock at every first read (about 1 us here, three times the read
itself; the gate's claims make a dozen or more such reads per comparison); Python 3.12 dropped the lock. This is
the descriptor 3.12 has: the value is kept in the instance's ``__dict__``, where every later read finds it
without calling the descriptor, and deleting it there makes the next read work it out again. Two threads that
read it first at the same moment may both work it out and one value is kept, so it serves only values that are a
pure reading of their instance.
"""

from typing import Any, Callable, Generic, Optional, TypeVar

T = TypeVar("T")


class cached(Generic[T]):  # noqa: N801  (named as the decorator it replaces is)
    """A property worked out once per instance, at its first read, and kept in the instance's ``__dict__``."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Optional[Any], owner: Optional[type] = None) -> T:
        if instance is None:
            return self  # type: ignore[return-value]
        value = instance.__dict__[self.name] = self.func(instance)
        return value
