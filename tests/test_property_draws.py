"""A derandomized property draws the same examples whatever its worker imported before it (``properties.py``)."""

import subprocess
import sys

from conftest import ROOT

DRAW = """
import importlib, sys
sys.path[:0] = [{tests!r}, {tools!r}]
for name in sys.argv[2:]:
    importlib.import_module(name)
if sys.argv[1] == "suite":
    import properties  # noqa: F401
from hypothesis import given, settings, strategies as st
seen = []
@settings(derandomize=True, database=None, max_examples=200)
@given(st.text(max_size=20))
def draw(text):
    seen.append(text)
draw()
print(repr(seen))
"""


def draws(profile: str, *first: str) -> str:
    """The examples a derandomized property draws in a fresh interpreter that imported ``first`` before it."""
    program = DRAW.format(tests=str(ROOT / "tests"), tools=str(ROOT / "tools"))
    done = subprocess.run([sys.executable, "-c", program, profile, *first], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    return done.stdout


def test_a_property_draws_the_same_examples_whatever_ran_before_it():
    earlier = ["spacy_factwash.pipes.gate.values.quantities", "factwash_dev.evaluation.work"]
    assert draws("suite") == draws("suite", *earlier) == draws("suite", earlier[1])


def test_without_the_suite_profile_the_examples_would_follow_the_imports():
    # what the test above guards against: hypothesis draws constants from the local modules imported so far
    assert draws("bare") != draws("bare", "spacy_factwash.pipes.gate.values.quantities")
