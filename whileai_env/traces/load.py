"""Traces in: any common export of a deployed agent's runs, as rows of this package's shape.

A trace is a plain row dict, the shape :func:`~whileai_env.simulate` writes: ``prompt``,
``messages``, ``steps`` (``tool``, ``arguments``, ``result``, and ``error`` / ``fault`` / ``ok``
where the call failed), ``final_text``, ``faults``, optionally ``reward``. Other stacks name the
same things differently, so :func:`load_traces` reads ``tool_trace`` / ``trace`` for ``steps``,
``final`` / ``output`` / ``response`` for ``final_text``, and OpenAI-style ``messages`` alone
(tool calls paired with their tool messages by id). ``reward`` is kept only when it is cleanly
0 or 1 (a bool, 0/1, ``"pass"`` / ``"fail"``); a row with neither an ask nor a step carries no
signal and is dropped, and counted on the result's ``dropped``.

>>> traces = load_traces([
...     {"prompt": "where is my order 4412",
...      "tool_trace": [{"name": "get_order", "args": '{"order_id": "4412"}',
...                      "output": {"error": "timeout"}}],
...      "response": "It shipped.", "reward": "0"},
...     {"reward": 1}])
>>> len(traces), traces.dropped, traces[0]["steps"][0]["fault"], traces[0]["reward"]
(1, 1, 'timeout', 0)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from whileai_env.errors import TraceError
from whileai_env.traces.failure import failure_name
from whileai_env.traces.messages import from_messages, text_of

_STEP_KEYS = ("steps", "tool_trace", "trace", "tool_calls")
_FINAL_KEYS = ("final_text", "final", "output", "response", "completion", "answer")
_ASK_KEYS = ("prompt", "input", "query", "question", "instruction")
_REWARD_WORDS = {"pass": 1, "passed": 1, "true": 1, "fail": 0, "failed": 0, "false": 0}
#: Fault kinds the grid can reproduce: a step whose failure is one of these records it as ``fault``.
_FAULTS = frozenset(
    {"timeout", "permission_denied", "stale", "malformed", "rate_limited", "server_error"}
    | {"truncated"}
)


class TraceList(list[dict[str, Any]]):
    """The normalised traces, and ``dropped``: how many input rows carried no usable signal."""

    dropped: int = 0


class TraceStream:
    """The normalised traces of ``source``, read one at a time, so a report or an aim reads a
    file of any length without holding its rows; ``dropped`` counts the rows discarded so far.

    >>> stream = TraceStream([{"prompt": "hi"}, {"reward": 1}])
    >>> [row["prompt"] for row in stream], stream.dropped
    (['hi'], 1)
    """

    def __init__(self, source: Any) -> None:
        self.source = source
        self.dropped = 0
        if not isinstance(source, TraceList | TraceStream):
            _items(source)  # a source of the wrong type fails here, not at the first row

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if isinstance(self.source, TraceList | TraceStream):  # already normalised
            yield from self.source
            self.dropped = self.source.dropped
            return
        self.dropped = 0
        for item in _items(self.source):
            row = normalise_trace(item) if isinstance(item, Mapping) else None
            if row is None:
                self.dropped += 1
            else:
                yield row


def load_traces(source: Any) -> TraceList:
    """Normalise a JSONL path or an iterable of dicts to trace rows (see the module docstring).

    An already-loaded :class:`TraceList` comes back as it is. A JSONL line that is not JSON is a
    :class:`~whileai_env.errors.TraceError` naming the file and line; a line that is not an
    object is dropped and counted.
    """
    if isinstance(source, TraceList):
        return source
    stream = TraceStream(source)
    out = TraceList(stream)
    out.dropped = stream.dropped
    return out


def _items(source: Any) -> Iterable[Any]:
    if isinstance(source, str | os.PathLike):
        return _jsonl(os.fspath(source))
    if isinstance(source, Mapping):
        return [source]
    if not isinstance(source, Iterable):
        raise TraceError(
            f"traces must be a JSONL path or an iterable of dicts, got {type(source).__name__}"
        )
    return source


def _jsonl(path: str) -> Iterable[Any]:
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 - closed by the with below
    except OSError as exc:
        raise TraceError(f"{path}: cannot read the traces ({exc.strerror or exc})") from None
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise TraceError(f"{path}:{number}: not a JSON line ({exc.msg})") from None


def normalise_trace(item: Mapping[str, Any]) -> dict[str, Any] | None:
    """One trace row in the canonical shape, or ``None`` when it has neither an ask nor a step."""
    row = {k: v for k, v in item.items() if k not in (*_STEP_KEYS, *_FINAL_KEYS, *_ASK_KEYS)}
    messages = item.get("messages")
    if not isinstance(messages, list) and isinstance(item.get("prompt"), list):
        messages = item["prompt"]
    parsed = from_messages(messages) if isinstance(messages, list) else None
    raw_steps = next((item[k] for k in _STEP_KEYS if isinstance(item.get(k), list)), None)
    steps = [normalise_step(s, i) for i, s in enumerate(raw_steps or []) if isinstance(s, Mapping)]
    if not steps and parsed is not None:
        steps = [normalise_step(s, i) for i, s in enumerate(parsed.steps)]
    ask = next((item[k] for k in _ASK_KEYS if isinstance(item.get(k), str) and item[k].strip()), "")
    ask = ask or (parsed.prompt if parsed is not None else "")
    if not ask and not steps:
        return None
    final = next((text_of(item[k]) for k in _FINAL_KEYS if text_of(item.get(k))), "")
    row.update(prompt=ask, steps=steps, final_text=final or (parsed.final if parsed else ""))
    row["messages"] = messages if isinstance(messages, list) else []
    row["faults"] = [
        {"index": s["index"], "tool": s["tool"], "kind": s["fault"]} for s in steps if "fault" in s
    ]
    reward = clean_reward(item.get("reward"))
    if reward is None:
        row.pop("reward", None)
    else:
        row["reward"] = reward
    return row


def normalise_step(step: Mapping[str, Any], index: int) -> dict[str, Any]:
    """One tool call as a row step: ``index``, ``tool``, ``arguments`` (JSON text parsed),
    ``result``, and ``ok: False`` with ``error`` (and ``fault`` when the grid can reproduce it)
    where it failed. Fields the step already had are kept."""
    inner = step.get("function")
    function: Mapping[str, Any] = inner if isinstance(inner, Mapping) else {}
    tool = step.get("tool") or step.get("name") or step.get("tool_name") or function.get("name")
    arguments = _first(step, function, ("arguments", "args", "input", "parameters"))
    result = _first(step, {}, ("result", "output", "response", "observation", "content"))
    out = {
        k: v
        for k, v in step.items()
        if k not in ("name", "tool_name", "function", "args", "input", "parameters")
        and k not in ("output", "response", "observation", "content")
    }
    out.update(
        index=step.get("index", index),
        tool=str(tool or ""),
        arguments=_json_value(arguments) if arguments is not None else {},
        result=_json_value(result),
    )
    name = failure_name(out)
    if name is not None:
        out["ok"] = False
        out.setdefault("error", name)
        if name in _FAULTS:
            out.setdefault("fault", name)
    return out


def _first(step: Mapping[str, Any], fallback: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for source in (step, fallback):
        for key in keys:
            if source.get(key) is not None:
                return source[key]
    return None


def _json_value(value: Any) -> Any:
    """A JSON text parsed (tool arguments and results often travel as strings), else ``value``."""
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def clean_reward(value: Any) -> int | None:
    """``value`` as 0 or 1 when it is cleanly one of them, else ``None``.

    >>> [clean_reward(v) for v in (True, 0.0, "1", "pass", 0.5, None, "maybe")]
    [1, 0, 1, 1, None, None, None]
    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float) and value in (0, 1):
        return int(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("0", "1", "0.0", "1.0"):
            return int(float(word))
        return _REWARD_WORDS.get(word)
    return None
