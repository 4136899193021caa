"""One way to call a model with a forced tool and read the tool's input back, and the settings every component shares."""

from dataclasses import dataclass
from importlib import resources
from typing import Any, Optional

DEFAULT_MODEL = "claude-haiku-4-5"


def anthropic_client(client: Any, timeout: float, max_retries: int):
    """The given client, or one built from the environment's API key (anthropic is imported only here)."""
    if client is not None:
        return client
    import anthropic

    return anthropic.Anthropic(timeout=timeout, max_retries=max_retries)


def call_tool(client: Any, model: str, max_tokens: int, system: str, tool: dict, content: str) -> Optional[Any]:
    """Ask once with ``tool`` forced; the tool's input, or None when the reply holds no tool call."""
    response = client.messages.create(
        model=model, max_tokens=max_tokens, system=system, tools=[tool],
        tool_choice={"type": "tool", "name": tool["name"]}, messages=[{"role": "user", "content": content}],
    )
    blocks = [b for b in response.content if getattr(b, "type", None) == "tool_use"]
    return blocks[0].input if blocks else None


@dataclass
class ModelComponent:
    """Client, model and call settings of a model component; the client is built on the first call."""

    client: Any = None
    model: str = DEFAULT_MODEL
    timeout: float = 30.0
    max_retries: int = 2
    max_tokens: int = 600

    def ask_tool(self, prompt: str, tool: dict, content: str) -> Optional[Any]:
        """Call the model with the prompt file ``prompts/<prompt>.txt`` and ``tool`` forced; the tool's input."""
        self.client = anthropic_client(self.client, self.timeout, self.max_retries)
        system = resources.files("spacy_factwash.models").joinpath(f"prompts/{prompt}.txt").read_text(encoding="utf8")
        return call_tool(self.client, self.model, self.max_tokens, system, tool, content)
