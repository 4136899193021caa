"""Cue sense from a real parse (the shipped EWT parser): the rules, the lists, and what stays as it was."""

import json
import shutil
from functools import lru_cache
from pathlib import Path

import pytest
import spacy
from conftest import cues_of, made_once, perturbed_drift, readme_drift
from hypothesis import HealthCheck, given, strategies as st
from properties import properties

import spacy_factwash
from factwash_dev.evaluation.readme import PARSE_CUES, SUMMEDITS
from factwash_dev.evaluation.sense_mining import KEPT_SENSE, MIN_KEPT, MIN_WRONG, RATIO
from spacy_factwash.lexicon.frozen import LexiconError, freeze, packaged_lexicon_dir
from spacy_factwash.syntax.parse import ewt_parser_dir, parse_pipeline
from spacy_factwash.syntax.sense import SENSE_FILES, SenseRules, installed_rules, load_sense


@pytest.fixture(scope="module")
def parser():
    """The shipped parse pipeline (sentencizer, tok2vec, tagger, morphologizer, parser), nothing else."""
    return parse_pipeline()


@pytest.fixture(scope="module")
def parsed_nlp():
    return spacy_factwash.load(parse=True)


def rules_with(tmp_path, **lists):
    """SenseRules over lists written for the test: rule name -> [(cue class, word), ...]."""
    folder = tmp_path / "sense"
    folder.mkdir()
    for name, rule in SENSE_FILES.items():
        lines = [json.dumps({"id": f"{rule.lower()}:{label.lower()}:{word}", "label": rule, "pattern": [word],
                             "provenance": {"source": "test"}}) for label, word in lists.get(rule, [])]
        (folder / name).write_text("".join(line + "\n" for line in lines))
    freeze(folder, "9.9.9", class_files=SENSE_FILES)
    return SenseRules(load_sense(folder))


def token(doc, word):
    return next(t for t in doc if t.lower_ == word)


# -- each rule on real parses --------------------------------------------------------------------


def test_verbal_words_are_cues_as_verbs_and_as_nouns_with_a_content_clause(parser, tmp_path):
    rules = rules_with(tmp_path, VERBAL=[("ATTRIBUTION", "state"), ("ATTRIBUTION", "stated"), ("ATTRIBUTION", "claim")])
    assert not rules.keeps(token(parser("The state of Texas sued the company."), "state"), "ATTRIBUTION")
    assert rules.keeps(token(parser("Officials stated that the road is closed."), "stated"), "ATTRIBUTION")
    assert not rules.keeps(token(parser("He filed an insurance claim last week."), "claim"), "ATTRIBUTION")
    assert rules.keeps(token(parser("She repeated her claim that the vote was rigged."), "claim"), "ATTRIBUTION")
    # the list is per class: the same word under another class is left alone
    assert rules.keeps(token(parser("The state of Texas sued the company."), "state"), "HEDGE")


def test_clausal_verbs_report_only_a_clause_a_quote_or_a_source_construction(parser, tmp_path):
    rules = rules_with(tmp_path, CLAUSAL=[("ATTRIBUTION", "added"), ("ATTRIBUTION", "heard")])
    assert not rules.keeps(token(parser("He added salt to the soup."), "added"), "ATTRIBUTION")
    assert rules.keeps(token(parser("He added that the soup was cold."), "added"), "ATTRIBUTION")
    assert rules.keeps(token(parser('"The soup is cold," he added.'), "added"), "ATTRIBUTION")
    assert not rules.keeps(token(parser("We heard a loud noise outside."), "heard"), "ATTRIBUTION")
    assert rules.keeps(token(parser("As we heard, the plant will close."), "heard"), "ATTRIBUTION")


def test_propositional_verbs_hedge_a_proposition_not_a_plain_noun_object(parser, tmp_path):
    rules = rules_with(tmp_path, PROPOSITIONAL=[("HEDGE", "suggests"), ("HEDGE", "suggest"), ("HEDGE", "indicated")])
    assert not rules.keeps(token(parser("He suggests flexible payment options."), "suggests"), "HEDGE")
    assert rules.keeps(token(parser("The results suggest that p53 is involved."), "suggest"), "HEDGE")
    assert rules.keeps(token(parser("These data suggest a role for p53 in apoptosis."), "suggest"), "HEDGE")
    assert not rules.keeps(token(parser("Bands were indicated by arrows."), "indicated"), "HEDGE")


def test_modifier_words_are_not_cues_as_nouns(parser, tmp_path):
    rules = rules_with(tmp_path, MODIFIER=[("HEDGE", "potential")])
    assert not rules.keeps(token(parser("The membrane potential was measured."), "potential"), "HEDGE")
    assert rules.keeps(token(parser("This is a potential target for therapy."), "potential"), "HEDGE")


def test_could_of_ability_is_not_a_hedge_but_could_of_possibility_is(parser, tmp_path):
    rules = rules_with(tmp_path, ABILITY=[("HEDGE", "detected"), ("HEDGE", "explain")])
    assert not rules.keeps(token(parser("No signal could be detected in the cells."), "could"), "HEDGE")
    assert rules.keeps(token(parser("This could explain the effect."), "could"), "HEDGE")


# -- the packaged lists ------------------------------------------------------------------------------


def test_every_packaged_sense_entry_meets_the_admission_rule():
    lists = load_sense()
    entries = lists.entries
    assert entries, "the packaged sense lists are empty"
    for entry in entries:
        provenance = entry.provenance
        assert provenance["source"] == "dev"
        assert provenance["removed_wrong"] >= MIN_WRONG
        assert provenance["removed_wrong"] >= RATIO * provenance["removed_right"], entry.id
        assert entry.label not in KEPT_SENSE or provenance["kept"] >= MIN_KEPT, entry.id


def test_an_edited_sense_list_is_refused_until_refrozen(tmp_path):
    folder = tmp_path / "sense"
    shutil.copytree(packaged_lexicon_dir() / "sense", folder)
    with (folder / "verbal.jsonl").open("a") as handle:
        handle.write(json.dumps({"id": "verbal:hedge:maybe", "label": "VERBAL", "pattern": ["maybe"],
                                 "provenance": {"source": "test"}}) + "\n")
    with pytest.raises(LexiconError, match="verbal.jsonl: contents do not match the frozen manifest"):
        load_sense(folder)


# -- what the parse must not change --------------------------------------------------------------------

WORDS = ["Alice", "said", "that", "the", "state", "may", "could", "be", "detected", "suggests", "a", "role", "for",
         "p53", ".", "reports", "claim", "potential", "added", "salt", "indicated", "by", "arrows", "if", "not",
         "on", "Monday", ",", '"', "possible", "appears", "to", "work", "we", "heard", "noise"]


@properties(60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=25))
def test_the_parse_only_removes_cues_and_never_moves_a_sentence(parsed_nlp, default_nlp, words):
    text = " ".join(words)
    plain, parsed = default_nlp(text), parsed_nlp(text)
    assert [s.text for s in parsed.sents] == [s.text for s in plain.sents]
    assert set(cues_of(parsed)) <= set(cues_of(plain))
    assert {c for c in cues_of(plain) if c[0] not in ("HEDGE", "ATTRIBUTION")} == {
        c for c in cues_of(parsed) if c[0] not in ("HEDGE", "ATTRIBUTION")}


TAGS = ["NN", "NNS", "NNP", "VB", "VBD", "VBG", "VBN", "VBZ", "MD", "JJ", "IN", "DT", "PRP", "RB", "CC", "."]
DEPS = ["ROOT", "nsubj", "nsubj:pass", "obj", "dobj", "ccomp", "xcomp", "csubj", "parataxis", "aux", "aux:pass",
        "auxpass", "amod", "nmod", "prep", "acl", "mark", "det", "advcl", "cc", "conj", "punct"]


@lru_cache(maxsize=1)
def english_vocab():
    """One English vocabulary for the Docs a property draws (a blank pipeline per example would be most of the cost)."""
    return spacy.blank("en").vocab


@st.composite
def parsed_sentences(draw):
    """A Doc of cue words and others with any tags and any dependency tree: whatever a parser may say."""
    rules = installed_rules()
    words = draw(st.lists(st.sampled_from(sorted(set(WORDS) | {"as", "that"} | {
        w for label in ("HEDGE", "ATTRIBUTION") for w in rules.parsed_words[label]})), min_size=1, max_size=12))
    heads = [0] + [draw(st.integers(0, i - 1)) for i in range(1, len(words))]
    deps = ["ROOT"] + [draw(st.sampled_from(DEPS[1:])) for _ in words[1:]]
    tags = [draw(st.sampled_from(TAGS)) for _ in words]
    return spacy.tokens.Doc(english_vocab(), words=words, heads=heads, deps=deps, tags=tags)


@properties(150)
@given(parsed_sentences())
def test_a_cue_word_the_rules_do_not_read_the_parse_for_holds_its_sense_whatever_the_parse(doc):
    """What lets a caller parse only the Docs where it matters (``CueComponent.parse_matters``): a one-word cue
    whose word no sense rule reads the parse for is kept under any tags and any tree."""
    rules = installed_rules()
    for token in doc:
        for label in ("HEDGE", "ATTRIBUTION"):
            if not rules.reads_parse(token.lower_, label):
                assert rules.keeps(token, label), (token.text, label, [(t.text, t.tag_, t.dep_, t.head.i) for t in doc])


def test_every_word_the_rules_read_the_parse_for_can_lose_its_cue_to_a_parse():
    """The other side: ``reads_parse`` names no word whose cue no parse can remove, so the Docs it leaves to be
    parsed are the ones a parse can change (each word given a parse its rule rejects)."""
    rules = installed_rules()
    vocab = spacy.blank("en").vocab
    rejecting = [(["the", "{}"], ["DT", "NN"], ["det", "ROOT"], [1, 1]),  # a noun with no clause under it
                 (["{}", "it"], ["VBD", "PRP"], ["ROOT", "obj"], [0, 0]),  # a verb with a plain object
                 (["we", "{}", "detected"], ["PRP", "MD", "VBN"], ["nsubj", "aux", "ROOT"], [2, 2, 2])]
    for label in ("HEDGE", "ATTRIBUTION"):
        for word in rules.parsed_words[label]:
            docs = [spacy.tokens.Doc(vocab, words=[w.format(word) for w in words], tags=tags, deps=deps, heads=heads)
                    for words, tags, deps, heads in rejecting]
            assert any(not rules.keeps(token, label) for doc in docs for token in doc if token.lower_ == word), (
                word, label)


def test_without_tags_and_dependencies_the_word_lists_decide_alone(parser, nlp):
    text = "The state of Texas said it could be detected."
    bare = nlp(text)
    parsed = parser(text)
    unparsed_copy = spacy.tokens.Doc(parsed.vocab, words=[t.text for t in parsed],
                                     spaces=[bool(t.whitespace_) for t in parsed])
    assert cues_of(nlp(unparsed_copy)) == cues_of(bare)


def test_a_users_own_parse_pipeline_gets_the_same_cue_sense(parsed_nlp):
    """A user's pipeline (components named tagger and parser, as en_core_web_sm names them) plus factwash_cues."""
    user = spacy.load(ewt_parser_dir())
    assert {"tagger", "parser"} <= set(user.pipe_names)
    user.add_pipe("factwash_cues")
    for text in ("The state of Texas sued the company.", "Officials stated that the road is closed.",
                 "The membrane potential was measured, and it may rise."):
        assert cues_of(user(text)) == cues_of(parsed_nlp(text))
    assert not [c for c in cues_of(user("The state of Texas sued the company.")) if c[0] == "ATTRIBUTION"]
    assert cues_of(user("Officials stated that the road is closed."), "ATTRIBUTION")


def test_parsing_only_where_it_matters_gives_the_cues_of_parsing_everything(corpora):
    """The evaluation parses only Docs with a candidate of a class whose detector reads the parse; every Doc gets
    the cues and sentences the whole parse pipeline gives it."""
    from itertools import islice

    from factwash_dev.evaluation.corpora import read_half
    from factwash_dev.evaluation.evaluate import annotated, evaluation_pipeline
    from factwash_dev.evaluation.gold import to_doc

    nlp = evaluation_pipeline(parse=True)
    splits = ROOT / "training" / "splits"
    items = list(islice(read_half(corpora, "bioscope", "dev", splits), 300))
    items += list(islice(read_half(corpora, "polnear", "dev", splits), 2))
    items += list(islice(read_half(corpora, "cdsco", "dev", splits), 100))
    needs = [nlp.get_pipe("factwash_cues").parse_matters(to_doc(nlp, item)) for item in items]
    assert 0 < sum(needs) < len(items) / 2

    def read(docs):
        return [(cues_of(doc), [(s.start, s.end) for s in doc.sents]) for doc in docs]

    everything = read(nlp.pipe(to_doc(nlp, item) for item in items))
    assert read(annotated(nlp, (to_doc(nlp, item) for item in items), batch_size=64)) == everything
    assert any(label in ("HEDGE", "ATTRIBUTION") for cues, _ in everything for label, _, _ in cues)


# -- the README's tables: cue figures with and without the parse, and the gate on SummEdits ------------

ROOT = Path(__file__).resolve().parent.parent


def _parse_cue_table(corpora, request):
    from factwash_dev.evaluation.evaluate import compare_parse, parse_table

    return parse_table(*compare_parse(corpora, "test", ROOT / "training" / "splits",
                                      word_lists=request.getfixturevalue("test_half_result")), load_sense().version)


def _summedits_table(corpora, request):
    from factwash_dev.evaluation.summedits import gate_table

    return gate_table(request.getfixturevalue("summedits_result"))


# table -> (how it is measured, a cell to perturb: row start, cell index, value, the drift line expected)
TABLES = {
    PARSE_CUES: (_parse_cue_table, ("| BioScope | HEDGE", 12, "0.01", "BioScope / HEDGE / P parse: README says 0.01")),
    SUMMEDITS: (_summedits_table, ("| all | consistent |", 7, "0", "all / consistent / flagged with the parse: "
                                                                      "README says 0, measured")),
}


@pytest.fixture(scope="module", params=[pytest.param(name, marks=pytest.mark.corpus) for name in TABLES])
def measured_table(request, corpora, tmp_path_factory):
    """(name, table) measured from the corpora, once for the run."""
    return request.param, made_once(tmp_path_factory, request.param, lambda: TABLES[request.param][0](corpora, request))


def test_readme_tables_are_the_measured_tables(measured_table):
    name, table = measured_table
    drift = readme_drift(name, table)
    assert drift == [], f"README {name} drifted:\n" + "\n".join(drift)


def test_table_guards_name_a_perturbed_figure(measured_table):
    name, table = measured_table
    row_start, cell, value, expected = TABLES[name][1]
    drift = perturbed_drift(name, table, row_start, cell, value)
    assert len(drift) == 1 and drift[0].startswith(expected)


def test_summedits_records_are_read_or_named_when_malformed(tmp_path):
    from factwash_dev.evaluation.summedits import RAW, SummEditsFormatError, measure, read

    folder = tmp_path / RAW
    folder.mkdir(parents=True)
    (folder / "summedits_news.json").write_text(json.dumps([
        {"original_summary": "A said B.", "summary": "A stated B.", "label": 1},
        {"original_summary": "A said B.", "summary": "B.", "label": 0}]))
    assert list(read(tmp_path, "news")) == [("A said B.", "A stated B.", 1), ("A said B.", "B.", 0)]
    (folder / "summedits_news.json").write_text(json.dumps([{"original_summary": "A said B.", "label": 3}]))
    with pytest.raises(SummEditsFormatError, match="record 0"):
        list(read(tmp_path, "news"))
    with pytest.raises(FileNotFoundError, match="no SummEdits files"):
        measure(tmp_path / "elsewhere")


# -- the README's examples, on the packaged lists ----------------------------------------------------------

README_EXAMPLES = [  # (text, the word, its class): a word-list cue that the parse shows in another sense (after a
    # determiner or a quantifier such as "the", "his", "several" the word lists already read a noun)
    ("Ten states sued the company.", "states", "ATTRIBUTION"),
    ("Tweets were deleted by the platform.", "Tweets", "ATTRIBUTION"),
    ("Reports of violence spread quickly.", "Reports", "ATTRIBUTION"),
    ("Proposed sites were rejected.", "Proposed", "HEDGE"),
    ("Please confirm your booking by Friday.", "confirm", "ATTRIBUTION"),
    ("Her name was written on the cup.", "written", "ATTRIBUTION"),
    ("She was telling a story.", "telling", "ATTRIBUTION"),
    ("Bands were indicated by arrows.", "indicated", "HEDGE"),
    ("The paper appeared last year.", "appeared", "HEDGE"),
    ("No signal could be detected in the cells.", "could", "HEDGE"),
]
KEPT_EXAMPLES = [  # the same words in their cue sense
    ("Officials stated that the road is closed.", "stated", "ATTRIBUTION"),
    ('"The road is closed," she said.', "said", "ATTRIBUTION"),
    ("Reports that the plant will close spread quickly.", "Reports", "ATTRIBUTION"),
    ("She was telling everyone that the plant would close.", "telling", "ATTRIBUTION"),
    ("These results indicate that p53 is required.", "indicate", "HEDGE"),
    ("It appears to be stable.", "appears", "HEDGE"),
    ("This could explain the effect.", "could", "HEDGE"),
    ("This is a potential target.", "potential", "HEDGE"),
]


@pytest.mark.parametrize("text, word, label", README_EXAMPLES)
def test_the_readmes_examples_lose_their_cue_with_the_parse(parsed_nlp, default_nlp, text, word, label):
    assert (label, word) in [(c[0], c[1]) for c in cues_of(default_nlp(text))]
    assert (label, word) not in [(c[0], c[1]) for c in cues_of(parsed_nlp(text))]


@pytest.mark.parametrize("text, word, label", KEPT_EXAMPLES)
def test_a_cue_in_its_cue_sense_stays_with_the_parse(parsed_nlp, text, word, label):
    assert (label, word) in [(c[0], c[1]) for c in cues_of(parsed_nlp(text))]


@pytest.mark.slow
def test_two_processes_read_the_same_cue_sense_as_one(parsed_nlp):
    texts = [text for text, _, _ in README_EXAMPLES + KEPT_EXAMPLES] * 3
    one = [cues_of(doc) for doc in parsed_nlp.pipe(texts)]
    two = [cues_of(doc) for doc in parsed_nlp.pipe(texts, n_process=2, batch_size=8)]
    assert one == two


def test_the_readmes_python_example(parsed_nlp, default_nlp):
    assert cues_of(default_nlp("Ten states sued."), "ATTRIBUTION") and not cues_of(parsed_nlp("Ten states sued."))
    assert cues_of(parsed_nlp("Officials stated that the road is closed.")) == [
        ("ATTRIBUTION", "stated", "attribution:state")]
