"""How the property tests (hypothesis) run: derandomized in the suite, swept at random on request.

The suite loads the ``suite`` profile: every run draws the same examples
(``derandomize``) and reads no example database, so a property fails on a
change of the code, never on the luck of a draw or on a ``.hypothesis/``
folder left behind. A local sweep before a submission draws new examples:

    FACTWASH_HYPOTHESIS=sweep FACTWASH_EXAMPLES=50 pytest tests/test_claims.py --hypothesis-seed=7

``FACTWASH_EXAMPLES`` multiplies every property's number of examples
(``properties(n)``); ``--hypothesis-seed`` picks the draw.

Hypothesis also draws some examples from the constants written in the local
modules imported so far (not site-packages, not test files). Which modules a
worker has imported when a property runs depends on the tests it ran before,
which xdist hands out by timing; so every module of the package and of the
developer tools is imported here, first, and each property draws from the same
pool whatever ran before it (``import_local_modules``).
"""

import importlib
import os
import pkgutil

from hypothesis import settings

settings.register_profile("suite", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("sweep", derandomize=False, database=None, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("FACTWASH_HYPOTHESIS", "suite"))

SCALE = float(os.environ.get("FACTWASH_EXAMPLES", "1"))


def import_local_modules() -> int:
    """Import every module of ``spacy_factwash`` and ``factwash_dev`` (their ``__main__`` modules aside), so that
    hypothesis's pool of local constants is complete before the first property runs; the number imported."""
    import factwash_dev
    import spacy_factwash

    count = 0
    for package in (spacy_factwash, factwash_dev):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith(".__main__"):
                importlib.import_module(module.name)
                count += 1
    return count


import_local_modules()


def properties(max_examples: int, **extra) -> settings:
    """The settings of a property: ``max_examples`` scaled by ``FACTWASH_EXAMPLES``, no deadline (the suite runs
    in worker processes on a loaded machine), the profile's draw."""
    return settings(max_examples=max(1, round(max_examples * SCALE)), deadline=None, **extra)
