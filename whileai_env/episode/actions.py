"""Parse an agent's turn into text and tool calls, whatever shape the policy emitted.

Accepted: an OpenAI assistant message dict (``tool_calls``, parallel calls included), its JSON
string, or raw model text with tool calls as ``<tool_call>{...}</tool_call>`` blocks
(Qwen/Hermes templates), a fenced or bare JSON ``{"name", "arguments"}`` object, or a JSON list of
them. Nothing here raises: a call that cannot be read becomes a :class:`ToolCall` with
``error`` set, so the engine can answer it with an error the policy can learn from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_TOOL_CALL_BLOCK = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_FENCE = re.compile(r"```(?:json|tool_call|tool)?\s*(\{.*?\}|\[.*?\])\s*```", re.DOTALL)


@dataclass(frozen=True)
class ToolCall:
    """One call as the agent sent it. ``arguments`` is a dict, or the raw value when malformed."""

    id: str
    name: str
    arguments: Any
    error: str | None = None

    def to_openai(self) -> dict:
        args = self.arguments
        text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False, default=str)
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": text}}


@dataclass(frozen=True)
class Action:
    """An agent turn: its text and the tool calls it made, in order."""

    content: str
    tool_calls: tuple[ToolCall, ...] = field(default_factory=tuple)

    def to_message(self) -> dict:
        """The turn as an OpenAI assistant message."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [c.to_openai() for c in self.tool_calls]
        return message


def _decode_arguments(raw: Any) -> tuple[Any, str | None]:
    if raw is None:
        return {}, None
    if isinstance(raw, Mapping):
        return dict(raw), None
    if isinstance(raw, str):
        if not raw.strip():
            return {}, None
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            return raw, f"arguments are not valid JSON ({exc.msg} at position {exc.pos})"
        if isinstance(value, dict):
            return value, None
        return value, f"arguments must be a JSON object, got {type(value).__name__}"
    return raw, f"arguments must be a JSON object, got {type(raw).__name__}"


def _call_from_mapping(item: Any, call_id: str) -> ToolCall:
    if not isinstance(item, Mapping):
        return ToolCall(call_id, "", item, f"a tool call must be an object, got {type(item).__name__}")
    cid = item.get("id") if isinstance(item.get("id"), str) and item.get("id") else call_id
    body = item.get("function") if isinstance(item.get("function"), Mapping) else item
    name = body.get("name")
    raw_args = body.get("arguments", body.get("parameters", body.get("args")))
    arguments, error = _decode_arguments(raw_args)
    if not isinstance(name, str) or not name:
        return ToolCall(cid, "" if not isinstance(name, str) else name, arguments, "the tool call has no function name")
    return ToolCall(cid, name, arguments, error)


def _is_call(value: Any) -> bool:
    return isinstance(value, Mapping) and ("name" in value or "function" in value) and (
        "arguments" in value or "parameters" in value or "function" in value
    )


def _calls_from_json(value: Any, prefix: str) -> list[ToolCall] | None:
    if _is_call(value):
        return [_call_from_mapping(value, f"{prefix}_0")]
    if isinstance(value, list) and value and all(_is_call(v) for v in value):
        return [_call_from_mapping(v, f"{prefix}_{i}") for i, v in enumerate(value)]
    return None


def _parse_text(text: str, prefix: str) -> Action:
    blocks = _TOOL_CALL_BLOCK.findall(text)
    if "<tool_call>" in text:
        calls: list[ToolCall] = []
        for i, block in enumerate(blocks):
            try:
                value = json.loads(block)
            except json.JSONDecodeError as exc:
                calls.append(ToolCall(f"{prefix}_{i}", "", block, f"tool call is not valid JSON ({exc.msg})"))
                continue
            parsed = _calls_from_json(value, f"{prefix}_{i}")
            calls.extend(parsed or [_call_from_mapping(value, f"{prefix}_{i}")])
        content = _TOOL_CALL_BLOCK.sub("", text).strip()
        return Action(content=content, tool_calls=tuple(_renumber(calls, prefix)))
    stripped = text.strip()
    if stripped[:1] in "{[":
        try:
            value = json.loads(stripped)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, Mapping) and value.get("role") == "assistant":
            return parse_action(value, prefix=prefix)
        calls = _calls_from_json(value, prefix)
        if calls is not None:
            return Action(content="", tool_calls=tuple(calls))
    fenced = _FENCE.search(text)
    if fenced:
        try:
            calls = _calls_from_json(json.loads(fenced.group(1)), prefix)
        except json.JSONDecodeError:
            calls = None
        if calls is not None:
            return Action(content=_FENCE.sub("", text, count=1).strip(), tool_calls=tuple(calls))
    return Action(content=text)


def _renumber(calls: list[ToolCall], prefix: str) -> list[ToolCall]:
    seen: set[str] = set()
    out = []
    for i, call in enumerate(calls):
        cid = call.id if call.id not in seen and not call.id.startswith(prefix) else f"{prefix}_{i}"
        seen.add(cid)
        out.append(ToolCall(cid, call.name, call.arguments, call.error))
    return out


def parse_action(action: Any, *, prefix: str = "call") -> Action:
    """Read an agent turn of any accepted shape; never raises.

    >>> a = parse_action('<tool_call>{"name": "get_order", "arguments": {"order_id": "4412"}}</tool_call>')
    >>> a.tool_calls[0].name, a.tool_calls[0].arguments
    ('get_order', {'order_id': '4412'})
    """
    if isinstance(action, Action):
        return action
    if isinstance(action, bytes):
        action = action.decode("utf-8", errors="replace")
    if isinstance(action, str):
        return _parse_text(action, prefix)
    if isinstance(action, Mapping):
        content = action.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
        text = content if isinstance(content, str) else ("" if content is None else str(content))
        raw_calls = action.get("tool_calls")
        if raw_calls is None and _is_call(action) and "role" not in action:
            raw_calls = [action]
        if raw_calls is None:
            return _parse_text(text, prefix) if "<tool_call>" in text else Action(content=text)
        if not isinstance(raw_calls, list):
            raw_calls = [raw_calls]
        calls = [_call_from_mapping(c, f"{prefix}_{i}") for i, c in enumerate(raw_calls)]
        return Action(content=text, tool_calls=tuple(_renumber(calls, prefix)))
    if isinstance(action, list) and action and all(isinstance(v, Mapping) for v in action):
        calls = [_call_from_mapping(c, f"{prefix}_{i}") for i, c in enumerate(action)]
        return Action(content="", tool_calls=tuple(calls))
    return Action(content="" if action is None else str(action))
