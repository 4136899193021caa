"""Pipelines the Dask tests have their workers build: the default one, logging each build to a file, and one
that raises on a marked text (every time, or only the first time)."""

import os
from pathlib import Path

from spacy.language import Language

import spacy_factwash

MARK = "FAIL-HERE"


class FailOnMark:
    """Raises on a Doc whose text holds MARK; with ``once_file``, only while that file does not exist."""

    def __init__(self, once_file: str) -> None:
        self.once_file = once_file

    def __call__(self, doc):
        if MARK in doc.text:
            if self.once_file and Path(self.once_file).exists():
                return doc
            if self.once_file:
                Path(self.once_file).touch()
            raise RuntimeError(f"the test pipeline refuses a marked text (line {doc.text[:30]!r})")
        return doc


@Language.factory("test_fail_on_mark", default_config={"once_file": ""})
def make_fail_on_mark(nlp: Language, name: str, once_file: str) -> FailOnMark:
    return FailOnMark(once_file)


def logged_build(log: str) -> Language:
    """The default pipeline; appends this process's id to ``log`` (one line per build)."""
    with open(log, "a", encoding="utf8") as handle:
        handle.write(f"{os.getpid()}\n")
    return spacy_factwash.load()


def failing_build(once_file: str = "") -> Language:
    """The default pipeline with a first component that fails on MARK (once, with ``once_file``)."""
    nlp = spacy_factwash.load()
    nlp.add_pipe("test_fail_on_mark", first=True, config={"once_file": once_file})
    return nlp
