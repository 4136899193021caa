"""A stand-in for the Anthropic Messages API on 127.0.0.1, for tests that run the real SDK (or a subprocess) offline.

``respond(body, n)`` is called for the n-th request (counted from 1) and
returns a tool input (dict), a full response ``(status, payload, headers)``,
or ``HANG`` to hold the request open until the server stops.
"""

import json
import threading

import pytest
from conftest import in_ci
from local_server import JSONHandler, LocalServer

HANG = "hang"


def sdk_http():
    """The anthropic SDK module and its HTTP package (anthropic 2.x ships on httpx2, earlier releases on httpx)."""
    import anthropic

    try:
        import httpx2 as httpx
    except ImportError:
        import httpx
    return anthropic, httpx


def require_sdk():
    """``sdk_http()`` for a test module: skipped without the models extra, except in CI where it must be there."""
    try:
        return sdk_http()
    except ImportError:
        if in_ci():
            raise  # the README's test command installs the models extra
        pytest.skip("the models extra is not installed: pip install '.[test,models]'", allow_module_level=True)


def mock_client(answers, seen=None, max_retries=0):
    """The real client on a mock transport answering each request in turn (the last answer repeats).

    An answer is a tool input (dict), an ``httpx.Response``, or an exception to raise.
    """
    anthropic, httpx = sdk_http()
    answers = list(answers)

    def handler(request):
        body = json.loads(request.content)
        if seen is not None:
            seen.append(body)
        answer = answers.pop(0) if len(answers) > 1 else answers[0]
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, httpx.Response):
            return answer
        return httpx.Response(200, json=message(body, answer))

    return anthropic.Anthropic(api_key="offline", max_retries=max_retries,
                               http_client=httpx.Client(transport=httpx.MockTransport(handler)))


def message(body: dict, tool_input, usage=(400, 50), stop_reason="tool_use") -> dict:
    """A Messages API reply that calls the request's forced tool with ``tool_input``."""
    content = [] if tool_input is None else [
        {"type": "tool_use", "id": "toolu_1", "name": body["tool_choice"]["name"], "input": tool_input}]
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"], "content": content,
            "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": usage[0], "output_tokens": usage[1]}}


class AnthropicStub(LocalServer):
    """Serve ``respond``'s answers; ``requests`` keeps every request body received."""

    def __init__(self, respond) -> None:
        self.respond = respond
        self.requests = []
        self.stopping = threading.Event()
        stub = self

        class Handler(JSONHandler):
            def do_POST(self):
                body = self.read_json()
                stub.requests.append(body)
                answer = stub.respond(body, len(stub.requests))
                if answer == HANG:
                    stub.stopping.wait()
                    return
                status, payload, headers = answer if isinstance(answer, tuple) else (200, message(body, answer), {})
                self.send_json(status, payload, headers)

        super().__init__(Handler)
        self.url = self.root

    def env(self) -> dict:
        """Environment variables that point the anthropic SDK at this stand-in."""
        return {"ANTHROPIC_API_KEY": "offline-test-key", "ANTHROPIC_BASE_URL": self.url}

    def __exit__(self, *exc):
        self.stopping.set()
        super().__exit__(*exc)
