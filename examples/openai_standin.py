"""An OpenAI-compatible stand-in on 127.0.0.1, so mem0 runs with no key and no network (the example and the tests).

It answers the two endpoints mem0's ``openai`` LLM and embedder call: ``/v1/chat/completions`` with what
``reply(body)`` returns (a dict is sent as JSON text, as a model answering in JSON would), and ``/v1/embeddings``
with ``embed(text)`` for every input, by default ``hashed_words``: a deterministic hashing embedder, so texts that
share words lie close and a search finds them. Point mem0 at ``StandIn.url`` (``openai_base_url``).
"""

import hashlib
import json
import math
import re

from local_server import JSONHandler, LocalServer

DIMS = 64


def hashed_words(text: str, dims: int = DIMS) -> list:
    """A unit vector of ``dims`` numbers from the text's lowercased words, each hashed to a position and a sign."""
    vector = [0.0] * dims
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % dims] += 1.0 if digest[1] % 2 else -1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


def new_messages(body: dict) -> str:
    """The "New Messages" section of a mem0 extraction request: what the caller asked mem0 to add."""
    prompt = body["messages"][-1]["content"]
    return prompt.split("## New Messages\n", 1)[1].split("\n## ", 1)[0] if "## New Messages\n" in prompt else ""


def chat_completion(body: dict, answer) -> dict:
    """An OpenAI chat completion whose message is ``answer`` (a string as it is, anything else as JSON)."""
    content = answer if isinstance(answer, str) else json.dumps(answer)
    return {"id": "c1", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def inputs_of(body: dict) -> list:
    """The texts of an embeddings request (one string or a list)."""
    return [str(text) for text in (body["input"] if isinstance(body["input"], list) else [body["input"]])]


def embedding_list(body: dict, vectors: list) -> dict:
    """An OpenAI embeddings response holding ``vectors``, in the request's order."""
    return {"object": "list", "model": body.get("model", "e"), "usage": {"prompt_tokens": 1, "total_tokens": 1},
            "data": [{"object": "embedding", "index": i, "embedding": vector} for i, vector in enumerate(vectors)]}


class StandIn(LocalServer):
    """Serve ``reply`` (a value, or a function of the request body) to every chat completion and ``embed(text)`` to
    every embedding request, on 127.0.0.1 at a free port while used as a context manager."""

    def __init__(self, reply, embed=hashed_words) -> None:
        self.reply = reply
        self.embed = embed
        standin = self

        class Handler(JSONHandler):
            def do_POST(self):
                body = self.read_json()
                if self.path.endswith("/chat/completions"):
                    standin.chat(self, body)
                elif self.path.endswith("/embeddings"):
                    standin.embeddings(self, body)
                else:
                    self.send_json(404, {})

        super().__init__(Handler)
        self.url = f"{self.root}/v1"

    def chat(self, handler: JSONHandler, body: dict) -> None:
        """Answer a chat completion request."""
        handler.send_json(200, chat_completion(body, self.reply(body) if callable(self.reply) else self.reply))

    def embeddings(self, handler: JSONHandler, body: dict) -> None:
        """Answer an embeddings request."""
        handler.send_json(200, embedding_list(body, [self.embed(text) for text in inputs_of(body)]))
