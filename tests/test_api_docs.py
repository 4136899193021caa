"""The reference pages: docs/api.md names every public name with its real signature and every field of the report,
docs/settings.md lists every setting of every factwash component with its real default, and docs/lexicons.md gives
each frozen lexicon set's current version."""

import ast
import importlib
import inspect
import json
import re
from dataclasses import fields
from pathlib import Path

import pytest
import spacy
from spacy.language import Language
from spacy.tokens.underscore import Underscore

import spacy_factwash
from spacy_factwash.errors import FactwashError
from spacy_factwash.pipes.gate.report import Change, Report

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
API = (DOCS / "api.md").read_text(encoding="utf8")


def resolve(dotted: str):
    """The object a dotted name (``spacy_factwash.pipes.gate.gate.Gate.check``) names: the longest importable module
    prefix, then attributes."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:n]))
            break
        except ImportError:
            continue
    for part in parts[n:]:
        obj = getattr(obj, part)
    return obj


class _Shown:
    """An annotation as the docs write it: dotted module paths and quotes left out (``Optional[Language]``)."""

    def __init__(self, annotation):
        text = inspect.formatannotation(annotation).replace("'", "").replace('"', "")
        self.text = re.sub(r"\b(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*)", r"\1", text)

    def __repr__(self) -> str:
        return self.text


def shown_signature(obj) -> str:
    """The signature of a function, method or class as docs/api.md writes it: without ``self``, annotations short,
    defaults as Python writes them."""
    signature = inspect.signature(obj)
    params = [p.replace(annotation=_Shown(p.annotation)) if p.annotation is not p.empty else p
              for p in signature.parameters.values()]
    if params and params[0].name == "self":
        params = params[1:]
    ret = signature.return_annotation
    return str(signature.replace(parameters=params,
                                 return_annotation=signature.empty if ret is signature.empty else _Shown(ret)))


def written_signatures():
    """Every line of the ```signature blocks of docs/api.md, as (dotted name, signature text)."""
    for block in re.findall(r"```signature\n(.*?)```", API, flags=re.S):
        for line in block.strip().splitlines():
            name, paren, rest = line.partition("(")
            assert paren, f"docs/api.md: a signature line without '(': {line!r}"
            yield name, paren + rest


def test_api_md_has_signature_blocks():
    assert len(list(written_signatures())) >= 20


@pytest.mark.parametrize("name, written", list(written_signatures()), ids=lambda v: v if "(" not in v else "")
def test_every_signature_written_in_api_md_is_the_real_one(name, written):
    assert written == shown_signature(resolve(name)), name


@pytest.mark.parametrize("name", spacy_factwash.__all__)
def test_every_public_name_is_in_api_md(name):
    assert f"spacy_factwash.{name}" in API, f"spacy_factwash.{name} is public and not in docs/api.md"
    obj = getattr(spacy_factwash, name)
    if callable(obj) and not (isinstance(obj, type) and issubclass(obj, Exception)):
        assert name in {n.split(".")[-1] for n, _ in written_signatures()}, f"{name} has no signature in docs/api.md"


def test_the_public_names_are_the_ones_the_package_imports_at_top_level():
    tree = ast.parse((ROOT / "spacy_factwash" / "__init__.py").read_text(encoding="utf8"))
    imported = {alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom) and node.level
                for alias in node.names} - {"pipes"}
    assert imported <= set(spacy_factwash.__all__), imported - set(spacy_factwash.__all__)


@pytest.mark.parametrize("cls", [Report, Change])
def test_every_field_of_the_report_and_change_has_a_row_in_api_md(cls):
    section = API.split(f"### `{cls.__name__}`", 1)[1].split("\n### ", 1)[0]
    rows = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    assert rows == {f.name for f in fields(cls)}, cls.__name__


def test_every_extension_api_md_lists_is_registered_and_every_registered_one_is_listed():
    nlp = spacy_factwash.load()
    nlp("Someone said Alice might be promoted.")
    section = API.split("## Extensions", 1)[1].split("\n## ", 1)[0]
    listed = {(on.strip(), name) for name, ons in re.findall(r"^\| `\._\.(\w+)` \| ([^|]+) \|", section, flags=re.M)
              for on in ons.split(",")}
    registered = {("Doc", n) for n in Underscore.doc_extensions if n.startswith("factwash_")} | \
                 {("Span", n) for n in Underscore.span_extensions if n.startswith("factwash_")}
    assert listed == registered


def test_every_error_of_errors_md_is_in_api_md_with_a_path_that_leads_to_it():
    errors = dict(re.findall(r"^\| (E\d{3}) \| `(\w+)` \|", (DOCS / "errors.md").read_text(encoding="utf8"), flags=re.M))
    paths = dict(re.findall(r"^\| `(E\d{3})` \| `([\w.]+)` \|", API, flags=re.M))
    assert set(paths) == set(errors)
    for code, path in paths.items():
        cls = resolve(path)
        assert cls.__name__ == errors[code] and issubclass(cls, FactwashError) and cls.code == code, path


# docs/settings.md: one table per factory

SETTINGS = (DOCS / "settings.md").read_text(encoding="utf8")


def factwash_factories():
    """Every factory this package registers (the names spaCy's registry holds for ``factwash_*``)."""
    return sorted(name.rsplit(".", 1)[-1] for name in spacy.registry.factories.get_all()
                  if name.rsplit(".", 1)[-1].startswith("factwash_"))


def settings_table(factory: str):
    """The rows of ``factory``'s table on docs/settings.md, as {setting: written default}."""
    section = SETTINGS.split(f"## `{factory}`", 1)
    assert len(section) == 2, f"docs/settings.md has no section for {factory}"
    body = section[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| `([^`]*)` \|", body, flags=re.M)
    assert rows, f"docs/settings.md: no table under {factory}"
    return dict(rows)


def config_text(value) -> str:
    """A default as a config file writes it (JSON: ``null``, ``true``, ``"factwash"``, ``{"@scorers": ...}``)."""
    return json.dumps(value, ensure_ascii=False)


def test_the_factories_are_the_expected_ones():
    assert {"factwash_cues", "factwash_compare", "factwash_lemmas", "factwash_strength"} <= set(factwash_factories())


@pytest.mark.parametrize("factory", factwash_factories())
def test_every_setting_of_every_factory_is_in_its_table_with_its_default(factory):
    defaults = {k: config_text(v) for k, v in Language.get_factory_meta(factory).default_config.items()}
    assert settings_table(factory) == defaults


def test_every_table_of_settings_md_is_a_registered_factory():
    assert set(re.findall(r"^## `(\w+)`", SETTINGS, flags=re.M)) == set(factwash_factories())


# docs/lexicons.md: the current version of each frozen set

SETS = {"cue lexicon": "lexicons", "gate word lists": "lexicons/gate", "strength": "lexicons/strength",
        "authority": "lexicons/authority", "sense": "lexicons/sense"}


def test_every_lexicon_folder_has_a_row():
    folders = {p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "lexicons").rglob("manifest.json")}
    assert folders == set(SETS.values())


@pytest.mark.parametrize("label, folder", sorted(SETS.items()))
def test_the_version_lexicons_md_gives_is_the_manifest_version(label, folder):
    page = (DOCS / "lexicons.md").read_text(encoding="utf8")
    written = re.findall(rf"^\| {label} \| `{re.escape(folder)}/` \| ([\d.]+) \|", page, flags=re.M)
    version = json.loads((ROOT / folder / "manifest.json").read_text(encoding="utf8"))["version"]
    assert written == [version], (label, written, version)
    heading = re.findall(rf"^### {label} (\S+)", page, flags=re.M)
    assert heading and heading[0] == version, f"the newest release note of the {label} is not {version}"
