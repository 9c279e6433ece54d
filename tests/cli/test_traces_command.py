"""``whileai-env traces report`` and ``simulate --traces``; bad input is one line and exit 2."""

from __future__ import annotations

import json

from click.testing import CliRunner

from whileai_env.cli import main

SPEC = {
    "tools": [
        {
            "name": "get_order",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
        {
            "name": "cancel_order",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    ],
    "system_prompt": "You are order support. Never cancel a shipped order.",
}
TRACES = [
    {
        "prompt": f"where is my order {n}",
        "reward": 0,
        "tool_trace": [
            {"name": "get_order", "args": {"order_id": str(n)}, "output": {"error": "timeout"}}
        ],
    }
    for n in range(4)
] + [{"reward": 1}]


def _files(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    traces = tmp_path / "prod.jsonl"
    traces.write_text("\n".join(json.dumps(t) for t in TRACES) + "\n")
    return spec, traces


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_traces_report_states_the_aim(tmp_path):
    spec, traces = _files(tmp_path)
    result = _run("traces", "report", traces, "--spec", spec)
    assert result.exit_code == 0, result.output
    assert "4 read, 1 dropped" in result.output
    assert "tool: get_order (4 of 4 flaw rows)" in result.output
    assert "condition: timeout" in result.output
    as_json = json.loads(_run("traces", "report", traces, "--json").output)
    assert as_json["emphasis"]["condition"] == ["timeout"]


def test_a_bad_line_is_one_error_line_naming_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"prompt": "a"}\n{oops\n')
    result = _run("traces", "report", path)
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "bad.jsonl:2" in result.output


def test_simulate_with_traces_reports_the_aim(tmp_path):
    spec, traces = _files(tmp_path)
    result = _run("simulate", spec, "--traces", traces, "--budget", "12", "-q")
    assert result.exit_code == 0, result.output
    assert "traces" in result.output and "timeout" in result.output
