"""How the property tests (hypothesis) run: derandomized in the suite, swept at random on request.

The suite loads the ``suite`` profile: every run draws the same examples
(``derandomize``) and reads no example database, so a property fails on a
change of the code, never on the luck of a draw or on a ``.hypothesis/``
folder left behind. A local sweep before a submission draws new examples:

    FACTWASH_HYPOTHESIS=sweep FACTWASH_EXAMPLES=50 pytest tests/test_claims.py --hypothesis-seed=7

``FACTWASH_EXAMPLES`` multiplies every property's number of examples
(``properties(n)``); ``--hypothesis-seed`` picks the draw.
"""

import os

from hypothesis import settings

settings.register_profile("suite", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("sweep", derandomize=False, database=None, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("FACTWASH_HYPOTHESIS", "suite"))

SCALE = float(os.environ.get("FACTWASH_EXAMPLES", "1"))


def properties(max_examples: int, **extra) -> settings:
    """The settings of a property: ``max_examples`` scaled by ``FACTWASH_EXAMPLES``, no deadline (the suite runs
    in worker processes on a loaded machine), the profile's draw."""
    return settings(max_examples=max(1, round(max_examples * SCALE)), deadline=None, **extra)
