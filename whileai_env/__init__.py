"""whileai-env: an agent's tool specs and system prompt as a seeded, verifiable RL environment.

>>> import whileai_env as wenv
>>> spec = wenv.load_spec("configs/specs/order-support.json")  # doctest: +SKIP
>>> tasks = wenv.draw_tasks(spec, 10, seed=0)                   # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import gymnasium as _gymnasium

from whileai_env.errors import MissingExtraError, SpecError, WhileaiError
from whileai_env.scenarios.draw import draw_tasks, make_task
from whileai_env.scenarios.faults import FaultRule, FaultSchedule
from whileai_env.scenarios.grid import Cell, Grid, build_grid
from whileai_env.scenarios.task import TOPOLOGY, Privileged, Task, Topology, WorldPlan
from whileai_env.spec.clauses import Clause, split_policy
from whileai_env.spec.load import Spec, Tool, load_spec
from whileai_env.writer import write_opener

if "whileai/agent-v0" not in _gymnasium.registry:
    _gymnasium.register(id="whileai/agent-v0", entry_point="whileai_env.envs.gym:AgentEnv")

# The rest of the public API loads on first use (PEP 562), so ``import whileai_env`` stays fast:
# name -> the module that defines it.
_LAZY = {
    "World": "whileai_env.world", "WorldOptions": "whileai_env.world", "register_fault_kind": "whileai_env.world",
    "Episode": "whileai_env.episode.engine", "EpisodeOver": "whileai_env.episode.engine", "StepResult": "whileai_env.episode.engine",
    "SimulatedUser": "whileai_env.episode.user",
    "task_checklist": "whileai_env.grading", "conduct_grade": "whileai_env.grading",
    "leak_report": "whileai_env.grading", "format_leak_report": "whileai_env.grading",
    "style_markers": "whileai_env.grading", "style_report": "whileai_env.grading",
    "Judgment": "whileai_env.data.rows", "Marker": "whileai_env.data.rows", "Rollout": "whileai_env.data.rows",
    "RowParts": "whileai_env.data.rows", "export_row": "whileai_env.data.rows", "from_row": "whileai_env.data.rows",
    "row_errors": "whileai_env.data.rows", "to_row": "whileai_env.data.rows", "validate_row": "whileai_env.data.rows",
    "JUDGE_STATUSES": "whileai_env.grading.judge", "Verdict": "whileai_env.grading.judge", "judge_report": "whileai_env.grading.judge",
    "normalise_verdict": "whileai_env.grading.judge", "run_judge": "whileai_env.grading.judge",
    "PassAt": "whileai_env.analysis", "pass_at": "whileai_env.analysis",
    "simulate": "whileai_env.simulation", "SimulationData": "whileai_env.simulation",
    "ScoredData": "whileai_env.simulation",
    "oracle_agent": "whileai_env.agents", "seeded_agent": "whileai_env.agents", "silent_agent": "whileai_env.agents",
}
_SUBMODULES = {"world"}

if TYPE_CHECKING:
    from whileai_env.agents import oracle_agent, seeded_agent, silent_agent
    from whileai_env.analysis import PassAt, pass_at
    from whileai_env.data.rows import (
        Judgment,
        Marker,
        Rollout,
        RowParts,
        export_row,
        from_row,
        row_errors,
        to_row,
        validate_row,
    )
    from whileai_env.episode.engine import Episode, EpisodeOver, StepResult
    from whileai_env.episode.user import SimulatedUser
    from whileai_env.grading import (
        conduct_grade,
        format_leak_report,
        leak_report,
        style_markers,
        style_report,
        task_checklist,
    )
    from whileai_env.grading.judge import (
        JUDGE_STATUSES,
        Verdict,
        judge_report,
        normalise_verdict,
        run_judge,
    )
    from whileai_env.simulation import ScoredData, SimulationData, simulate
    from whileai_env.world import World, WorldOptions, register_fault_kind


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"whileai_env.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'whileai_env' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | _SUBMODULES)


__version__ = "0.1.0"

__all__ = [
    "JUDGE_STATUSES",
    "TOPOLOGY",
    "Cell",
    "Clause",
    "Episode",
    "EpisodeOver",
    "FaultRule",
    "FaultSchedule",
    "Grid",
    "Judgment",
    "Marker",
    "MissingExtraError",
    "PassAt",
    "Privileged",
    "Rollout",
    "RowParts",
    "ScoredData",
    "SimulatedUser",
    "SimulationData",
    "Spec",
    "SpecError",
    "StepResult",
    "Task",
    "Tool",
    "Topology",
    "Verdict",
    "WhileaiError",
    "World",
    "WorldOptions",
    "WorldPlan",
    "__version__",
    "build_grid",
    "conduct_grade",
    "draw_tasks",
    "export_row",
    "format_leak_report",
    "from_row",
    "judge_report",
    "leak_report",
    "load_spec",
    "make_task",
    "normalise_verdict",
    "oracle_agent",
    "pass_at",
    "register_fault_kind",
    "row_errors",
    "run_judge",
    "seeded_agent",
    "silent_agent",
    "simulate",
    "split_policy",
    "style_markers",
    "style_report",
    "task_checklist",
    "to_row",
    "validate_row",
    "world",
    "write_opener",
]
