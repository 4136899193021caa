"""The confirmer's frozen lexicon: change words, restatement markers and mention markers.

Same format, manifest and checks as the cue lexicons (``lexicon/frozen.py``), in
``lexicons/authority/``; its file list is ``lexicon/sets.py``'s ``AUTHORITY_FILES``.
"""

from pathlib import Path
from typing import Optional, Union

from ..lexicon.frozen import LexiconSet, load_set
from ..lexicon.sets import AUTHORITY, AUTHORITY_FILES  # noqa: F401  (AUTHORITY_FILES: imported from here before)


def load_authority_lexicon(path: Optional[Union[str, Path]] = None, verify: bool = True) -> LexiconSet:
    """The authority lexicon set (the packaged one when ``path`` is None), verified against its manifest."""
    return load_set(AUTHORITY, path, verify=verify)
