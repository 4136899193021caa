"""What a write through the wrapper may carry: text messages, the caller's metadata, and a scope.

A message whose content is not a string (``None``, an image) is an error, never stored as its ``str()``;
so is metadata that sets the ``factwash_`` keys (provenance is the gate's) and a custom ``llm=`` (it would
write without the gate).
"""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ...io.textfile import surrogate_problem

SCOPE_KEYS = ("user_id", "agent_id", "run_id")


def checked_messages(messages: Any) -> List[Dict[str, Any]]:
    """The messages as mem0 takes them (a string, a message, a list of messages), each with a string role and a
    string content that is text; anything else is an error, never stored as its ``str()``."""
    if isinstance(messages, str):
        listed: Sequence = [{"role": "user", "content": messages}]
    elif isinstance(messages, Mapping):
        listed = [messages]
    elif isinstance(messages, list):
        listed = messages
    else:
        raise TypeError(f"messages must be a string, a message or a list of messages, got {type(messages).__name__}")
    for index, message in enumerate(listed):
        if not isinstance(message, Mapping) or not isinstance(message.get("role"), str):
            raise TypeError(f"message {index} needs a string 'role'")
        content = message.get("content")
        if not isinstance(content, str):
            raise TypeError(f"message {index}: content is {type(content).__name__}, not a string; only text is "
                            "gated, so nothing was stored")
        problem = surrogate_problem(content, f"message {index}'s content")
        if problem:
            raise ValueError(problem)
    return [dict(message) for message in listed]


def messages_text(messages: Union[str, Sequence[Mapping[str, Any]]]) -> str:
    """The source a fact is checked against: the messages' contents, system messages left out."""
    if isinstance(messages, str):
        return messages
    return "\n".join(m["content"] for m in messages if m.get("role") != "system")


def checked_metadata(metadata: Any) -> Dict[str, Any]:
    """The caller's metadata; setting a ``factwash_`` key (the gate's provenance) is refused."""
    if metadata is None:
        return {}
    if not isinstance(metadata, Mapping):
        raise TypeError(f"metadata must be a dict, got {type(metadata).__name__}")
    ours = sorted(key for key in metadata if str(key).startswith("factwash_"))
    if ours:
        raise ValueError(f"metadata may not set {ours}: provenance is written by the gate")
    return dict(metadata)


def check_text(value: Any, name: str) -> None:
    """Refuse (``TypeError``, naming it ``name``) a value given that is not a string of text."""
    if value is not None and (not isinstance(value, str) or surrogate_problem(value)):
        raise TypeError(f"{name} must be a string of text")


def update_text(text: Optional[str], data: Optional[str]) -> Optional[str]:
    """An update's new text: ``text``, or ``data`` (mem0's older name for it); both given and different is an
    error."""
    if text is not None and data is not None and text != data:
        raise ValueError("update got both text and data, and they differ")
    return text if text is not None else data


def split_scope(options: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(the scope, the other options) of an add's keyword options; a custom ``llm=`` is refused."""
    if "llm" in options:
        raise TypeError("a custom llm= would write without the gate; wrap a Memory configured with it instead")
    scope = {key: options.pop(key) for key in SCOPE_KEYS if options.get(key) is not None}
    return scope, options
