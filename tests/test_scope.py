"""Cue scope: the corpora's gold scopes, the scorer, the narrowing rules, and the README's scope table."""

import os
import xml.etree.ElementTree as ET
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
import spacy
from conftest import made_once, perturbed_drift, readme_drift
from hypothesis import given, strategies as st
from properties import properties
from spacy.tokens import Span

from factwash_dev.evaluation import bioscope, cdsco
from factwash_dev.evaluation.gold import GoldScope, GoldText
from factwash_dev.evaluation.inline_xml import flatten
from factwash_dev.evaluation.readme import SCOPE
from factwash_dev.evaluation.scope import (
    CEILING,
    GOLD,
    PREDICTED,
    RESOLVERS,
    ScopeCounts,
    evaluate,
    in_convention,
    markdown_table,
    punctuation,
    scope_doc,
    scope_pipeline,
    score_doc,
)
from spacy_factwash.syntax.clauses import scope_spans
from spacy_factwash.syntax.scope import STYLES, narrowed_scope_spans

ROOT = Path(__file__).resolve().parent.parent

# -- gold scopes as the corpora annotate them ---------------------------------------------------


def test_a_bioscope_cue_gets_the_scope_its_ref_names_even_when_scopes_nest():
    sentence = ET.fromstring(
        '<sentence id="S1"><xcope id="X1"><cue type="speculation" ref="X1">suggesting</cue> that this factor was '
        '<xcope id="X2"><cue type="negation" ref="X2">not</cue> required</xcope></xcope>.</sentence>')
    text, tagged = flatten(sentence)
    found = [(g.label, [text[s:e] for s, e in g.cue], [text[s:e] for s, e in g.scope])
             for g in bioscope.scopes_of(tagged)]
    assert found == [("HEDGE", ["suggesting"], ["suggesting that this factor was not required"]),
                     ("NEGATION", ["not"], ["not required"])]


def test_a_discontinuous_bioscope_cue_is_one_cue_with_every_part():
    sentence = ET.fromstring('<sentence id="S1"><xcope id="X1"><cue type="negation" ref="X1">Neither</cue> A '
                             '<cue type="negation" ref="X1">nor</cue> B</xcope> binds.</sentence>')
    text, tagged = flatten(sentence)
    (gold,) = bioscope.scopes_of(tagged)
    assert [text[s:e] for s, e in gold.cue] == ["Neither", "nor"] and text[slice(*gold.scope[0])] == "Neither A nor B"


@pytest.mark.corpus
def test_every_bioscope_cue_has_its_scope(corpora):
    counts = Counter()
    for item in bioscope.read(corpora / "bioscope" / "raw"):
        for gold in item.scopes:
            counts[(item.subset, gold.label)] += 1
            counts["without scope"] += not gold.scope
            inside = all(gold.scope[0][0] <= s and e <= gold.scope[0][1] for s, e in gold.cue)
            counts["cue outside its scope"] += not inside
    # cue elements sharing a ref are one cue: 2,694 speculation elements are 2,659 cues ("either ... or")
    assert counts == {("abstracts", "HEDGE"): 2_659, ("abstracts", "NEGATION"): 1_719,
                      ("full_papers", "HEDGE"): 668, ("full_papers", "NEGATION"): 376, "without scope": 0,
                      "cue outside its scope": 13}


@pytest.mark.corpus
def test_cdsco_negations_come_with_scopes_that_leave_the_cue_out(corpora):
    items = list(cdsco.read(corpora / "sem2012-cdsco" / "raw"))
    assert Counter(item.subset for item in items for _ in item.scopes) == {"train": 984, "dev": 173, "test": 264}
    item = next(i for i in items if "unconventional" in i.words)
    (gold,) = item.scopes
    assert gold.affixal and [item.text[s:e] for s, e in gold.cue] == ["un"]
    assert [item.text[s:e] for s, e in gold.scope] == ["his", "own", "unconventional", "appearance"]
    item = next(i for i in items if i.unit_id == "wisteria01:288")
    first, second = item.scopes
    assert [item.text[s:e] for s, e in first.scope] == ["He", "is", "particularly", "intelligent"]
    assert not first.affixal and len(item.tags) == len(item.words) == 18


# -- the scorer -----------------------------------------------------------------------------------


def test_scope_counts_score_tokens_and_exact_scopes():
    counts = ScopeCounts()
    counts.add({1, 2}, {1, 2})  # exact
    counts.add({3, 4}, {3})  # one token missed
    counts.add({5}, None)  # a gold cue nobody found: its scope is missed
    counts.add(None, {6, 7})  # a cue with no gold: its scope is false
    counts.add(set(), {8})  # a gold cue without a scope (CD-SCO "No."): a predicted scope is false, not a scope
    figures = counts.to_dict()
    assert (figures["tp"], figures["fp"], figures["fn"]) == (3, 3, 2)
    assert (figures["gold_scopes"], figures["correct"], figures["pcs"]) == (3, 1, 1 / 3)
    assert (figures["gold_cues"], figures["predicted_cues"], figures["matched"]) == (4, 4, 3)


def test_each_corpus_convention_is_applied_to_the_prediction_and_punctuation_never_counts():
    assert in_convention("bioscope", {3, 4, 5}, cue={2}, partial=set(), ignored={5}) == {2, 3, 4}
    assert in_convention("cdsco", {1, 2, 3, 4}, cue={2}, partial=set(), ignored={4}) == {1, 3}
    assert in_convention("cdsco", {1, 2, 3}, cue={2}, partial={2}, ignored=set()) == {1, 2, 3}  # "un|happy"


def test_punctuation_is_read_from_the_corpus_tags_as_the_sem_2012_script_reads_it():
    nlp = spacy.blank("en")
    item = GoldText("cdsco", "dev", "d", "u", "Holmes , `` ( said 's .",
                    words=("Holmes", ",", "``", "(", "said", "'s", "."),
                    tags=("NNP", ",", "``", "-LRB-", "VBD", "POS", "."))
    assert punctuation(scope_doc(nlp, item), item) == {1, 2, 3, 6}


def _sherlock(text: str, cue: int, scope: range) -> GoldText:
    """A one-negation CD-SCO item on its own tokens: the cue's token index and the scope's."""
    words = tuple(text.split())
    starts = [sum(len(w) + 1 for w in words[:n]) for n in range(len(words))]
    gold = GoldScope("NEGATION", ((starts[cue], starts[cue] + len(words[cue])),),
                     tuple((starts[n], starts[n] + len(words[n])) for n in scope if n != cue))
    return GoldText("cdsco", "dev", "d", "u", text, scopes=(gold,), words=words,
                    tags=tuple("." if w in ".," else "NN" for w in words))


def test_a_sentence_is_scored_with_gold_cues_and_with_the_cues_the_pipeline_found(nlp):
    item = _sherlock("Well , we found that we had no chance of overtaking him , sir .", 7, range(5, 12))
    doc = nlp(scope_doc(nlp, item))
    counts = {}
    score_doc(doc, item, "cdsco", ("NEGATION",), {name: make("cdsco") for name, make in RESOLVERS.items()}, counts)
    narrowed = counts[("NEGATION", GOLD, "narrowed")].to_dict()
    clause = counts[("NEGATION", GOLD, "clause")].to_dict()
    assert narrowed["pcs"] == 1.0 and clause["pcs"] == 0.0 and clause["fp"] > 0
    assert counts[("NEGATION", PREDICTED, "narrowed")].to_dict()["matched"] == 1  # the pipeline finds "no" too
    assert counts[("NEGATION", GOLD, CEILING)].to_dict()["pcs"] == 1.0


def test_a_cue_the_gold_does_not_hold_counts_its_scope_as_false(nlp):
    item = _sherlock("He did not come , and she never ran .", 2, range(0, 4))
    doc = nlp(scope_doc(nlp, item))
    counts = {}
    score_doc(doc, item, "cdsco", ("NEGATION",), {"narrowed": RESOLVERS["narrowed"]("cdsco")}, counts)
    found = counts[("NEGATION", PREDICTED, "narrowed")].to_dict()
    assert (found["gold_cues"], found["predicted_cues"], found["matched"]) == (1, 2, 1)
    assert found["fp"] >= 2  # "she wrote", scoped by the unannotated "never"


# -- narrowing a cue's scope inside its clauses ----------------------------------------------------


def _scopes(doc, style, extra=()):
    """(cue text, scope text) of every cue (the pipeline's, and ``extra`` ones as (start, end, label)), by the
    narrowing rules of ``style``."""
    cues = sorted(list(doc.spans["factwash_cues"]) + [Span(doc, s, e, label=label) for s, e, label in extra],
                  key=lambda c: (c.start, c.end))
    spans = narrowed_scope_spans(doc, cues, list(doc.spans.get("factwash_sources", [])), style)
    return [(cue.text, " ".join(s.text for s in spans if s.kb_id_ == f"cue:{cue.start}-{cue.end}"
                                and s.label_ == cue.label_)) for cue in cues]


@pytest.mark.parametrize("text, cue, scope", [
    ("IL-10 did not induce the expression of the gene.", "not", "not induce the expression of the gene"),
    ("The mRNA was not detected in these cells.", "not", "The mRNA was not detected in these cells"),
    ("In contrast, the factor appears to bind the site.", "appears", "the factor appears to bind the site"),
    ("TG plus PMA, but not TG alone, induced IL-2 in Jurkat cells.", "not", "not TG alone"),
    ("The control is not surprising since this factor is involved in many responses.", "not",
     "not surprising"),
])
def test_bioscope_style_starts_at_the_cue_and_ends_with_the_clause_unless_a_rule_says_otherwise(nlp, text, cue,
                                                                                                  scope):
    assert (cue, scope) in _scopes(nlp(text), "bioscope")


def test_bioscope_style_scopes_a_coordinator_over_the_two_words_it_joins(nlp):
    doc = nlp("Activity correlates with low or negative expression of the gene.")  # "or": a gold cue, not ours
    assert ("or", "low or negative") in _scopes(doc, "bioscope", extra=[(4, 5, "HEDGE")])


@pytest.mark.parametrize("text, cue, scope", [
    ("We soon found that we had no chance of overtaking him.", "no", "we had no chance of overtaking him"),
    ("Well, I do not know the man.", "not", "I do not know the man"),
    ("He can not escape us, madam.", "can not", "He can not escape us"),
    ("I can tell them without reference to the notes.", "without", "reference to the notes"),
    ("But it was not the sight of her body.", "not", "it was not the sight of her body"),
])
def test_cdsco_style_is_the_negated_clause_with_its_subject_and_nothing_around_it(nlp, text, cue, scope):
    assert (cue, scope) in _scopes(nlp(text), "cdsco")


WORDS = ["Alice", "said", "the", "budget", "was", "not", "approved", "may", "never", "that", "but", "if", ",",
         "and", "which", "without", "or", "appears", "to", "be", "cut", "Monday", "no", "doubt", "(", ")", "."]


@properties(150)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=25), st.sampled_from(STYLES))
def test_narrowing_never_widens_a_scope_beyond_the_clauses_it_is_bound_to(words, style):
    nlp = _property_nlp()
    doc = nlp(" ".join(words))
    cues = list(doc.spans["factwash_cues"])
    speakers = list(doc.spans.get("factwash_sources", []))
    bound = {}
    for span in scope_spans(doc, cues, speakers):
        bound.setdefault((span.kb_id_, span.label_), set()).update(range(span.start, span.end))
    for span in narrowed_scope_spans(doc, cues, speakers, style):
        cue = next(c for c in cues if f"cue:{c.start}-{c.end}" == span.kb_id_ and c.label_ == span.label_)
        assert set(range(span.start, span.end)) <= bound[(span.kb_id_, span.label_)] | set(range(cue.start, cue.end))


@lru_cache(maxsize=1)
def _property_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues")
    return nlp


def test_an_unknown_style_is_a_clear_error(nlp):
    doc = nlp("The budget was not approved.")
    with pytest.raises(ValueError, match="unknown scope style 'negex'"):
        narrowed_scope_spans(doc, list(doc.spans["factwash_cues"]), [], "negex")
    with pytest.raises(ValueError, match="scope_style must be null"):
        spacy.blank("en").add_pipe("factwash_cues", config={"scope_style": "negex"})


def test_scope_style_narrows_what_the_extensions_read_and_is_saved_with_the_pipeline(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("factwash_cues", config={"scope_style": "cdsco"})
    text = "We soon found that we had no chance of overtaking him."
    doc = nlp(text)
    no = next(c for c in doc.spans["factwash_cues"] if c.text == "no")
    assert [s.text for s in no._.factwash_scope] == ["we had no chance of overtaking him"]
    assert doc.char_span(text.index("we had"), text.index("we had") + 6)._.factwash_negated
    assert not doc.char_span(0, 2)._.factwash_negated  # "We" found it: outside the scope
    plain = spacy.blank("en")
    plain.add_pipe("factwash_cues")
    assert plain(text).char_span(0, 2)._.factwash_negated  # the whole clause, by default
    nlp.to_disk(tmp_path / "pipeline")
    assert spacy.load(tmp_path / "pipeline").get_pipe("factwash_cues").scope_style == "cdsco"


# -- the same rules on a real dependency parse -----------------------------------------------------


@pytest.fixture(scope="module")
def parsed_nlp():
    """A trained tagger and parser with factwash_cues: the shipped EWT pipeline (``spacy_factwash.syntax.parse``, branch
    parser), or the pipeline folder in $FACTWASH_PARSER. Never a hand-made parse."""
    folder = os.environ.get("FACTWASH_PARSER")
    if not folder:
        try:
            from spacy_factwash.syntax.parse import ewt_parser_dir
        except ImportError:
            pytest.skip("no parse pipeline in this checkout (spacy_factwash.syntax.parse lands with the parser branch); "
                        "set FACTWASH_PARSER to a spaCy pipeline with a parser")
        folder = str(ewt_parser_dir())
    nlp = scope_pipeline(folder)
    return nlp


@pytest.mark.parametrize("text, style, cue, scope", [
    ("The mRNA was not detected in these cells.", "bioscope", "not", "The mRNA was not detected in these cells"),
    # a passive under a modal takes its subject in (BioScope: "[X could be established]")
    ("These results suggest that the binding site may be required.", "bioscope", "may",
     "the binding site may be required"),
    ("Even now we have no clear case against this man.", "cdsco", "no", "we have no clear case against this man"),
    ("We soon found that we had no chance of overtaking him.", "cdsco", "no", "we had no chance of overtaking him"),
])
def test_the_rules_read_a_real_parse(parsed_nlp, text, style, cue, scope):
    doc = parsed_nlp(text)
    assert doc.has_annotation("DEP")
    assert (cue, scope) in _scopes(doc, style)


def test_a_modifier_scopes_its_noun_phrase_on_a_parse_but_the_clause_without_one(parsed_nlp, nlp):
    text = "We identified a putative binding site for the factor in the promoter of the gene."
    with_parse = dict(_scopes(parsed_nlp(text), "bioscope"))["putative"]
    without = dict(_scopes(nlp(text), "bioscope"))["putative"]
    assert without == "putative binding site for the factor in the promoter of the gene"
    assert with_parse.startswith("putative binding site") and len(with_parse) < len(without)


# -- the README's scope table is the measured one --------------------------------------------------


@pytest.fixture(scope="module")
def measured_scope_table(corpora, tmp_path_factory):
    """The test-half scope table, measured now (without a parser, as the README's is)."""
    return made_once(tmp_path_factory, "scope_table",
                     lambda: markdown_table(evaluate(corpora, "test", ROOT / "training" / "splits")))


@pytest.mark.corpus
def test_readme_scope_table_is_the_measured_table(measured_scope_table):
    drift = readme_drift(SCOPE, measured_scope_table)
    assert drift == [], "README scope table drifted from the measurement:\n" + "\n".join(drift)


@pytest.mark.corpus
def test_scope_guard_names_a_perturbed_figure(measured_scope_table):
    drift = perturbed_drift(SCOPE, measured_scope_table, "| CD-SCO | negation | gold |", 12, "0.99")  # narrowed PCS
    assert len(drift) == 1 and drift[0].startswith("CD-SCO / negation / gold / narrowed PCS: README says 0.99")


@pytest.mark.parametrize("args, message", [
    (["--half", "dev", "--readme", "README.md"], "--readme writes the README's table: the test half, without --parser"),
    (["--half", "test", "--readme", "README.md", "--parser", "somewhere"], "--readme writes the README's table"),
    (["--half", "train"], "--half must be dev or test"),
    (["--half", "dev", "--parser", "/no/such/pipeline"], "/no/such/pipeline: no such pipeline folder"),
])
def test_scope_eval_refuses_what_it_cannot_do_in_one_line(args, message):
    from factwash_dev.cli import app
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["scope-eval"] + args)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
