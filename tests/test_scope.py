"""Cue scope: the corpora's gold scopes, the scorer, the narrowing rules, and the README's scope table."""

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from spacy_factwash.evaluation import bioscope, cdsco
from spacy_factwash.evaluation.inline_xml import flatten

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
