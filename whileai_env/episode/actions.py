"""Parse an agent's turn into text and tool calls, whatever shape the policy emitted.

Accepted: an OpenAI assistant message dict (``tool_calls``, parallel calls included), its JSON
string, or raw model text with tool calls as ``<tool_call>{...}</tool_call>`` blocks
(Qwen/Hermes templates), a fenced or bare JSON ``{"name", "arguments"}`` object, or a JSON list of
them.

Nothing here raises, and every path is linear in the size of the action: a policy in training
emits anything, and one bad turn must cost the policy a malformed call, not the run. Text is
scanned with ``str.find`` (no backtracking regex), JSON is read through
:mod:`whileai_env._util.bounded_json` (nesting and number length bounded before decoding), an
action over :data:`MAX_ACTION_CHARS` is not read at all, and at most :data:`MAX_CALLS` calls run
per turn. Whatever cannot be read becomes a :class:`ToolCall` with ``error`` set, and its
``arguments`` a string, so the engine answers it with an error the policy can learn from and the
row records it in a schema-valid way.
"""

from __future__ import annotations

import itertools
import json
import re
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.bounded_json import (
    MAX_DEPTH,
    JsonLimitError,
    depth_exceeds,
    loads,
    to_plain,
    type_name,
)

#: Most characters in one action (text, or all the strings of a message dict together).
MAX_ACTION_CHARS = 262_144
#: Most tool calls run in one turn; the rest are answered by one malformed call saying so.
MAX_CALLS = 64
#: Longest tool name or call id read as given (a spec's names have at most 64 characters).
MAX_NAME_CHARS = 128
#: Deepest nesting of a message dict around its arguments (message, tool_calls, [i], function).
_ENVELOPE_DEPTH = MAX_DEPTH + 4
_OPEN, _CLOSE = "<tool_call>", "</tool_call>"
_BODY = r"(?:[^`]|`(?!``))*?"  # anything up to the next fence, lazily
_FENCED = re.compile(rf"```(?:json|tool_call|tool)?\s*+(\{{{_BODY}\}}|\[{_BODY}\])\s*+```")
_OPEN_FENCE = re.compile(rf"```(?:json|tool_call|tool)?\s*+([{{\[]{_BODY})```")
_PREVIEW = reprlib.Repr()
_TOOL_NAME = re.compile(r"[A-Za-z_][\w.:-]{0,127}")
_PREVIEW.maxstring = _PREVIEW.maxother = 120


@dataclass(frozen=True)
class ToolCall:
    """One call as the agent sent it. ``arguments`` is a dict, or (when malformed) a string."""

    id: str
    name: str
    arguments: Any
    error: str | None = None

    def to_openai(self) -> dict:
        """The call in OpenAI shape; ``arguments`` as JSON text (never raises)."""
        args = self.arguments
        if isinstance(args, str):
            text = args
        else:
            try:
                text = json.dumps(args, ensure_ascii=False, default=str)
            except Exception:
                text = f"<arguments that cannot be written as JSON: {type_name(args)}>"
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": text},
        }


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


# ---------------------------------------------------------------------------------------------
# Malformed values


def preview(value: Any) -> str:
    """A short, printable description of any value, as the arguments of a malformed call.

    Never raises and never reads as a JSON object, so the world can only reject it.
    """
    try:
        text = _PREVIEW.repr(value)
    except Exception:
        text = f"<{type_name(value)}>"
    return text if not text.lstrip().startswith("{") else f"<{text}>"


def _malformed(call_id: str, reason: str, raw: Any = None, name: str = "") -> ToolCall:
    """A call that could not be read: ``raw`` kept as text when it is text, previewed otherwise."""
    arguments = raw if isinstance(raw, str) else preview(raw)
    return ToolCall(call_id, name, arguments, reason)


def _malformed_action(prefix: str, reason: str, raw: Any = None) -> Action:
    """A whole turn that could not be read: one malformed call that says why."""
    return Action(content="", tool_calls=(_malformed(f"{prefix}_0", reason, raw),))


def _unread(raw: str, reason: str) -> str:
    """What a call records for argument text it refused to decode: not JSON, so the world
    rejects it too (the raw text might decode there, past this module's limits)."""
    return f"<not read ({reason}): {raw[:200]}>"


def _json_text(value: Any) -> str:
    """Plain JSON ``value`` as text (it came through :func:`to_plain` or ``json.loads``)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except Exception:
        return preview(value)


# ---------------------------------------------------------------------------------------------
# Calls


def _decode_arguments(raw: Any) -> tuple[Any, str | None]:
    """``(arguments, error)``: a dict and ``None``, or the arguments as text and why they fail."""
    if raw is None:
        return {}, None
    if isinstance(raw, dict):
        if depth_exceeds(raw, MAX_DEPTH):
            return preview(raw), f"arguments are nested deeper than {MAX_DEPTH} levels"
        return raw, None
    if not isinstance(raw, str):
        return _json_text(raw), f"arguments must be a JSON object, got {type_name(raw)}"
    if not raw.strip():
        return {}, None
    try:
        value = loads(raw)
    except JsonLimitError as exc:
        return _unread(raw, str(exc)), f"arguments are not readable JSON: {exc}"
    except json.JSONDecodeError as exc:
        return raw, f"arguments are not valid JSON ({exc.msg} at position {exc.pos})"
    if isinstance(value, dict):
        return value, None
    return raw, f"arguments must be a JSON object, got {type_name(value)}"


def _short_string(value: Any) -> str | None:
    """``value`` when it is a non-empty string short enough to be a name or an id."""
    return value if isinstance(value, str) and 0 < len(value) <= MAX_NAME_CHARS else None


def _call_from_mapping(item: Any, call_id: str) -> ToolCall:
    """One call from plain JSON (OpenAI ``{"function": {...}}`` or bare ``{"name", ...}``)."""
    if not isinstance(item, dict):
        return _malformed(
            call_id, f"a tool call must be an object, got {type_name(item)}", _json_text(item)
        )
    cid = _short_string(item.get("id")) or call_id
    function = item.get("function")
    body: dict[str, Any] = function if isinstance(function, dict) else item
    name = body.get("name")
    raw_args = body.get("arguments", body.get("parameters", body.get("args")))
    arguments, error = _decode_arguments(raw_args)
    if isinstance(name, str) and len(name) > MAX_NAME_CHARS:
        error = (
            f"the function name is {len(name):,} characters long (the limit is {MAX_NAME_CHARS})"
        )
        return ToolCall(cid, name[:MAX_NAME_CHARS], arguments, error)
    if not isinstance(name, str) or not name:
        return ToolCall(cid, "", arguments, "the tool call has no function name")
    return ToolCall(cid, name, arguments, error)


def _is_call(value: Any) -> bool:
    return isinstance(value, Mapping) and (
        (
            ("name" in value or "function" in value)
            and ("arguments" in value or "parameters" in value or "function" in value)
        )
        or _is_bare_call(value)
    )


def _is_bare_call(value: Mapping[Any, Any]) -> bool:
    """``{"name": "list_calendars"}``: a call of a tool that takes no arguments, as models often
    write one (the name alone, and a name a tool could have, not a sentence)."""
    name = value.get("name") if len(value) == 1 else None
    return isinstance(name, str) and _TOOL_NAME.fullmatch(name) is not None


def _calls_from_json(value: Any, prefix: str) -> list[ToolCall] | None:
    if _is_call(value):
        return [_call_from_mapping(value, f"{prefix}_0")]
    if isinstance(value, list) and value and all(_is_call(v) for v in value):
        return [_call_from_mapping(v, f"{prefix}_{i}") for i, v in enumerate(value)]
    return None


def _capped(calls: list[ToolCall], prefix: str, more: bool = False) -> list[ToolCall]:
    """At most :data:`MAX_CALLS` calls, then (when there were more, or ``more`` says so) one
    malformed call saying the rest were not run."""
    if len(calls) <= MAX_CALLS and not more:
        return calls
    note = _malformed(
        f"{prefix}_{MAX_CALLS}",
        f"more than {MAX_CALLS} tool calls in one turn; the calls "
        f"after the first {MAX_CALLS} were not run",
        "",
    )
    return [*calls[:MAX_CALLS], note]


def _renumber(
    calls: list[ToolCall], prefix: str, keep: frozenset[str] = frozenset()
) -> list[ToolCall]:
    """Unique call ids within the turn, generated ones numbered by position. ``keep`` holds the
    ids a message carried itself: those stay even when they share the prefix ("call_10_0" on
    turn 1), since the transcript and the ledger must carry the same ids."""
    seen: set[str] = set()
    out = []
    for i, call in enumerate(calls):
        own = call.id in keep or not call.id.startswith(prefix)
        cid = call.id if call.id not in seen and own else f"{prefix}_{i}"
        if cid in seen:
            cid = next(
                c
                for j in itertools.count(i)
                if (c := f"{prefix}_{j}") not in seen and c not in keep
            )
        seen.add(cid)
        out.append(ToolCall(cid, call.name, call.arguments, call.error))
    return out


# ---------------------------------------------------------------------------------------------
# Text


def _split_blocks(text: str) -> tuple[list[str], str]:
    """The ``<tool_call>`` blocks of ``text`` (an unclosed one runs to the end) and the text
    around them. Linear: each ``find`` starts where the last one stopped."""
    blocks: list[str] = []
    rest: list[str] = []
    pos = 0
    while True:
        start = text.find(_OPEN, pos)
        if start < 0:
            rest.append(text[pos:])
            break
        rest.append(text[pos:start])
        body = start + len(_OPEN)
        end = text.find(_CLOSE, body)
        blocks.append((text[body:] if end < 0 else text[body:end]).strip())
        if end < 0:
            break
        pos = end + len(_CLOSE)
    return blocks, "".join(rest).strip()


def _block_calls(block: str, call_id: str) -> list[ToolCall]:
    """The calls one ``<tool_call>`` block holds (one malformed call when it is not JSON)."""
    try:
        value = loads(block)
    except JsonLimitError as exc:
        return [_malformed(call_id, f"tool call is not readable JSON: {exc}", block)]
    except json.JSONDecodeError as exc:
        return [_malformed(call_id, f"tool call is not valid JSON ({exc.msg})", block)]
    return _calls_from_json(value, call_id) or [_call_from_mapping(value, call_id)]


def _find_fence(text: str, fenced: re.Pattern[str] = _FENCED) -> tuple[int, int, str] | None:
    """The first fenced block whose body is a JSON object or array: ``(start, end, body)``
    (with ``_OPEN_FENCE``, one that only opens as one: a call cut short).

    One regex search, linear: the body never crosses a fence and the whitespace runs are
    possessive, so a failed attempt costs the text up to the next fence and is never retried.
    """
    found = fenced.search(text)
    return None if found is None else (found.start(), found.end(), found.group(1))


def _parse_text(text: str, prefix: str) -> Action:
    calls: list[ToolCall] | None
    if len(text) > MAX_ACTION_CHARS:
        return _malformed_action(
            prefix,
            f"the action is {len(text):,} characters long (the limit is "
            f"{MAX_ACTION_CHARS:,}); nothing in it was read",
            text[:200],
        )
    if _OPEN in text:
        blocks, content = _split_blocks(text)
        calls = [
            c
            for i, block in enumerate(blocks[:MAX_CALLS])
            for c in _block_calls(block, f"{prefix}_{i}")
        ]
        calls = _capped(calls, prefix, more=len(blocks) > MAX_CALLS)
        return Action(content=content, tool_calls=tuple(_renumber(calls, prefix)))
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            value = loads(stripped)
        except ValueError as exc:  # JSONDecodeError or JsonLimitError: text, unless a call's
            if _names_a_call(stripped):
                return Action(content="", tool_calls=(_unreadable(f"{prefix}_0", exc, stripped),))
            value = None
        if isinstance(value, dict) and value.get("role") == "assistant":
            return _parse_message(value, prefix)
        calls = _calls_from_json(value, prefix)
        if calls is not None:
            return Action(content="", tool_calls=tuple(_capped(calls, prefix)))
    fence = _find_fence(text) or _find_fence(text, _OPEN_FENCE)
    if fence is not None:
        start, end, body = fence
        content = (text[:start] + text[end:]).strip()
        try:
            calls = _calls_from_json(loads(body), prefix)
        except ValueError as exc:
            if _names_a_call(body):  # a call whose JSON is broken: an error the agent sees
                return Action(content=content, tool_calls=(_unreadable(f"{prefix}_0", exc, body),))
            calls = None
        if calls is not None:
            return Action(content=content, tool_calls=tuple(_capped(calls, prefix)))
    return Action(content=text)


#: Keys of a JSON text that names a tool and its arguments: a tool call, even where it does not
#: parse (two searches, each linear).
_NAME_KEY = re.compile(r'"name"\s*+:\s*+"')
_ARGUMENTS_KEY = re.compile(r'"(?:arguments|parameters|args|input)"\s*+:')


def _names_a_call(body: str) -> bool:
    return _NAME_KEY.search(body) is not None and _ARGUMENTS_KEY.search(body) is not None


def _unreadable(call_id: str, exc: ValueError, body: str) -> ToolCall:
    """The malformed call of a tool call written as JSON that does not parse."""
    reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
    return _malformed(call_id, f"tool call is not valid JSON ({reason})", body)


# ---------------------------------------------------------------------------------------------
# Messages


def _content_text(content: Any) -> str:
    """The text of a message's ``content``: a string, or the string parts of a list of parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = (p.get("text") if isinstance(p, dict) else p for p in content)
        return "".join(p for p in parts if isinstance(p, str))
    return _json_text(content)


def _parse_message(message: Any, prefix: str) -> Action:
    """An OpenAI-style assistant message (or a bare call dict), any values inside."""
    try:
        plain = to_plain(message, max_depth=_ENVELOPE_DEPTH, max_items=MAX_ACTION_CHARS)
    except JsonLimitError as exc:
        return _malformed_action(prefix, f"the message cannot be read: {exc}", message)
    text = _content_text(plain.get("content"))
    raw_calls = plain.get("tool_calls")
    if raw_calls is None and _is_call(plain) and "role" not in plain:
        raw_calls = [plain]
    if raw_calls is None:
        return _parse_text(text, prefix) if _OPEN in text else Action(content=text)
    if not isinstance(raw_calls, list):
        raw_calls = [raw_calls]
    calls = [_call_from_mapping(c, f"{prefix}_{i}") for i, c in enumerate(raw_calls[:MAX_CALLS])]
    calls = _capped(calls, prefix, more=len(raw_calls) > MAX_CALLS)
    given = frozenset(
        i
        for c in raw_calls[:MAX_CALLS]
        if isinstance(c, Mapping) and (i := _short_string(c.get("id")))
    )
    return Action(content=text, tool_calls=tuple(_renumber(calls, prefix, given)))


def _checked(action: Action, prefix: str) -> Action:
    """``action`` itself when it is well formed, else the same turn read afresh as a message."""
    content, calls = action.content, action.tool_calls
    if (
        type(content) is str
        and len(content) <= MAX_ACTION_CHARS
        and type(calls) is tuple
        and len(calls) <= MAX_CALLS
        and all(_well_formed(c) for c in calls)
    ):
        return action
    raw_calls = [
        {"id": c.id, "function": {"name": c.name, "arguments": c.arguments}}
        if isinstance(c, ToolCall)
        else c
        for c in _as_list(action.tool_calls)
    ]
    return _parse_message({"content": action.content, "tool_calls": raw_calls}, prefix)


def _well_formed(call: Any) -> bool:
    if not isinstance(call, ToolCall) or type(call.id) is not str or type(call.name) is not str:
        return False
    if type(call.arguments) is str:
        return True
    try:
        to_plain(call.arguments, max_items=MAX_ACTION_CHARS, bytes_as_text=False)
    except JsonLimitError:
        return False
    return type(call.arguments) is dict


def _as_list(value: Any) -> list[Any]:
    try:
        return list(value)[: MAX_CALLS + 1]
    except Exception:
        return [value]


def _parse_any(action: Any, prefix: str) -> Action:
    if isinstance(action, Action):
        return _checked(action, prefix)
    if action is None:
        return Action(content="")
    if isinstance(action, str):
        return _parse_text(action if type(action) is str else str.__str__(action), prefix)
    if isinstance(action, bytes | bytearray | memoryview):
        if len(action) > 4 * MAX_ACTION_CHARS:
            return _malformed_action(
                prefix, f"the action is {len(action):,} bytes long; nothing in it was read"
            )
        return _parse_text(bytes(action).decode("utf-8", errors="replace"), prefix)
    if isinstance(action, Mapping):
        return _parse_message(action, prefix)
    if (
        isinstance(action, list | tuple)
        and action
        and all(isinstance(v, Mapping) for v in action[: MAX_CALLS + 1])
    ):
        return _parse_message({"tool_calls": list(action)}, prefix)
    return _malformed_action(
        prefix, f"the action must be text or an assistant message, got {type_name(action)}", action
    )


def parse_action(action: Any, *, prefix: str = "call") -> Action:
    """Read an agent turn of any accepted shape; never raises, linear time.

    >>> a = parse_action('<tool_call>{"name": "get_order", "arguments": {"order_id": "4412"}}</tool_call>')
    >>> a.tool_calls[0].name, a.tool_calls[0].arguments
    ('get_order', {'order_id': '4412'})
    >>> parse_action(float("nan")).tool_calls[0].error
    'the action must be text or an assistant message, got float'
    """
    try:
        return _parse_any(action, prefix)
    except Exception as exc:  # the last guard: a hostile object's own methods may raise anything
        return _malformed_action(prefix, f"the action could not be read ({type_name(exc)})")
