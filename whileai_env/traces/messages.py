"""A chat transcript read for its ask, its tool calls and its last answer.

OpenAI-style messages (``role``, ``content``, ``tool_calls``, ``tool_call_id``) and the
OpenTelemetry GenAI message shape (``role``, ``parts`` of ``text`` / ``tool_call`` /
``tool_call_response``) both read here, so a trace from either ends up with the same steps.

>>> read = from_messages([
...     {"role": "user", "content": "where is order 4412?"},
...     {"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "get_order",
...         "arguments": "{\\"order_id\\": \\"4412\\"}"}}]},
...     {"role": "tool", "tool_call_id": "c1", "content": "{\\"status\\": \\"shipped\\"}"},
...     {"role": "assistant", "content": "It shipped."}])
>>> read.prompt, read.steps[0]["tool"], read.final
('where is order 4412?', 'get_order', 'It shipped.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ReadMessages:
    """The first user text, the tool calls in order (results attached), the last assistant text,
    and the role of the first non-system message."""

    prompt: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)
    final: str = ""
    opener: str | None = None


def text_of(content: Any) -> str:
    """The text of a message content: a string, or the text parts of a list of parts.

    >>> text_of([{"type": "text", "text": "hi"}, {"type": "text", "content": "there"}])
    'hi\\nthere'
    """
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        return text_of(content.get("text", content.get("content")))
    if isinstance(content, Sequence):
        texts = [
            text_of(part)
            for part in content
            if isinstance(part, str)
            or (isinstance(part, Mapping) and part.get("type", "text") == "text")
        ]
        return "\n".join(t for t in texts if t)
    return ""


def from_messages(messages: Sequence[Any]) -> ReadMessages:
    """Read a transcript (see the module docstring); messages that are not dicts are skipped."""
    read = ReadMessages()
    by_id: dict[Any, dict[str, Any]] = {}
    for message in messages:
        if not isinstance(message, Mapping):
            continue
        role = message.get("role")
        if read.opener is None and role in ("user", "assistant"):
            read.opener = str(role)
        if role == "user" and not read.prompt:
            read.prompt = _text(message)
        elif role == "assistant":
            _assistant(message, read, by_id)
        elif role == "tool":
            _tool_result(message, read, by_id)
    return read


def _text(message: Mapping[str, Any]) -> str:
    return text_of(message["parts"] if "parts" in message else message.get("content"))


def _assistant(message: Mapping[str, Any], read: ReadMessages, by_id: dict) -> None:
    calls = list(message.get("tool_calls") or ())
    calls += [p for p in message.get("parts") or () if _part_type(p) == "tool_call"]
    for call in calls:
        if not isinstance(call, Mapping):
            continue
        inner = call.get("function")
        function: Mapping[str, Any] = inner if isinstance(inner, Mapping) else call
        step = {
            "tool": function.get("name"),
            "arguments": function.get("arguments"),
            "call_id": call.get("id"),
        }
        read.steps.append(step)
        by_id[call.get("id")] = step
    text = _text(message)
    if text.strip():
        read.final = text


def _tool_result(message: Mapping[str, Any], read: ReadMessages, by_id: dict) -> None:
    responses = [p for p in message.get("parts") or () if _part_type(p) == "tool_call_response"]
    if responses:
        for part in responses:
            _attach(by_id.get(part.get("id")), read, part.get("response"))
        return
    _attach(by_id.get(message.get("tool_call_id")), read, message.get("content"))


def _attach(step: dict[str, Any] | None, read: ReadMessages, result: Any) -> None:
    """Put ``result`` on its call, or on the last call still waiting for one."""
    if step is None:
        step = next((s for s in reversed(read.steps) if "result" not in s), None)
    if step is not None:
        step["result"] = result


def _part_type(part: Any) -> str | None:
    return part.get("type") if isinstance(part, Mapping) else None
