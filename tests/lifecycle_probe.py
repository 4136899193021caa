"""What a pipeline answers, worked out the same way in the test process and in a fresh interpreter.

``answers(nlp, pairs)`` reads everything the package's data decide: the
lemmas (the lookup table), the cues, their sources and scopes (the cue
lexicon, the clause and scope words, the sense lists with a parse, the
look-alike letters), the claim strength and certainty (the strength lexicon
and its scale) and the gate's reports (the gate's words, units and time
names).

Run as a script (``python lifecycle_probe.py PACKAGE_COPY PIPELINE...``), it
imports the package from ``PACKAGE_COPY`` (a copy of its Python files
without any of its data), refuses every import of spacy-lookups-data, loads
each pipeline (a saved folder, or a ``.pkl`` pickle of one) and prints their
answers as JSON: so a pipeline that read anything of the package's data or
of spacy-lookups-data fails there, and one that carries all of it answers
as it did before it was saved.
"""

import json
import sys
from pathlib import Path

PAIRS = [
    ("Someone said Alice might not get admin access if the audit fails, as of Monday.",
     "Alice gets admin access."),
    ("The cable is 3 km long and cost $5.", "The cable is 3,000 m long and cost 5 USD."),
    ("The cable is about 3 km long.", "The cable is 30 km long."),
    ("The release ships on Friday at 5 pm.", "The release ships on Monday at 17:00."),
    ("The team won at least 5 games, the coach reportedly said.", "The team lost 5 games."),
    ("Smoking is associated with cancer, and we could detect it early.", "Smoking causes cancer."),
    ("The results suggest that the drug is nоt safe.", "The drug is safe."),  # a Cyrillic "о"
    ("Bob, who left, was promoted; the budget was cut back in 2019.", "Bob was promoted."),
]


def answers(nlp, pairs=PAIRS) -> list:
    """Per pair: each text's lemmas, cues, sources, scopes, strength cues and sentence certainties, and the gate's
    report (a JSON-safe list)."""
    import spacy_factwash
    from spacy_factwash.pipes.strength import certainty_level

    def of(doc):
        spans = {key: [[s.start, s.end, s.label_, s.id_, s.kb_id_] for s in doc.spans[key]]
                 for key in sorted(doc.spans) if key.startswith("factwash_")}
        return {"lemmas": [t.lemma_ for t in doc], "spans": spans,
                "certainty": [certainty_level(sent).to_dict() for sent in doc.sents],
                "versions": {key: value for key, value in sorted(doc.user_data.items()) if isinstance(key, str)}}

    found = []
    for source, memory in pairs:
        report = spacy_factwash.inspect(source, memory, nlp=nlp)
        found.append({"source": of(nlp(source)), "memory": of(nlp(memory)), "report": report.to_dict()})
    return json.loads(json.dumps(found))  # as JSON reads it back (tuples as lists)


class NoLookupsData:
    """An import hook refusing spacy-lookups-data: a saved pipeline must carry its lemma table."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".")[0] == "spacy_lookups_data":
            raise ImportError(f"{name}: refused, the pipeline must not read spacy-lookups-data")
        return None


def main(copy: str, pipelines) -> None:
    """Load each pipeline with the package imported from ``copy`` and spacy-lookups-data refused; print answers."""
    import pickle

    import spacy

    sys.meta_path.insert(0, NoLookupsData)
    loaded = [pickle.loads(Path(p).read_bytes()) if p.endswith(".pkl") else spacy.load(p) for p in pipelines]
    import spacy_factwash

    assert Path(spacy_factwash.__file__).resolve().is_relative_to(Path(copy).resolve()), spacy_factwash.__file__
    print(json.dumps([answers(nlp) for nlp in loaded]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
