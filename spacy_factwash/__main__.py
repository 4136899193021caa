"""``python -m spacy_factwash``: the command line."""

from .cli import main

main()
