"""The words of a lexicon's phrases as a pipeline's tokenizer splits them: each distinct phrase tokenized once.

A phrase entry is matched on LOWER by spaCy's PhraseMatcher, which keeps a pattern as the LOWER values of its
tokens (what it makes of a pattern Doc, and what its pickles carry). So compiling a lexicon needs of each phrase
only the lower-case texts of its tokens: ``PhraseWords`` asks the tokenizer once per distinct phrase text (the gate's
word lists name one word under several kinds, and the shouted-text forms, ``syntax/normalise.case_forms``, read the
same phrases again) and keeps the answer, instead of a Doc per phrase per reader. The tokenizer is called as before,
so the lexemes it makes and its own splitting rules are the same; one ``PhraseWords`` serves one compile, so a rule
added to the tokenizer afterwards is read at the next.
"""

from typing import Dict, Tuple


class PhraseWords:
    """The lower-case token texts of phrases as ``tokenizer`` splits them, each distinct phrase tokenized once."""

    def __init__(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        self._split: Dict[str, Tuple[str, ...]] = {}

    @classmethod
    def over(cls, tokenizer) -> "PhraseWords":
        """``tokenizer`` itself when it is a ``PhraseWords``, else one over it (a caller that passes a tokenizer)."""
        return tokenizer if isinstance(tokenizer, cls) else cls(tokenizer)

    def __call__(self, phrase: str) -> Tuple[str, ...]:
        """The LOWER texts of the tokens ``tokenizer(phrase)`` holds."""
        words = self._split.get(phrase)
        if words is None:
            words = self._split[phrase] = tuple(token.lower_ for token in self.tokenizer(phrase))
        return words
