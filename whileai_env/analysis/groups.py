"""Rows grouped by ask: the unit every selection, pairing and comparison works on.

An *ask* is one task's rollouts: rows sharing ``task_id`` (rows without one group by
``prompt``). A grouped RL update learns from what differs *within* an ask, so duplicates,
unanimous groups and group statistics are all read per ask here.

>>> rows = [{"task_id": "t1", "reward": 1.0}, {"task_id": "t1", "reward": 0.0},
...         {"task_id": "t2", "reward": 1.0}]
>>> {key: stats(group)["pass_rate"] for key, group in by_ask(rows).items()}
{'t1': 0.5, 't2': 1.0}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from whileai_env._util.hashing import hex_id

R = TypeVar("R", bound=Mapping[str, Any])

#: A reward at or above this counts as a pass when splitting partial credit into n0 / n1.
PASS_SPLIT = 0.5


def ask_key(row: Mapping[str, Any]) -> str:
    """The ask a row belongs to: its ``task_id``, else its ``prompt``.

    >>> ask_key({"task_id": "t-1", "prompt": "hi"}), ask_key({"prompt": "hi"})
    ('t-1', 'hi')
    """
    key = row.get("task_id") or row.get("prompt")
    if not isinstance(key, str) or not key:
        raise ValueError("a row needs a 'task_id' or a 'prompt' to be grouped by ask")
    return key


def by_ask(rows: Iterable[R]) -> dict[str, list[R]]:
    """Rows grouped by :func:`ask_key`, asks and rows in first-seen order."""
    groups: dict[str, list[R]] = {}
    for row in rows:
        groups.setdefault(ask_key(row), []).append(row)
    return groups


def reward_of(row: Mapping[str, Any]) -> float | None:
    """The row's reward as a finite float, or ``None`` when it is unjudged or not a number."""
    reward = row.get("reward")
    if isinstance(reward, bool):
        return float(reward)
    if isinstance(reward, int | float) and math.isfinite(reward):
        return float(reward)
    return None


def stats(group: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """``n``, ``n0`` / ``n1`` (fail / pass, partial credit split at :data:`PASS_SPLIT`),
    ``pass_rate`` (``n1 / n``), ``reward_mean`` and ``reward_std`` (population) of the judged rows.

    >>> stats([{"reward": 1.0}, {"reward": 0.25}, {"reward": None}])
    {'n': 2, 'n0': 1, 'n1': 1, 'pass_rate': 0.5, 'reward_mean': 0.625, 'reward_std': 0.375}
    """
    rewards = [r for r in map(reward_of, group) if r is not None]
    n = len(rewards)
    if not n:
        return {
            "n": 0,
            "n0": 0,
            "n1": 0,
            "pass_rate": None,
            "reward_mean": None,
            "reward_std": None,
        }
    mean = math.fsum(rewards) / n
    std = math.sqrt(math.fsum((r - mean) ** 2 for r in rewards) / n)
    n1 = sum(r >= PASS_SPLIT for r in rewards)
    return {
        "n": n,
        "n0": n - n1,
        "n1": n1,
        "pass_rate": n1 / n,
        "reward_mean": mean,
        "reward_std": std,
    }


def trajectory_signature(row: Mapping[str, Any]) -> str:
    """A short hash of what the agent did: its tool calls (names and arguments, in order) and
    its final text. Two rollouts with one signature are the same trajectory.

    >>> a = {"steps": [{"tool": "get", "arguments": {"id": 1}}], "final_text": "ok"}
    >>> trajectory_signature(a) == trajectory_signature({**a, "reward": 0.0})
    True
    """
    calls = [
        (step.get("tool"), step.get("arguments"))
        for step in row.get("steps") or ()
        if isinstance(step, Mapping)
    ]
    return hex_id("trajectory", calls, str(row.get("final_text") or ""), length=16)


def fault_kind(row: Mapping[str, Any]) -> str:
    """The fault kind a row's task was drawn under: its ``scenario_dimensions["condition"]``
    (``success`` when none), else the first rule of its ``fault_plan``, else ``none``.

    >>> fault_kind({"scenario_dimensions": {"condition": "timeout"}})
    'timeout'
    >>> fault_kind({"fault_plan": {"rules": [{"kind": "rate_limit"}]}}), fault_kind({})
    ('rate_limit', 'none')
    """
    dims = row.get("scenario_dimensions")
    if isinstance(dims, Mapping) and isinstance(dims.get("condition"), str):
        return str(dims["condition"])
    plan = row.get("fault_plan")
    rules = plan.get("rules") if isinstance(plan, Mapping) else None
    if rules and isinstance(rules[0], Mapping) and rules[0].get("kind"):
        return str(rules[0]["kind"])
    return "none"


def reply_length(row: Mapping[str, Any]) -> int:
    """Characters in the agent's final reply."""
    return len(str(row.get("final_text") or ""))


def from_eval(row: Mapping[str, Any]) -> bool:
    """Whether the row's reward came from an evaluation (``lineage.source == "eval"``): such a
    row in a training set makes the scorer you report the one you optimise against."""
    lineage = row.get("lineage")
    return isinstance(lineage, Mapping) and lineage.get("source") == "eval"
