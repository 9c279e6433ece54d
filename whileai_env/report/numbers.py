"""The numbers a report shows, read through the analysis functions (no statistic is redone here).

A *breakdown* splits graded rows by one label (fault kind, world state, tool) and gives each
group its pass@1 with the 95% bootstrap interval over tasks from
:func:`~whileai_env.analysis.passk.pass_at`, beside its mean reward and counts from
:func:`~whileai_env.analysis.groups.stats`. A *coverage* matrix counts the rows in each cell of
two grid axes and their mean reward; an axis lists every value of the grid's own axis
(:mod:`whileai_env.scenarios.axes`; for tools, the rows' declared tools) so a cell no row
reached shows as uncovered.

>>> rows = [{"prompt": f"p{i}", "reward": float(i % 2), "scenario_dimensions":
...          {"condition": "timeout" if i < 4 else "success", "world_state": "exists"}}
...         for i in range(8)]
>>> [(bar.label, bar.rows, bar.pass_at_1) for bar in breakdown(rows, "fault")]
[('success', 4, 0.5), ('timeout', 4, 0.5)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from whileai_env.analysis.groups import fault_kind, reward_of, stats
from whileai_env.analysis.passk import pass_at
from whileai_env.scenarios import axes as ax

#: What a breakdown can split by, and how a row's label is read.
SPLITS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "fault": fault_kind,
    "world_state": lambda row: _dimension(row, "world_state"),
    "tool": lambda row: _dimension(row, "tool"),
}

#: The full grid axis of each coverage dimension (a tool axis comes from the rows' spec).
AXIS_VALUES: dict[str, tuple[str, ...]] = {
    "world_state": ax.WORLD_STATES,
    "condition": ax.CONDITIONS,
}


@dataclass(frozen=True)
class Bar:
    """One group of a breakdown: its pass@1 and interval, mean reward and counts."""

    label: str
    rows: int
    tasks: int
    pass_at_1: float | None
    ci95: tuple[float, float] | None
    reward_mean: float | None


@dataclass(frozen=True)
class Coverage:
    """Rows per (row value, column value) cell of two grid axes and their mean reward."""

    row_axis: str
    column_axis: str
    row_values: tuple[str, ...]
    column_values: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]
    means: tuple[tuple[float | None, ...], ...]

    @property
    def covered(self) -> float:
        """Share of the cells that at least one row reached."""
        cells = [n for line in self.counts for n in line]
        return sum(n > 0 for n in cells) / len(cells) if cells else 0.0


def judged(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rows with a reward (unjudged rows have nothing to chart).

    >>> len(judged([{"reward": 0.0}, {"reward": None}, {}]))
    1
    """
    return [row for row in rows if reward_of(row) is not None]


def breakdown(
    rows: Sequence[Mapping[str, Any]], by: str, *, threshold: float = 1.0, seed: int = 0
) -> list[Bar]:
    """One :class:`Bar` per label of ``by`` (a key of :data:`SPLITS`), labels sorted."""
    if by not in SPLITS:
        raise ValueError(f"a breakdown splits by one of {', '.join(SPLITS)}, not {by!r}")
    label_of = SPLITS[by]
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in judged(rows):
        groups.setdefault(label_of(row), []).append(row)
    return [_bar(label, groups[label], threshold, seed) for label in sorted(groups)]


def _bar(label: str, rows: list[Mapping[str, Any]], threshold: float, seed: int) -> Bar:
    result = pass_at(rows, threshold=threshold, seed=seed)
    return Bar(
        label=label,
        rows=len(rows),
        tasks=result.groups,
        pass_at_1=result.pass_at_1,
        ci95=result.ci95,
        reward_mean=stats(rows)["reward_mean"],
    )


def coverage(
    rows: Sequence[Mapping[str, Any]], row_axis: str, column_axis: str = "world_state"
) -> Coverage:
    """The :class:`Coverage` of ``rows`` over two ``scenario_dimensions`` axes.

    >>> rows = [{"reward": 1.0, "scenario_dimensions": {"tool": "get", "world_state": "missing"}}]
    >>> grid = coverage(rows, "tool")
    >>> grid.row_values, grid.counts[0][grid.column_values.index("missing")]
    (('get',), 1)
    """
    rows = judged(rows)
    row_values = _axis(rows, row_axis)
    column_values = _axis(rows, column_axis)
    cells: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for row in rows:
        key = (_dimension(row, row_axis), _dimension(row, column_axis))
        cells.setdefault(key, []).append(row)
    counts = tuple(tuple(len(cells.get((r, c), ())) for c in column_values) for r in row_values)
    means = tuple(
        tuple(stats(cells.get((r, c), ()))["reward_mean"] for c in column_values)
        for r in row_values
    )
    return Coverage(row_axis, column_axis, row_values, column_values, counts, means)


def _axis(rows: Sequence[Mapping[str, Any]], name: str) -> tuple[str, ...]:
    """The grid's values of axis ``name`` then any other value the rows carry, in that order."""
    known = _declared_tools(rows) if name == "tool" else AXIS_VALUES.get(name, ())
    extra = sorted({_dimension(row, name) for row in rows} - set(known))
    return (*known, *extra)


def _declared_tools(rows: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The grid's tool axis as :class:`~whileai_env.scenarios.grid.Grid` builds it: the declared
    tools (each row's ``tools``, first seen first), then the unrelated and multi-tool asks."""
    names: dict[str, None] = {}
    for row in rows:
        for tool in row.get("tools") or ():
            name = tool.get("name") if isinstance(tool, Mapping) else tool
            if isinstance(name, str):
                names.setdefault(name)
    return (*names, ax.UNRELATED, ax.MULTI_TOOL) if names else ()


def _dimension(row: Mapping[str, Any], name: str) -> str:
    dims = row.get("scenario_dimensions")
    value = dims.get(name) if isinstance(dims, Mapping) else None
    return str(value) if value is not None else "unknown"
