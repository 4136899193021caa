"""The LLM hook: mem0's extraction call intercepted, its reply read exactly as mem0 reads it, and gated.

``add(messages)`` (``infer=True``) makes mem0 ask its LLM for facts once, with the session's last messages
beside the call's: ``SessionHistory`` hands the write what mem0 read of them (its own ``get_last_messages``
call), so each fact is gated against everything the extraction read (``context.py``). The wrapper replaces the Memory's
LLM with ``GatedLLM``, which hands the reply of that call to the write that asked for it (found through a
context variable, so threads and asyncio tasks sharing one wrapper never see each other's facts). The write
gates every fact the reply holds and gives mem0 back only the facts the policy stores with the provenance all
of them share; the others are stored verbatim afterwards, held or dropped (``adding.py``). A fact is given back
to mem0 as its text and the fields mem0 stores beside it that the gate kept (``attributed_to``, when it names
who provided the fact); every field of the reply item is recorded in the fact's decision. A reply mem0 could
not read stores nothing and is audited with the raw reply, and so is an extraction made outside a gated write
(through the naked ``wrapped.memory``): none of its facts is stored.

Reading a reply as mem0 (2.x) does: mem0 strips an enclosing code fence and any ``<think>`` block
(``mem0.memory.utils.remove_code_blocks``), parses the rest as JSON (``strict=False``), and when that fails
parses what ``extract_json`` finds: the inside of a ```json fence anywhere, else the text from the first ``{``
to the last ``}``. Whatever parses, its ``"memory"`` list is what mem0 would store. ``read_extraction`` runs
mem0's own helpers in mem0's own order, so every fact mem0 could read is read here, and gated; a reply it
could not read stores nothing either way.
"""

import contextvars
import json
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .decisions import Call
from .policy import PolicyActions

EMPTY_EXTRACTION = json.dumps({"memory": []})
CURRENT_CALL: contextvars.ContextVar = contextvars.ContextVar("factwash_gated_call", default=None)
_WATCHING = threading.Lock()


class Withheld(Exception):
    """Raised through mem0 to stop its own write of a procedural summary the policy does not let it store."""


@dataclass
class Extraction:
    """The facts an extraction reply holds (``{"text": ...}`` objects with a non-empty string text), the items
    of its list that are not such facts, and why nothing could be read (None when the reply was read)."""

    facts: List[Dict[str, Any]] = field(default_factory=list)
    unreadable: List[Any] = field(default_factory=list)
    error: Optional[str] = None


def read_extraction(reply: Any) -> Extraction:
    """The reply read the way mem0 2.x reads it (``Memory._add_to_vector_store``)."""
    from mem0.memory.utils import extract_json, remove_code_blocks

    try:
        text = remove_code_blocks(reply)
        if not text or not text.strip():
            return Extraction()
        try:
            listed = json.loads(text, strict=False).get("memory", [])
        except json.JSONDecodeError:
            listed = json.loads(extract_json(text), strict=False).get("memory", [])
    except Exception as err:  # mem0 catches every error here too, and reads no fact
        return Extraction(error=f"{type(err).__name__}: {err}")
    if not listed:
        return Extraction()
    if not isinstance(listed, list):
        return Extraction(error=f"'memory' is {type(listed).__name__}, not a list")
    extraction = Extraction()
    for item in listed:
        text = item.get("text") if isinstance(item, dict) else None
        if isinstance(text, str) and text:
            extraction.facts.append(item)
        else:
            extraction.unreadable.append(item)
    return extraction


class Forwarding:
    """Another object in everything but the methods a subclass defines (mem0's LLM, its history store)."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def __getattr__(self, name: str):
        """What the subclass does not define is the wrapped object's own."""
        return getattr(self._inner, name)


class SessionHistory(Forwarding):
    """mem0's history store, handing the session messages its extraction reads to the gated write in flight."""

    def get_last_messages(self, *args, **kwargs):
        """mem0's read of the session's last messages, kept by the write that made it."""
        messages = self._inner.get_last_messages(*args, **kwargs)
        call = CURRENT_CALL.get()
        if call is not None:
            call.history = [dict(message) for message in messages]
        return messages


def watch_history(memory) -> None:
    """Put ``SessionHistory`` around the Memory's history store (again after mem0 replaced it, as ``reset`` does)."""
    with _WATCHING:
        if getattr(memory, "db", None) is not None and not isinstance(memory.db, SessionHistory):
            memory.db = SessionHistory(memory.db)


class GatedLLM(Forwarding):
    """mem0's LLM, with every reply that becomes a memory passed through the gate of the write that asked for it."""

    def __init__(self, llm, owner: "HookedWrites") -> None:
        super().__init__(llm)
        self._owner = owner

    def generate_response(self, *args, **kwargs):
        """mem0's call to its LLM; an extraction or procedural reply is gated before mem0 reads it."""
        reply = self._inner.generate_response(*args, **kwargs)
        call = CURRENT_CALL.get()
        extraction = kwargs.get("response_format") == {"type": "json_object"}
        if call is None:
            return self._owner._extraction_outside_gate(reply) if extraction else reply
        if call.path == "procedural":
            return self._owner._gate_procedural(call, reply)
        return self._owner._filter_extraction(call, reply) if extraction else reply


class HookedWrites(PolicyActions):
    """What the hook does with a reply inside mem0's own write."""

    def _extraction_outside_gate(self, reply: Any) -> str:
        """mem0 asked its LLM for facts outside a gated write (the naked Memory's add): none of them is stored."""
        self.audit.write({"event": "unreadable", "call": None, "path": "outside_gate", "reply": reply,
                          "reason": "mem0 extracted facts outside a gated write; none was stored"})
        return EMPTY_EXTRACTION

    def _filter_extraction(self, call: Call, reply: Any) -> str:
        """The extraction reply mem0 gets: only the facts the policy stores with the call's shared provenance."""
        extraction = read_extraction(reply)
        if extraction.error or extraction.unreadable:
            self.audit.write({"event": "unreadable", "call": call.id, "path": call.path, "reply": reply,
                              "reason": extraction.error or "list items that are not facts with a string text",
                              "items": extraction.unreadable})
        kept = []
        for fact in extraction.facts:
            decision = self._decide(call, call.path, call.source, fact["text"], extracted=fact)
            if self._route(call, decision):
                kept.append({"text": fact["text"], **decision.reply_fields})
        return json.dumps({"memory": kept})

    def _gate_procedural(self, call: Call, reply: Any) -> Any:
        """A procedural summary: gated like a fact; mem0 writes it only when the policy stores it as it shares."""
        from mem0.memory.utils import remove_code_blocks

        summary = remove_code_blocks(reply)
        if not summary:
            return reply  # mem0 refuses an empty summary itself; nothing is stored
        decision = self._decide(call, call.path, call.source, summary)
        if self._route(call, decision):
            return reply
        raise Withheld(decision.decision)
