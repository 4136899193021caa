"""The corpora a newcomer can fetch: training/project.yml's assets (weasel's own validation; every corpus the tests
read; the shared copy's bytes at its pinned commits; a fetch by weasel from stand-ins on 127.0.0.1), and
$FACTWASH_CORPORA read against the folder it was given in."""

import functools
import re
import shutil
import subprocess
import sys
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

import pytest
import srsly
from local_server import LocalServer
from weasel.schemas import ProjectConfigSchema, validate
from weasel.util import load_project_config

from factwash_dev.corpora_folder import absolute, problem
from factwash_dev.corpus_assets import DEST, SOURCES, assets, block, checksum, differences

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "training" / "project.yml"
RAW = "https://raw.githubusercontent.com/"
GITHUB = "https://github.com/"


def corpus_assets() -> list:
    return [asset for asset in load_project_config(PROJECT.parent)["assets"] if asset["dest"].startswith(DEST + "/")]


def corpus_of(asset: dict) -> str:
    return asset["dest"][len(DEST) + 1:].split("/", 1)[0]


def test_the_project_file_passes_weasels_own_validation():
    assert validate(ProjectConfigSchema, srsly.read_yaml(PROJECT)) == []
    found = corpus_assets()
    assert len(found) > 100
    for asset in found:
        assert re.fullmatch(r"[0-9a-f]{32}", asset["checksum"]), asset
        if "git" in asset:
            git = asset["git"]
            assert git["repo"].startswith(GITHUB) and git["branch"] and git["path"], asset
            assert re.search(r"as at commit [0-9a-f]{40}$", asset["description"]), asset
        else:
            assert re.fullmatch(RAW.replace(".", r"\.") + r"[\w.-]+/[\w.-]+/[0-9a-f]{40}/\S+", asset["url"]), asset


def test_every_corpus_folder_the_tests_read_has_an_asset():
    """The corpus folders named in the tests and the developer code (``corpora / "name"``, ``"name/raw"``)."""
    patterns = [r"corpora\s*/\s*[\"']([a-z0-9][a-z0-9-]*)[\"']", r"[\"']([a-z0-9][a-z0-9-]*)/raw\b",
                r"[\"']([a-z0-9][a-z0-9-]*)[\"']\s*/\s*[\"']raw[\"']"]
    code = [path.read_text(encoding="utf8") for folder in ("tests", "tools")
            for path in (ROOT / folder).rglob("*.py") if path != Path(__file__).resolve()]
    named = {name for text in code for pattern in patterns for name in re.findall(pattern, text)}
    assert {"bioscope", "frank", "polnear", "summedits", "ud-english-ewt"} <= named  # the scan finds them
    missing = named - {corpus_of(asset) for asset in corpus_assets()}
    assert not missing, f"corpus folders read without an asset in training/project.yml: {sorted(missing)}"


@pytest.mark.corpus
def test_the_assets_are_the_shared_copy_at_its_pinned_commits(corpora):
    """The generated block is up to date, covers every file of every corpus folder once, and names the repositories
    and commits SOURCES.md gives."""
    assert block(corpora) in PROJECT.read_text(encoding="utf8"), "run python tools/dev.py corpus-assets"
    folders = {path.name for path in corpora.iterdir() if path.is_dir()}
    assert folders == {source.corpus for source in SOURCES}
    covered = []
    for asset in corpus_assets():
        path = corpora / asset["dest"][len(DEST) + 1:]
        covered += [p for p in path.rglob("*") if p.is_file()] if "git" in asset else [path]
    files = [p for folder in folders for p in (corpora / folder).rglob("*") if p.is_file()]
    anchors = {corpora / a["dest"][len(DEST) + 1:] for a in corpus_assets() if "url" in a} & {
        p for a in corpus_assets() if "git" in a for p in (corpora / a["dest"][len(DEST) + 1:]).rglob("*")}
    assert sorted(covered) == sorted(files + list(anchors))  # each once, but for a git folder's first file
    sources = (corpora / "SOURCES.md").read_text(encoding="utf8")
    for source in SOURCES:
        assert f"github:{source.repo}" in sources and source.commit in sources, source
    assert differences(load_project_config(PROJECT.parent), corpora) == []


@pytest.mark.slow
def test_weasel_fetches_the_assets_into_the_corpora_layout(tmp_path, corpora):
    """``weasel assets`` on the project's own asset entries for a git folder (te3-platinum) and a url file, with the
    repository and the raw addresses served from 127.0.0.1: the files land where the tests read them, the checksums
    are weasel's own (a second fetch skips the folder), and a changed file is named by ``differences``."""
    wanted = ("tempeval3-timeml/raw/te3-platinum", "szeged-uncertainty/raw/Uncertainty.dtd")
    chosen = [a for a in assets(corpora) if a["dest"][len(DEST) + 1:].startswith(wanted)]
    assert [("git" in a) for a in chosen] == [False, False, True]  # the dtd; te3-platinum's first file, its folder
    served, repos = tmp_path / "raw", tmp_path / "git"
    for asset in chosen:
        source = corpora / asset["dest"][len(DEST) + 1:]
        if "url" in asset:
            target = served / asset["url"][len(RAW):]
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        else:
            repo = repos / asset["git"]["repo"][len(GITHUB):]
            shutil.copytree(source, repo / asset["git"]["path"])
            git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
            subprocess.run(["git", "init", "-q", "-b", asset["git"]["branch"], str(repo)], check=True)
            subprocess.run(git + ["add", "."], check=True)
            subprocess.run(git + ["commit", "-q", "-m", "snapshot"], check=True)
    handler = functools.partial(type("Quiet", (SimpleHTTPRequestHandler,), {"log_message": lambda *a: None}),
                                directory=str(served))
    project = tmp_path / "project"
    project.mkdir()
    with LocalServer(handler) as server:
        local = [dict(a, url=a["url"].replace(RAW, server.root + "/")) if "url" in a else
                 dict(a, git=dict(a["git"], repo=str(repos / a["git"]["repo"][len(GITHUB):]))) for a in chosen]
        srsly.write_yaml(project / "project.yml", {"title": "fetch", "assets": local})
        first = subprocess.run([sys.executable, "-m", "weasel", "assets", str(project)], capture_output=True, text=True)
        again = subprocess.run([sys.executable, "-m", "weasel", "assets", str(project)], capture_output=True, text=True)
    assert first.returncode == 0 and again.returncode == 0, first.stdout + first.stderr
    assert "Skipping download with matching checksum" in again.stdout
    fetched = project / DEST
    config = load_project_config(project)
    assert differences(config, fetched) == []
    assert checksum(fetched / wanted[0]) == checksum(corpora / wanted[0])
    changed = sorted((fetched / "tempeval3-timeml/raw/te3-platinum").glob("*.tml"))[-1]
    changed.write_text(changed.read_text(encoding="utf8") + " ", encoding="utf8")
    assert [line.split(":")[0] for line in differences(config, fetched)] == [str(fetched / wanted[0])]


def test_a_relative_corpora_path_is_read_against_the_folder_it_was_given_in(tmp_path, monkeypatch):
    given, elsewhere = tmp_path / "given", tmp_path / "given" / "training"
    (given / "corpora" / "bioscope" / "raw").mkdir(parents=True)
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # as weasel runs a project's commands inside training/
    monkeypatch.setenv("PWD", str(given))
    assert absolute("corpora") == given / "corpora" and problem(absolute("corpora")) is None
    assert problem(absolute("../corpora")) == f"{tmp_path / 'corpora'}: not the corpora folder (no SOURCES.md, " \
                                              "no <corpus>/raw folder)"
    monkeypatch.delenv("PWD")  # no shell: the current folder
    assert absolute("corpora") == elsewhere / "corpora"


@pytest.mark.slow
@pytest.mark.corpus
def test_the_workflow_runs_with_a_relative_corpora_path(corpora):
    """``FACTWASH_CORPORA=<relative> python -m weasel run split training/`` from the repository root: the command
    runs inside training/ and still finds the corpora."""
    import os

    relative = os.path.relpath(corpora, ROOT)
    env = dict(os.environ, FACTWASH_CORPORA=relative, PWD=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "weasel", "run", "split", "training/"], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"--corpora {relative} " in result.stdout and "splits/bioscope.json matches the rule" in result.stdout
