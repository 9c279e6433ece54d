"""What the deployed agent did, counted: the evidence the grid is aimed with.

A *flaw row* is a trace with an observed failure (a tool call that failed: a fault, or a world
state such as a missing record) or a 0 label: the behaviours worth simulating more of. Each flaw
row names what it got wrong on the grid's axes: the tools whose calls failed (every tool it
called when it only carries a 0 label), the fault kinds (``condition``) and the world states.

>>> rows = [{"prompt": "a", "steps": [{"tool": "get_order", "error": "timeout"}], "reward": 0},
...         {"prompt": "b", "steps": [{"tool": "get_order", "result": {"id": "1"}}], "reward": 1}]
>>> mined = mine_traces(rows)
>>> mined["flaws"], mined["aimed"]["tool"], mined["aimed"]["condition"]
(1, {'get_order': 1}, {'timeout': 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from whileai_env.traces.failure import step_failure
from whileai_env.traces.messages import from_messages

#: The axes a trace can be read on.
AIMED_AXES = ("tool", "condition", "world_state")
_WORLD_STATES = frozenset({"exists", "missing", "already_done", "duplicate", "partial"})


def steps_of(row: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The row's tool steps (dicts only)."""
    return [s for s in row.get("steps") or () if isinstance(s, Mapping)]


def row_flaws(
    row: Mapping[str, Any], fault_to_axis: Mapping[str, tuple[str, str]] | None = None
) -> dict[str, set[str]]:
    """``{axis: values}`` this row got wrong; empty when it shows no failure and no 0 label."""
    found: dict[str, set[str]] = {axis: set() for axis in AIMED_AXES}
    called = set()
    for step in steps_of(row):
        tool = str(step.get("tool") or "")
        called.add(tool)
        failure = step_failure(step, fault_to_axis)
        if failure is None:
            continue
        axis, value = failure
        found["tool"].add(tool)
        if value != "error":
            found[axis].add(value)
    state = row.get("world_state")
    if isinstance(state, str) and state in _WORLD_STATES - {"exists"}:
        found["world_state"].add(state)
    failed = row.get("reward") == 0
    if failed and not found["tool"]:
        found["tool"] |= called
    if not failed and not any(found.values()):
        return {}
    found["tool"].discard("")
    return found


def is_flaw(row: Mapping[str, Any]) -> bool:
    """Whether ``row`` shows a failed call or carries a 0 label."""
    return bool(row_flaws(row)) or row.get("reward") == 0


def flaw_rows(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Rows with an observed fault or a 0 label: the next round's traces
    (``simulate(traces=flaw_rows(rows))`` aims the next batch at what still goes wrong)."""
    return [row for row in rows if is_flaw(row)]


class TraceCounts:
    """The counts behind the aim, added one trace at a time, so a file of any length is read
    holding none of its rows. ``keep_flaws`` also keeps the flaw rows themselves.

    >>> counts = TraceCounts()
    >>> counts.add({"prompt": "a", "steps": [{"tool": "get_order", "error": "timeout"}]})
    >>> counts.result()["aimed"]["condition"], counts.result()["flaw_rows"]
    ({'timeout': 1}, [])
    """

    def __init__(
        self,
        fault_to_axis: Mapping[str, tuple[str, str]] | None = None,
        *,
        keep_flaws: bool = False,
    ) -> None:
        self.fault_to_axis = fault_to_axis
        self.keep_flaws = keep_flaws
        self.rows = self.graded = self.failed = self.flaws = 0
        self.tools: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.aimed: dict[str, Counter[str]] = {axis: Counter() for axis in AIMED_AXES}
        self.flaw_rows: list[Mapping[str, Any]] = []

    def add(self, row: Mapping[str, Any]) -> None:
        """Count one trace row."""
        self.rows += 1
        for step in steps_of(row):
            self.tools[str(step.get("tool") or "")] += 1
            failure = step_failure(step, self.fault_to_axis)
            if failure is not None:
                self.failures[failure[1]] += 1
        reward = row.get("reward")
        self.graded += reward in (0, 1)
        self.failed += reward == 0
        found = row_flaws(row, self.fault_to_axis)
        if found or reward == 0:
            self.flaws += 1
            if self.keep_flaws:
                self.flaw_rows.append(row)
        for axis, values in found.items():
            self.aimed[axis].update(values)

    def result(self) -> dict[str, Any]:
        """What :func:`mine_traces` returns, for the rows added so far."""
        return {
            "rows": self.rows,
            "graded": self.graded,
            "ungraded": self.rows - self.graded,
            "failed": self.failed,
            "flaws": self.flaws,
            "tools": dict(self.tools.most_common()),
            "faults": dict(self.failures.most_common()),
            "aimed": {axis: dict(c.most_common()) for axis, c in self.aimed.items()},
            "flaw_rows": self.flaw_rows,
        }


def mine_traces(
    rows: Iterable[Mapping[str, Any]],
    fault_to_axis: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The counts behind the aim: ``rows``, ``graded`` / ``ungraded`` / ``failed`` (0 labels),
    ``flaws``, ``tools`` (calls per tool), ``faults`` (failures by name), and ``aimed``: per axis,
    how many flaw rows got each value wrong. ``flaw_rows`` lists the flaw rows themselves."""
    counts = TraceCounts(fault_to_axis, keep_flaws=True)
    for row in rows:
        counts.add(row)
    return counts.result()


def opens_with_assistant(row: Mapping[str, Any]) -> bool:
    """Whether the row's raw ``messages`` open with the assistant (no messages: the user)."""
    messages = row.get("messages")
    return isinstance(messages, list) and from_messages(messages).opener == "assistant"


def opening_share(rows: Sequence[Mapping[str, Any]]) -> float:
    """Share of traces whose conversation opens with the assistant (read from the raw
    ``messages``; a row without messages counts as user-opened).

    >>> opening_share([{"messages": [{"role": "assistant", "content": "Hi, how can I help?"}]},
    ...                {"prompt": "hi"}])
    0.5
    """
    if not rows:
        return 0.0
    return sum(map(opens_with_assistant, rows)) / len(rows)
