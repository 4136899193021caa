"""wrap(): gate a mem0 store, so a fact is checked against its source before it is embedded or stored.

mem0 (2.x) writes on three paths, and each is gated:

- ``add(messages)`` (infer=True): mem0 asks its LLM for facts once; the
  wrapper sits between that reply and the store, gates every fact against
  the messages, and hands mem0 only the facts the policy stores. Facts the
  policy stores as unverified are added afterwards through the verbatim path
  with ``factwash_verification: unverified`` in their metadata.
- ``add(messages, infer=False, source=...)``: each message is stored as it
  is; given a ``source``, each is first gated against it.
- ``update(memory_id, text)``: the new text is gated against the old one.

A fact held for a ``rewrite`` verdict is, when a fixer is configured
(``models.fixer.Fixer``), rewritten by the model and stored only if the
rewrite passes the same gate against the same source. With a review
(``models.review.Review``), each report first passes the model components,
so a witness can lower a verdict the lexicon got wrong (never raise one).

Nothing is lost: every decision, with its report, is appended to an audit
log (JSONL); a rejected or held fact is kept there. Provenance travels with
each stored fact: the messages are a user-statement item, each fact an item
derived from them (``provenance.Store``), and the fact's verification
(never above its source's, lowered by a dropped hedge or attribution or an
unchecked alignment) and source item go into its metadata. mem0 is an
optional extra and is imported only by this module.
"""

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .provenance import Item, Store, Verification

ACTIONS = ("store", "store_unverified", "hold", "drop")
DEFAULT_POLICY = {"pass": "store", "uncheckable": "store_unverified", "rewrite": "hold", "reject": "drop"}
VERIFICATION_KEY = "factwash_verification"
SOURCE_KEY = "factwash_source"


def _no_model_downloads() -> None:
    """mem0 downloads a spaCy model at run time when spaCy is installed; turn that off (BM25 then uses the text)."""
    try:
        from mem0.utils import spacy_models
    except ImportError:
        return
    spacy_models._load_failed_full = True
    spacy_models._load_failed_lemma = True


def messages_text(messages: Union[str, Sequence[Mapping[str, Any]]]) -> str:
    """The source a fact is checked against: the messages' contents, system messages left out."""
    if isinstance(messages, str):
        return messages
    return "\n".join(str(m.get("content", "")) for m in messages if isinstance(m, Mapping) and m.get("role") != "system")


class _GatedLLM:
    """mem0's LLM with its extraction reply filtered through the gate."""

    def __init__(self, llm, owner: "GatedMemory") -> None:
        self._llm = llm
        self._owner = owner

    def __getattr__(self, name: str):
        return getattr(self._llm, name)

    def generate_response(self, *args, **kwargs):
        reply = self._llm.generate_response(*args, **kwargs)
        if self._owner._source is None or kwargs.get("response_format") != {"type": "json_object"}:
            return reply
        return self._owner._filter_extraction(reply)


class GatedMemory:
    """A mem0 ``Memory`` whose writes pass the gate first; everything else is the Memory's own."""

    def __init__(self, memory, gate, audit_log: Union[str, Path], policy: Optional[Mapping[str, str]] = None,
                 fixer=None, review=None) -> None:
        policy = dict(DEFAULT_POLICY if policy is None else policy)
        if set(policy) != set(DEFAULT_POLICY) or not set(policy.values()) <= set(ACTIONS):
            raise ValueError(f"policy must map each of {sorted(DEFAULT_POLICY)} to one of {ACTIONS}, got {policy}")
        _no_model_downloads()
        self.memory = memory
        self.gate = gate
        self.policy = policy
        self.audit_log = Path(audit_log)
        self.fixer = fixer
        self.review = review
        self._source: Optional[str] = None
        self._deferred: List[Tuple[str, Dict[str, str]]] = []
        self._accepted: Dict[str, Dict[str, str]] = {}
        self.provenance = Store()
        memory.llm = _GatedLLM(memory.llm, self)

    def __getattr__(self, name: str):
        return getattr(self.memory, name)

    def _log(self, record: Dict[str, Any]) -> None:
        with self.audit_log.open("a", encoding="utf8") as log:
            log.write(json.dumps({"time": time.time(), **record}, ensure_ascii=False) + "\n")

    def _decide(self, path: str, source: str, fact: str) -> Tuple[str, Dict[str, str], Any]:
        """Gate one fact, record its provenance, log the decision with its report; the action, metadata, report."""
        source_doc, fact_doc = self.gate.nlp.pipe([source, fact])
        report = self.gate.compare(source_doc, fact_doc)
        if self.review is not None:  # a witness may lower the verdict, never raise it
            report = self.review(report, source_doc, fact_doc)
        action = self.policy[report.verdict]
        source_id = "src:" + hashlib.sha1(source.encode("utf8")).hexdigest()[:12]
        if source_id not in self.provenance.items:
            self.provenance.add(Item(source_id, source, "user_statement", path, verification=Verification.ATTRIBUTED))
        derived = self.provenance.derive(
            Item(f"fact:{len(self.provenance.items)}", fact, "model_inference", path,
                 verification=Verification.ATTRIBUTED),
            [source_id], [c.type for c in report.changes], unchecked=report.verdict == "uncheckable")
        provenance = {VERIFICATION_KEY: derived.verification.name.lower(), SOURCE_KEY: source_id}
        self._log({"path": path, "fact": fact, "verdict": report.verdict, "action": action,
                   "provenance": provenance, "report": report.to_dict()})
        return action, provenance, report

    def _fixed(self, source: str, fact: str, report) -> Optional[Tuple[str, Dict[str, str]]]:
        """With a fixer, a held rewrite's proposal and provenance when the proposal passes the gate; both logged."""
        if self.fixer is None or report.verdict != "rewrite":
            return None
        fix = self.fixer.fix(self.gate, source, fact, report)
        self._log({"path": "fix", "fact": fact, "proposal": fix.proposal, "accepted": fix.accepted,
                   "reason": fix.reason, "model": fix.model, "prompt": fix.prompt,
                   "proposal_report": fix.proposal_report.to_dict() if fix.proposal_report else None})
        if not fix.accepted:
            return None
        _, provenance, _ = self._decide("fix", source, fix.proposal)
        return fix.proposal, provenance

    def _filter_extraction(self, reply: str) -> str:
        """Keep in mem0's extraction reply only the facts the policy stores now; defer the unverified ones."""
        try:
            facts = json.loads(reply).get("memory", [])
        except (json.JSONDecodeError, AttributeError):
            return reply  # mem0 parses (and refuses) what it cannot read; nothing is stored from it
        kept = []
        for fact in facts:
            text = fact.get("text") if isinstance(fact, dict) else None
            if not isinstance(text, str):
                continue
            action, provenance, report = self._decide("add", self._source, text)
            if action == "store":
                kept.append(fact)
                self._accepted[text] = provenance
            elif action == "store_unverified":
                self._deferred.append((text, provenance))
            elif action == "hold":
                fixed = self._fixed(self._source, text, report)
                if fixed is not None:
                    self._deferred.append(fixed)
        return json.dumps({"memory": kept})

    def add(self, messages, *, infer: bool = True, source: Optional[str] = None,
            metadata: Optional[Dict[str, Any]] = None, **kwargs) -> Dict[str, Any]:
        """Add messages through the gate; see the module docstring for each path."""
        if not infer:
            return self._add_verbatim(messages, source, metadata, **kwargs)
        self._source, self._deferred, self._accepted = source or messages_text(messages), [], {}
        try:
            result = self.memory.add(messages, infer=True, metadata=metadata, **kwargs)
        finally:
            self._source = None
        for stored in result.get("results", []):
            if stored.get("memory") in self._accepted:  # mem0 shares one metadata dict per call: add each fact's own
                self.memory.update(stored["id"], metadata=self._accepted[stored["memory"]])
        unverified = [self._store_marked(text, metadata, provenance, **kwargs) for text, provenance in self._deferred]
        results = list(result.get("results", [])) + [r for found in unverified for r in found.get("results", [])]
        return {**result, "results": results}

    def _store_marked(self, text: str, metadata: Optional[Dict[str, Any]], provenance: Dict[str, str],
                      **kwargs) -> Dict[str, Any]:
        """Store one gated fact verbatim with its provenance in the metadata."""
        marked = {**(metadata or {}), **provenance}
        return self.memory.add([{"role": "user", "content": text}], infer=False, metadata=marked, **kwargs)

    def _add_verbatim(self, messages, source: Optional[str], metadata: Optional[Dict[str, Any]], **kwargs):
        """infer=False: store messages as they are; with a source, gate each against it first."""
        if source is None:
            return self.memory.add(messages, infer=False, metadata=metadata, **kwargs)
        results = []
        listed = [{"role": "user", "content": messages}] if isinstance(messages, str) else list(messages)
        for message in listed:
            action, provenance, _ = self._decide("add_verbatim", source, str(message.get("content", "")))
            if action in ("store", "store_unverified"):
                results += self._store_marked(str(message["content"]), metadata, provenance, **kwargs).get("results", [])
        return {"results": results}

    def update(self, memory_id: str, text: Optional[str] = None, **kwargs):
        """Gate the new text against the memory it replaces; the policy decides whether it is written."""
        if text is None:
            return self.memory.update(memory_id, **kwargs)
        old = self.memory.get(memory_id)
        if not old:
            raise ValueError(f"no memory {memory_id!r} to update")
        action, provenance, _ = self._decide("update", old["memory"], text)
        if action in ("hold", "drop"):
            return {"message": f"not updated: the gate's policy says {action}", "memory_id": memory_id}
        kwargs["metadata"] = {**(kwargs.get("metadata") or {}), **provenance}
        return self.memory.update(memory_id, text=text, **kwargs)
