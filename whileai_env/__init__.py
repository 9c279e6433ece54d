"""whileai-env: an agent's tool specs and system prompt as a seeded, verifiable RL environment.

>>> import whileai_env as wenv
>>> spec = wenv.load_spec("configs/specs/order-support.json")  # doctest: +SKIP
>>> tasks = wenv.draw_tasks(spec, 10, seed=0)                   # doctest: +SKIP
"""

from __future__ import annotations

import gymnasium as _gymnasium

from whileai_env import world
from whileai_env.analysis import PassAt, pass_at
from whileai_env.engine import Episode, EpisodeOver, StepResult
from whileai_env.errors import MissingExtraError, SpecError, WhileaiError
from whileai_env.faults import FaultRule, FaultSchedule
from whileai_env.grid import Cell, Grid, build_grid
from whileai_env.judging import JUDGE_STATUSES, Verdict, judge_report, normalise_verdict, run_judge
from whileai_env.policy import Clause, split_policy
from whileai_env.reward import (
    conduct_grade,
    format_leak_report,
    leak_report,
    style_markers,
    style_report,
    task_checklist,
)
from whileai_env.rows import (
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
from whileai_env.spec import Spec, Tool, load_spec
from whileai_env.tasks import TOPOLOGY, Privileged, Task, Topology, WorldPlan, draw_tasks, make_task
from whileai_env.user import SimulatedUser
from whileai_env.world import World, WorldOptions, register_fault_kind
from whileai_env.writer import write_opener

if "whileai/agent-v0" not in _gymnasium.registry:
    _gymnasium.register(id="whileai/agent-v0", entry_point="whileai_env.envs.gym:AgentEnv")

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
    "SimulatedUser",
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
    "pass_at",
    "register_fault_kind",
    "row_errors",
    "run_judge",
    "split_policy",
    "style_markers",
    "style_report",
    "task_checklist",
    "to_row",
    "validate_row",
    "world",
    "write_opener",
]
