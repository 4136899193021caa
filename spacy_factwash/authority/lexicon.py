"""The confirmer's frozen lexicon: change words, restatement markers and mention markers.

Same format, manifest and checks as the cue lexicons (``lexicon/frozen.py``), in
``lexicons/authority/``.
"""

from pathlib import Path
from typing import Optional, Union

from ..lexicon.frozen import LexiconSet, load_lexicons, packaged_lexicon_dir

AUTHORITY_FILES = {"change.jsonl": "CHANGE", "restatement.jsonl": "RESTATEMENT", "mention.jsonl": "MENTION"}


def load_authority_lexicon(path: Optional[Union[str, Path]] = None, verify: bool = True) -> LexiconSet:
    """The authority lexicon set (the packaged one when ``path`` is None), verified against its manifest."""
    folder = Path(path) if path is not None else packaged_lexicon_dir() / "authority"
    return load_lexicons(folder, verify=verify, class_files=AUTHORITY_FILES)
