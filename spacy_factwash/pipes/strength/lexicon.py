"""The claim-strength lexicon set: cause, association, comparison, modal and non-claim words, and the certainty scale.

Same format, manifest and checks as the cue lexicons (``lexicon/frozen.py``), in
``lexicons/strength/`` (its files: ``lexicon/sets.py``'s ``STRENGTH``). ``scale.json``
(the certainty scale) is frozen in the same manifest, so a scale edited without
re-freezing is refused like a list.
"""

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Optional, Union

from ...lexicon.frozen import LexiconError, LexiconSet, load_set
from ...lexicon.sets import SCALE_FILE, STRENGTH, STRENGTH_FILES  # noqa: F401  (STRENGTH_FILES: imported from here)
from .claim import STRENGTHS

STRENGTH_DATA = STRENGTH.data_files


def load_strength_lexicon(path: Optional[Union[str, Path]] = None, verify: bool = True) -> LexiconSet:
    """The strength lexicon set (the packaged one when ``path`` is None), verified against its manifest."""
    return load_set(STRENGTH, path, verify=verify)


@lru_cache(maxsize=1)
def packaged_strength_lexicon() -> LexiconSet:
    """The packaged strength lexicon, loaded and verified once per process."""
    return load_strength_lexicon()


def scale_of(lexicons: LexiconSet) -> Dict[str, Any]:
    """The certainty scale a strength lexicon set carries; a clear error when it is malformed."""
    try:
        scale = json.loads(lexicons.files[SCALE_FILE].decode("utf8"))
    except (KeyError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise LexiconError(f"strength lexicon {lexicons.version}: {SCALE_FILE} missing or not JSON ({err})") from None
    levels = scale.get("levels") if isinstance(scale, dict) else None
    if not isinstance(levels, list) or not levels:
        raise LexiconError(f"strength lexicon {lexicons.version}: {SCALE_FILE} needs a list of 'levels'")
    step, unhedged = scale.get("stacked_hedge_step"), scale.get("unhedged")
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise LexiconError(f"strength lexicon {lexicons.version}: {SCALE_FILE} needs a whole 'stacked_hedge_step' >= 0")
    if not isinstance(unhedged, dict) or set(unhedged) != set(STRENGTHS):
        raise LexiconError(f"strength lexicon {lexicons.version}: {SCALE_FILE} 'unhedged' needs a level for each of "
                           f"{', '.join(STRENGTHS)}")
    named = [scale.get("default_hedge_tier"), *scale.get("hedge_tiers", {}).values(), *unhedged.values()]
    unknown = sorted({name for name in named if name not in levels}, key=str)
    if unknown:
        raise LexiconError(f"strength lexicon {lexicons.version}: {SCALE_FILE} names levels not in 'levels': {unknown}")
    return scale
