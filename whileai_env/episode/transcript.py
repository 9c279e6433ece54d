"""Render an OpenAI message list as a plain-text transcript (for text policies and ``render``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any


def render_tools(tools: Iterable[Mapping[str, Any]]) -> str:
    """One line per tool: its name, description and argument schema as JSON."""
    lines = []
    for tool in tools:
        fn = tool.get("function", tool)
        params = json.dumps(fn.get("parameters", {}), ensure_ascii=False, sort_keys=True)
        lines.append(f"- {fn['name']}: {fn.get('description', '')} {params}".rstrip())
    return "\n".join(lines)


def render_messages(messages: Iterable[Mapping[str, Any]]) -> str:
    """``role: text`` blocks, tool calls as ``<tool_call>{...}</tool_call>``, results as ``tool[name]:``."""
    blocks = []
    for m in messages:
        role = m.get("role", "?")
        content = m.get("content") or ""
        if role == "tool":
            blocks.append(f"tool[{m.get('name', '')}]: {content}")
            continue
        text = f"{role}: {content}".rstrip()
        for call in m.get("tool_calls") or []:
            fn = call.get("function", {})
            payload = {"name": fn.get("name"), "arguments": _arguments(fn.get("arguments"))}
            text += "\n<tool_call>" + json.dumps(payload, ensure_ascii=False) + "</tool_call>"
        blocks.append(text)
    return "\n\n".join(blocks)


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw
    return raw
