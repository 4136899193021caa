"""The package's data: the frozen lexicons and the shipped parse pipeline.

They live at the repository's top level (``lexicons/``, ``pipelines/``) and
ship inside the wheel as ``spacy_factwash/data/lexicons`` and
``spacy_factwash/data/pipelines``; ``data_folder`` finds either.
"""

from importlib import resources
from pathlib import Path
from typing import Tuple

CHECKOUT = Path(__file__).resolve().parent.parent.parent  # the repository, when the package runs from a checkout


def data_places(name: str) -> Tuple[Path, Path]:
    """Where the data folder ``name`` ("lexicons", "pipelines") is looked for: in the installed package, then in
    the checkout the package runs from."""
    return Path(str(resources.files("spacy_factwash.data"))) / name, CHECKOUT / name
