"""The developer commands: the corpora, evaluation, gate measurements, benches, the parse pipeline's build, mining.

Not in the wheel. Run from a checkout: ``python tools/dev.py COMMAND`` (or ``python -m factwash_dev`` with
``tools/`` on the path; the test suite has it there). Paths default to the repository's own files.
"""

from ._util import COMMAND, app
# each module registers its commands, in the order --help lists them
from . import corpora, evaluation, gates, benches, parser, mining, wordnet  # noqa: E402, F401, I001  isort: skip


def main() -> None:
    """Run a developer command."""
    app(prog_name=COMMAND)
