"""The first document's cost: reading a lexicon walks no entry for lone surrogates when its JSON holds none,
compiling the lexicons tokenizes each distinct phrase once and makes no other Doc, and the matchers it builds from
phrase words hold what they held when built from Docs; and it leaves the tokenizer's cache to the text a pipeline
reads."""

import spacy
from factwash_dev.evaluation.work import counted
from spacy.tokens import Doc

import spacy_factwash
from spacy_factwash.lexicon.frozen import load_set
from spacy_factwash.lexicon.matcher import AnchoredMatcher, literal_phrases, sentence_start_phrases
from spacy_factwash.lexicon.phrases import PhraseWords, uncached
from spacy_factwash.lexicon.sets import GATE
from spacy_factwash.pipes.gate.words import load_gate_words

COMPILED = ("factwash_cues", "factwash_strength", "factwash_compare")


def distinct_phrases(entries) -> int:
    """The distinct phrase texts of a lexicon's phrase entries."""
    return len({phrase for entry in entries if not entry.is_token_pattern for phrase in entry.phrases})


def test_the_first_doc_makes_one_doc_per_distinct_phrase_of_each_lexicon_and_no_other():
    """Counted, not timed: the Docs made while the first (empty) text goes through the default pipeline, which
    compiles every lexicon there, are the text's own and one per distinct phrase text of each component's lexicon
    (its tokenization, shared by the matcher and the shouted-text forms); none for a token pattern's words."""
    nlp = spacy_factwash.load()
    made = counted(lambda: nlp(""), within="tokens/doc.pyx", named="__init__")
    cues, strength, compare = (nlp.get_pipe(name) for name in COMPILED)
    phrases = [distinct_phrases(cues.lexicons.entries), distinct_phrases(strength.lexicons.entries),
               distinct_phrases(compare.words.words.entries)]
    assert min(phrases) > 0 and made == 1 + sum(phrases)


def test_compiling_the_lexicons_leaves_the_tokenizers_cache_to_the_text_read_after():
    """Counted, not timed: spaCy's tokenizer caches at most ``max_cache_size`` chunks, and compiling the lexicons
    (about 4,000 chunks in the gate's word lists alone) takes none of them, so the words of a text read after the
    compile stay cached: read again, none is split afresh (``Tokenizer._tokenize`` runs once per chunk it does
    not find in its cache)."""
    nlp = spacy_factwash.load()
    nlp.tokenizer.max_cache_size = 50
    nlp("")  # every lexicon compiled here
    assert nlp.tokenizer.max_cache_size == 50  # given back as it was
    text = " ".join(f"w{n}x" for n in range(40))
    assert counted(lambda: nlp.tokenizer(text), within="spacy/tokenizer.pyx", named="_tokenize") == 40
    assert counted(lambda: nlp.tokenizer(text), within="spacy/tokenizer.pyx", named="_tokenize") == 0


def test_a_phrase_is_split_without_a_cache_place_even_by_a_tokenizer_that_splits_phrases_itself():
    """``uncached`` gives the tokenizer its cache size back after the call, and a tokenizer that compiles phrases of
    its own while it runs (the same thread taking the lock again) does not wait on itself."""
    nlp = spacy.blank("en")
    inner = nlp.tokenizer

    class Splitting(type(inner)):
        def __call__(self, text):
            PhraseWords(inner)(text)  # a lexicon compiled from inside a tokenizer call
            return inner(text)

    outer = Splitting(nlp.vocab)
    assert [token.text for token in uncached(outer, "no longer")] == ["no", "longer"]
    assert (outer.max_cache_size, inner.max_cache_size) == (10_000, 10_000)


def test_counting_docs_sees_the_docs_a_tokenizer_makes():
    """The count above is not zero for want of seeing spaCy's calls: two texts are two Docs."""
    nlp = spacy_factwash.load()
    nlp("")
    assert counted(lambda: [nlp.make_doc("a b"), nlp.make_doc("c")], within="tokens/doc.pyx", named="__init__") == 2


def patterns(matcher: AnchoredMatcher):
    """What a matcher's phrase passes hold (each pattern as its tokens' values, by key) and the values a Doc must
    have for it to match."""
    held = {attr: phrase_matcher.__reduce__()[1][1] for attr, phrase_matcher in matcher.anchors.items()}
    return held, matcher.needed, matcher.phrase_keys, matcher.sentence_openers


def test_phrases_and_literal_patterns_compile_to_what_their_docs_compile_to():
    """For every phrase entry and every literal token pattern of the packaged cue, strength and gate lexicons: the
    patterns built from the words the tokenizer gives (``PhraseWords``) and from a pattern's literal words are the
    ones built from the Docs (``tokenizer.pipe``; ``Doc(vocab, words=...)``)."""
    nlp = spacy_factwash.load()
    nlp("")
    entries = [entry for name in COMPILED[:2] for entry in nlp.get_pipe(name).lexicons.entries]
    entries += list(load_gate_words().entries)
    built, from_docs = AnchoredMatcher(nlp.vocab), AnchoredMatcher(nlp.vocab)
    split = PhraseWords(nlp.tokenizer)
    checked = 0
    for entry in entries:
        pattern = list(entry.pattern) if entry.is_token_pattern else []
        if not pattern:
            built.add_entry(entry, split)
            from_docs.add_phrases(entry.id, list(nlp.tokenizer.pipe(entry.phrases)))
        elif literal_phrases(pattern) is not None:
            built.add_pattern(entry.id, pattern)
            from_docs.add_phrases(entry.id, [Doc(nlp.vocab, words=list(words)) for words in literal_phrases(pattern)])
        elif sentence_start_phrases(pattern) is not None:
            built.add_pattern(entry.id, pattern)
            from_docs.sentence_openers.add(nlp.vocab.strings[entry.id])
            from_docs.add_phrases(entry.id, [Doc(nlp.vocab, words=list(words))
                                             for words in sentence_start_phrases(pattern)])
        else:
            continue
        checked += 1
    assert checked > 1700 and patterns(built) == patterns(from_docs)


def test_reading_a_lexicon_walks_an_entry_for_lone_surrogates_only_when_its_json_holds_one():
    """Counted: reading the packaged gate words (1,385 entries, none with a lone surrogate) walks the folder path and
    the version for one, and no entry (an entry that holds one is still named: ``test_lexicon.py``)."""
    entries = len(load_set(GATE, None).entries)
    walked = counted(lambda: load_set(GATE, None), within="io/textfile.py", named="surrogate_problem")
    assert entries > 1000 and walked == 2
