"""The command line: ``python -m spacy_factwash`` and the ``spacy-factwash`` script.

One module per group of commands, each command parsing its arguments, calling one library function and printing;
``_util`` holds the app, the shared options and the one place errors become one line.
"""

from ._util import COMMAND, ENDING, app, ended
# each module registers its commands, in the order --help lists them
from . import cues, gate, memory, authority, lexicons, review  # noqa: E402, F401, I001  isort: skip


def main() -> None:
    """Entry point of ``python -m spacy_factwash`` and the ``spacy-factwash`` script. A command that asked to
    (``_util.end_at_once``) ends the process as soon as it returns (``_util.ended``)."""
    try:
        app(prog_name=COMMAND)
    except SystemExit as end:
        if ENDING["at_once"]:
            ended(end.code)
        raise
