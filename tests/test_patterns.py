"""A lexicon's token patterns are safe to run (issue 25.7): a REGEX that can backtrack exponentially is refused, and
so is a pattern that matches every token, in add_entries and in a lexicon folder alike, with one coded line."""

import json
import shutil
import subprocess
import sys

import pytest
import spacy

from spacy_factwash.lexicon.entries import LexiconError, UnsafePattern
from spacy_factwash.lexicon.frozen import MANIFEST, freeze, load_lexicons, packaged_lexicon_dir, sha256
from spacy_factwash.lexicon.patterns import regex_problem


def cue_component():
    nlp = spacy.blank("en")
    return nlp, nlp.add_pipe("factwash_cues")


def entry(pattern, entry_id="hedge:user"):
    return {"id": entry_id, "label": "HEDGE", "pattern": pattern}


@pytest.mark.parametrize("regex", ["^(a+)+$", "(a|a)*", "^(\\w+\\s?)*$", "(x+x+)+y", "(a?)+", "(\\.\\d+\\d+)+",
                                   "(a)\\1", "(", "a" * 300])
def test_a_regex_that_can_backtrack_exponentially_is_refused_with_one_coded_line(regex):
    _, cues = cue_component()
    with pytest.raises(UnsafePattern) as refused:
        cues.add_entries([entry([{"TEXT": {"REGEX": regex}}])])
    message = str(refused.value)
    assert message.startswith("[E017] add_entries[1]: REGEX ") and "\n" not in message
    assert isinstance(refused.value, LexiconError) and isinstance(refused.value, ValueError)


def test_a_refused_regex_leaves_the_component_as_it_was():
    """The refusal comes before the pattern reaches a matcher: a word the refused pattern matches is no cue
    afterwards (the cost it would have had is not timed here: the suite shares its cores)."""
    nlp, cues = cue_component()
    with pytest.raises(UnsafePattern):
        cues.add_entries([entry([{"LOWER": {"REGEX": "^(a+)+$"}}])])
    doc = nlp("We saw aaaa there.")
    assert not [span for span in doc.spans["factwash_cues"] if span.id_ == "hedge:user"]


@pytest.mark.parametrize("regex", ["^[vV]?\\d+(\\.\\d+)+$", "^(\\d+,)*\\d+$", "^said$", "(?:\\d|[a-z])+", "^x{3}$",
                                   "^(1[6-9]\\d\\d|20\\d\\d)$"])
def test_a_safe_regex_is_kept(regex):
    assert regex_problem(regex) is None
    nlp, cues = cue_component()
    cues.add_entries([entry([{"LOWER": "plan"}, {"TEXT": {"REGEX": regex}}])])


def test_a_regex_nested_in_an_extension_or_a_set_predicate_is_checked_too():
    _, cues = cue_component()
    with pytest.raises(UnsafePattern):
        cues.add_entries([entry([{"LOWER": {"REGEX": "^(a+)+$", "NOT_IN": ["b"]}}])])


@pytest.mark.parametrize("pattern", [[{}], [{"TEXT": {"REGEX": ".*"}}], [{"LOWER": {"NOT_IN": []}}],
                                     [{"LENGTH": {">=": 1}}], [{"LOWER": "said", "OP": "?"}, {}],
                                     [{"LOWER": "said", "OP": "!"}], [{}, {"OP": "*"}]])
def test_a_pattern_that_matches_every_token_is_refused(pattern):
    _, cues = cue_component()
    with pytest.raises(UnsafePattern, match=r"^\[E017\] add_entries\[1\]: the token pattern matches every token"):
        cues.add_entries([entry(pattern)])


@pytest.mark.parametrize("pattern", [[{"LOWER": "iffy"}], [{"IS_ALPHA": True}, {"LOWER": "iffy"}],
                                     [{"LOWER": {"IN": ["iffy", "dicey"]}}], [{"TEXT": {"REGEX": "^iff"}}]])
def test_a_pattern_that_names_what_it_matches_is_kept(pattern):
    nlp, cues = cue_component()
    cues.add_entries([entry(pattern)])
    flagged, plain = nlp("The plan looks iffy."), nlp("The plan looks good.")
    assert [span.id_ for span in flagged.spans["factwash_cues"]] == ["hedge:user"]
    assert [span.id_ for span in plain.spans["factwash_cues"]] == []


@pytest.fixture
def unsafe_folder(tmp_path):
    """A lexicon folder frozen before patterns were checked: its manifest matches a line with an unsafe REGEX."""
    folder = tmp_path / "lexicons"
    shutil.copytree(packaged_lexicon_dir(), folder, ignore=shutil.ignore_patterns("authority", "gate", "sense",
                                                                                  "strength"))
    with (folder / "hedge.jsonl").open("a", encoding="utf8") as handle:
        handle.write(json.dumps({**entry([{"TEXT": {"REGEX": "^(a+)+$"}}]), "provenance": {"source": "seed"}}) + "\n")
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf8"))
    manifest["files"]["hedge.jsonl"] = sha256((folder / "hedge.jsonl").read_bytes())
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf8")
    return folder


def test_a_lexicon_folder_with_an_unsafe_regex_is_refused_by_file_and_line(unsafe_folder):
    lines = (unsafe_folder / "hedge.jsonl").read_text(encoding="utf8").splitlines()
    with pytest.raises(UnsafePattern, match=rf"^\[E017\] .*hedge\.jsonl:{len(lines)}: REGEX '\^\(a\+\)\+\$' refused"):
        load_lexicons(unsafe_folder)
    with pytest.raises(UnsafePattern):
        freeze(unsafe_folder, "0.7.1")


def test_the_command_line_refuses_an_unsafe_lexicon_folder_in_one_line(unsafe_folder):
    result = subprocess.run([sys.executable, "-m", "spacy_factwash", "cues", "--lexicon-dir", str(unsafe_folder),
                             "Maybe."], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0 and result.stderr.startswith("error: [E017] ")
