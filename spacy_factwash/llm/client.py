"""One way to call a model: a versioned prompt, a forced strict tool, the reply cached and metered.

Every component here (witness, support judge, fixer) asks through
``ModelComponent.ask_tool``: the prompt is read from ``prompts/`` and checked
against its manifest (a prompt edited without a new version is refused, so
a cached or recorded reply always names the prompt that produced it); a
reply cached for exactly this request is returned without a call; otherwise
the meter checks the budget over every attempt the SDK may make and the
run's deadline, the call is made through the anthropic SDK with the tool
forced and ``strict`` (given up when the deadline passes while it is in
flight), its usage is checked and charged (a failed call at its worst case),
and the raw reply is cached. A reply that stopped for anything but its tool
call (``refusal``, ``max_tokens``) is ``unfinished``: the components discard
it whatever it holds.
"""

import json
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Dict, Optional, Tuple

from ..errors import FactwashError
from ..lexicon.frozen import sha256
from .budget import STOPS, DeadlineReached, Meter
from .cache import ReplyCache

DEFAULT_MODEL = "claude-haiku-4-5"
TOOL_STOP = "tool_use"  # the one stop reason of a reply that finished its forced tool call


class PromptError(FactwashError, ValueError):
    """A prompt file that is missing or was edited without a new version."""

    code = "E008"


@dataclass(frozen=True)
class Prompt:
    """A versioned prompt: ``id`` (name and version, e.g. ``witness-v2``) is recorded with every result."""

    name: str
    version: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.name}-v{self.version}"


@lru_cache(maxsize=None)
def load_prompt(name: str) -> Prompt:
    """The current version of prompt ``name`` shipped with the package."""
    return read_prompt(resources.files("spacy_factwash.llm").joinpath("prompts"), name)


def read_prompt(folder: Any, name: str) -> Prompt:
    """Prompt ``name`` from ``folder`` (a path or package resource), checked against its ``manifest.json``."""
    manifest = json.loads(folder.joinpath("manifest.json").read_text(encoding="utf8"))
    if name not in manifest:
        raise PromptError(f"prompts/manifest.json lists no prompt {name!r} (listed: {', '.join(sorted(manifest))})")
    entry = manifest[name]
    file_name = f"{name}.v{entry['version']}.txt"
    try:
        text = folder.joinpath(file_name).read_text(encoding="utf8")
    except FileNotFoundError as err:
        raise PromptError(f"prompts/{file_name}: missing (named by prompts/manifest.json)") from err
    if sha256(text.encode("utf8")) != entry["sha256"]:
        raise PromptError(f"prompts/{file_name}: edited after it was frozen; save the change as "
                          f"{name}.v{entry['version'] + 1}.txt and record it in prompts/manifest.json")
    return Prompt(name, entry["version"], text)


def strict(tool: dict) -> dict:
    """The tool as sent: ``strict``, so the reply's input follows the schema."""
    return {**tool, "strict": True}


def anthropic_client(timeout: float, max_retries: int):
    """A client built from the environment's API key (anthropic is imported only here)."""
    import anthropic

    return anthropic.Anthropic(timeout=timeout, max_retries=max_retries)


@dataclass(frozen=True)
class Reply:
    """A tool call's input (None when the reply held none), why the model stopped, and where the reply came from."""

    input: Optional[Any]
    stop_reason: Optional[str]
    model: str
    prompt: str
    cached: bool = False


def unfinished(reply: Reply) -> bool:
    """Whether a reply stopped for anything but its tool call (a refusal, ``max_tokens``): never to be used."""
    return reply.stop_reason != TOOL_STOP


def within(seconds: float, call: Callable[[], Any]) -> Any:
    """``call()``'s result, or ``DeadlineReached`` when it has not returned after ``seconds`` (it is left to end
    by its own timeout in a daemon thread, its result unread)."""
    outcome: Dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as err:  # handed to the caller below
            outcome["error"] = err

    thread = threading.Thread(target=run, name="factwash-model-call", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise DeadlineReached(f"the model run's deadline passed during a call: it was given up after {seconds:.1f} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@dataclass
class ModelComponent:
    """Client, model, call settings, meter and reply cache of a model component.

    The client is built on the first call that is not answered from the
    cache. ``meter`` may be shared by several components so one budget caps
    a whole run; ``cache`` defaults to one in memory (pass a ``ReplyCache``
    on disk to keep replies between runs).
    """

    client: Any = None
    model: str = DEFAULT_MODEL
    timeout: float = 30.0
    max_retries: int = 2
    max_tokens: int = 600
    meter: Meter = field(default_factory=Meter)
    cache: Optional[ReplyCache] = None
    asked: int = 0
    discarded: int = 0

    def try_ask(self, prompt_name: str, tool: dict, content: str) -> Tuple[Optional[Reply], str]:
        """Ask once and count it: (reply, "") or (None, why the call failed); budget, price and deadline errors
        propagate."""
        try:
            reply, failure = self.ask_tool(prompt_name, tool, content), ""
        except STOPS:
            raise
        except Exception as err:  # a failed call is a discarded reply: the deterministic result stands
            reply, failure = None, f"call failed: {type(err).__name__}: {err}"
        self.asked += 1
        return reply, failure

    def request_bytes(self, prompt_name: str, tool: dict, content: str) -> int:
        """The size of what one call sends (prompt, strict tool, content): the meter's bound on its input tokens."""
        return len((load_prompt(prompt_name).text + json.dumps(strict(tool)) + content).encode("utf8"))

    def request(self, prompt: Prompt, tool: dict, content: str) -> Dict[str, Any]:
        """Everything one call sends: what its cached reply is keyed by."""
        return {"model": self.model, "max_tokens": self.max_tokens, "system": prompt.text, "tools": [strict(tool)],
                "tool_choice": {"type": "tool", "name": tool["name"]},
                "messages": [{"role": "user", "content": content}]}

    def attempts(self) -> int:
        """How many requests one call may send: one, plus the retries of the client that will send it."""
        retries = self.max_retries if self.client is None else getattr(self.client, "max_retries", self.max_retries)
        return 1 + int(retries)

    def send(self, request: Dict[str, Any], seconds_left: Optional[float]):
        """The raw response to one request; with a deadline, each attempt's timeout is cut to the time left and
        the call is given up (``DeadlineReached``) when the time runs out first."""
        create = self.client.messages.with_raw_response.create
        if seconds_left is None:
            return create(**request)
        return within(seconds_left, lambda: create(**request, timeout=min(self.timeout, seconds_left)))

    def ask_tool(self, prompt_name: str, tool: dict, content: str) -> Reply:
        """Ask once with ``tool`` forced; raises ``BudgetExhausted`` or ``DeadlineReached`` (no call made), or
        the SDK's error.

        A call that fails after it may have reached the service (a call given
        up at the deadline too) is charged at its worst case for every attempt
        it could have made; a reply whose usage is impossible is charged the
        same way and raises ``ImpossibleUsage`` (it is neither used nor cached).
        """
        prompt = load_prompt(prompt_name)
        if self.cache is None:
            self.cache = ReplyCache(":memory:")
        request = self.request(prompt, tool, content)
        stored = self.cache.get(request)
        if stored is not None:
            self.meter.cached += 1
            return Reply(stored["input"], stored["stop_reason"], self.model, prompt.id, cached=True)
        size, attempts = self.request_bytes(prompt_name, tool, content), self.attempts()
        self.meter.allow(self.model, size, self.max_tokens, attempts)
        seconds_left = self.meter.seconds_left()
        if self.client is None:
            self.client = anthropic_client(self.timeout, self.max_retries)
        try:
            raw = self.send(request, seconds_left)
            response = raw.parse()
        except Exception as err:
            self.meter.charge_worst(self.model, size, self.max_tokens, attempts)
            self.meter.late += isinstance(err, DeadlineReached)
            raise
        self.meter.charge(self.model, response.usage, size, self.max_tokens, raw.retries_taken)
        blocks = [b for b in response.content if getattr(b, "type", None) == "tool_use" and b.name == tool["name"]]
        reply = {"input": blocks[0].input if blocks else None, "stop_reason": response.stop_reason}
        self.cache.put(request, prompt.id, reply)
        return Reply(reply["input"], reply["stop_reason"], self.model, prompt.id)
