"""The built release: the wheel's file list and licence metadata, the sdist's licence, the changelog's versions, and
install commands in the docs that work from a checkout today and from an index later.

``.ci/run`` builds ``dist/`` from the committed tree (``python -m build``) before the suite runs; outside CI a
missing wheel skips the wheel tests with the command that makes it.
"""

import re
import subprocess
import sys
import tarfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest
from conftest import in_ci

import spacy_factwash

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = pytest.importorskip("tomllib").loads((ROOT / "pyproject.toml").read_text(encoding="utf8"))
VERSION = PYPROJECT["project"]["version"]
DIST = ROOT / "dist"
DIST_INFO = f"spacy_factwash-{VERSION}.dist-info"
# the wheel of this interpreter: the package's compiled passes make it one Python's and one platform's
WHEEL = f"spacy_factwash-{VERSION}-cp{sys.version_info[0]}{sys.version_info[1]}-*.whl"
# the folders the wheel maps from the repository's top level (pyproject's package-dir)
DATA = {"lexicons": "spacy_factwash/data/lexicons", "pipelines": "spacy_factwash/data/pipelines"}


def built(pattern: str) -> Path:
    """The file ``dist/`` holds for this version (a failure in CI, where .ci/run builds it; else a skip)."""
    found = sorted(DIST.glob(pattern))
    if not found:
        message = f"no {pattern} in dist/: build it with `python -m build` (.ci/run does)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return found[-1]


@pytest.fixture(scope="module")
def wheel_files():
    with zipfile.ZipFile(built(WHEEL)) as wheel:
        return set(wheel.namelist())


def tracked(folder: str) -> list:
    """The files git tracks under ``folder`` (what a clean checkout holds)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", folder], capture_output=True, text=True,
                            check=True).stdout
    return [name for name in listed.split("\0") if name]


def test_the_wheel_holds_the_package_and_nothing_of_the_checkouts_tooling(wheel_files):
    top = {name.split("/", 1)[0] for name in wheel_files}
    assert top == {"spacy_factwash", DIST_INFO}
    unwanted = [name for name in wheel_files
                if re.search(r"(^|/)(tools|tests?|examples|training|evaluation|factwash_dev)(/|$)", name)]
    assert not unwanted, unwanted
    packages = {init.parent.relative_to(ROOT).as_posix() for init in (ROOT / "spacy_factwash").rglob("__init__.py")}
    missing = sorted(p for p in packages if f"{p}/__init__.py" not in wheel_files)
    assert not missing, f"package folders the wheel leaves out: {missing}"
    modules = [p.relative_to(ROOT).as_posix() for p in (ROOT / "spacy_factwash").rglob("*.py")]
    assert not sorted(set(modules) - wheel_files)
    compiled = {p.relative_to(ROOT).with_suffix("").as_posix() for p in (ROOT / "spacy_factwash").rglob("*.pyx")}
    built_modules = {name.split(".", 1)[0] for name in wheel_files if name.endswith(".so") or name.endswith(".pyd")}
    assert compiled and compiled == built_modules, (compiled, built_modules)


def test_the_wheel_holds_the_data_lexicons_pipelines_and_tables(wheel_files):
    missing = [name for folder, inside in DATA.items() for name in tracked(folder)
               if f"{inside}/{name[len(folder) + 1:]}" not in wheel_files]
    assert not missing, f"data the wheel leaves out: {missing}"
    tables = [name for name in tracked("spacy_factwash") if not name.endswith(".py")]
    assert len(tables) >= 5 and not sorted(set(tables) - wheel_files), sorted(set(tables) - wheel_files)
    assert f"{DATA['lexicons']}/manifest.json" in wheel_files
    assert f"{DATA['pipelines']}/ewt_parser/config.cfg" in wheel_files


def test_the_licences_are_in_the_wheels_metadata(wheel_files):
    with zipfile.ZipFile(built(WHEEL)) as wheel:
        metadata = HeaderParser().parsestr(wheel.read(f"{DIST_INFO}/METADATA").decode("utf8"))
        licences = {name: wheel.read(f"{DIST_INFO}/licenses/{name}") for name in PYPROJECT["project"]["license-files"]}
    assert metadata["License-Expression"] == "MIT AND CC-BY-SA-4.0"
    assert sorted(metadata.get_all("License-File")) == sorted(PYPROJECT["project"]["license-files"])
    assert licences == {name: (ROOT / name).read_bytes() for name in licences}
    assert b"MIT License" in licences["LICENSE"] and b"CC BY-SA 4.0" in licences["LICENSE"]
    assert b"Attribution-ShareAlike 4.0" in licences["pipelines/ewt_parser/LICENSE"]


def test_the_sdist_holds_the_licence_and_builds_the_same_package():
    with tarfile.open(built(f"spacy_factwash-{VERSION}.tar.gz")) as sdist:
        names = set(sdist.getnames())
    prefix = f"spacy_factwash-{VERSION}"
    assert {f"{prefix}/{name}" for name in ("LICENSE", "README.md", "pyproject.toml", "setup.cfg")} <= names
    assert f"{prefix}/pipelines/ewt_parser/LICENSE" in names and f"{prefix}/lexicons/manifest.json" in names
    sources = {f"{prefix}/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "spacy_factwash").rglob("*.pyx")}
    assert sources and sources <= names and f"{prefix}/setup.py" in names  # the compiled passes build from it


def test_the_changelog_has_a_section_for_this_version_and_every_section_is_versioned():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf8")
    sections = re.findall(r"^## (.*)$", changelog, flags=re.M)
    assert sections and all(re.fullmatch(r"\[\d+\.\d+\.\d+\] - (unreleased|\d{4}-\d{2}-\d{2})", s) for s in sections), \
        sections
    assert sections[0].startswith(f"[{spacy_factwash.__version__}] - ")
    assert len(set(sections)) == len(sections)


def test_every_install_command_in_the_docs_works_from_a_checkout_or_says_it_waits_for_an_index():
    """``pip install .`` or ``pip install ".[extra,...]"`` (extras that pyproject defines); the name alone only in a
    sentence that says it is for once the package is on an index."""
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    found = 0
    for page in pages:
        for paragraph in page.read_text(encoding="utf8").split("\n\n"):
            for target in re.findall(r"pip install (?:-e )?(\S+)", paragraph):
                found += 1
                target = target.lstrip("`(").rstrip("`);:,.") or "."
                local = re.fullmatch(r'\.|"\.\[([\w,]+)\]"', target)
                named = re.fullmatch(r'spacy-factwash|"spacy-factwash\[([\w,]+)\]"', target)
                assert local or named and "index" in paragraph, f"{page.name}: pip install {target}"
                chosen = (local or named).group(1) if (local or named).groups() else None
                assert not chosen or set(chosen.split(",")) <= extras, f"{page.name}: pip install {target}"
    assert found >= 6


@pytest.mark.slow
def test_spacys_own_packaging_of_a_pipeline_finds_its_licence(tmp_path):
    """The README's ``spacy package`` line, run as written (in a folder holding the config and LICENSE it names): the
    build finds the LICENSE and the package holds it."""
    readme = (ROOT / "README.md").read_text(encoding="utf8")
    [line] = [line for line in readme.splitlines() if line.startswith("python -m spacy assemble configs/factwash.cfg")]
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "factwash.cfg").write_bytes((ROOT / "configs" / "factwash.cfg").read_bytes())
    (tmp_path / "LICENSE").write_bytes((ROOT / "LICENSE").read_bytes())
    result = subprocess.run(["bash", "-c", line.replace("python ", f"{sys.executable} ")], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no files found matching 'LICENSE'" not in result.stdout + result.stderr
    [sdist] = (tmp_path / "packages").glob("*/dist/*.tar.gz")
    with tarfile.open(sdist) as package:
        licences = [package.extractfile(name).read() for name in package.getnames() if name.endswith("/LICENSE")]
    assert licences and set(licences) == {(ROOT / "LICENSE").read_bytes()}
