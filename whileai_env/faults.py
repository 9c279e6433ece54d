"""The fault schedule: which tool calls fail, how, from when, and for how long.

Declarative and serialisable (JSON), part of the task, so the same task always replays the
same faults at the same call indices. A rule is *transient* (fails ``times`` calls, then the
tool works, so a retry is the right move) or *persistent* (every matching call fails, so
reporting it is the right move).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whileai_env._hashing import pick, unit
from whileai_env.frozen import FrozenDict, freeze, thaw

if TYPE_CHECKING:
    from whileai_env.grid import Cell

FAULT_KINDS = (
    "timeout", "permission_denied", "stale", "malformed", "rate_limited", "server_error", "truncated",
)
MODES = ("transient", "persistent")
DEFAULT_FAULT_RATE = 0.5
RL_FAULT_RATE = 0.8


@dataclass(frozen=True)
class FaultRule:
    """One line of a schedule: ``kind`` fires on ``tool`` (a name or ``*``) from call ``start``.

    ``start`` counts calls of the matched tool in the episode (0 = its first call). A transient
    rule fires ``times`` times and then stops; a persistent one fires on every later call.
    ``params`` shapes the fault's result (``retry_after``, ``as_of`` …).
    """

    kind: str
    tool: str = "*"
    start: int = 0
    mode: str = "persistent"
    times: int = 1
    params: FrozenDict = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"fault mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.start < 0 or self.times < 1:
            raise ValueError(f"fault rule needs start >= 0 and times >= 1, got {self.start}, {self.times}")
        if not isinstance(self.params, FrozenDict):
            object.__setattr__(self, "params", freeze(dict(self.params)))

    def matches(self, tool: str) -> bool:
        return self.tool in ("*", tool)

    def fires(self, tool: str, tool_call_index: int) -> bool:
        """Whether this rule fails the ``tool_call_index``-th call of ``tool``."""
        if not self.matches(tool) or tool_call_index < self.start:
            return False
        return self.mode == "persistent" or tool_call_index < self.start + self.times

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "tool": self.tool, "start": self.start, "mode": self.mode}
        if self.mode == "transient":
            out["times"] = self.times
        if self.params:
            out["params"] = thaw(self.params)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FaultRule:
        unknown = set(data) - {"kind", "tool", "start", "mode", "times", "params"}
        if unknown:
            raise ValueError(f"unknown fault rule keys: {', '.join(sorted(unknown))}")
        if "kind" not in data:
            raise ValueError("a fault rule needs a 'kind'")
        return cls(
            kind=str(data["kind"]),
            tool=str(data.get("tool", "*")),
            start=int(data.get("start", 0)),
            mode=str(data.get("mode", "persistent")),
            times=int(data.get("times", 1)),
            params=freeze(dict(data.get("params") or {})),
        )


@dataclass(frozen=True)
class FaultSchedule:
    """An ordered list of rules; the first rule that fires on a call decides its fault."""

    rules: tuple[FaultRule, ...] = ()

    def fault_for(self, tool: str, tool_call_index: int) -> FaultRule | None:
        for rule in self.rules:
            if rule.fires(tool, tool_call_index):
                return rule
        return None

    def __bool__(self) -> bool:
        return bool(self.rules)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": [r.to_dict() for r in self.rules]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | list | None) -> FaultSchedule:
        if data is None:
            return cls()
        rules = data if isinstance(data, list) else data.get("rules", [])
        return cls(tuple(FaultRule.from_dict(r) for r in rules))

    @classmethod
    def from_json(cls, text: str) -> FaultSchedule:
        return cls.from_dict(json.loads(text))

    @classmethod
    def every_call(cls, kind: str) -> FaultSchedule:
        """The seed SDK's schedule: every call of every tool fails with ``kind``."""
        return cls((FaultRule(kind=kind, tool="*", mode="persistent"),))


def keeps_fault(fault_rate: float, *key: Any) -> bool:
    """Whether a faulted cell keeps its fault at ``fault_rate``, by hash of ``key``."""
    if not 0.0 <= fault_rate <= 1.0:
        raise ValueError(f"fault_rate must be between 0 and 1, got {fault_rate}")
    return unit("fault-rate", *key) < fault_rate


def schedule_for_cell(cell: Cell, targets: tuple[str, ...], *, key: Any, fault_rate: float) -> FaultSchedule | None:
    """The schedule a cell's tool condition maps to, or ``None`` (success, or dropped by rate)."""
    if cell.condition == "success" or not keeps_fault(fault_rate, key):
        return None
    kind = cell.condition
    tool = pick(targets, "fault-tool", key) if targets else "*"
    if kind == "permission_denied":
        mode = "persistent"
    elif kind == "rate_limited":
        mode = "transient"
    else:
        mode = "transient" if unit("fault-mode", key) < 0.5 else "persistent"
    params: dict[str, Any] = {}
    if kind == "rate_limited":
        params["retry_after"] = pick((1, 2, 5, 10, 30), "retry-after", key)
    if kind == "stale":
        params["age_hours"] = pick((6, 26, 72, 240), "stale-age", key)
    times = 1 if mode == "persistent" else 1 + int(unit("fault-times", key) < 0.3)
    return FaultSchedule((FaultRule(kind=kind, tool=tool, start=0, mode=mode, times=times, params=freeze(params)),))
