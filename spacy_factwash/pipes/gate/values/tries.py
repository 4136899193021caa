"""Alternations of literal words written as tries: the same matches, found without trying every word in turn.

Used by ``quantulum.py`` for quantulum3's two large patterns. Its unit pattern holds, eight times over, the
alternation of every unit name and symbol it knows (about 1,900, longest first), and Python's ``re`` tries the
alternatives one after another at every place a unit could start: reading "employs 300 people" tries all of them
some dozens of times. Its spelled-number pattern does the same with the number words. A trie tries each
character once.

A trie matches what the alternation matches, in the order the alternation tries it. At one place in a text the
words that match are all beginnings of the text there, so they are one chain, longest to shortest: the longest-first
alternation tries them in that order, and so does the trie, which follows the one branch that matches the next
character and tries the longer words below it before the word that ends there. Under ``IGNORECASE`` two branches
must never both match one character, so the branches are told apart as the regular expression engine compares
characters (its lower case and the few characters it folds together, such as "K" and the Kelvin sign): words
differing only in case share a branch, and a match of either is the same match.
"""

import re
from typing import Callable, Dict, Iterable, List, Optional, Tuple

import _sre

try:
    from re._casefix import _EXTRA_CASES
except ImportError:  # Python before 3.11
    from sre_compile import _ignorecase_fixes as _EXTRA_CASES  # type: ignore

Node = Dict[object, Tuple[str, "Node"]]
END = None  # the key of a node that ends a word


def character_key(flags: int) -> Callable[[str], object]:
    """What tells characters apart in a pattern compiled with ``flags``: the character itself, or under
    ``IGNORECASE`` the set of lower-case characters the engine takes it to match."""
    if not flags & re.IGNORECASE:
        return lambda char: char
    ascii_only = bool(flags & re.ASCII)
    iscased = _sre.ascii_iscased if ascii_only else _sre.unicode_iscased
    tolower = _sre.ascii_tolower if ascii_only else _sre.unicode_tolower
    fixes = {} if ascii_only else _EXTRA_CASES

    def key(char: str) -> object:
        code = ord(char)
        if not iscased(code):
            return code
        lower = tolower(code)
        return frozenset((lower,) + tuple(fixes.get(lower, ())))

    return key


def trie(words: Iterable[str], flags: int) -> str:
    """A regular expression (no capturing group) that matches, under ``flags``, what the alternation of ``words``
    sorted longest first matches, trying the same words in the same order."""
    key, root = character_key(flags), {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(key(char), (char, {}))[1]
        node[END] = ("", {})
    return _written(root)


def _written(node: Node) -> str:
    """One node of the trie as a regular expression: its branches, longest words first, then the word ending
    here (an optional group: tried after every branch)."""
    branches = [re.escape(char) + _written(below) for key, (char, below) in node.items() if key is not END]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
    if END not in node:
        return body
    return f"{body}?" if len(branches) == 1 and len(branches[0]) == 1 else f"(?:{body})?"


def words_of(alternation: str) -> Optional[List[str]]:
    """The words of an alternation of escaped literals (as ``"|".join(map(re.escape, words))`` writes it), or None
    when it is anything else."""
    words = [re.sub(r"\\(.)", r"\1", piece, flags=re.DOTALL) for piece in re.findall(r"(?:\\.|[^\\|])+", alternation)]
    return words if "|".join(re.escape(word) for word in words) == alternation else None
