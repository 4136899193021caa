"""Run the README's first command with the given Python and check that it prints exactly what the README shows.

The README's first ``bash`` block is ``pip install . && python -m spacy_factwash ...`` and the plain block after
it is the output. ``.ci/run`` does the ``pip install`` part with the built wheel in a fresh virtual environment and
runs this with that environment's Python, which runs the rest from an empty folder (so nothing of the checkout is
imported): ``python .ci/readme_first_command.py VENV/bin/python``.
"""

import difflib
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
INSTALL = "pip install . && "


def first_command(readme: str):
    """The README's first command without its install step, and the output the README shows for it."""
    command, after = readme.split("```bash\n", 1)[1].split("\n```\n", 1)
    if not command.startswith(INSTALL):
        sys.exit(f"README: the first command does not start with {INSTALL!r}: {command!r}")
    return command[len(INSTALL):], after.split("```\n", 1)[1].split("```\n", 1)[0]


def main(python: str) -> None:
    """Run the command with ``python`` and exit non-zero, with a diff, when its output is not the README's."""
    command, expected = first_command(README.read_text(encoding="utf8"))
    words = shlex.split(command)
    if words[0] != "python":
        sys.exit(f"README: the first command does not run python: {command!r}")
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    with tempfile.TemporaryDirectory() as empty:
        result = subprocess.run([python, *words[1:]], cwd=empty, env=env, capture_output=True, text=True)
    if result.returncode != 0 or result.stdout != expected:
        sys.stderr.write(f"the README's first command, run by {python}, exited {result.returncode}:\n{result.stderr}")
        sys.stderr.writelines(difflib.unified_diff(expected.splitlines(True), result.stdout.splitlines(True),
                                                   "README", "printed"))
        sys.exit(1)
    print(f"the README's first command prints what the README shows ({python})")


if __name__ == "__main__":
    main(sys.argv[1])
