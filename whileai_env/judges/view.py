"""What a model judge is shown of a row: the conversation as plain text, and nothing privileged
unless asked.

A row's ``messages`` (OpenAI chat format) are written out turn by turn: the agent's system prompt
(its policy, which a rubric often refers to), each user turn, each assistant reply and tool call,
each tool result. A row with no messages is its ``prompt`` and ``final_text``. The privileged
block (the world's hidden state, the reference outcome, the principle at stake) is added only
with ``use_privileged=True``: by default the judge sees exactly what a reader of the transcript
sees. Long texts are cut at :data:`MAX_CHARS` so one huge tool result cannot crowd out the rest.

>>> print(render_row({"prompt": "Cancel order 7", "final_text": "Cancelled."}))
USER: Cancel order 7
ASSISTANT: Cancelled.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: Longest text of one message (or one privileged field) shown to the judge.
MAX_CHARS = 4000
#: The privileged fields a judge may read with ``use_privileged=True`` (not the rubric: that is
#: the judge's own instructions).
PRIVILEGED_FIELDS = ("hidden_state", "reference", "principle")


def render_row(row: Mapping[str, Any], *, use_privileged: bool = False) -> str:
    """The row as the judge reads it (see the module docstring)."""
    messages = row.get("messages")
    if isinstance(messages, list) and messages:
        lines = [line for m in messages if isinstance(m, Mapping) for line in _message_lines(m)]
    else:
        lines = [
            f"USER: {cut_text(row.get('prompt'))}",
            f"ASSISTANT: {cut_text(row.get('final_text'))}",
        ]
    if use_privileged:
        lines += _privileged_lines(row.get("privileged"))
    return "\n".join(lines)


def _message_lines(message: Mapping[str, Any]) -> list[str]:
    role = str(message.get("role") or "")
    text = cut_text(message.get("content"))
    if role in ("system", "developer"):
        return [f"AGENT POLICY (its system prompt): {text}"]
    if role == "tool":
        return [f"TOOL RESULT ({message.get('name') or 'tool'}): {text}"]
    lines = [f"{role.upper()}: {text}"] if text or role != "assistant" else []
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, Mapping) else None
        if isinstance(function, Mapping):
            lines.append(
                f"ASSISTANT CALLS {function.get('name')}({cut_text(function.get('arguments'))})"
            )
    return lines or ["ASSISTANT: "]


def _privileged_lines(block: Any) -> list[str]:
    if not isinstance(block, Mapping):
        return []
    lines = []
    for name in PRIVILEGED_FIELDS:
        value = block.get(name)
        if value not in (None, "", {}, []):
            lines.append(f"PRIVILEGED {name.upper()} (the user never saw this): {cut_text(value)}")
    return lines


def cut_text(value: Any) -> str:
    """``value`` as text (JSON for structures), at most :data:`MAX_CHARS` characters."""
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(p, Mapping) for p in value):
        text = "".join(str(p.get("text", "")) for p in value)  # content parts
    else:
        text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + " [...cut]"
