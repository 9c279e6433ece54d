"""The coverage grid: cells from a pairwise covering array over the world and human axes.

Layout (why ids are stable under prompt edits): one *base block* pairs every axis but the rule
and carries no clause; then each policy clause owns a *clause block*, a covering array of
tool × stance × world state salted by the clause's own id. Editing, adding or removing one
clause therefore changes only that clause's cells; every other cell keeps its ``scenario_id``.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

from whileai_env._util.hashing import canonical_json, hex_id, pick, unit
from whileai_env.scenarios import axes as ax
from whileai_env.scenarios.covering import pairwise
from whileai_env.spec.load import Spec, load_spec


@dataclass(frozen=True)
class Cell:
    """One task identity: a value on every axis. ``rule`` is a clause id or ``"none"``."""

    tool: str
    rule: str
    world_state: str
    condition: str
    history: str
    stance: str
    ask: str
    persona: str
    tone: str
    texture: str

    @cached_property
    def scenario_id(self) -> str:
        """Stable hash of the coordinates; every phrasing of the cell shares it."""
        return "sc-" + hex_id("cell", canonical_json(self.coordinates()), length=10)

    def coordinates(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in AXIS_ORDER}

    @property
    def hard(self) -> bool:
        """An edge case: a pushing stance, an unusual world state, or a vague ask."""
        return (
            self.stance in ax.HARD_STANCES
            or self.world_state in ax.HARD_STATES
            or self.ask == "vague"
            or self.tool == ax.MULTI_TOOL
        )

    @classmethod
    def from_coordinates(cls, coords: Mapping[str, Any]) -> Cell:
        names = list(AXIS_ORDER)
        missing = [n for n in names if n not in coords]
        if missing:
            raise ValueError(f"cell coordinates lack {', '.join(missing)}")
        return cls(**{n: str(coords[n]) for n in names})


AXIS_ORDER = tuple(f.name for f in fields(Cell))


@dataclass(frozen=True, eq=False)
class Grid:
    """The cells of one spec, in a fixed order, and the axis values they range over."""

    spec: Spec
    cells: tuple[Cell, ...]

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    @cached_property
    def _by_id(self) -> dict[str, Cell]:
        return {c.scenario_id: c for c in self.cells}

    def cell(self, scenario_id: str) -> Cell:
        """The cell with this ``scenario_id``; ``KeyError`` if the grid has none."""
        try:
            return self._by_id[scenario_id]
        except KeyError:
            raise KeyError(
                f"no cell {scenario_id!r} in the grid of spec {self.spec.name!r}"
            ) from None

    @cached_property
    def axes(self) -> dict[str, tuple[str, ...]]:
        """Every axis and its values (the rule axis lists ``none`` and each clause id)."""
        return {
            "tool": (*self.spec.tool_names, ax.UNRELATED, ax.MULTI_TOOL),
            "rule": (ax.NO_RULE, *(c.id for c in self.spec.clauses)),
            "world_state": ax.WORLD_STATES,
            "condition": ax.CONDITIONS,
            "history": ax.HISTORIES,
            "stance": ax.STANCES,
            "ask": ax.ASKS,
            "persona": ax.PERSONAS,
            "tone": ax.TONES,
            "texture": ax.TEXTURES,
        }

    def coverage(self, cells: Iterable[Cell | Mapping[str, str]]) -> dict[str, float]:
        """Share of each axis's values that ``cells`` touch (1.0 = every value seen); a cell may be
        given by its coordinates (a row's ``scenario_dimensions``)."""
        seen: dict[str, set[str]] = {name: set() for name in self.axes}
        for cell in cells:
            coordinates = cell.coordinates() if isinstance(cell, Cell) else cell
            for name, value in coordinates.items():
                if name in seen:
                    seen[name].add(value)
        return {name: len(seen[name] & set(vals)) / len(vals) for name, vals in self.axes.items()}

    def summary(self) -> dict[str, Any]:
        """Counts for reports: cells, cells per clause, hard share."""
        per_rule = Counter(c.rule for c in self.cells)
        return {
            "cells": len(self.cells),
            "base_cells": per_rule.get(ax.NO_RULE, 0),
            "clause_cells": {c.id: per_rule.get(c.id, 0) for c in self.spec.clauses},
            "hard_share": sum(c.hard for c in self.cells) / max(1, len(self.cells)),
            "axes": {k: len(v) for k, v in self.axes.items()},
        }


def build_grid(spec: Spec | Any) -> Grid:
    """Build the coverage grid of a spec (anything :func:`load_spec` accepts).

    >>> spec = load_spec(tools=[{"name": "get_order"}, {"name": "cancel_order"}],
    ...                  system_prompt="Never cancel a shipped order.")
    >>> grid = build_grid(spec)
    >>> len(grid) > 50, {c.rule for c in grid} == {"none", spec.clauses[0].id}
    (True, True)
    """
    spec = load_spec(spec)
    cells = _CELLS.get(spec.content_hash)
    if cells is None:
        cells = _cells(spec)
        with _LOCK:
            if len(_CELLS) > 64:
                _CELLS.clear()
            _CELLS[spec.content_hash] = cells
    return Grid(spec=spec, cells=cells)


#: The cells of each spec content built so far: a pure function of the tool names and clause
#: ids, built again by every ``simulate`` and ``draw_tasks`` call (a second of CPU on a 30-tool
#: spec with many clauses).
_CELLS: dict[str, tuple[Cell, ...]] = {}
_LOCK = threading.Lock()


def _cells(spec: Spec) -> tuple[Cell, ...]:
    """The grid's cells: the base covering array, then each clause's block, each cell once."""
    tools = list(spec.tool_names)
    base_axes = [
        (
            "tool",
            [*tools, ax.UNRELATED, ax.MULTI_TOOL] if len(tools) > 1 else [*tools, ax.UNRELATED],
        ),
        ("world_state", list(ax.WORLD_STATES)),
        ("condition", list(ax.CONDITIONS)),
        ("history", list(ax.HISTORIES)),
        ("stance", list(ax.STANCES)),
        ("ask", list(ax.ASKS)),
        ("persona", list(ax.PERSONAS)),
        ("tone", list(ax.TONES)),
        ("texture", list(ax.TEXTURES)),
    ]
    cells: list[Cell] = [Cell(rule=ax.NO_RULE, **row) for row in pairwise(base_axes, salt="base")]
    for clause in spec.clauses:
        cells.extend(_clause_block(clause.id, tools))
    unique: dict[str, Cell] = {}
    for cell in cells:
        unique.setdefault(cell.scenario_id, cell)
    return tuple(unique.values())


def _clause_block(clause_id: str, tools: list[str]) -> list[Cell]:
    targets = [*tools, ax.MULTI_TOOL] if len(tools) > 1 else list(tools)
    rows = pairwise(
        [
            ("tool", targets),
            ("stance", list(ax.RULE_STANCES)),
            ("world_state", list(ax.WORLD_STATES)),
        ],
        salt=clause_id,
    )
    block = []
    for row in rows:
        key = (clause_id, row["tool"], row["stance"], row["world_state"])
        condition = (
            "success" if unit("cond?", *key) < 0.7 else pick(ax.CONDITIONS[1:], "cond", *key)
        )
        block.append(
            Cell(
                tool=row["tool"],
                rule=clause_id,
                world_state=row["world_state"],
                condition=condition,
                history=pick(ax.HISTORIES, "history", *key),
                stance=row["stance"],
                ask=pick(("tool", "tool", "general", "vague"), "ask", *key),
                persona=pick(ax.PERSONAS, "persona", *key),
                tone=pick(ax.TONES, "tone", *key),
                texture=pick(ax.TEXTURES, "texture", *key),
            )
        )
    return block
