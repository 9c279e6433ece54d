"""rows_from_otel on spans made by the real OpenTelemetry SDK, exported as OTLP JSON."""

from __future__ import annotations

import json

import pytest

# the dev extra's OpenTelemetry SDK and OTLP encoder: spans as a real instrumentation makes them
from google.protobuf import json_format
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk import trace as sdk_trace
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode

from whileai_env.errors import TraceError
from whileai_env.traces.otel import any_value, load_trace_file, read_spans, rows_from_otel


def _messages(*pairs: tuple[str, str]) -> str:
    return json.dumps(
        [{"role": role, "parts": [{"type": "text", "content": text}]} for role, text in pairs]
    )


def _conversation(tracer, conversation: str, *, tool_fails: bool, reward: float) -> None:
    """One agent turn as a GenAI instrumentation emits it: an agent span around two model calls
    and the tool call between them."""
    common = {"gen_ai.conversation.id": conversation}
    agent = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support", **common}
    # the agent span repeats its children's usage; it must not be counted twice
    agent["gen_ai.usage.input_tokens"] = 300
    with tracer.start_as_current_span("invoke_agent support", attributes=agent) as root:
        with tracer.start_as_current_span(
            "chat model",
            attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": _messages(("user", f"where is order {conversation}?")),
                "gen_ai.output.messages": json.dumps(
                    [
                        {
                            "role": "assistant",
                            "parts": [
                                {
                                    "type": "tool_call",
                                    "id": "c1",
                                    "name": "get_order",
                                    "arguments": {"order_id": conversation},
                                }
                            ],
                        }
                    ]
                ),
                "gen_ai.usage.input_tokens": 100,
                "gen_ai.usage.output_tokens": 20,
                **common,
            },
        ):
            pass
        with tracer.start_as_current_span(
            "execute_tool get_order",
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "get_order",
                "gen_ai.tool.call.id": "c1",
                "gen_ai.tool.call.arguments": json.dumps({"order_id": conversation}),
                **common,
                **({} if tool_fails else {"gen_ai.tool.call.result": '{"status": "shipped"}'}),
            },
        ) as tool:
            if tool_fails:
                tool.set_attribute("error.type", "TimeoutError")
                tool.set_status(Status(StatusCode.ERROR, "upstream timed out"))
        with tracer.start_as_current_span(
            "chat model",
            attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": _messages(("user", f"where is order {conversation}?")),
                "gen_ai.output.messages": _messages(("assistant", "It has shipped.")),
                "gen_ai.usage.input_tokens": 150,
                "gen_ai.usage.output_tokens": 10,
                **common,
            },
        ):
            pass
        root.set_attribute("whileai.reward", reward)


@pytest.fixture
def finished_spans():
    exporter = InMemorySpanExporter()
    provider = sdk_trace.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("tests.traces")
    _conversation(tracer, "4412", tool_fails=True, reward=0.0)
    _conversation(tracer, "9001", tool_fails=False, reward=1.0)
    return exporter.get_finished_spans()


def _otlp_json(spans) -> dict:
    return json_format.MessageToDict(encode_spans(spans))


def test_otlp_json_from_the_sdk_becomes_one_row_per_conversation(finished_spans):
    rows = rows_from_otel(_otlp_json(finished_spans))
    assert [r["trace_id"] for r in rows] == ["4412", "9001"]
    failed, passed = rows
    assert failed["prompt"] == "where is order 4412?"
    assert failed["final_text"] == "It has shipped."
    assert [s["tool"] for s in failed["steps"]] == ["get_order"]
    assert failed["steps"][0]["arguments"] == {"order_id": "4412"}
    assert failed["steps"][0]["fault"] == "timeout" and failed["steps"][0]["ok"] is False
    assert failed["faults"] == [{"index": 0, "tool": "get_order", "kind": "timeout"}]
    assert passed["steps"][0]["result"] == {"status": "shipped"}
    assert "fault" not in passed["steps"][0]
    # usage of the two model calls, not the agent span that repeats it
    assert failed["usage"] == {"input_tokens": 250, "output_tokens": 30}
    assert (failed["reward"], passed["reward"], failed["agent"]) == (0.0, 1.0, "support")


def test_sdk_span_objects_read_like_their_otlp_json(finished_spans):
    from_objects = rows_from_otel(finished_spans)
    from_json = rows_from_otel(_otlp_json(finished_spans))
    assert [r["steps"] for r in from_objects] == [r["steps"] for r in from_json]
    assert [r["usage"] for r in from_objects] == [r["usage"] for r in from_json]


def test_a_file_of_batches_one_per_line_reads(tmp_path, finished_spans):
    path = tmp_path / "export.jsonl"
    half = len(finished_spans) // 2
    lines = [_otlp_json(finished_spans[:half]), _otlp_json(finished_spans[half:])]
    path.write_text("\n".join(json.dumps(b) for b in lines) + "\n")
    assert [r["trace_id"] for r in load_trace_file(path)] == ["4412", "9001"]


def test_bad_otlp_names_file_and_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"resourceSpans": []}\n{not json\n')
    with pytest.raises(TraceError, match=r"bad.json:2: not OTLP JSON"):
        rows_from_otel(path)
    with pytest.raises(TraceError, match="resourceSpans list"):
        read_spans([{"resourceSpans": "nope"}])


def test_any_value_reads_every_otlp_kind():
    assert any_value({"doubleValue": 0.5}) == 0.5
    assert any_value({"kvlistValue": {"values": [{"key": "a", "value": {"intValue": "1"}}]}}) == {
        "a": 1
    }
