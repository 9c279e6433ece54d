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

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from whileai_env.world.fault_registry import (
        FaultKind,
        fault_kind,
        fault_kinds,
        register_fault_kind,
    )
    from whileai_env.world.mock import World, world
    from whileai_env.world.options import WorldOptions

# Loaded on first use, so a module that needs only ``world.fault_registry`` does not load the mock.
_LAZY = {
    "FaultKind": "fault_registry",
    "fault_kind": "fault_registry",
    "fault_kinds": "fault_registry",
    "register_fault_kind": "fault_registry",
    "World": "mock",
    "world": "mock",
    "WorldOptions": "options",
}
__all__ = [
    "FaultKind",
    "World",
    "WorldOptions",
    "fault_kind",
    "fault_kinds",
    "register_fault_kind",
    "world",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


class _CallableModule(types.ModuleType):
    def __call__(self, tools_or_spec: Any, seed: int = 0, **kwargs: Any) -> World:
        from whileai_env.world.mock import world

        return world(tools_or_spec, seed=seed, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
