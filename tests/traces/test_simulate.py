"""simulate_from_traces: graded telemetry alone is enough to start a run."""

from __future__ import annotations

import pytest

from whileai_env.errors import TraceError
from whileai_env.traces.leakage import leakage_report
from whileai_env.traces.simulate import simulate_from_traces

TRACES = [
    {
        "prompt": f"please look up order {n} for me",
        "reward": 0,
        "steps": [
            {
                "tool": "lookup_order",
                "arguments": {"order_id": str(n)},
                "result": {"error": "permission denied"},
            }
        ],
    }
    for n in range(5)
] + [
    {
        "prompt": "refund order 7",
        "steps": [
            {
                "tool": "refund_order",
                "arguments": {"order_id": "7", "amount": 10.5},
                "result": {"ok": True},
            }
        ],
        "reward": 1,
    }
]


def test_the_tool_surface_is_read_off_the_traces():
    data = simulate_from_traces(TRACES, mode="rl", budget=24, quiet=True)
    assert set(data.spec.tool_names) == {"lookup_order", "refund_order"}
    assert data.search["traces"]["emphasis"]["condition"] == ["permission_denied"]
    assert data.search["traces"]["emphasis"]["tool"] == ["lookup_order"]
    assert leakage_report(data.rows, TRACES)["n_leaky"] == 0


def test_a_given_spec_wins_over_drafting():
    data = simulate_from_traces(
        TRACES, spec={"tools": [{"name": "lookup_order"}]}, mode="explore", budget=5, quiet=True
    )
    assert data.spec.tool_names == ("lookup_order",)
    assert data.search["traces"]["unknown_tools"] == ["refund_order"]


def test_traces_without_calls_need_tools():
    with pytest.raises(TraceError, match="no tool surface"):
        simulate_from_traces([{"prompt": "hi", "reward": 0}], budget=5, quiet=True)


def test_a_run_aimed_by_other_traces_is_not_resumed_into_this_file(tmp_path):
    from whileai_env.errors import ResumeMismatchError
    from whileai_env.simulation.run import simulate

    spec = {"tools": [{"name": "lookup_order"}, {"name": "refund_order"}]}
    out = tmp_path / "rows.jsonl"
    simulate("seeded", spec=spec, traces=TRACES, budget=6, output=out, quiet=True)
    before = out.read_bytes()
    others = [{**t, "prompt": t["prompt"].replace("order", "parcel")} for t in TRACES[:1]]
    with pytest.raises(ResumeMismatchError, match="traces"):
        simulate("seeded", spec=spec, traces=others, budget=12, output=out, resume=True, quiet=True)
    assert out.read_bytes() == before
    again = simulate(
        "seeded", spec=spec, traces=TRACES, budget=12, output=out, resume=True, quiet=True
    )
    assert len(again.rows) == 12
