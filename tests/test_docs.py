"""The documentation: the README's quick start shows what the package does, its links lead somewhere, and every
measured table sits on the page its generator writes to."""

import re
from pathlib import Path

import pytest

from factwash_dev.evaluation.readme import PAGES, extract_table

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf8")


def _blocks(text: str):
    return re.findall(r"```(\w*)\n(.*?)```", text, flags=re.S)


def test_the_quick_start_prints_what_the_readme_shows(capsys):
    section = README.split("## In Python", 1)[1]
    (_, code), (_, shown) = _blocks(section)[:2]
    exec(code, {})
    assert capsys.readouterr().out == shown


def _cue_examples():
    section = README.split("## The five cues", 1)[1].split("\n## ", 1)[0]
    for row in section.splitlines():
        label = re.match(r"\| `([A-Z]+)` \|", row)
        if label:
            for example in re.findall(r'"([^"]+)"', row.rsplit("|", 2)[1]):
                yield label.group(1), example


@pytest.mark.parametrize("label, example", list(_cue_examples()))
def test_every_example_of_the_five_cues_is_found_as_its_class(default_nlp, label, example):
    doc = default_nlp(example)
    assert label in {span.label_ for span in doc.spans["factwash_cues"]}, (label, example)


def test_the_cue_table_lists_every_class():
    assert {label for label, _ in _cue_examples()} == {"ATTRIBUTION", "HEDGE", "NEGATION", "CONDITIONAL", "TEMPORAL"}


@pytest.mark.parametrize("page", sorted({"README.md"} | {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")}))
def test_every_relative_link_leads_to_a_file(page):
    path = ROOT / page
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", path.read_text(encoding="utf8")):
        assert (path.parent / target).exists(), f"{page} links to {target}, which is not there"


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_measured_table_is_on_its_page(name):
    assert extract_table((ROOT / PAGES[name]).read_text(encoding="utf8"), name).strip()


def test_no_measured_table_is_left_in_the_readme():
    assert "<!-- factwash:" not in README


def _commands(app):
    names = {c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands}
    return names | {group.name for group in app.registered_groups}


def _listed(section: str):
    """The commands a table of docs/cli.md's section lists (the first cell of each row)."""
    listed = set()
    for row in section.splitlines():
        if row.startswith("| `"):
            listed |= set(re.findall(r"`(?:python tools/dev\.py )?([a-z][a-z-]*)", row.split(" | ", 1)[0]))
    return listed


def test_every_command_is_listed_on_the_command_line_page_in_its_place():
    from factwash_dev.cli import app as dev_app

    from spacy_factwash.cli import app

    users, developers = (ROOT / "docs" / "cli.md").read_text(encoding="utf8").split("## Developer commands", 1)
    assert _commands(app) == _listed(users), "docs/cli.md's user commands differ from the app's"
    assert _commands(dev_app) == _listed(developers), "docs/cli.md's developer commands differ from tools/dev.py's"
