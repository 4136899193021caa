"""The measurements that share work (a text read once for all its records, Docs of one measurement read by another)
give what the same measurement gives doing all of the work for each record."""

import json

from factwash_dev.evaluation.summedits import DOMAINS, RAW, VARIANTS, score, step_ups
from spacy_factwash.api import load

# seed summaries with several edits each, as SummEdits has them: step-ups to direct causal (with a comparison-only
# seed and with an association seed), plain paraphrases, odd casing, unicode and whitespace, an empty edit
SEEDS = ["Coffee intake is associated with a lower risk of stroke.", "A rise in wages came with lower turnover.",
         "ÉTUDE: les  résultats\u00a0might suggest that sleep is linked to memory.", ""]
EDITS = ["Coffee intake causes a lower risk of stroke.", "Coffee intake is associated with a lower risk of stroke.",
         "COFFEE INTAKE CAUSES A LOWER RISK OF STROKE.", "Higher wages reduce turnover.", "Wages rose.",
         "Sleep improves memory.", "  \t ", "", "A rise in wages caused lower turnover \u2014 and stroke."]


def test_summedits_step_ups_read_each_text_once_as_every_record_alone_would(tmp_path):
    folder = tmp_path / RAW
    folder.mkdir(parents=True)
    records = {domain: [{"original_summary": seed, "summary": edit, "label": (i + j) % 2}
                        for i, seed in enumerate(SEEDS[n % len(SEEDS):] + SEEDS[:n % len(SEEDS)])
                        for j, edit in enumerate(EDITS)] for n, domain in enumerate(DOMAINS)}
    for domain, items in records.items():
        (folder / f"summedits_{domain}.json").write_text(json.dumps(items))
    nlp = load()
    gate = nlp.get_pipe("factwash_compare")
    expected = {}
    for domain, items in records.items():
        groups = {group: {"pairs": 0, **{variant: 0 for variant in VARIANTS}} for group in ("consistent", "inconsistent")}
        for item in items:  # each record alone: both texts annotated and read into claims afresh, for each variant
            counts = groups["consistent" if item["label"] == 1 else "inconsistent"]
            counts["pairs"] += 1
            for variant, from_comparison in VARIANTS.items():
                counts[variant] += bool(step_ups(gate, nlp(item["original_summary"]), nlp(item["summary"]),
                                                 from_comparison))
        expected[domain] = groups
    assert score(tmp_path, nlp) == expected
    assert any(groups[label]["any"] for groups in expected.values() for label in groups)

