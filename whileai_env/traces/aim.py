"""Aim the grid with traces: the tools, faults and world states they got wrong come first.

The grid stays the spec's (every value is one the writer and the world understand); traces only
move weight. Each axis value a flaw row got wrong (:func:`~whileai_env.traces.mining.row_flaws`)
is weighted ``1 + FOCUS * share``, its share of the flaw rows, so a cell on two aimed values
(the failing tool *and* its fault) is drawn most. The grid's covering array holds about one cell
per pair of values, so the aim adds a *focus block* (:func:`focus_cells`): a covering array of
the aimed tools × the aimed faults × the aimed world states × the stances, every value one the
grid already has. Clean values (``success``, ``exists``) keep
weight 1 and their place on the axes: contrast needs passing rows too. ``broaden=False`` also
drops the tools the traces never touched (the ``unrelated`` and ``multi_tool`` specials stay), so
the budget stays near the flaws.

>>> tools = [{"name": "get_order"}, {"name": "cancel_order"}, {"name": "refund_order"}]
>>> rows = [{"prompt": "p", "steps": [{"tool": "cancel_order", "error": "timeout"}]}]
>>> axes = dimensions_from_traces(rows, tools)
>>> axes["tool"][0], axes["condition"][:2]
('cancel_order', ['timeout', 'success'])
>>> dimensions_from_traces(rows, tools, broaden=False)["tool"]
['cancel_order', 'unrelated', 'multi_tool']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.hashing import hex_id, pick
from whileai_env.scenarios import axes as ax
from whileai_env.scenarios.covering import pairwise
from whileai_env.scenarios.grid import Cell, Grid, build_grid
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec, load_spec
from whileai_env.traces.leakage import THRESHOLD, LeakIndex, prompt_of
from whileai_env.traces.load import TraceStream
from whileai_env.traces.mining import AIMED_AXES, TraceCounts, mine_traces, steps_of

#: How far an aimed value's weight rises when every flaw row got it wrong.
FOCUS = 4.0
_CLEAN = {"condition": "success", "world_state": "exists"}


def emphasis(
    rows: Iterable[Mapping[str, Any]],
    spec: Spec,
    fault_to_axis: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, dict[str, float]]:
    """Per axis, the grid values the traces got wrong and their share of the flaw rows (values
    the spec's grid does not have, such as a tool it does not declare, are left out)."""
    return emphasis_of(mine_traces(rows, fault_to_axis), spec)


def emphasis_of(mined: Mapping[str, Any], spec: Spec) -> dict[str, dict[str, float]]:
    """:func:`emphasis` from counts already mined (:func:`~whileai_env.traces.mining.mine_traces`
    or a :class:`~whileai_env.traces.mining.TraceCounts` result)."""
    axes = build_grid(spec).axes
    flaws = max(1, mined["flaws"])
    return {
        axis: {
            value: count / flaws
            for value, count in mined["aimed"][axis].items()
            if value in axes[axis] and value != _CLEAN.get(axis)
        }
        for axis in AIMED_AXES
    }


def draw_weights(aimed: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
    """The draw's weight multiplier of each aimed value: ``1 + FOCUS * share``."""
    return {axis: {v: 1.0 + FOCUS * s for v, s in values.items()} for axis, values in aimed.items()}


def dimensions_from_traces(
    rows: Sequence[Mapping[str, Any]],
    tools: list[dict[str, Any]],
    policy: str = "",
    broaden: bool = True,
    fault_to_axis: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, list[str]]:
    """The coverage axes aimed at ``rows``: on every axis the values the traces got wrong come
    first (most often wrong first), then the rest in the grid's order."""
    spec = load_spec(tools=tools, system_prompt=policy)
    aimed = emphasis(rows, spec, fault_to_axis)
    axes = {name: list(values) for name, values in build_grid(spec).axes.items()}
    if not broaden:
        axes["tool"] = [t for t in axes["tool"] if t in touched_tools(rows, spec)]
    for axis, values in aimed.items():
        ranked = sorted(values, key=lambda v: (-values[v], axes[axis].index(v)))
        axes[axis] = ranked + [v for v in axes[axis] if v not in values]
    return axes


def focus_cells(aimed: Mapping[str, Mapping[str, float]]) -> list[Cell]:
    """Cells on the aimed values: a pairwise covering array of the aimed tools × the aimed
    conditions and world states (each with its clean value, for contrast) × the stances; the
    other axes drawn by hash. Empty when no tool was aimed at."""
    tools = list(aimed.get("tool") or ())
    if not tools:
        return []
    rows = pairwise(
        [
            ("tool", tools),
            ("condition", [*aimed.get("condition", ()), "success"]),
            ("world_state", [*aimed.get("world_state", ()), "exists"]),
            ("stance", list(ax.STANCES)),
        ],
        salt="traces",
    )
    cells = []
    for row in rows:
        key = ("traces", row["tool"], row["condition"], row["world_state"], row["stance"])
        cells.append(
            Cell(
                rule=ax.NO_RULE,
                history=pick(ax.HISTORIES, "history", *key),
                ask=pick(("tool", "tool", "general", "vague"), "ask", *key),
                persona=pick(ax.PERSONAS, "persona", *key),
                tone=pick(ax.TONES, "tone", *key),
                texture=pick(ax.TEXTURES, "texture", *key),
                **row,
            )
        )
    return cells


def touched_tools(rows: Iterable[Mapping[str, Any]], spec: Spec) -> set[str]:
    """The spec's tools the traces call, plus the tool axis's specials."""
    return _touched(called_tools(rows), spec)


def called_tools(rows: Iterable[Mapping[str, Any]]) -> set[str]:
    """The names of the tools the traces call."""
    return {str(s.get("tool")) for row in rows for s in steps_of(row)}


def _touched(called: set[str], spec: Spec) -> set[str]:
    return (called & set(spec.tool_names)) | set(ax.RESERVED_TOOL_VALUES)


@dataclass
class TraceAim:
    """What ``simulate(traces=...)`` draws with: the (possibly narrowed) grid, the weights, and
    the source prompts no generated task may copy. ``screened`` counts the tasks dropped."""

    grid: Grid
    weights: dict[str, dict[str, float]]
    aimed: dict[str, dict[str, float]]
    leaks: LeakIndex
    traces: int
    unknown_tools: list[str]
    screened: int = field(default=0)

    def screen(self, tasks: Iterable[Task]) -> Iterator[Task]:
        """``tasks`` without those whose opener near-copies a source trace's prompt."""
        for task in tasks:
            if self.leaks.match(task.opener) is None:
                yield task
            else:
                self.screened += 1

    def fingerprint(self) -> str:
        """What makes two aims draw the same rows (the weights, the focus cells' grid and the
        prompts screened against): a resume stamps it, so other traces cannot extend a run."""
        return hex_id(
            "trace-aim",
            self.weights,
            self.aimed,
            [c.scenario_id for c in self.grid.cells],
            self.leaks.texts,
        )

    def summary(self) -> dict[str, Any]:
        """For the run's report: traces read, the aimed values, unknown tools, tasks screened."""
        return {
            "traces": self.traces,
            "emphasis": {axis: sorted(v, key=lambda k: -v[k]) for axis, v in self.aimed.items()},
            "unknown_tools": self.unknown_tools,
            "grid_cells": len(self.grid),
            "leaky_tasks_dropped": self.screened,
        }


def aim_run(
    traces: Any,
    spec: Spec | Any,
    *,
    broaden: bool = True,
    threshold: float = THRESHOLD,
    fault_to_axis: Mapping[str, tuple[str, str]] | None = None,
) -> TraceAim:
    """The :class:`TraceAim` of ``traces`` (rows or a JSONL path) on ``spec``'s grid."""
    spec = load_spec(spec)
    counts, prompts, called = TraceCounts(fault_to_axis), [], set()
    for row in TraceStream(traces):  # one pass, keeping each trace's prompt and no more
        counts.add(row)
        prompts.append(prompt_of(row))
        called |= called_tools([row])
    grid = build_grid(spec)
    aimed = emphasis_of(counts.result(), spec)
    cells = [*grid.cells, *focus_cells(aimed)]
    if not broaden:
        kept = _touched(called, spec)
        cells = [c for c in cells if c.tool in kept]
    grid = Grid(spec=spec, cells=tuple({c.scenario_id: c for c in cells}.values()))
    return TraceAim(
        grid=grid,
        weights=draw_weights(aimed),
        aimed=aimed,
        leaks=LeakIndex(prompts, threshold=threshold),
        traces=counts.rows,
        unknown_tools=sorted(called - set(spec.tool_names) - {""}),
    )
