"""A run's summary statistics, streamed: what ``simulate`` reports without keeping its rows.

:class:`Tally` takes each row as it lands and keeps only counts and sets of ids (task ids,
grid values seen, fault kinds, a reward sum), so a 100,000-row run reports the same figures as
a 100-row one while holding no row.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, deque
from collections.abc import Mapping
from typing import Any


class Tally:
    """Counts over the rows of one run, updated one row at a time (:meth:`add`)."""

    def __init__(self, grid: Any) -> None:
        self.grid = grid
        self.rows = 0
        self.task_ids: set[str] = set()
        self.scenario_ids: set[str] = set()
        self.faults: Counter[str] = Counter()
        self.seen_values: set[tuple[str, str]] = set()
        # rewards by value: few distinct values in practice, and math.fsum over them is exact
        self._rewards: Counter[float] = Counter()
        self._window = max(20, len(grid) // 10)
        self._recent_gains: deque[int] = deque(maxlen=self._window)

    def add(self, row: Mapping[str, Any]) -> None:
        """Count one landed row."""
        self.rows += 1
        self.task_ids.add(row["task_id"])
        self.scenario_ids.add(row["scenario_id"])
        for fault in row.get("faults") or ():
            self.faults[fault.get("kind", "?")] += 1
        before = len(self.seen_values)
        self.seen_values.update((row.get("scenario_dimensions") or {}).items())
        self._recent_gains.append(len(self.seen_values) - before)
        reward = row.get("reward")
        if isinstance(reward, int | float):
            self._rewards[reward] += 1

    def coverage_share(self) -> float:
        """Share of all the grid's axis values some row touched."""
        total = sum(len(v) for v in self.grid.axes.values())
        return len(self.seen_values) / total if total else 1.0

    def saturated(self) -> bool:
        """No new axis value in the last ``max(20, cells / 10)`` rows."""
        if len(self._recent_gains) < self._window:
            return False
        return not any(itertools.islice(reversed(self._recent_gains), self._window))

    def reward_mean(self) -> float | None:
        """Mean reward of the graded rows, ``None`` when none is graded."""
        count = sum(self._rewards.values())
        if not count:
            return None
        return (
            math.fsum(
                itertools.chain.from_iterable(
                    itertools.repeat(v, n) for v, n in self._rewards.items()
                )
            )
            / count
        )

    def report(self) -> dict[str, Any]:
        """The run report's row figures: rows, tasks, grid cells played, coverage, faults fired."""
        return {
            "rows": self.rows,
            "tasks": len(self.task_ids),
            "scenarios": len(self.scenario_ids),
            "coverage": self.grid.coverage({name: value} for name, value in self.seen_values),
            "faults_fired": dict(self.faults),
        }
