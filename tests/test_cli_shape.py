"""The command lines stay thin: every module of spacy_factwash/cli/ and tools/factwash_dev/cli/ is short, and holds
commands and tiny parsing or printing helpers only, so the work lives in the library where it can be tested and
reused (spaCy's spacy/cli is the model)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = [ROOT / "spacy_factwash" / "cli", ROOT / "tools" / "factwash_dev" / "cli"]
MODULES = sorted(path for package in PACKAGES for path in package.glob("*.py"))
MAX_LINES = 200  # a module
MAX_COMMAND_BODY = 20  # the lines of a command below its signature and docstring
MAX_HELPER = 16  # the lines of any other function, docstring included
ALLOWED_CLASSES = {"Commands"}  # the app's command group, where errors become one line


def _is_command(function: ast.FunctionDef) -> bool:
    """Whether a function is registered on an app: ``@app.command(...)``, ``@app.callback()``."""
    return any(isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in {"command", "callback"}
               for d in function.decorator_list)


def _is_wrapper(function: ast.FunctionDef) -> bool:
    """Whether a nested function is the wrapper a decorator returns (``@functools.wraps(...)``)."""
    return any(isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "wraps"
               for d in function.decorator_list)


def _body_lines(function: ast.FunctionDef) -> int:
    """The lines a function's body spans below its docstring."""
    body = function.body[1:] if ast.get_docstring(function) else function.body
    return body[-1].end_lineno - body[0].lineno + 1 if body else 0


def thin_cli_problems(source: str, name: str = "<module>") -> list:
    """Everything in a command-line module that is more than parsing, one library call and printing."""
    tree = ast.parse(source)
    problems = [f"{name}: {len(source.splitlines())} lines (at most {MAX_LINES})"] \
        if len(source.splitlines()) > MAX_LINES else []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name not in ALLOWED_CLASSES:
            problems.append(f"{name}: class {node.name} (the library's, not the command line's)")
        if not isinstance(node, ast.FunctionDef):
            continue
        if _is_command(node) and _body_lines(node) > MAX_COMMAND_BODY:
            problems.append(f"{name}: command {node.name} has a body of {_body_lines(node)} lines")
        if not _is_command(node) and node.end_lineno - node.lineno + 1 > MAX_HELPER:
            problems.append(f"{name}: {node.name} is {node.end_lineno - node.lineno + 1} lines, no tiny helper")
        for inner in ast.walk(node):
            if inner is not node and isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and not _is_wrapper(inner):
                problems.append(f"{name}: {node.name} defines {inner.name} (work for the library)")
            if isinstance(inner, (ast.With, ast.While)):
                problems.append(f"{name}: {node.name} line {inner.lineno}: a {type(inner).__name__.lower()} block")
            if isinstance(inner, ast.For) and not _only_prints(inner):
                problems.append(f"{name}: {node.name} line {inner.lineno}: a loop that does more than print")
    return problems


def _only_prints(loop: ast.For) -> bool:
    """Whether a loop's body is one ``typer.echo(...)`` call (a loop of the command line prints, nothing else)."""
    [statement, *rest] = loop.body
    call = statement.value if isinstance(statement, ast.Expr) else None
    return not rest and not loop.orelse and isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
        and call.func.attr == "echo"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_cli_module_is_short_and_holds_no_library_logic(path):
    assert thin_cli_problems(path.read_text(encoding="utf8"), path.name) == []


def test_the_check_finds_library_logic_where_there_is_some():
    fat = '''
@app.command()
def gate(path):
    """Gate."""
    total = 0
    for line in open(path):
        total += len(line)
    typer.echo(total)


def read_all(path):
    """Read."""
    with open(path) as handle:
        def parse(line):
            return line.split()
        return [parse(line) for line in handle]


class Reader:
    pass
'''
    problems = thin_cli_problems(fat, "fat.py")
    assert "fat.py: gate line 6: a loop that does more than print" in problems
    assert "fat.py: read_all line 13: a with block" in problems
    assert "fat.py: read_all defines parse (work for the library)" in problems
    assert "fat.py: class Reader (the library's, not the command line's)" in problems
    long_command = "@app.command()\ndef c():\n    \"\"\"C.\"\"\"\n" + "    x = 1\n" * (MAX_COMMAND_BODY + 1)
    assert thin_cli_problems(long_command, "c.py") == [f"c.py: command c has a body of {MAX_COMMAND_BODY + 1} lines"]
    assert thin_cli_problems("x = 1\n" * (MAX_LINES + 1), "big.py") == [f"big.py: {MAX_LINES + 1} lines (at most "
                                                                          f"{MAX_LINES})"]


def test_both_command_lines_are_packages_of_command_groups():
    for package in PACKAGES:
        names = {path.stem for path in package.glob("*.py")}
        assert {"__init__", "_util"} <= names and len(names) >= 5, package
    assert not (ROOT / "spacy_factwash" / "cli.py").exists() and not (ROOT / "tools" / "factwash_dev" / "cli.py").exists()
