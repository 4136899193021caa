"""A small OpenAI-compatible server on 127.0.0.1 for offline tests of mem0: canned chat replies, hashed embeddings."""

import hashlib
import json

from local_server import JSONHandler, LocalServer

DIMS = 8


class Stub(LocalServer):
    """Serve ``reply`` to every chat completion and deterministic vectors to every embedding request."""

    def __init__(self, reply: dict) -> None:
        self.reply = reply
        self.chat_requests = []
        stub = self

        class Handler(JSONHandler):
            def do_POST(self):
                body = self.read_json()
                if self.path.endswith("/chat/completions"):
                    stub.chat_requests.append(body)
                    payload = {"id": "c1", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                               "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                   "role": "assistant", "content": json.dumps(stub.reply)}}],
                               "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
                elif self.path.endswith("/embeddings"):
                    inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    payload = {"object": "list", "model": body.get("model", "e"), "data": [
                        {"object": "embedding", "index": i, "embedding": vector(str(text))}
                        for i, text in enumerate(inputs)], "usage": {"prompt_tokens": 1, "total_tokens": 1}}
                else:
                    self.send_json(404, {})
                    return
                self.send_json(200, payload)

        super().__init__(Handler)
        self.url = f"{self.root}/v1"


def vector(text: str):
    digest = hashlib.sha256(text.encode()).digest()
    return [(b - 128) / 128 for b in digest[:DIMS]]
