"""``python -m spacy_factwash``: the command line."""

from .cli import main

if __name__ == "__main__":  # a worker process started by forkserver or spawn imports this module again
    main()
