"""The command line: ``python -m spacy_factwash`` and the ``spacy-factwash`` script.

One module per group of commands, each command parsing its arguments, calling one library function and printing;
``_util`` holds the app, the shared options and the one place errors become one line.
"""

from ._util import COMMAND, app
# each module registers its commands, in the order --help lists them
from . import cues, gate, memory, authority, lexicons, review  # noqa: E402, F401, I001  isort: skip


def main() -> None:
    """Entry point of ``python -m spacy_factwash`` and the ``spacy-factwash`` script; a command that asked to be
    ends the process as soon as it returns (``io.ending``)."""
    from ..io.ending import ending_at_once

    ending_at_once(lambda: app(prog_name=COMMAND))
