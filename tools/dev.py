"""Run a developer command from a checkout: ``python tools/dev.py COMMAND [ARGS]`` (``--help`` lists them).

The developer package (``tools/factwash_dev``) is not installed with the wheel; this puts its folder on the path.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factwash_dev.cli import main  # noqa: E402

if __name__ == "__main__":  # a worker process started by forkserver or spawn imports this file again
    main()
