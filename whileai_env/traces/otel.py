"""OpenTelemetry GenAI spans to trace rows: one row per conversation.

Reads the GenAI semantic conventions (opentelemetry.io/docs/specs/semconv/gen-ai/): a span's
``gen_ai.operation.name`` says what it is (``chat`` and the other model calls, ``execute_tool``,
``invoke_agent``); a tool span names its tool in ``gen_ai.tool.name`` with
``gen_ai.tool.call.arguments`` / ``gen_ai.tool.call.result``; a model span carries
``gen_ai.input.messages`` / ``gen_ai.output.messages`` (JSON text of ``role`` + ``parts``) and
``gen_ai.usage.*`` token counts; ``gen_ai.conversation.id`` groups spans into a conversation
(the trace id when none is emitted). A failed tool span (status ``ERROR``) keeps its
``error.type`` or status message as the step's error.

The input is an OTLP JSON document (a file, one ``{"resourceSpans": ...}`` batch, or a list of
them: the OTLP/HTTP JSON encoding, which protobuf's ``json_format`` also writes), or an iterable
of spans: dicts with a flat ``attributes`` mapping, or SDK span objects (``ReadableSpan``). No
OpenTelemetry library is needed to read them.

>>> batch = {"resourceSpans": [{"scopeSpans": [{"spans": [
...     {"traceId": "t1", "spanId": "a", "name": "chat", "startTimeUnixNano": "1",
...      "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
...                     {"key": "gen_ai.input.messages", "value": {"stringValue":
...                      '[{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]'}},
...                     {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "12"}}]}]}]}]}
>>> row = rows_from_otel(batch)[0]
>>> row["prompt"], row["usage"]
('hi', {'input_tokens': 12})
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from whileai_env.errors import TraceError
from whileai_env.traces.load import TraceStream, normalise_trace
from whileai_env.traces.messages import from_messages, text_of

#: Span attributes a 0..1 reward is read from.
REWARD_KEYS = ("whileai.reward",)
_TOOL_OP = "execute_tool"
_AGENT_OPS = frozenset({"invoke_agent", "create_agent", "invoke_workflow"})
_USAGE = "gen_ai.usage."


@dataclass(frozen=True)
class Span:
    """What this reader needs of one span."""

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start: int
    attributes: Mapping[str, Any]
    error: str | None

    @property
    def operation(self) -> str:
        return str(self.attributes.get("gen_ai.operation.name") or "")

    @property
    def conversation(self) -> str:
        return str(self.attributes.get("gen_ai.conversation.id") or self.trace_id)

    @property
    def is_tool(self) -> bool:
        return self.operation == _TOOL_OP or (
            not self.operation and "gen_ai.tool.name" in self.attributes
        )


def rows_from_otel(source: Any, reward_keys: Sequence[str] = REWARD_KEYS) -> list[dict[str, Any]]:
    """One trace row per conversation, in order of each conversation's first span.

    The first user message becomes ``prompt``, tool spans in time order become ``steps``, the
    last assistant output becomes ``final_text``, ``gen_ai.usage.*`` sums into ``usage`` (a span
    whose child spans report usage is not counted twice), and the latest of ``reward_keys``
    seen on a span becomes ``reward`` when it is a number in [0, 1].
    """
    groups: dict[str, list[Span]] = {}
    for span in sorted(read_spans(source), key=lambda s: s.start):
        groups.setdefault(span.conversation, []).append(span)
    rows = []
    for conversation, spans in groups.items():
        row = _conversation_row(conversation, spans, reward_keys)
        if row is not None:
            rows.append(row)
    return rows


def read_spans(source: Any) -> list[Span]:
    """Every span in ``source`` (see the module docstring), in input order."""
    if isinstance(source, str | os.PathLike):
        return [span for batch in _file_batches(os.fspath(source)) for span in _batch(batch)]
    if isinstance(source, Mapping):
        return _batch(source) if "resourceSpans" in source else [_span_of(source, "span 1")]
    if not isinstance(source, Iterable):
        raise TraceError(f"OTLP source must be a path, a batch or spans, got {type(source)}")
    out: list[Span] = []
    for i, item in enumerate(source, 1):
        if isinstance(item, Mapping) and "resourceSpans" in item:
            out.extend(_batch(item, where=f"batch {i}"))
        else:
            out.append(_span_of(item, f"span {i}"))
    return out


def _file_batches(path: str) -> list[Any]:
    """A file of one OTLP JSON document, or of one document per line (a collector's file export)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise TraceError(f"{path}: cannot read the OTLP file ({exc.strerror or exc})") from None
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        pass
    batches = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                batches.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise TraceError(f"{path}:{number}: not OTLP JSON ({exc.msg})") from None
    return batches


def _batch(batch: Any, where: str = "batch") -> list[Span]:
    if not isinstance(batch, Mapping) or not isinstance(batch.get("resourceSpans"), list):
        raise TraceError(f"{where}: an OTLP JSON batch needs a resourceSpans list")
    spans: list[Span] = []
    for resource in batch["resourceSpans"]:
        for scope in (
            resource.get("scopeSpans") or resource.get("instrumentationLibrarySpans") or ()
        ):
            for raw in scope.get("spans") or ():
                spans.append(_span_of(raw, f"{where} span {len(spans) + 1}"))
    return spans


def _span_of(raw: Any, where: str) -> Span:
    """A span from an OTLP JSON span, a flat dict or an SDK span object."""
    if isinstance(raw, Mapping):
        attributes = raw.get("attributes") or {}
        if isinstance(attributes, list):
            attributes = {a.get("key"): any_value(a.get("value")) for a in attributes}
        status = raw.get("status") or {}
        get = raw.get
        context = {}
    else:
        attributes = dict(getattr(raw, "attributes", None) or {})
        status = {"code": getattr(getattr(raw, "status", None), "status_code", None)}
        status["message"] = getattr(getattr(raw, "status", None), "description", None)
        context = _sdk_context(raw)
        get = context.get
    if not isinstance(attributes, Mapping):
        raise TraceError(f"{where}: span attributes must be a list or a mapping")
    return Span(
        trace_id=str(get("traceId") or get("trace_id") or ""),
        span_id=str(get("spanId") or get("span_id") or ""),
        parent_id=str(get("parentSpanId") or get("parent_span_id") or ""),
        name=str(get("name") or ""),
        start=int(get("startTimeUnixNano") or get("start_time") or 0),
        attributes=attributes,
        error=_status_error(status, attributes),
    )


def _sdk_context(span: Any) -> dict[str, Any]:
    context = getattr(span, "context", None)
    parent = getattr(span, "parent", None)
    return {
        "trace_id": format(context.trace_id, "032x") if context is not None else "",
        "span_id": format(context.span_id, "016x") if context is not None else "",
        "parent_span_id": format(parent.span_id, "016x") if parent is not None else "",
        "name": getattr(span, "name", ""),
        "start_time": getattr(span, "start_time", 0),
    }


def _status_error(status: Any, attributes: Mapping[str, Any]) -> str | None:
    code = status.get("code") if isinstance(status, Mapping) else None
    if code not in (2, "STATUS_CODE_ERROR", "ERROR") and "ERROR" not in str(code):
        return None
    return str(attributes.get("error.type") or status.get("message") or "error")


def any_value(value: Any) -> Any:
    """An OTLP JSON ``AnyValue`` as a plain value.

    >>> any_value({"intValue": "3"}), any_value({"arrayValue": {"values": [{"boolValue": True}]}})
    (3, [True])
    """
    if not isinstance(value, Mapping):
        return value
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        return int(value["intValue"])
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "arrayValue" in value:
        return [any_value(v) for v in (value["arrayValue"] or {}).get("values") or ()]
    if "kvlistValue" in value:
        items = (value["kvlistValue"] or {}).get("values") or ()
        return {item.get("key"): any_value(item.get("value")) for item in items}
    return None


def _conversation_row(
    conversation: str, spans: list[Span], reward_keys: Sequence[str]
) -> dict[str, Any] | None:
    model_spans = [s for s in spans if not s.is_tool and s.operation not in _AGENT_OPS]
    inputs = [_messages(s.attributes.get("gen_ai.input.messages")) for s in model_spans]
    outputs = [_messages(s.attributes.get("gen_ai.output.messages")) for s in model_spans]
    transcript = max(inputs, key=len, default=[]) + (outputs[-1] if outputs else [])
    read = from_messages([m for ms in inputs for m in ms])
    finals = [from_messages(out).final for out in outputs]
    row: dict[str, Any] = {
        "trace_id": conversation,
        "prompt": read.prompt,
        "messages": [_openai_message(m) for m in transcript],
        "steps": [_tool_step(s, i) for i, s in enumerate(s for s in spans if s.is_tool)],
        "final_text": next((f for f in reversed(finals) if f), ""),
    }
    agent = next(
        (s.attributes["gen_ai.agent.name"] for s in spans if "gen_ai.agent.name" in s.attributes),
        None,
    )
    if agent is not None:
        row["agent"] = str(agent)
    usage = _usage(spans)
    if usage:
        row["usage"] = usage
    normalised = normalise_trace(row)
    if normalised is None:
        return None
    reward = _reward(spans, reward_keys)
    if reward is not None:
        normalised["reward"] = reward
    return normalised


def _messages(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return [{"role": "user", "content": value}]
    return [m for m in value if isinstance(m, dict)] if isinstance(value, list) else []


def _openai_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """A GenAI message (``parts``) as an OpenAI-style one (``content``: its text)."""
    if "parts" not in message:
        return dict(message)
    return {"role": message.get("role"), "content": text_of(message["parts"])}


def _tool_step(span: Span, index: int) -> dict[str, Any]:
    a = span.attributes
    step: dict[str, Any] = {
        "index": index,
        "tool": str(a.get("gen_ai.tool.name") or span.name.removeprefix("execute_tool ").strip()),
        "arguments": a.get("gen_ai.tool.call.arguments"),
        "result": a.get("gen_ai.tool.call.result"),
    }
    if a.get("gen_ai.tool.call.id") is not None:
        step["call_id"] = str(a["gen_ai.tool.call.id"])
    if span.error is not None:
        step["error"] = span.error
    return step


def _usage(spans: list[Span]) -> dict[str, int | float]:
    """``gen_ai.usage.*`` summed over the spans none of whose children report usage."""
    reporting = [s for s in spans if any(k.startswith(_USAGE) for k in s.attributes)]
    parents = {s.parent_id for s in reporting}
    totals: dict[str, list[float]] = {}
    for span in reporting:
        if span.span_id and span.span_id in parents:
            continue
        for key, value in span.attributes.items():
            if key.startswith(_USAGE) and isinstance(value, int | float):
                totals.setdefault(key.removeprefix(_USAGE), []).append(value)
    return {k: _number(math.fsum(v)) for k, v in totals.items()}


def _number(value: float) -> int | float:
    return int(value) if value.is_integer() else value


def _reward(spans: list[Span], reward_keys: Sequence[str]) -> float | None:
    found = None
    for span in spans:
        for key in reward_keys:
            value = span.attributes.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1:
                found = value
    return found


def load_trace_file(path: str | os.PathLike[str]) -> Iterable[dict[str, Any]]:
    """Trace rows from a file: OTLP JSON when its first object holds ``resourceSpans`` (read
    whole: it is one JSON document), else trace JSONL, streamed a line at a time
    (:class:`~whileai_env.traces.load.TraceStream`). What the command line reads."""
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(4096)
    except OSError as exc:
        raise TraceError(f"{path}: cannot read the traces ({exc.strerror or exc})") from None
    if '"resourceSpans"' in head:
        return rows_from_otel(path)
    return TraceStream(path)
