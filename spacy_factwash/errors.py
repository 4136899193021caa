"""One base for every error the package raises on purpose, each kind with its own code, as spaCy's ``[E088]``.

Each error class lives beside the code that raises it and subclasses
``FactwashError`` (and the built-in exception it always was, so ``except
ValueError`` keeps working). ``str(err)`` is one line that starts with the
class's code: ``[E001] hedge.jsonl:3: ...``; ``err.message`` is the line
without it (what a wrapping error quotes). ``docs/errors.md`` lists every
code; the command line catches ``FactwashError`` once and prints its line.
"""

import re

CODE = re.compile(r"^\[[A-Z]\d{3}\] ")


class FactwashError(Exception):
    """An error the package raises on purpose, with a code and a one-line message saying what to do."""

    code = "E000"

    @property
    def message(self) -> str:
        """The message without its code (a message built from another error's loses that error's code)."""
        return CODE.sub("", super().__str__())

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class BatchSizeError(FactwashError, ValueError):
    """A batch size that is not a whole number of at least 1 (every runner takes one: the gate, ``annotate``)."""

    code = "E041"


def batch_size_of(batch_size, caller: str) -> int:
    """``batch_size`` when it is a whole number of at least 1, else a ``BatchSizeError`` naming ``caller``: a
    batch of none would end the stream at once and drop every item unread."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise BatchSizeError(f"{caller}: batch_size must be a whole number of at least 1, got {batch_size!r}")
    return batch_size
