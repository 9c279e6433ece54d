"""Breakdowns and coverage: each group's numbers are pass_at's and stats' on that group's rows."""

from __future__ import annotations

import pytest

from whileai_env.analysis.groups import fault_kind, stats
from whileai_env.analysis.passk import pass_at
from whileai_env.report.numbers import breakdown, coverage, judged
from whileai_env.scenarios import axes as ax


def _row(prompt: str, reward, **dims) -> dict:
    return {"prompt": prompt, "reward": reward, "scenario_dimensions": dims}


def test_breakdown_by_hand():
    rows = [
        _row("a", 1.0, condition="timeout"),
        _row("a", 0.0, condition="timeout"),
        _row("b", 1.0, condition="success"),
        _row("c", 0.5, condition="success"),
        _row("c", None, condition="success"),
    ]
    bars = {bar.label: bar for bar in breakdown(rows, "fault")}
    assert list(bars) == ["success", "timeout"]
    assert (bars["timeout"].rows, bars["timeout"].tasks, bars["timeout"].pass_at_1) == (2, 1, 0.5)
    # success: task b passes, task c (0.5 < threshold 1.0) does not; the unjudged row is left out
    assert (bars["success"].rows, bars["success"].pass_at_1) == (2, 0.5)
    assert bars["success"].reward_mean == 0.75
    assert bars["success"].ci95 is None  # under three tasks: no interval


def test_breakdown_reads_pass_at_and_stats_on_each_group(rows):
    for bar in breakdown(rows, "fault"):
        group = [row for row in rows if fault_kind(row) == bar.label]
        expected = pass_at(group)
        assert (bar.pass_at_1, bar.ci95, bar.tasks) == (
            expected.pass_at_1,
            expected.ci95,
            expected.groups,
        )
        assert bar.reward_mean == stats(group)["reward_mean"]
    assert sum(bar.rows for bar in breakdown(rows, "tool")) == len(judged(rows))


def test_breakdown_threshold_passes_partial_credit():
    rows = [_row(f"p{i}", 0.5, tool="get") for i in range(3)]
    assert breakdown(rows, "tool")[0].pass_at_1 == 0.0
    assert breakdown(rows, "tool", threshold=0.5)[0].pass_at_1 == 1.0


def test_breakdown_refuses_an_unknown_split():
    with pytest.raises(ValueError, match="fault, world_state, tool"):
        breakdown([], "persona")


def test_coverage_counts_means_and_uncovered_cells():
    rows = [
        _row("a", 1.0, tool="get", world_state="missing"),
        _row("b", 0.0, tool="get", world_state="missing"),
        _row("c", 1.0, tool="cancel", world_state="exists"),
        _row("d", None, tool="cancel", world_state="partial"),
    ]
    grid = coverage(rows, "tool")
    assert grid.row_values == ("cancel", "get")
    assert grid.column_values == ax.WORLD_STATES
    missing, exists = ax.WORLD_STATES.index("missing"), ax.WORLD_STATES.index("exists")
    assert grid.counts[1][missing] == 2 and grid.means[1][missing] == 0.5
    assert grid.counts[0][exists] == 1 and grid.means[0][exists] == 1.0
    assert grid.counts[0][ax.WORLD_STATES.index("partial")] == 0  # unjudged: not covered
    assert grid.means[0][ax.WORLD_STATES.index("partial")] is None
    assert grid.covered == 2 / (2 * len(ax.WORLD_STATES))


def test_coverage_lists_the_whole_grid_axis_then_unknown_values():
    grid = coverage([_row("a", 1.0, condition="meteor", world_state="exists")], "condition")
    assert grid.row_values == (*ax.CONDITIONS, "meteor")


def test_coverage_tool_axis_is_the_grids_declared_tools_then_the_reserved_asks():
    declared = ["get", {"name": "cancel"}]
    rows = [{**_row("a", 1.0, tool="get", world_state="exists"), "tools": declared}]
    grid = coverage(rows, "tool")
    assert grid.row_values == ("get", "cancel", ax.UNRELATED, ax.MULTI_TOOL)
    assert [sum(line) for line in grid.counts] == [1, 0, 0, 0]  # cancel: declared, not covered
