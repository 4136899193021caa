"""One reading of text for people and for the gate (issue 25.1): markup, invisible and control characters,
right-to-left controls and look-alike letters are read as a person sees them, on either side, with every offset in
the text as given; Russian and Greek stay Russian and Greek."""

from functools import lru_cache, partial

import pytest
import spacy
from hypothesis import given, strategies as st
from properties import properties

from spacy_factwash import check, default_pipeline, inspect
from spacy_factwash.lexicon.sets import CUES
from spacy_factwash.lexicon.frozen import load_set
from spacy_factwash.syntax.bidi import display_order
from spacy_factwash.syntax.reading import confusables, read
from spacy_factwash.syntax.textmap import applied, compose

SOURCE = "Bob said Alice was promoted."
CLAIM = "Alice was promoted."
NEGATED = "Alice was not promoted."

# the probes of issue 25: each reads "said" (a dropped attribution) or "not" (an added negation) to a person
SAID = ["Bob ѕаіԁ Alice was promoted.", "Bob s<b></b>aid Alice was promoted.", "Bob <b>said</b> Alice was promoted.",
        "Bob s\x00aid Alice was promoted.", "Bob s\x7faid Alice was promoted.", "Bob s\u3164aid Alice was promoted.",
        "Bob s\u2800aid Alice was promoted.", "Bob s\x1baid Alice was promoted.", "Bob s\x9daid Alice was promoted.",
        "Bob sa&#105;d Alice was promoted.", "Bob s*a*id Alice was promoted.",
        "Bob \u202ediaS\u202c Alice was promoted."]
NOT = ["Alice was ΝОТ promoted.", "Alice was ɴᴏᴛ promoted.", "Alice was n<i>o</i>t promoted.",
       "Alice was n&#111;t promoted.", "Alice was n*o*t promoted.", "Alice was \u202etoN\u202c promoted."]


@pytest.mark.parametrize("source", SAID)
def test_a_hidden_attribution_dropped_is_found(source):
    assert check(source, CLAIM) == "rewrite"


@pytest.mark.parametrize("memory", NOT)
def test_a_hidden_negation_is_found_on_either_side(memory):
    assert check(CLAIM, memory) == "reject"
    assert check(memory, CLAIM) == "reject"


@pytest.mark.parametrize("written", SAID)
def test_a_faithful_copy_written_with_a_trick_passes_on_either_side(written):
    assert check(written, SOURCE) == "pass"
    assert check(SOURCE, written) == "pass"
    assert check(written, written) == "pass"


@pytest.mark.parametrize("written", NOT)
def test_a_hidden_negation_kept_passes(written):
    assert check(NEGATED, written) == "pass" and check(written, NEGATED) == "pass"


def test_a_whole_sentence_in_markup_or_shown_right_to_left_is_read_as_shown():
    assert check("<p>Bob said Alice was <i>promoted</i>.</p>", CLAIM) == "rewrite"
    assert check(CLAIM, "<p>Alice was <b>promoted</b>.</p>") == "pass"
    assert check(CLAIM, "\u202e.detomorp saw ecilA\u202c") == "pass"
    assert check(CLAIM, "\u202e.detomorp ton saw ecilA\u202c") == "reject"


def test_a_paragraph_nested_too_deep_to_put_in_order_is_never_passed():
    deep = "Alice was " + "\u202e" * 20 + "toN" + "\u202c" * 20 + " promoted."
    report = inspect(CLAIM, deep)
    assert report.verdict != "pass" and "reading" in report.not_checked
    assert [note.kind for note in report.reading] == ["bidi-unresolved"]
    assert check(NEGATED, deep) != "pass"


def test_evidence_points_into_the_texts_as_given_and_what_was_read_is_noted():
    source, memory = "Bob s<b></b>aid Alice was promoted.", "Alice was n&#111;t promoted."
    report = inspect(source, memory)
    cues = {cue.side: cue for change in report.changes for cue in change.cues}
    assert (cues["source"].text, cues["source"].start_char, cues["source"].end_char) == ("s<b></b>aid", 4, 15)
    assert source[4:15] == "s<b></b>aid"
    assert (cues["memory"].text, cues["memory"].start_char, cues["memory"].end_char) == ("n&#111;t", 10, 18)
    claim = report.changes[0].memory_claim
    assert memory[claim.start_char:claim.end_char] == claim.text == memory
    assert [(n.side, n.kind, n.text, n.start_char, n.end_char, n.read_as) for n in report.reading] == [
        ("source", "markup", "<b></b>", 5, 12, ""), ("memory", "entity", "&#111;", 11, 17, "o")]
    assert "read (entity): memory [11:17] '&#111;' as 'o'" in str(report)
    assert report.to_dict()["reading"][1]["read_as"] == "o"


def test_a_value_hidden_in_markup_is_read_and_given_back_where_it_is_written():
    source, memory = "The cluster has 4,500 nodes.", "The cluster has <b>4,800</b> nodes."
    report = inspect(source, memory)
    assert report.verdict == "reject"
    change = next(c for c in report.changes if c.type == "changed_value")
    value = change.values["memory"]
    assert memory[value["start_char"]:value["end_char"]] == value["surface"] == "4,800"


def test_a_text_that_reads_as_written_is_not_read_again():
    assert read("Someone said Alice might not get admin access if the audit fails, as of Monday.") is None
    assert read("AT&T's a < b, 5*3 and snake_case stay as written.") is None
    assert inspect(SOURCE, CLAIM).reading == []


@pytest.mark.parametrize("text", [
    "Он сказал, что Алиса получила повышение в понедельник.",
    "ТАК сказал он вчера вечером дома.",
    "Η Αλίκη πήρε προαγωγή τη Δευτέρα, είπε ο Βασίλης.",
    "Ο ΒΑΣΙΛΗΣ ΕΙΠΕ ΟΤΙ Η ΑΛΙΚΗ ΠΗΡΕ ΠΡΟΑΓΩΓΗ.",
    "Toplantı salı saat onda, dedi Ali.",
])
def test_russian_greek_and_turkish_stay_foreign(text):
    assert read(text) is None
    report = inspect(text, CLAIM)
    assert report.verdict == "uncheckable" and report.not_english


def test_a_turkish_rewrite_is_not_read_into_latin_that_passes():
    # "ı" is a letter of the Turkish alphabet, not a look-alike: read as "i", the pair read as no language at all
    assert check("Toplantı salı saat onda.", "Toplantı pazartesi saat onda.") == "uncheckable"


def test_a_look_alike_word_beside_latin_words_is_read_as_latin_but_not_beside_cyrillic_ones():
    assert read("Alice was ΝОТ promoted.").text == "Alice was NOT promoted."
    assert read("Он сказал ТАК.") is None
    assert read("ТОР").text == "TOP"


def test_cues_are_found_for_nlp_users_on_the_original_tokens():
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues")
    for texts, expected, word in ((SAID, ("ATTRIBUTION", "attribution:say"), (4, 8)),
                                  (NOT, ("NEGATION", "negation:not"), (10, 13))):
        for text in texts:
            doc = nlp(text)
            cues = [(span.label_, span.id_, span.start_char, span.end_char) for span in doc.spans["factwash_cues"]]
            assert len(cues) == 1 and cues[0][:2] == expected, (text, cues)
            start, end = read(text).original(*word)  # where the word a person reads is written
            assert cues[0][2] <= start and cues[0][3] >= end, (text, cues)


@pytest.mark.parametrize("paragraph, shown", [
    ("Bob \u202ediaS\u202c Alice", "Bob Said Alice"),
    ("\u202bnot really\u202c", "not really"),  # an embedding keeps a word's letters in order
    ("a \u2067b c\u2069 d", "a b c d"),
    ("\u202e(ton)\u202c", "(not)"),  # brackets shown right to left are mirrored
    ("x \u202e\u202d ab\u202c cd\u202c y", "x dc  ab y"),
    ("\u05d1\u202ca\u2067\u05d01%", "1%\u05d0a\u05d1"),
])
def test_right_to_left_controls_are_put_in_display_order(paragraph, shown):
    order, mirrored = display_order(paragraph)
    mirror = dict(zip("()", ")("))
    assert "".join(mirror.get(paragraph[i], paragraph[i]) if i in mirrored else paragraph[i] for i in order) == shown


# -- properties: any cue word written with a trick reads as the word, on either side ---------------------

INVISIBLE = ([chr(c) for c in range(32) if c not in (9, 10, 11, 12, 13)] + ["\x7f"]
             + [chr(c) for c in range(0x80, 0xa0) if c != 0x85]
             + list("\u00ad\u034f\u115f\u1160\u17b4\u180b\u180e\u200b\u200c\u200d\u2060\u2061\u2063\u2800\u3164"
                    "\ufe00\ufe0f\ufeff\uffa0\U0001d173\U000e0001\U000e0041"))
INLINE_TAGS = ["<b></b>", "<i></i>", "<span class=\"x\"></span>", "<em></em>", "<!-- -->", "<wbr>", "&shy;", "&#8203;"]


@lru_cache(maxsize=1)
def look_alikes():
    """Each ASCII letter's look-alikes (from the table the reading uses)."""
    found = {}
    for char, latin in confusables().items():
        found.setdefault(latin, []).append(char)
    return found


@st.composite
def confusable(draw, word):
    """The word with some or all of its letters written as look-alikes (one at least)."""
    whole = draw(st.booleans())
    letters = []
    for letter in word:
        options = look_alikes().get(letter, [])
        if options and (whole or draw(st.booleans())):
            letters.append(draw(st.sampled_from(options)))
        else:
            letters.append(letter)
    if letters == list(word):
        at = next(i for i, letter in enumerate(word) if look_alikes().get(letter))
        letters[at] = draw(st.sampled_from(look_alikes()[word[at]]))
    return "".join(letters)


@st.composite
def invisible(draw, word):
    """The word with control and default-ignorable characters inside it."""
    if len(word) == 1:
        return word + "\u200b"
    cuts = sorted(draw(st.lists(st.integers(1, len(word) - 1), min_size=1, max_size=3)))
    pieces, at = [], 0
    for cut in cuts:
        pieces += [word[at:cut], "".join(draw(st.lists(st.sampled_from(INVISIBLE), min_size=1, max_size=2)))]
        at = cut
    return "".join(pieces) + word[at:]


@st.composite
def bidi(draw, word, beside_others=False):
    """The word, or a part of it, written with right-to-left controls that show it as it is. Beside other words
    written so (``beside_others``) each is wrapped in an isolate: two bare overrides a space apart are shown as one
    right-to-left run ("B\u202ebo\u202c \u202es\u202caid" shows "Bs obaid")."""
    cut = draw(st.integers(0, len(word) - 1))
    head, part = word[:cut], word[cut:]
    end = draw(st.integers(1, len(part)))
    part, tail = part[:end], part[end:]
    isolated = ["\u2067\u202e" + part[::-1] + "\u202c\u2069", "\u2066\u202d" + part + "\u202c\u2069",
                "\u2067" + part + "\u2069", "\u2066" + part + "\u2069", "\u2068" + part + "\u2069",
                "\u2068\u202b" + part + "\u202c\u2069"]
    bare = ["\u202e" + part[::-1] + "\u202c", "\u202d" + part + "\u202c", "\u202b" + part + "\u202c",
            "\u202a" + part + "\u202c", "\u202e\u202d" + part + "\u202c" + "\u202c"]
    return head + draw(st.sampled_from(isolated if beside_others else isolated + bare)) + tail


@st.composite
def markup(draw, word):
    """The word written with HTML or Markdown that shows it as it is."""
    kind = draw(st.sampled_from(["tag", "wrap", "entity", "stars"]))
    if kind == "stars" and len(word) >= 3 and word.isalpha():
        first = draw(st.integers(1, len(word) - 2))
        second = draw(st.integers(first + 1, len(word) - 1))
        stars = draw(st.sampled_from(["*", "**"]))
        return word[:first] + stars + word[first:second] + stars + word[second:]
    if kind == "entity":  # some letters as entities, one at least
        encoded = draw(st.lists(st.integers(0, len(word) - 1), min_size=1, unique=True))
        return "".join(draw(st.sampled_from([f"&#{ord(letter)};", f"&#x{ord(letter):x};"])) if i in encoded
                       else letter for i, letter in enumerate(word))
    if kind == "wrap":
        start = draw(st.integers(0, len(word) - 1))
        end = draw(st.integers(start + 1, len(word)))
        tag = draw(st.sampled_from(["b", "i", "strong", "span", "u", "mark"]))
        return f"{word[:start]}<{tag}>{word[start:end]}</{tag}>{word[end:]}"
    cut = draw(st.integers(1, len(word) - 1)) if len(word) > 1 else 1
    return word[:cut] + draw(st.sampled_from(INLINE_TAGS)) + word[cut:]


TRICKS = {"confusables": confusable, "invisible": invisible, "bidi": bidi, "markup": markup}


@lru_cache(maxsize=1)
def cue_words():
    """Single-word cues of the packaged lexicon, by class, each in a sentence where the plain gate finds it
    dropped (attribution, hedge) or added (negation): the pairs the properties write with a trick."""
    entries = load_set(CUES).entries
    frames = {"ATTRIBUTION": ("Bob {} that Alice was promoted.", CLAIM), "HEDGE": ("Alice was {} promoted.", CLAIM),
              "NEGATION": (CLAIM, "Alice was {} promoted.")}
    found = []
    for entry in entries:
        if entry.role != "cue" or entry.label not in frames or entry.is_token_pattern:
            continue
        for word in entry.phrases:
            if not word.isalpha() or not word.islower():
                continue
            source, memory = (frame.format(word) if "{}" in frame else frame for frame in frames[entry.label])
            if check(source, memory) != "pass":
                found.append((entry.label, word, frames[entry.label]))
    return found


def written(frame: str, word: str) -> str:
    return frame.format(word) if "{}" in frame else frame


def gate_property(trick):
    """The gate reads a cue word written with ``trick`` as the word: a pair flagged plain is flagged the same
    with the trick on the side holding the cue, and a faithful copy passes with the trick on both sides."""

    @given(st.sampled_from(cue_words()), st.data())
    @properties(25)
    def prop(case, data):
        label, word, (source_frame, memory_frame) = case
        source, memory = written(source_frame, word), written(memory_frame, word)
        tricked = data.draw(trick(word), label="tricked")
        plain = check(source, memory)
        if label == "NEGATION":  # the negation is the memory's
            assert check(source, written(memory_frame, tricked)) == plain
            assert check(written(memory_frame, tricked), source) == check(memory, source)
            copy = memory_frame
        else:
            assert check(written(source_frame, tricked), memory) == plain
            copy = source_frame
        other = data.draw(st.one_of(st.just(word), trick(word)), label="other copy")
        assert check(written(copy, tricked), written(copy, other)) == "pass"
        assert check(written(copy, other), written(copy, tricked)) == "pass"

    return prop


test_a_cue_word_in_look_alike_letters_reads_as_the_word = gate_property(confusable)
test_a_cue_word_with_invisible_characters_reads_as_the_word = gate_property(invisible)
test_a_cue_word_shown_by_right_to_left_controls_reads_as_the_word = gate_property(bidi)
test_a_cue_word_in_markup_reads_as_the_word = gate_property(markup)


@given(st.sampled_from(cue_words()), st.sampled_from(sorted(TRICKS)), st.data())
@properties(40)
def test_a_tricked_cue_word_reads_as_the_word_with_its_offsets_in_the_text_as_given(case, trick, data):
    label, word, frames = case
    frame = next(frame for frame in frames if "{}" in frame)
    tricked = data.draw(TRICKS[trick](word), label="tricked")
    text = written(frame, tricked)
    shadow = read(text)
    assert shadow is not None and shadow.text == written(frame, word)
    start = frame.index("{}")
    low, high = shadow.original(start, start + len(word))  # the word as read lies within the word as written
    assert start <= low < high <= start + len(tricked)
    docs = list(default_pipeline().pipe([text, written(frame, word)]))
    cues = [[(s.label_, s.id_) for s in doc.spans["factwash_cues"]] for doc in docs]
    assert cues[0] == cues[1]
    assert all(low >= s.start_char and s.end_char >= high for s in docs[0].spans["factwash_cues"]
               if s.start_char <= low < s.end_char)


@given(st.sampled_from([SOURCE, CLAIM, NEGATED, "If the audit fails, Alice might not get admin as of Monday."]),
       st.sampled_from(sorted(TRICKS)), st.data())
@properties(30)
def test_a_text_written_with_tricks_passes_against_itself(text, trick, data):
    words = text.split(" ")
    chosen = data.draw(st.lists(st.integers(0, len(words) - 1), min_size=1, max_size=3, unique=True))
    written_with = partial(bidi, beside_others=True) if trick == "bidi" else TRICKS[trick]
    tricked = " ".join(data.draw(written_with(w)) if i in chosen and w.isalpha() else w for i, w in enumerate(words))
    assert check(tricked, tricked) == "pass"
    assert check(text, tricked) == "pass" and check(tricked, text) == "pass"


@st.composite
def edited(draw, text):
    """``text`` read with random edits: stretches read as nothing, as one character, or as several."""
    edits, at = [], 0
    while at < len(text):
        start = draw(st.integers(at, len(text)))
        if start == len(text):
            break
        end = draw(st.integers(start + 1, min(len(text), start + 3)))
        replacement = draw(st.sampled_from(["", "x", "yz", text[start:end].upper()]))
        edits.append((start, end, replacement, len(replacement) == end - start))
        at = end
    return applied(text, edits)


def origins(shadow):
    """For each character of a shadow, the stretch of the original it comes from (the reference map)."""
    found = []
    for n, (start, original_start, original_end, linear) in enumerate(shadow.pieces):
        end = shadow.pieces[n + 1][0] if n + 1 < len(shadow.pieces) else len(shadow.text)
        for i in range(start, end):
            found.append((original_start + i - start, original_start + i - start + 1) if linear
                         else (original_start, original_end))
    return found


@given(st.text(alphabet="abcdef", min_size=1, max_size=20), st.data())
@properties(200)
def test_readings_made_one_after_another_map_back_in_one_step(text, data):
    inner = data.draw(edited(text))
    outer = data.draw(edited(inner.text))
    composed = compose(outer, inner)
    assert composed.text == outer.text
    first, second = origins(inner), origins(outer)
    for i, (low, high) in enumerate(second):
        assert composed.original(i, i + 1) == (first[low][0], first[high - 1][1])
