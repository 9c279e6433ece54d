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

from whileai_env._util.frozen import FrozenDict, freeze, thaw
from whileai_env._util.hashing import pick, unit
from whileai_env._util.lexicon import name_tokens, singular
from whileai_env.spec.arguments import argument_role

if TYPE_CHECKING:
    from whileai_env.scenarios.grid import Cell
    from whileai_env.spec.load import Spec

FAULT_KINDS = (
    "timeout",
    "permission_denied",
    "stale",
    "malformed",
    "rate_limited",
    "server_error",
    "truncated",
)
MODES = ("transient", "persistent")
DEFAULT_FAULT_RATE = 0.5
RL_FAULT_RATE = 0.8


@dataclass(frozen=True)
class FaultRule:
    """One line of a schedule: ``kind`` fires on ``tool`` (a name or ``*``) from call ``start``.

    ``start`` counts calls of the matched tool in the episode (0 = its first call; for ``*``,
    calls of any tool). A transient rule fires ``times`` times and then stops; a persistent one
    fires on every later call. ``params`` shapes the fault's result (``retry_after``,
    ``age_hours``, ``http_status``, ``timeout_s`` …; see ``docs/world.md``).
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
            raise ValueError(
                f"fault rule needs start >= 0 and times >= 1, got {self.start}, {self.times}"
            )
        if not isinstance(self.params, FrozenDict):
            object.__setattr__(self, "params", freeze(dict(self.params)))

    def matches(self, tool: str) -> bool:
        return self.tool in ("*", tool)

    def fires(self, tool: str, tool_call_index: int, call_index: int | None = None) -> bool:
        """Whether this rule fails a call of ``tool``: its ``tool_call_index``-th call, or for a
        ``*`` rule the episode's ``call_index``-th call of any tool (defaults to the former)."""
        if not self.matches(tool):
            return False
        index = call_index if self.tool == "*" and call_index is not None else tool_call_index
        if index < self.start:
            return False
        return self.mode == "persistent" or index < self.start + self.times

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "tool": self.tool,
            "start": self.start,
            "mode": self.mode,
        }
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

    def fault_for(
        self, tool: str, tool_call_index: int, call_index: int | None = None
    ) -> FaultRule | None:
        """The first rule that fires on this call, or ``None``.

        ``tool_call_index`` counts earlier calls of ``tool``; ``call_index`` counts earlier calls
        of any tool (what ``*`` rules count). The same calls always meet the same faults.

        >>> s = FaultSchedule((FaultRule("timeout", tool="get_order", start=1, mode="transient"),))
        >>> [s.fault_for("get_order", i) is not None for i in range(3)]
        [False, True, False]
        """
        for rule in self.rules:
            if rule.fires(tool, tool_call_index, call_index):
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


#: Where a fault lands, not what it does (that is the registry's, world.fault_registry): stale data and
#: a cut-off list are faults of reads, so the schedule puts them on read tools.
_READ_FAULTS = frozenset({"stale", "truncated"})
_LIST_VERBS = ("list", "search", "find", "query", "browse")


def _fault_tools(
    kind: str, targets: tuple[str, ...], spec: Spec | None, key: Any
) -> tuple[str, ...]:
    """The tools a cell's fault hits: its target, except that stale data and truncated lists
    belong to reads, so a write target hands them to the reads that share its entity."""
    if not targets:
        return ("*",)
    target = pick(targets, "fault-tool", key)
    if spec is None or kind not in _READ_FAULTS:
        return (target,)
    reads = [t for t in targets if not spec.tool(t).is_write]
    if kind == "truncated":
        lists = [t for t in reads if name_tokens(t)[:1] and name_tokens(t)[0] in _LIST_VERBS]
        reads = lists or reads
    if reads:
        return (pick(reads, "fault-read", key),)
    tool = spec.tool(target)
    if not tool.is_write:
        return (target,)
    wanted = {n for n in tool.properties if argument_role(n, tool.properties[n]) == "locator"}
    sharing = [t.name for t in spec.tools if not t.is_write and wanted & set(t.properties)]
    if not sharing:  # ``create_ticket`` names no record: the reads of its noun (``get_tickets``)
        words = {singular(w) for w in name_tokens(target)} - {"create", "add", "new", "make"}
        sharing = [
            t.name
            for t in spec.tools
            if not t.is_write and words & {singular(w) for w in name_tokens(t.name)}
        ]
    return tuple(sharing) or (target,)


def schedule_for_cell(
    cell: Cell,
    targets: tuple[str, ...],
    *,
    key: Any,
    fault_rate: float,
    spec: Spec | None = None,
) -> FaultSchedule | None:
    """The schedule a cell's tool condition maps to, or ``None`` (success, or dropped by rate).

    Permission denials are persistent (a retry cannot fix them); rate limits are transient
    (waiting is the fix); other kinds are either, by hash. With ``spec``, ``stale`` and
    ``truncated`` land on read tools (the target, or the reads of the target's entity).
    Params carry the shape of the fault (``retry_after``, ``age_hours``, ``http_status`` …) so
    the schedule replays identically whatever the world's defaults.
    """
    if cell.condition == "success" or not keeps_fault(fault_rate, key):
        return None
    kind = cell.condition
    if kind == "permission_denied":
        mode = "persistent"
    elif kind == "rate_limited":
        mode = "transient"
    else:
        mode = "transient" if unit("fault-mode", key) < 0.5 else "persistent"
    params: dict[str, Any] = {}
    if kind == "rate_limited":
        params["retry_after"] = pick((1, 2, 5, 10, 30), "retry-after", key)
    elif kind == "stale":
        params["age_hours"] = pick((6, 26, 72, 240), "stale-age", key)
    elif kind == "server_error":
        params["http_status"] = pick((500, 502, 503), "http-status", key)
    elif kind == "timeout":
        params["timeout_s"] = pick((10, 30, 60), "timeout-s", key)
    elif kind == "malformed":
        params["style"] = pick(("truncated_json", "mojibake", "html"), "malformed-style", key)
    times = 1 if mode == "persistent" else 1 + int(unit("fault-times", key) < 0.3)
    rules = tuple(
        FaultRule(kind=kind, tool=tool, start=0, mode=mode, times=times, params=freeze(params))
        for tool in _fault_tools(kind, targets, spec, key)
    )
    return FaultSchedule(rules)
