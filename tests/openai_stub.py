"""A small OpenAI-compatible server on 127.0.0.1 for offline tests of mem0: canned chat replies, hashed embeddings.

``reply`` is what every chat completion answers: a dict (sent as JSON), a string (sent as it is), or a
callable given the request body that returns either. ``embedding_fault(text)`` may name a fault for an
embedding request holding ``text``: ``"refuse"`` (a 400 error, as from an embedder that is down) or ``"hang"``
(held open until the server stops, so a test can kill the client mid-write).
"""

import hashlib
import json
import threading

from local_server import JSONHandler, LocalServer

DIMS = 8


def new_messages(body: dict) -> str:
    """The "New Messages" section of a mem0 extraction request: what the caller asked mem0 to add."""
    prompt = body["messages"][-1]["content"]
    return prompt.split("## New Messages\n", 1)[1].split("\n## ", 1)[0] if "## New Messages\n" in prompt else ""


class Stub(LocalServer):
    """Serve ``reply`` to every chat completion and deterministic vectors to every embedding request."""

    def __init__(self, reply, embedding_fault=None) -> None:
        self.reply = reply
        self.embedding_fault = embedding_fault
        self.chat_requests = []
        self.embedding_inputs = []
        self.stopping = threading.Event()
        stub = self

        class Handler(JSONHandler):
            def do_POST(self):
                body = self.read_json()
                if self.path.endswith("/chat/completions"):
                    stub.chat_requests.append(body)
                    answer = stub.reply(body) if callable(stub.reply) else stub.reply
                    payload = {"id": "c1", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                               "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                   "role": "assistant",
                                   "content": answer if isinstance(answer, str) else json.dumps(answer)}}],
                               "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
                elif self.path.endswith("/embeddings"):
                    inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    stub.embedding_inputs.extend(map(str, inputs))
                    faults = {stub.embedding_fault(str(text)) for text in inputs} if stub.embedding_fault else set()
                    if "hang" in faults:
                        stub.stopping.wait()
                        return
                    if "refuse" in faults:
                        self.send_json(400, {"error": {"message": "embedder down", "type": "invalid_request_error"}})
                        return
                    payload = {"object": "list", "model": body.get("model", "e"), "data": [
                        {"object": "embedding", "index": i, "embedding": vector(str(text))}
                        for i, text in enumerate(inputs)], "usage": {"prompt_tokens": 1, "total_tokens": 1}}
                else:
                    self.send_json(404, {})
                    return
                self.send_json(200, payload)

        super().__init__(Handler)
        self.url = f"{self.root}/v1"

    def __exit__(self, *exc):
        self.stopping.set()
        super().__exit__(*exc)


def vector(text: str):
    digest = hashlib.sha256(text.encode()).digest()
    return [(b - 128) / 128 for b in digest[:DIMS]]
