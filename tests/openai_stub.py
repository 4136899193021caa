"""A small OpenAI-compatible server on 127.0.0.1 for offline tests of mem0: canned chat replies, hashed embeddings."""

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIMS = 8


class Stub:
    """Serve ``reply`` to every chat completion and deterministic vectors to every embedding request."""

    def __init__(self, reply: dict) -> None:
        self.reply = reply
        self.chat_requests = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
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
                    self.send_response(404)
                    self.end_headers()
                    return
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def vector(text: str):
    digest = hashlib.sha256(text.encode()).digest()
    return [(b - 128) / 128 for b in digest[:DIMS]]
