"""How a long run shows its progress: it wraps the stream of its work in a callable it is given.

The callable takes the items, their ``total`` when known and a ``desc``
naming the work (``tqdm``'s own signature, so the command line passes a
bar); each item passes through it as it is done. A run given none is quiet.
"""

from typing import Callable, Iterable, Optional

Progress = Callable[..., Iterable]


def quiet(items: Iterable, total: Optional[int] = None, desc: Optional[str] = None) -> Iterable:
    """No progress shown: the items as they are."""
    return items
