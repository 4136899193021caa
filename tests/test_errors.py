"""One base for every error the package raises on purpose, a code per kind, and a page that lists them all."""

import importlib
import pkgutil
import re
from pathlib import Path

import spacy_factwash
from spacy_factwash.errors import FactwashError

PAGE = Path(__file__).resolve().parent.parent / "docs" / "errors.md"


def _all_errors():
    """Every FactwashError class of the package (each module imported, optional extras that are installed)."""
    for module in pkgutil.walk_packages(spacy_factwash.__path__, "spacy_factwash."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    found, stack = [], [FactwashError]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return [cls for cls in found if cls is not FactwashError and cls.__module__.startswith("spacy_factwash")]


def test_every_error_has_its_own_code_and_the_page_lists_each():
    errors = _all_errors()
    codes = [cls.code for cls in errors]
    assert len(errors) >= 15 and len(codes) == len(set(codes)), codes
    rows = dict(re.findall(r"^\| (E\d{3}) \| `(\w+)` \|", PAGE.read_text(encoding="utf8"), re.M))
    assert rows == {cls.code: cls.__name__ for cls in errors}


def test_the_message_starts_with_the_code_once_even_when_an_error_quotes_another():
    from spacy_factwash.lexicon.entries import LexiconError
    from spacy_factwash.io.outputs import OutputError

    inner = LexiconError("hedge.jsonl:3: empty phrase pattern")
    outer = OutputError(f"cannot write: {inner}")
    assert str(inner) == "[E001] hedge.jsonl:3: empty phrase pattern" and inner.message.startswith("hedge")
    assert str(OutputError(str(inner))) == "[E002] hedge.jsonl:3: empty phrase pattern"
    assert str(outer).startswith("[E002] cannot write: [E001]")
    assert isinstance(inner, ValueError)
