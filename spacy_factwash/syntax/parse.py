"""The shipped parse pipeline: a tagger and dependency parser trained on UD English EWT (CC BY-SA 4.0).

The trained components (tok2vec, tagger, morphologizer, parser) ship as
package data in ``pipelines/ewt_parser`` (``spacy_factwash/data/pipelines`` in an
installed wheel), beside the treebank's licence, a README and the build's
provenance. ``spacy.load(ewt_parser_dir())`` loads them in any process;
``pipeline.load(parse=True)`` adds the factwash components to them, the way
a user adds them to a pipeline of their own.
"""

from pathlib import Path
from typing import Optional, Union

import spacy
from spacy.language import Language
from spacy.tokens import Token

from ..data import data_places
from ..errors import FactwashError

EWT_PARSER = "ewt_parser"
PROVENANCE = "provenance.json"
LICENSE_NAME = "LICENSE"


class ParserMissing(FactwashError, FileNotFoundError):
    """The package was installed without its parse pipeline."""

    code = "E006"


def ewt_parser_dir(must_exist: bool = True) -> Path:
    """The folder of the shipped parse pipeline (an installed wheel's, else the source checkout's)."""
    installed, checkout = (folder / EWT_PARSER for folder in data_places("pipelines"))
    for folder in (installed, checkout):
        if (folder / "config.cfg").is_file():
            return folder
    if must_exist:
        raise ParserMissing(
            f"No parse pipeline found: looked for {installed} and {checkout}. Build it with "
            "`python -m weasel run all training/parser` or install a wheel that carries it."
        )
    return checkout


def parse_pipeline(model: Optional[Union[str, Path]] = None) -> Language:
    """The parse pipeline (the shipped one when ``model`` is None) with the sentencizer in front.

    The sentencizer sets every token's sentence start, which the parser
    respects, so sentences are the default pipeline's and the gate aligns
    the same sentences with or without the parse.
    """
    nlp = spacy.load(model if model is not None else ewt_parser_dir())
    nlp.add_pipe("sentencizer", first=True)
    return nlp


def relation(token: Token) -> str:
    """A token's dependency label without its Universal Dependencies subtype ("nsubj:pass" -> "nsubj")."""
    return token.dep_.split(":", 1)[0]
