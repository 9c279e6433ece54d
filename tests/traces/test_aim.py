"""Traces aim the grid: the tool and fault they fail on are drawn measurably more often."""

from __future__ import annotations

import pytest

from tests.corpus import corpus_specs
from whileai_env.scenarios.draw import draw_tasks
from whileai_env.scenarios.grid import build_grid
from whileai_env.simulation.run import simulate
from whileai_env.spec.load import load_spec
from whileai_env.traces.aim import aim_run, dimensions_from_traces, focus_cells

from .watched import traces_watched

#: Foreign specs of different sizes (1, 2, 8, 18 tools), none written by this team.
SPECS = ("mcp-postgres", "exa-mcp", "mcp-slack", "bfcl-travel-booking")


def _spec(stem: str):
    return load_spec(next(p for p in corpus_specs() if p.stem == stem))


def _timeout_traces(tool: str, n: int = 12) -> list[dict]:
    """Production traces that fail on ``tool``'s timeouts, and a few that pass."""
    failing = [
        {
            "prompt": f"customer ask number {i}",
            "reward": 0,
            "steps": [{"tool": tool, "arguments": {}, "result": {"error": "Gateway Timeout"}}],
        }
        for i in range(n)
    ]
    passing = [
        {"prompt": f"fine ask {i}", "reward": 1, "steps": [{"tool": tool, "result": {"ok": True}}]}
        for i in range(3)
    ]
    return failing + passing


def _shares(tasks, tool: str) -> tuple[float, float, float]:
    """Shares of tasks on ``tool``, on a timeout, and whose schedule times ``tool`` out."""
    n = len(tasks)

    def times_out(task) -> bool:
        rules = task.faults.rules if task.faults else ()
        return any(r.kind == "timeout" and r.tool in (tool, "*") for r in rules)

    return (
        sum(t.cell.tool == tool for t in tasks) / n,
        sum(t.cell.condition == "timeout" for t in tasks) / n,
        sum(times_out(t) for t in tasks) / n,
    )


@pytest.mark.parametrize("stem", SPECS)
def test_timeout_traces_shift_the_draw_toward_that_tool_and_fault(stem):
    spec = _spec(stem)
    tool = spec.tool_names[len(spec.tool_names) // 2]
    aim = aim_run(_timeout_traces(tool), spec)
    before = _shares(draw_tasks(spec, 150, seed=3), tool)
    after = _shares(draw_tasks(spec, 150, seed=3, grid=aim.grid, weights=aim.weights), tool)
    print(f"{stem} {tool}: before {before} after {after}")
    assert after[0] >= before[0] + 0.05
    assert after[1] >= before[1] + 0.05
    assert after[2] > before[2]


def test_simulate_with_traces_fires_more_of_that_fault_on_that_tool():
    spec = _spec("mcp-slack")
    tool = spec.tool_names[len(spec.tool_names) // 2]

    def fired(data) -> float:
        hits = [
            any(f["tool"] == tool and f["kind"] == "timeout" for f in r["faults"])
            for r in data.rows
        ]
        return sum(hits) / len(hits)

    plain = simulate("seeded", spec=spec, budget=120, quiet=True)
    aimed = simulate("seeded", spec=spec, budget=120, quiet=True, traces=_timeout_traces(tool))
    print(f"rows timing out on {tool}: {fired(plain):.3f} -> {fired(aimed):.3f}")
    assert fired(aimed) >= fired(plain) + 0.05
    report = aimed.search["traces"]
    assert report["emphasis"]["tool"] == [tool]
    assert report["emphasis"]["condition"] == ["timeout"]


def test_no_weights_draws_exactly_what_the_grid_draws():
    spec = _spec("exa-mcp")
    plain = draw_tasks(spec, 20, seed=1)
    assert [t.task_id for t in draw_tasks(spec, 20, seed=1, weights={})] == [
        t.task_id for t in plain
    ]
    assert [t.task_id for t in draw_tasks(spec, 20, seed=1, weights=None)] == [
        t.task_id for t in plain
    ]


def test_clean_values_keep_their_place_and_focus_cells_use_grid_values():
    spec = _spec("bfcl-travel-booking")
    tool = spec.tool_names[0]
    missing = {"prompt": "x", "steps": [{"tool": tool, "result": {"status": 404}}], "reward": 0}
    traces = [*_timeout_traces(tool), missing]
    tools = spec.openai_tools()
    axes = dimensions_from_traces(traces, tools, spec.system_prompt)
    grid_axes = build_grid(spec).axes
    assert axes["tool"][0] == tool and axes["condition"][0] == "timeout"
    assert axes["world_state"][0] == "missing"
    for name, values in axes.items():
        assert sorted(values) == sorted(grid_axes[name]), name
    aim = aim_run(traces, spec)
    cells = focus_cells(aim.aimed)
    assert cells and {c.condition for c in cells} == {"timeout", "success"}
    assert {c.world_state for c in cells} == {"missing", "exists"}
    for cell in cells:
        for name, value in cell.coordinates().items():
            assert value in grid_axes[name]


def test_broaden_false_keeps_only_touched_tools_and_the_specials():
    spec = _spec("mcp-slack")
    tool = spec.tool_names[2]
    axes = dimensions_from_traces(_timeout_traces(tool), spec.openai_tools(), broaden=False)
    assert axes["tool"] == [tool, "unrelated", "multi_tool"]
    aim = aim_run(_timeout_traces(tool), spec, broaden=False)
    assert {c.tool for c in aim.grid.cells} == {tool, "unrelated", "multi_tool"}


def test_tools_the_spec_does_not_declare_are_reported_not_aimed():
    spec = _spec("exa-mcp")
    aim = aim_run(_timeout_traces("no_such_tool"), spec)
    assert aim.unknown_tools == ["no_such_tool"]
    assert aim.aimed["tool"] == {} and focus_cells(aim.aimed) == []


def test_the_aim_reads_traces_one_at_a_time_keeping_only_their_prompts():
    spec = _spec("mcp-postgres")
    tool = spec.tool_names[0]
    alive: list[int] = []
    aim = aim_run(traces_watched(40, tool, alive), spec)
    assert max(alive) <= 1  # the trace being read, never the ones before it
    again = aim_run(list(traces_watched(40, tool, [])), spec)
    assert aim.fingerprint() == again.fingerprint() and aim.traces == 40
    assert aim.aimed["condition"] == {"timeout": 1.0} and len(aim.leaks.texts) == 40
