"""``python -m factwash_dev``: the developer commands (``tools/`` on the path)."""

from .cli import main

main()
