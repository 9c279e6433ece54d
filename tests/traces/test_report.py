"""trace_report / format_trace_report: what the traces will aim at, stated plainly."""

from __future__ import annotations

import json

import pytest

from whileai_env.errors import TraceError
from whileai_env.traces.load import load_traces
from whileai_env.traces.report import format_trace_report, trace_report

from .watched import traces_watched

TOOLS = [{"name": "get_order"}, {"name": "cancel_order"}]
TRACES = [
    {
        "prompt": "where is 1",
        "steps": [{"tool": "get_order", "result": {"error": "timeout"}}],
        "reward": 0,
    },
    {"prompt": "where is 2", "steps": [{"tool": "get_order", "result": {"error": "timed out"}}]},
    {
        "prompt": "cancel 3",
        "steps": [{"tool": "cancel_order", "result": {"ok": True}}],
        "reward": 1,
    },
    {"prompt": "zap", "steps": [{"tool": "zap_everything", "error": "rate limit exceeded"}]},
    {"reward": 1},
]


def test_report_counts_and_emphasis():
    report = trace_report(TRACES, tools=TOOLS)
    assert (report["traces"], report["dropped"]) == (4, 1)
    assert (report["graded"], report["ungraded"], report["failed"], report["flaws"]) == (2, 2, 1, 3)
    assert report["emphasis"]["tool"] == ["get_order"]
    assert report["emphasis"]["condition"] == ["timeout", "rate_limited"]
    assert report["unknown_tools"] == ["zap_everything"]
    assert report["tools_source"] == "given"


def test_without_tools_the_surface_is_drafted_from_the_traces():
    report = trace_report(TRACES)
    assert report["tools_source"] == "drafted from traces"
    assert report["emphasis"]["tool"] == ["get_order", "zap_everything"]
    assert report["unknown_tools"] == []


def test_dropped_count_survives_a_loaded_list():
    assert trace_report(load_traces(TRACES), tools=TOOLS)["dropped"] == 1


def test_the_text_states_the_aim():
    text = format_trace_report(trace_report(TRACES, tools=TOOLS))
    assert "4 read, 1 dropped" in text
    assert "tool: get_order (2 of 3 flaw rows)" in text
    assert "condition: timeout (2 of 3 flaw rows), rate_limited (1 of 3 flaw rows)" in text
    assert "not in the spec, ignored: zap_everything" in text


def test_clean_traces_aim_at_nothing():
    text = format_trace_report(trace_report([{"prompt": "hi", "reward": 1}], tools=TOOLS))
    assert "nothing to aim at" in text
    assert "nothing to aim at" in format_trace_report(trace_report([{"prompt": "hi"}]))


def test_a_loaded_spec_keeps_its_kind_overrides(monkeypatch):
    import whileai_env as wenv
    from whileai_env.traces import report as report_module

    spec = wenv.load_spec(tools=TOOLS, kinds={"get_order": "update"})
    seen = []
    real = report_module.emphasis_of
    monkeypatch.setattr(
        report_module, "emphasis_of", lambda mined, s: seen.append(s) or real(mined, s)
    )
    report = trace_report(TRACES, spec=spec)
    assert seen[0].tool("get_order").kind == "update"
    assert report["tools_source"] == "given" and report["unknown_tools"] == ["zap_everything"]
    reloaded = trace_report(TRACES, tools=spec.openai_tools())
    assert seen[-1].tool("get_order").kind != "update"  # what the tools alone say
    assert reloaded["traces"] == report["traces"]


def test_the_report_reads_traces_one_at_a_time_holding_none():
    alive: list[int] = []
    report = trace_report(traces_watched(60, "get_order", alive), tools=TOOLS)
    assert report["traces"] == 60 and report["emphasis"]["condition"] == ["timeout"]
    assert max(alive) <= 1  # the trace being counted, never the ones before it


def test_a_jsonl_file_is_streamed_and_a_bad_line_still_named(tmp_path):
    path = tmp_path / "traces.jsonl"
    path.write_text("\n".join(json.dumps(t) for t in TRACES) + "\n{not json\n")
    with pytest.raises(TraceError, match=r"traces\.jsonl:6: not a JSON line"):
        trace_report(str(path), tools=TOOLS)
    path.write_text("\n".join(json.dumps(t) for t in TRACES) + "\n")
    assert trace_report(str(path), tools=TOOLS) == trace_report(TRACES, tools=TOOLS)
