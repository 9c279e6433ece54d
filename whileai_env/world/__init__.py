"""The mock world: tool calls answered like a real API, seeded per task, with scheduled faults.

``World`` (and ``world(tools_or_spec)``) is the public face; ``WorldOptions`` holds every knob;
``register_fault_kind`` adds a fault kind. See ``docs/world.md``.

``whileai_env.world`` is this package *and* callable as :func:`world`: a function of the same
name would shadow the package on ``whileai_env`` and break ``import whileai_env.world.store``.

>>> import whileai_env as wenv
>>> wenv.world([{"name": "calculate", "parameters": {"properties": {"expression": {"type": "string"}}}}]
...            ).call("calculate", {"expression": "6*7"})["result"]
42
"""

import sys
import types
from typing import Any

from whileai_env.world.fault_kinds import FaultKind, fault_kind, fault_kinds, register_fault_kind
from whileai_env.world.mock import World, world
from whileai_env.world.options import WorldOptions

__all__ = ["FaultKind", "World", "WorldOptions", "fault_kind", "fault_kinds", "register_fault_kind", "world"]


class _CallableModule(types.ModuleType):
    def __call__(self, tools_or_spec: Any, seed: int = 0, **kwargs: Any) -> World:
        return world(tools_or_spec, seed=seed, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
