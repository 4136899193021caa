"""What enabling a model would cost on a set of writes, worked out without calling one.

For (source, memory) pairs, the gate runs as usual and this counts the calls
each component would make, exactly as they would be made: the witness once
per distinct memory sentence flagged for a dropped hedge or attribution (its
replies are cached by sentence), the support judge once per memory sentence
with a word in it when the source is short enough to send. Each call is
priced at the meter's worst case (``budget.worst_case``), the bound a budget
is checked against; the cost line of a real run gives what was spent.
"""

from typing import Dict, Iterable, Optional, Sequence, Tuple

from ..pipes.gate.gate import Gate
from ..pipes.gate.report import Report
from ..syntax.sentences import sentencizer_only
from .budget import worst_case
from .tasks.support import TOOL as SUPPORT_TOOL, SupportJudge, judged_sentences
from .tasks.witness import DISPROVES, TOOL as WITNESS_TOOL, Witness, as_data


def planned_calls(pairs: Iterable[Tuple[str, str]], nlp, model: str,
                  reports: Optional[Sequence[Report]] = None) -> Dict[str, float]:
    """Writes, calls per component and their worst-case dollars, for ``pairs`` gated by ``nlp``; ``reports``: the
    gate's reports on ``pairs`` by ``nlp``, in order, when they were made already (the gate is not run again)."""
    witness, judge = Witness(model=model), SupportJudge(model=model)
    asked = set()
    plan = {"writes": 0, "witness_calls": 0, "witness_usd": 0.0, "support_calls": 0, "support_usd": 0.0}
    pairs = list(pairs)
    with sentencizer_only(nlp):  # the judge's sentences need the memory's tokens and sentence starts only
        memory_docs = list(nlp.pipe(memory for _, memory in pairs))
    reports = Gate(nlp).pipe(pairs) if reports is None else reports
    for (source, _), memory_doc, report in zip(pairs, memory_docs, reports):
        plan["writes"] += 1
        for change in report.changes:
            sentence = change.memory.text
            if change.type in DISPROVES and sentence not in asked:
                asked.add(sentence)
                plan["witness_calls"] += 1
                plan["witness_usd"] += worst_case(
                    model, witness.request_bytes("witness", WITNESS_TOOL, as_data(sentence)), witness.max_tokens)
        if judge.sends(source):
            for sent in judged_sentences(memory_doc):
                plan["support_calls"] += 1
                plan["support_usd"] += worst_case(
                    model, judge.request_bytes("added", SUPPORT_TOOL, judge.content(source, sent.text)),
                    judge.max_tokens)
    return plan
