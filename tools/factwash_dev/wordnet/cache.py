"""Where parsed WordNet files are kept between runs, so a second run does not parse the YAML again.

One folder per version of the resource: its name is the sha256 over every
YAML file's name and bytes (``WordNet.digest``), so an edited or updated
file is a new folder and a stale parse is never read. Each parsed file is
one pickle in it (``entries-s.yaml.pickle``, ``verb.communication.yaml.pickle``),
written when a query first needs the file; ``index.pickle`` maps every
synset to its lexicographer file. A pickle carries the cache format and
the file it was parsed from; one that cannot be read back with both (a
truncated write, an older format) is parsed again and rewritten.
"""

import os
import pickle
from pathlib import Path
from typing import Any, Optional, Union

from spacy_factwash.io.outputs import OutputError, write_bytes

CACHE_ENV = "FACTWASH_WORDNET_CACHE"
FORMAT = 1  # bumped when what is pickled changes shape


def default_cache_dir() -> Path:
    """$FACTWASH_WORDNET_CACHE, else spacy-factwash/wordnet under $XDG_CACHE_HOME (or ~/.cache)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "spacy-factwash" / "wordnet"


class ParseCache:
    """The pickles of one version of the resource (``folder/<digest>/``); ``None`` as folder keeps nothing."""

    def __init__(self, folder: Optional[Union[str, Path]], digest: str) -> None:
        self.folder = None if folder is None else Path(folder) / digest
        self.read = 0  # files answered from the cache
        self.written = 0
        self.failed: Optional[str] = None  # the first write that failed, in one line

    def get(self, name: str) -> Optional[Any]:
        """What was parsed from ``name``, or None when the cache does not hold it (or holds it unreadably)."""
        if self.folder is None:
            return None
        try:
            with open(self.folder / f"{name}.pickle", "rb") as handle:
                stored = pickle.load(handle)
        except FileNotFoundError:
            return None
        except Exception:  # a truncated or foreign pickle: parsed again, and rewritten
            return None
        if not isinstance(stored, dict) or stored.get("format") != FORMAT or stored.get("name") != name:
            return None
        self.read += 1
        return stored["data"]

    def put(self, name: str, data: Any) -> None:
        """Keep what was parsed from ``name``; a cache that cannot be written is noted, and the run goes on."""
        if self.folder is None:
            return
        payload = pickle.dumps({"format": FORMAT, "name": name, "data": data}, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_bytes(self.folder / f"{name}.pickle", payload)
        except (OSError, OutputError) as err:
            self.failed = self.failed or f"{self.folder}: cache not written ({err})"
            return
        self.written += 1
