"""The records a run writes, one JSON object per input line: an annotated text's cues, a gated pair's report.

Annotation records are made a batch at a time inside ``nlp.memory_zone()``
(``zones.zone``): everything that leaves the zone is plain data (strings and
numbers), so the words of the batch are forgotten when it ends (but for those
tokenized before it while the vocabulary's budget lasts: ``zones.tokenized``),
and a long stream of new words keeps memory flat. Every executor annotates its
batches through ``annotate_batch``, in this process or on a worker.
"""

from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import minibatch

from ..io.inputs import InputLine, PairLine
from ..io.strict_json import dumps
from ..pipes.cues.extensions import CUES_KEY, LEXICON_DIGEST_KEY, LEXICON_VERSION_KEY, SOURCES_KEY
from ..pipes.gate.report import Report
from ..syntax.links import source_link
from ..syntax.text import doc_text
from ..zones import zone_after_tokenizing

DIGEST = "input_sha256"  # a report record's digest of the input line it answers


def span_dict(span: Span) -> Dict[str, Any]:
    """A span's text and character offsets."""
    return {"text": span.text, "start_char": span.start_char, "end_char": span.end_char}


def cue_dicts(doc: Doc, spans_key: str = CUES_KEY) -> list:
    """The resolved cues of a Doc as JSON-safe dicts: label, text, offsets, entry and source."""
    sources = {s.kb_id_: s for s in doc.spans.get(SOURCES_KEY, [])}
    cues = []
    for span in doc.spans.get(spans_key, []):
        source = sources.get(source_link(span))
        cues.append(
            {"label": span.label_, **span_dict(span), "entry": span.id_,
             "source": span_dict(source) if source is not None else None}
        )
    return cues


def annotation_record(item: InputLine, doc: Doc) -> Dict[str, Any]:
    """The record written for one good input line of ``annotate``."""
    return {
        "line": item.number,
        "id": item.id,
        "status": "ok" if doc_text(doc).strip() else "empty",
        "lexicon_version": doc.user_data.get(LEXICON_VERSION_KEY),
        "lexicon_digest": doc.user_data.get(LEXICON_DIGEST_KEY),
        "cues": cue_dicts(doc),
    }


class EncodedRecord(NamedTuple):
    """An annotation record already written out: its JSONL line (newline included) and whether its text is empty.
    What a worker sends back in place of the record's dict, so that the process writing the file only writes."""

    text: str
    empty: bool


def encoded(record: Dict[str, Any]) -> EncodedRecord:
    """An annotation record as the line ``annotate`` writes for it."""
    return EncodedRecord(dumps(record) + "\n", record["status"] == "empty")


def report_record(line: PairLine, report: Report) -> Dict[str, Any]:
    """The record written for one good pair of ``gate``: its line, id, the line's digest and the report."""
    return {"line": line.number, "id": line.id, DIGEST: line.digest, **report.to_dict()}


def annotate_batch(nlp: Language, batch: List[InputLine], docbin=None,
                   skip_bad_lines: bool = True) -> List[Tuple[InputLine, Optional[Dict]]]:
    """One batch of lines as records (None for a bad line, which is annotated as an empty text), inside one
    memory zone, the texts tokenized before it while the vocabulary's budget lasts (``zones.tokenized``). With a
    ``DocBin``, the good lines' Docs are added to it inside the zone too (without ``skip_bad_lines``, none after
    the first bad line: a run stops there)."""
    with zone_after_tokenizing(nlp, [item.text if item.error is None else "" for item in batch]) as warm:
        results = []
        for doc, item in nlp.pipe(zip(warm, batch), as_tuples=True, batch_size=len(batch) or 1):
            if item.error is not None:
                results.append((item, None))
                docbin = docbin if skip_bad_lines else None
                continue
            results.append((item, annotation_record(item, doc)))
            if docbin is not None:
                docbin.add(doc)
        return results


def annotate_records(nlp: Language, items: Iterable[InputLine], *, batch_size: int = 256, docbin=None,
                     skip_bad_lines: bool = True) -> Iterator[Tuple[InputLine, Optional[Dict]]]:
    """The lines as records in order (None for a bad line), a batch at a time, each in a memory zone."""
    for batch in minibatch(items, batch_size):
        yield from annotate_batch(nlp, batch, docbin, skip_bad_lines)
