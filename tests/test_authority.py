"""The authority confirmer: each rule with its reason, the written fixture per case, and the README table."""

import json
from pathlib import Path

import pytest
from conftest import readme_drift
from typer.testing import CliRunner

import spacy_factwash
from factwash_dev.evaluation.authority_fixture import markdown_table, read_fixture, score_fixture
from factwash_dev.evaluation.readme import AUTHORITY
from spacy_factwash.api import default_confirmer
from spacy_factwash.cli import app

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "training" / "authority" / "fixture.jsonl"
CASES = read_fixture(FIXTURE)
ITEMS = {"A": "Expense reports must be approved by the team lead.",
         "B": "Effective today, the finance office replaces the team lead as approver of expense reports."}
GOOD = {"id": "p", "type": "supersedes", "source_item_id": "B", "target_item_id": "A", "confidence": 0.9,
        "scope_terms": [], "quote": "the finance office replaces the team lead as approver of expense reports."}


def blocked(proposal, items=ITEMS):
    result = spacy_factwash.confirm(proposal, items)
    return None if result.confirmed else (result.blocked_by.rule, result.blocked_by.name)


def test_a_quote_that_names_the_relation_is_confirmed_with_evidence():
    result = spacy_factwash.confirm(GOOD, ITEMS)
    assert result.confirmed and result.tier == "textual"
    assert [r.rule for r in result.reasons] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert result.reasons[-1].passed is None and "no dependency parser" in result.reasons[-1].detail
    start, end = result.evidence.start_char, result.evidence.end_char
    assert ITEMS["B"][start:end] == result.evidence.text and "replaces" in result.evidence.text


@pytest.mark.parametrize(
    "change,rule",
    [
        ({"type": "overrules"}, 1),
        ({"confidence": 0.59}, 1),
        ({"confidence": "high"}, 1),
        ({"confidence": float("nan")}, 1),
        ({"confidence": float("inf")}, 1),
        ({"target_item_id": "Z"}, 1),
        ({"quote": "the finance office replaced the team lead"}, 2),
        ({"quote": "the finance office replaces the team lead as approver of expense reports!"}, 2),
        ({"scope_terms": ["parking"]}, 3),
    ],
)
def test_each_rule_refuses_with_its_number(change, rule):
    assert blocked({**GOOD, **change})[0] == rule


def test_case_and_whitespace_do_not_matter_in_the_quote():
    assert blocked({**GOOD, "quote": "THE finance   office replaces the team lead as approver of expense reports."}) is None


def test_scope_terms_are_derived_from_the_target_when_none_are_given():
    result = spacy_factwash.confirm({**GOOD, "scope_terms": []}, ITEMS)
    shared = next(r for r in result.reasons if r.rule == 3)
    assert "expense" in shared.detail and "report" in shared.detail


def test_a_non_dict_proposal_is_a_clear_error():
    with pytest.raises(TypeError, match="proposal must be a dict"):
        spacy_factwash.confirm("supersedes", ITEMS)


def test_the_fixture_covers_every_category_with_forty_cases():
    assert len(CASES) >= 40
    assert {c["category"] for c in CASES} >= {
        "strong_supersession", "narrowing", "authority_transfer", "implicit_contradiction", "restatement",
        "coexistence", "topic_mention", "version_mention", "quoted_draft", "meeting_minutes", "negated_change",
        "proximity_trap", "wrong_direction"}


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c["id"], marks=pytest.mark.xfail(reason=c["xfail"], strict=True)) if "xfail" in c
     else pytest.param(c, id=c["id"]) for c in CASES],
)
def test_fixture_case(case):
    result = default_confirmer().confirm(case["proposal"], {i["id"]: i["text"] for i in case["items"]})
    assert result.confirmed is case["positive"], result.blocked_by


def test_readme_authority_table_is_the_measured_table():
    confirmer = default_confirmer()
    measured = markdown_table(score_fixture(FIXTURE, confirmer), confirmer.lexicon.version)
    drift = readme_drift(AUTHORITY, measured)
    assert drift == [], "README authority table drifted:\n" + "\n".join(drift)


def test_confirm_command_writes_confirmations_and_a_summary(tmp_path):
    (tmp_path / "items.jsonl").write_text("\n".join(json.dumps({"id": k, "text": v}) for k, v in ITEMS.items()))
    (tmp_path / "proposals.jsonl").write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "id": "q", "confidence": 0.1})
                                              + "\n" + json.dumps({**GOOD, "id": "r", "confidence": "high"}))
    result = CliRunner().invoke(app, ["confirm", str(tmp_path / "items.jsonl"), str(tmp_path / "proposals.jsonl"),
                                      "--output", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["confirmed"] for r in rows] == [True, False, False]
    assert "1 of 3 proposals confirmed; blocked: rule 1 well_formed 2" in result.output


def test_a_nan_confidence_is_refused_in_a_file_and_never_confirmed(tmp_path):
    """Python's JSON reads NaN, standard JSON has none: a file holding one is refused naming its line (so nothing
    written is invalid JSON); given in Python, NaN is no confidence."""
    (tmp_path / "items.jsonl").write_text("\n".join(json.dumps({"id": k, "text": v}) for k, v in ITEMS.items()))
    (tmp_path / "proposals.jsonl").write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "confidence": float("nan")}))
    result = CliRunner().invoke(app, ["confirm", str(tmp_path / "items.jsonl"), str(tmp_path / "proposals.jsonl"),
                                      "--output", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 1 and "proposals.jsonl:2: not standard JSON (NaN is not a JSON value)" in result.output
    assert not (tmp_path / "out.jsonl").exists()
    assert not spacy_factwash.confirm({**GOOD, "confidence": float("nan")}, ITEMS).confirmed


def test_confirm_command_names_a_malformed_line(tmp_path):
    (tmp_path / "items.jsonl").write_text('{"id": "A", "text": "x"}\n{oops\n')
    (tmp_path / "proposals.jsonl").write_text("")
    result = CliRunner().invoke(app, ["confirm", str(tmp_path / "items.jsonl"), str(tmp_path / "proposals.jsonl")])
    assert result.exit_code == 1 and "items.jsonl:2: malformed JSON" in result.output


# -- rule 8 on real parses: the shipped tagger and parser trained on UD English EWT


@pytest.fixture(scope="module")
def parsed_confirmer():
    from spacy_factwash.authority.confirm import Confirmer

    return Confirmer(spacy_factwash.load(parse=True))


def test_rule_8_with_a_parser_requires_the_scope_among_the_change_words_arguments(parsed_confirmer):
    confirmer = parsed_confirmer
    items = {"A": "Expense reports must be approved by the team lead.",
             "B": "Effective today, the finance office replaces the team lead as approver of expense reports."}
    result = confirmer.confirm({**GOOD, "scope_terms": ["team lead"]}, items)
    assert result.confirmed and result.reasons[-1].passed is True
    trap = {"A": items["A"], "B": "The finance office replaces the printer, and expense reports stay with the team lead."}
    refused = confirmer.confirm({**GOOD, "scope_terms": ["expense reports"], "quote": trap["B"]}, trap)
    assert not refused.confirmed and refused.blocked_by.rule == 4  # the change word and the scope: two claims


@pytest.mark.parametrize("source", [
    "The cafeteria no longer opens on Sundays, and expense reports are approved by the team lead.",
    "The finance office replaces the printer; expense reports stay with the team lead.",
])
def test_without_a_parser_a_change_word_in_one_claim_never_confirms_a_scope_in_another(source):
    items = {"A": "Expense reports must be approved by the team lead.", "B": source}
    refused = default_confirmer().confirm({**GOOD, "scope_terms": ["expense reports"], "quote": source}, items)
    assert not refused.confirmed and refused.blocked_by.rule == 4 and "one claim" in refused.blocked_by.detail


RULE_8_CASES = [
    # (target rule, source note, scope term, confirmed)
    ("Refunds are issued by cheque.", "Refunds are no longer issued by cheque.", "refunds", True),
    ("Refunds are issued by cheque.",
     "The cafeteria no longer opens on Sundays, and refunds are issued by cheque.", "refunds", False),
    ("Travel requests are approved by the department head.",
     "Effective Monday, travel requests are superseded by the new online form.", "travel requests", True),
    ("Vendor sign-off is done by the security team.",
     "Vendor sign-off transferred to the procurement team this quarter.", "vendor", True),
    ("Vendor sign-off is done by the security team.",
     "The security badge transferred to the procurement team, and vendor sign-off stays put.", "vendor", False),
]


@pytest.mark.parametrize("target, source, scope, confirmed", RULE_8_CASES)
def test_rule_8_on_real_parses(parsed_confirmer, target, source, scope, confirmed):
    """A passive subject (nsubj:pass), an adverbial change word's clause, a participle's noun: arguments; a
    coordinated clause is another claim, refused before the parse is read (rule 4)."""
    result = parsed_confirmer.confirm({**GOOD, "scope_terms": [scope], "quote": source}, {"A": target, "B": source})
    assert result.confirmed is confirmed, result.reasons
    rule, passed = result.reasons[-1].rule, result.reasons[-1].passed
    assert (rule, passed) == (8, True) if confirmed else (rule in (4, 8) and passed is False)


def test_the_fixture_comes_out_the_same_with_rule_8_on_real_parses(parsed_confirmer):
    for case in CASES:
        items = {i["id"]: i["text"] for i in case["items"]}
        plain, parsed = default_confirmer().confirm(case["proposal"], items), parsed_confirmer.confirm(case["proposal"], items)
        assert parsed.confirmed is plain.confirmed, (case["id"], parsed.blocked_by)
        if parsed.confirmed:
            assert parsed.reasons[-1].rule == 8 and parsed.reasons[-1].passed is True
