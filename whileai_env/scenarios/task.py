"""A task: a grid cell plus its plan (world state, entities, faults), opener and privileged block.

Plain serialisable data and nothing else, so the world, the engine and the reward can depend on
it without depending on how tasks are drawn (:mod:`whileai_env.scenarios.draw`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.frozen import FrozenDict, freeze, thaw
from whileai_env.scenarios.faults import FaultSchedule
from whileai_env.scenarios.grid import Cell

#: The row columns a task owns (what :meth:`Task.to_dict` writes and :meth:`Task.from_dict` reads).
TASK_COLUMNS = (
    "task_id",
    "scenario_id",
    "scenario_dimensions",
    "seed",
    "situation",
    "phrasing",
    "repeats",
    "prompt",
    "world",
    "fault_plan",
    "privileged",
)


def task_columns(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row's task columns, also when a trainer's dataset packed them as JSON in ``info``
    (the verifiers and TRL faces do; the row's own columns win)."""
    source: Mapping[str, Any] = row
    info = row.get("info")
    if isinstance(info, str):
        try:
            info = json.loads(info)
        except json.JSONDecodeError:
            info = None
    if "world" not in row and isinstance(info, Mapping):
        source = {**info, **{k: v for k, v in row.items() if k in TASK_COLUMNS and k not in info}}
    return {k: source[k] for k in TASK_COLUMNS if k in source}


MODES = ("explore", "sft", "rl", "adaptive")


@dataclass(frozen=True)
class Topology:
    """``phrasings`` wordings of each situation, each played ``repeats`` times."""

    phrasings: int
    repeats: int


TOPOLOGY: dict[str, Topology] = {
    "explore": Topology(phrasings=1, repeats=1),
    "sft": Topology(phrasings=3, repeats=2),
    "rl": Topology(phrasings=1, repeats=8),
    "adaptive": Topology(phrasings=2, repeats=2),
}


def topology(mode: str, phrasings: int | None = None, repeats: int | None = None) -> Topology:
    """The mode's topology with any explicit ``phrasings``/``repeats`` applied."""
    if mode not in TOPOLOGY:
        raise ValueError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    base = TOPOLOGY[mode]
    n = base.phrasings if phrasings is None else int(phrasings)
    k = base.repeats if repeats is None else int(repeats)
    if n < 1 or k < 1:
        raise ValueError(f"phrasings and repeats must be at least 1, got {n} and {k}")
    return Topology(phrasings=n, repeats=k)


@dataclass(frozen=True)
class WorldPlan:
    """What the world holds for a task: its state, the tools asked about and the entities.

    ``entities`` maps locator argument names to the ids the user means (shared by every tool
    that takes that argument); ``details`` maps each target tool to the other values the user
    states; ``withheld`` names the locators a vague ask leaves out.
    """

    state: str
    targets: tuple[str, ...]
    entities: FrozenDict
    details: FrozenDict
    withheld: tuple[str, ...] = ()
    history: str = "fresh"
    clause: str | None = None
    required: FrozenDict = field(default_factory=FrozenDict)
    #: The prompt's rule that forbids a target write outright ("Do not delete products"): the
    #: task is one to decline, whatever its cell (:mod:`whileai_env.spec.prohibitions`).
    forbids: str | None = None

    def entities_for(self, tool: str) -> dict[str, Any]:
        names = self.required.get(tool, ())
        return {n: self.entities[n] for n in names if n in self.entities and n not in self.withheld}

    def details_for(self, tool: str) -> dict[str, Any]:
        return dict(self.details.get(tool, {}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "targets": list(self.targets),
            "entities": thaw(self.entities),
            "details": thaw(self.details),
            "withheld": list(self.withheld),
            "history": self.history,
            "clause": self.clause,
            "required": thaw(self.required),
            **({"forbids": self.forbids} if self.forbids else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WorldPlan:
        return cls(
            state=data["state"],
            targets=tuple(data.get("targets", ())),
            entities=freeze(dict(data.get("entities", {}))),
            details=freeze(dict(data.get("details", {}))),
            withheld=tuple(data.get("withheld", ())),
            history=data.get("history", "fresh"),
            clause=data.get("clause"),
            required=freeze(dict(data.get("required", {}))),
            forbids=data.get("forbids"),
        )


@dataclass(frozen=True)
class Privileged:
    """For judges only: what the world knows that the ask does not say, and what is expected.

    Every export drops this block at any depth.
    """

    hidden_state: FrozenDict
    reference: str
    principle: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"hidden_state": thaw(self.hidden_state), "reference": self.reference}
        if self.principle:
            out["principle"] = self.principle
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Privileged:
        return cls(
            hidden_state=freeze(dict(data.get("hidden_state", {}))),
            reference=str(data.get("reference", "")),
            principle=data.get("principle"),
        )


@dataclass(frozen=True)
class Task:
    """One phrasing of one situation: a cell, its plan, its faults, opener and privileged block."""

    task_id: str
    scenario_id: str
    cell: Cell
    seed: int
    situation: int
    phrasing: int
    repeats: int
    opener: str
    world: WorldPlan
    privileged: Privileged
    faults: FaultSchedule | None = None

    @property
    def dimensions(self) -> dict[str, str]:
        """The cell's coordinates (``scenario_dimensions`` on a row)."""
        return self.cell.coordinates()

    @property
    def persona(self) -> str:
        return self.cell.persona

    @property
    def tone(self) -> str:
        return self.cell.tone

    @property
    def texture(self) -> str:
        return self.cell.texture

    def public_dict(self) -> dict[str, Any]:
        """Everything about the task but the privileged block."""
        return {
            "task_id": self.task_id,
            "scenario_id": self.scenario_id,
            "scenario_dimensions": self.dimensions,
            "seed": self.seed,
            "situation": self.situation,
            "phrasing": self.phrasing,
            "repeats": self.repeats,
            "prompt": self.opener,
            "world": self.world.to_dict(),
            "fault_plan": self.faults.to_dict() if self.faults else None,
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self.public_dict(), "privileged": self.privileged.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Task:
        """Rebuild a task from :meth:`to_dict` output (or a row's task columns)."""
        try:
            return cls(
                task_id=data["task_id"],
                scenario_id=data["scenario_id"],
                cell=Cell.from_coordinates(data["scenario_dimensions"]),
                seed=int(data["seed"]),
                situation=int(data.get("situation", 0)),
                phrasing=int(data.get("phrasing", 0)),
                repeats=int(data.get("repeats", 1)),
                opener=data["prompt"],
                world=WorldPlan.from_dict(data["world"]),
                privileged=Privileged.from_dict(data.get("privileged") or {}),
                faults=FaultSchedule.from_dict(data["fault_plan"])
                if data.get("fault_plan")
                else None,
            )
        except KeyError as exc:
            raise ValueError(f"task data lacks the field {exc.args[0]!r}") from None
