"""Messages on the training wire: which encoding tool-call arguments take, which turns are
trained (the ``loss_mask``), and how much tool output a sample may spend context on.

Two encodings, one per wire: ``"json_string"`` (the OpenAI chat-completions API: ``arguments``
is a JSON text) and ``"dict"`` (what Hugging Face chat templates read: they render arguments with
``| tojson``, so a pre-encoded string would be quoted twice).

>>> calls = [{"type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}]
>>> out, bad = wire_messages([{"role": "assistant", "content": None, "tool_calls": calls}], "dict")
>>> out[0]["tool_calls"][0]["function"]["arguments"], bad
({'a': 1}, 0)
>>> loss_mask([{"role": "user"}, {"role": "assistant"}, {"role": "assistant"}], "final")
[0, 0, 1]
>>> truncate_tool_output("abcdefgh", 3)
('abc[... 5 chars of tool output truncated]', 5)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

#: Which assistant turns carry loss: every one, or only the last ("last" is the same as "final").
MASK_MODES = ("assistant", "final", "last")
ENCODINGS = ("json_string", "dict")
_KEPT = ("role", "content", "tool_calls", "tool_call_id", "name")


def truncate_tool_output(text: str, limit: int | None) -> tuple[str, int]:
    """``text`` cut to ``limit`` characters with a marker saying how many went, and that count."""
    if limit is None or len(text) <= limit:
        return text, 0
    cut = len(text) - limit
    return f"{text[:limit]}[... {cut} chars of tool output truncated]", cut


def loss_mask(messages: Sequence[Mapping[str, Any]], mode: str) -> list[int]:
    """One 0/1 per message: 1 on the agent's turns (``"assistant"``) or on its last one only
    (``"final"``/``"last"``); system, user and tool output never train (the environment's text)."""
    if mode not in MASK_MODES:
        raise ValueError(f"mask_mode must be one of {MASK_MODES}, got {mode!r}")
    mask = [int(m.get("role") == "assistant") for m in messages]
    if mode != "assistant" and any(mask):
        last = max(i for i, bit in enumerate(mask) if bit)
        mask = [int(i == last) for i in range(len(mask))]
    return mask


def wire_messages(
    messages: Sequence[Mapping[str, Any]], encoding: str
) -> tuple[list[dict[str, Any]], int]:
    """``messages`` with only the chat keys, text content, and tool-call arguments in
    ``encoding``; returns them with the count of arguments that are not a JSON object."""
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {ENCODINGS}, got {encoding!r}")
    out: list[dict[str, Any]] = []
    invalid = 0
    for message in messages:
        shaped = {k: message[k] for k in _KEPT if message.get(k) is not None}
        shaped["content"] = str(message.get("content") or "")
        calls = []
        for call in message.get("tool_calls") or ():
            wired, ok = _wire_call(call, encoding)
            calls.append(wired)
            invalid += not ok
        if calls:
            shaped["tool_calls"] = calls
        out.append(shaped)
    return out, invalid


def _wire_call(call: Mapping[str, Any], encoding: str) -> tuple[dict[str, Any], bool]:
    found = call.get("function")
    function: Mapping[str, Any] = found if isinstance(found, Mapping) else call
    arguments, ok = _as_object(function.get("arguments"))
    wired: dict[str, Any] = {"type": "function", "function": {"name": str(function.get("name"))}}
    if call.get("id") is not None:
        wired["id"] = call["id"]
    wired["function"]["arguments"] = (
        arguments if encoding == "dict" else json.dumps(arguments, ensure_ascii=False)
    )
    return wired, ok


def _as_object(arguments: Any) -> tuple[dict[str, Any], bool]:
    """Arguments as a dict, and whether they were a JSON object (else kept under ``_raw``)."""
    if isinstance(arguments, Mapping):
        return dict(arguments), True
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return {}, True
    try:
        parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
    except json.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict):
        return parsed, True
    return {"_raw": arguments}, False
