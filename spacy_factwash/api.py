"""The embedded default pipeline: blank English, sentences, lookup lemmas, resolved cues, claim strength, the gate.

No model is downloaded: lemmas come from the lookup table that
spacy-lookups-data installs, set by ``factwash_lemmas`` (the same lemmas as
spaCy's lookup lemmatizer, set as one array per Doc).

The pipeline is the one ``configs/factwash.cfg`` describes (shipped in the
package as ``spacy_factwash/data/configs``): ``load()`` assembles that config,
so the pipeline ``python -m spacy assemble configs/factwash.cfg`` builds and
the one ``load()`` returns are made from one text, and no setting has a
second copy in code.
"""

import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from spacy import util
from spacy.language import Language
from spacy.tokens import Doc, Span
from thinc.api import Config

from .data import data_places
from .errors import FactwashError
from .io.inputs import checked_text
from .io.textfile import surrogate_problem
from .pipes.gate.gate import Gate
from .pipes.names import CUES, FACTORY_PREFIX

if TYPE_CHECKING:  # the optional parts are imported when used
    from .authority.confirm import Confirmation, Confirmer
    from .memory.drift import DriftReport
    from .memory.mem0 import GatedMemory
    from .pipes.gate.report import Report
    from .pipes.strength import Certainty, Strength

DEFAULT_MAX_LENGTH = 10_000_000  # the package's own pipelines; a pipeline built by hand keeps the max_length it has
CONFIG = "factwash.cfg"


class ConfigMissing(FactwashError, FileNotFoundError):
    """The package was installed without the default pipeline's config."""

    code = "E021"


def config_path() -> Path:
    """The default pipeline's config: in the installed package (``spacy_factwash/data/configs``), else in the
    checkout the package runs from (``configs/``)."""
    places = [folder / CONFIG for folder in data_places("configs")]
    for path in places:
        if path.is_file():
            return path
    raise ConfigMissing(f"No default config found: looked for {places[0]} and {places[1]}. The package was "
                        "installed without its data.")


def default_config(lexicon_dir: Optional[str] = None) -> Config:
    """The default pipeline's config, on the cue lexicon folder ``lexicon_dir`` (``paths.lexicons``) when given."""
    overrides = {} if lexicon_dir is None else {"paths.lexicons": str(lexicon_dir)}
    return util.load_config(config_path(), overrides=overrides)


def load(max_length: int = DEFAULT_MAX_LENGTH, parse: bool = False, lexicon_dir: Optional[str] = None) -> Language:
    """Build the default pipeline, or with ``parse=True`` the same on top of the shipped parse pipeline.

    The pipeline is ``configs/factwash.cfg`` assembled (``default_config``). Its components are built empty and
    read their data at their first document, exactly the data ``nlp.initialize()`` would give them, so a
    one-shot check pays only for what it uses (``spacy assemble`` initializes, then saves).

    ``lexicon_dir`` is a frozen cue lexicon folder to use instead of the packaged one (made with
    ``freeze-lexicons``, or the ``lexicons`` folder of a saved pipeline's ``factwash_cues``, user entries
    included); it is read, verified and compiled at the first document.

    ``max_length`` is raised above spaCy's 1,000,000 characters because no
    component of the default pipeline keeps a parser's per-token memory. It
    is the pipeline's: the components never change the ``max_length`` of a
    pipeline they are added to (``spacy.blank("en")`` keeps spaCy's
    1,000,000), and every entry point refuses a longer text with the
    package's ``TextTooLong`` (E031), which names the limit.

    ``parse=True`` starts from the tagger and dependency parser trained on UD
    English EWT (``spacy_factwash.syntax.parse``; the model is CC BY-SA 4.0) and adds
    the same components after them, with the sentencizer first so that
    sentences, and so the gate's alignment, are the default pipeline's. The
    cue detectors then read the parse (``cues/sense.py``).
    """
    if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 1:
        raise TypeError(f"load: max_length must be a whole number of characters, got {max_length!r}")
    if lexicon_dir is not None:
        if not isinstance(lexicon_dir, (str, os.PathLike)):
            raise TypeError(f"load: lexicon_dir must be a folder path, got {type(lexicon_dir).__name__}")
        problem = surrogate_problem(str(lexicon_dir), "lexicon_dir")
        if problem:
            raise ValueError(f"load: {problem}")
    if parse:
        from .syntax.parse import parse_pipeline

        nlp = add_factwash(parse_pipeline(), lexicon_dir)
    else:
        nlp = util.load_model_from_config(default_config(lexicon_dir), auto_fill=True)
    nlp.max_length = max_length
    return nlp


def add_factwash(nlp: Language, lexicon_dir: Optional[str] = None) -> Language:
    """Add the lookup lemmas, the cue component, claim strength and the gate to a pipeline (a user's own, or the
    parse pipeline): the default config's own components (its sentencizer is left to the pipeline), in its order
    and with its settings."""
    config = default_config(lexicon_dir).interpolate()
    for name in config["nlp"]["pipeline"]:
        settings = dict(config["components"][name])
        factory = settings.pop("factory")
        if factory.startswith(FACTORY_PREFIX):
            nlp.add_pipe(factory, name=name, config=settings)
    return nlp


@lru_cache(maxsize=1)
def default_pipeline() -> Language:
    """The default pipeline, built once per process for ``inspect`` and ``check``."""
    return load()


def pipeline_on(lexicon_dir: Optional[str] = None, max_length: Optional[int] = None) -> Language:
    """The default pipeline, or one on the cue lexicon folder (and ``max_length``) given, its lexicon read and
    verified now, so that a bad folder is refused before any input is read."""
    if lexicon_dir is None and max_length is None:
        return default_pipeline()
    nlp = load(max_length=max_length or DEFAULT_MAX_LENGTH, lexicon_dir=lexicon_dir)
    nlp.get_pipe(CUES).initialize()
    return nlp


def inspect(source: str, memory: str, *, review=None, nlp: Optional[Language] = None) -> "Report":
    """Compare a memory with its source and return the full report.

    ``nlp`` (optional) is the pipeline to judge with (one from ``load(lexicon_dir=...)``, or a loaded one
    whose cue component has entries added); it needs ``factwash_compare``. The default pipeline otherwise.
    ``review`` (optional) is a callable ``review(report, source_doc, memory_doc)``
    that returns the report after model components have seen it, for example
    ``spacy_factwash.llm.review.Review.build(witness=True)``. A text longer than the pipeline's ``max_length``
    is a ``TextTooLong``.
    """
    return _report(source, memory, review, nlp, "inspect")


def _report(source: str, memory: str, review, nlp: Optional[Language], function: str) -> "Report":
    """The report of ``inspect`` and ``check``, their arguments checked first; an error names ``function``, the
    one that was called."""
    gate = gate_of(nlp)
    for name, value in (("source", source), ("memory", memory)):
        checked_text(value, gate.nlp.max_length, name, function)
    if review is not None and not callable(review):
        raise TypeError(f"{function}: review must be callable (review(report, source_doc, memory_doc)), got "
                        f"{type(review).__name__}")
    return gate.check(source, memory, review)


def gate_of(nlp: Optional[Language] = None) -> Gate:
    """The gate on ``nlp``, or on the default pipeline (built once per process)."""
    return default_gate() if nlp is None else Gate(nlp)


@lru_cache(maxsize=1)
def default_gate() -> Gate:
    """The gate on the default pipeline, built once per process."""
    return Gate(default_pipeline())


def check(source: str, memory: str, *, nlp: Optional[Language] = None) -> str:
    """The gate: the verdict alone ("pass", "rewrite", "reject" or "uncheckable"), on ``nlp`` when given (a text
    ``inspect`` refuses is refused the same way, in an error naming ``check``)."""
    return _report(source, memory, None, nlp, "check").verdict


@lru_cache(maxsize=1)
def default_confirmer() -> "Confirmer":
    """The authority confirmer on the default pipeline, built once per process."""
    from .authority.confirm import Confirmer

    return Confirmer(default_pipeline())


def confirm(proposal: dict, items) -> "Confirmation":
    """Confirm a proposal ("note B supersedes rule A") against items: a mapping id -> text or a list of {id, text}."""
    from .authority.confirm import items_by_id

    if not isinstance(proposal, dict):
        raise TypeError(f"confirm: proposal must be a dict, got {type(proposal).__name__}")
    by_id = items_by_id(items, "confirm: ")
    problem = surrogate_problem(proposal, "the proposal") or surrogate_problem(by_id, "the items")
    if problem:
        raise ValueError(f"confirm: {problem}")
    confirmer = default_confirmer()
    for key, text in by_id.items():
        checked_text(text, confirmer.nlp.max_length, f"item {key!r}", "confirm")
    return confirmer.confirm(proposal, by_id)


def drift(versions) -> "DriftReport":
    """Gate a rewrite chain [v0, v1, ...] hop by hop and end to end, on the default pipeline."""
    from .memory.drift import drift as drift_chain

    return drift_chain(versions, default_gate())


def wrap(memory, policy=None, audit_log="factwash_audit.jsonl", fixer=None, review=None,
         database=None) -> "GatedMemory":
    """Gate a mem0 ``Memory`` (or ``AsyncMemory``): every write is checked against its source before it is stored
    (mem0 extra).

    ``audit_log``: the JSONL file every decision and its outcome are appended to (checked now: its folder must
    exist and the file, if any, be writable). ``database``: the SQLite file of the review queue and the
    provenance graph; by default ``factwash.sqlite`` in the user's data folder (``$FACTWASH_DATABASE``, else
    ``$XDG_DATA_HOME/spacy-factwash/``, else ``~/.local/share/spacy-factwash/``), never the working folder.
    With a ``fixer`` (``llm.tasks.fixer.Fixer``), a fact held for a rewrite verdict is stored in its fixed form
    when the fix passes the gate. With a ``review``
    (``llm.review.Review``), each report is reviewed by the model components before the policy acts on it: a
    witness may lower a verdict, never raise it. An ``AsyncMemory`` gets an ``AsyncGatedMemory``, whose writes
    are awaited.
    """
    from .memory.mem0 import gated_class

    if not callable(getattr(memory, "add", None)) or not hasattr(memory, "llm"):
        raise TypeError(f"wrap: memory must be a mem0 Memory or AsyncMemory, got {type(memory).__name__}")
    return gated_class(memory)(memory, default_gate(), audit_log, policy, fixer, review, database)


def _doc_or_span(value: Any, function: str) -> Any:
    """A Doc or Span argument, checked: a ``TypeError`` naming the function for anything else."""
    if not isinstance(value, (Doc, Span)):
        raise TypeError(f"{function}: expected a Doc or a Span the pipeline made, got {type(value).__name__}")
    return value


def claim_strength(span, **settings) -> "Strength":
    """The strength of the claim in a Doc or Span (``pipes.strength.claim_strength``, whose settings it takes)."""
    from .pipes.strength import claim_strength as strength_of

    return strength_of(_doc_or_span(span, "claim_strength"), **settings)


def certainty_level(span, **settings) -> "Certainty":
    """The certainty level of the claim in a Doc or Span (``pipes.strength.certainty_level``, whose settings it
    takes)."""
    from .pipes.strength import certainty_level as level_of

    return level_of(_doc_or_span(span, "certainty_level"), **settings)
