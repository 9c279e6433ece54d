"""whileai-env: an agent's tool specs and system prompt as a seeded, verifiable RL environment.

>>> import whileai_env as wenv
>>> spec = wenv.load_spec("configs/specs/order-support.json")  # doctest: +SKIP
>>> tasks = wenv.draw_tasks(spec, 10, seed=0)                   # doctest: +SKIP
"""

from __future__ import annotations

from whileai_env.errors import MissingExtraError, SpecError, WhileaiError
from whileai_env.faults import FaultRule, FaultSchedule
from whileai_env.grid import Cell, Grid, build_grid
from whileai_env.policy import Clause, split_policy
from whileai_env.spec import Spec, Tool, load_spec
from whileai_env.tasks import TOPOLOGY, Privileged, Task, Topology, WorldPlan, draw_tasks, make_task
from whileai_env.writer import write_opener

__version__ = "0.1.0"

__all__ = [
    "TOPOLOGY",
    "Cell",
    "Clause",
    "FaultRule",
    "FaultSchedule",
    "Grid",
    "MissingExtraError",
    "Privileged",
    "Spec",
    "SpecError",
    "Task",
    "Tool",
    "Topology",
    "WhileaiError",
    "WorldPlan",
    "__version__",
    "build_grid",
    "draw_tasks",
    "load_spec",
    "make_task",
    "split_policy",
    "write_opener",
]
