"""The OpenAI-compatible stand-in (examples/openai_standin.py) for offline tests of mem0: canned chat replies,
8-number hashed embeddings, every request recorded, and faults on demand.

``reply`` is what every chat completion answers: a dict (sent as JSON), a string (sent as it is), or a
callable given the request body that returns either. ``embedding_fault(text)`` may name a fault for an
embedding request holding ``text``: ``"refuse"`` (a 400 error, as from an embedder that is down) or ``"hang"``
(held open until the server stops, so a test can kill the client mid-write).
"""

import hashlib
import threading

from openai_standin import StandIn, inputs_of

DIMS = 8


def vector(text: str):
    digest = hashlib.sha256(text.encode()).digest()
    return [(b - 128) / 128 for b in digest[:DIMS]]


class Stub(StandIn):
    """The stand-in with its requests recorded (``chat_requests``, ``embedding_inputs``) and embedding faults."""

    def __init__(self, reply, embedding_fault=None) -> None:
        super().__init__(reply, embed=vector)
        self.embedding_fault = embedding_fault
        self.chat_requests = []
        self.embedding_inputs = []
        self.stopping = threading.Event()

    def chat(self, handler, body: dict) -> None:
        self.chat_requests.append(body)
        super().chat(handler, body)

    def embeddings(self, handler, body: dict) -> None:
        inputs = inputs_of(body)
        self.embedding_inputs.extend(inputs)
        faults = {self.embedding_fault(text) for text in inputs} if self.embedding_fault else set()
        if "hang" in faults:
            self.stopping.wait()
        elif "refuse" in faults:
            handler.send_json(400, {"error": {"message": "embedder down", "type": "invalid_request_error"}})
        else:
            super().embeddings(handler, body)

    def __exit__(self, *exc):
        self.stopping.set()
        super().__exit__(*exc)
