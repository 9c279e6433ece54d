"""Which rollouts a run plays next: the topology of each mode as a job planner.

A *job* is one rollout of one task. ``FixedPlan`` plays every task ``k`` times (explore, sft,
adaptive, or a pinned task set); ``SuccessivePlan`` is ``rl`` mode's successive allocation:
probe each prompt with two rollouts and fill to ``k`` only where they disagree, resuming
unanimous groups only when nothing fresh can be opened.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.hashing import canonical_json, hex_id
from whileai_env.scenarios.task import Task


@dataclass(frozen=True)
class Job:
    """Play ``task`` once as rollout number ``rollout_index``."""

    task: Task
    rollout_index: int

    @property
    def key(self) -> tuple[str, int]:
        return (self.task.task_id, self.rollout_index)


def reply_class(text: str) -> str:
    """What a final reply does, in one word: asks, reports a failure, claims success, or other."""
    from whileai_env.grading import claims

    if not text.strip():
        return "empty"
    for name, detector in (
        ("question", claims.question_asked),
        ("missing", claims.missing_reported),
        ("failure", claims.failure_acknowledged),
        ("done", claims.done_acknowledged),
    ):
        if detector(text):
            return name
    return "success" if claims.success_claim(text) else "other"


def behaviour_signature(row: Mapping[str, Any]) -> str:
    """What the agent did, coarsely: the calls it made, how they ended, and what its reply did.

    Without a grader, two rollouts of one prompt "disagree" when their signatures differ. The
    wording of the reply is left out on purpose (a sampled model never words two replies alike),
    only its class counts.
    """
    calls = [(s.get("tool"), s.get("ok"), s.get("error")) for s in row.get("steps", [])]
    return hex_id(
        "behaviour",
        canonical_json(
            {
                "calls": calls,
                "reply": reply_class(str(row.get("final_text") or "")),
                "seeded": row.get("seeded") or [],
            }
        ),
        length=12,
    )


class FixedPlan:
    """Every task of the stream, ``repeats`` rollouts each, in order."""

    def __init__(self, tasks: Iterator[Task], repeats: int | None = None) -> None:
        self._tasks = tasks
        self._repeats = repeats
        self._pending: deque[Job] = deque()
        self.exhausted = False

    def next_jobs(self, limit: int) -> list[Job]:
        while len(self._pending) < limit and not self.exhausted:
            task = next(self._tasks, None)
            if task is None:
                self.exhausted = True
                break
            k = self._repeats or task.repeats
            self._pending.extend(Job(task, r) for r in range(k))
        return [self._pending.popleft() for _ in range(min(limit, len(self._pending)))]

    def land(self, job: Job, row: Mapping[str, Any] | None) -> None:
        """Nothing to decide: a fixed plan does not read results."""

    def report(self) -> dict[str, Any]:
        return {}

    def group_cut(self, task_id: str) -> bool:
        return False


@dataclass
class Group:
    """The rollouts of one prompt in ``rl`` mode."""

    task: Task
    k: int
    opened: int = 0
    landed: list[str] = field(default_factory=list)
    lost: int = 0
    filling: bool = False
    stopped: bool = False

    @property
    def mixed(self) -> bool:
        return len(set(self.landed)) > 1

    @property
    def settled(self) -> bool:
        return len(self.landed) + self.lost >= self.opened


class SuccessivePlan:
    """``rl`` mode: probe ``probe`` rollouts per prompt, fill to ``k`` where they disagree.

    ``outcome(row)`` says what a rollout scored: the grader's reward when a grader runs beside
    the rollouts, otherwise its :func:`behaviour_signature`.
    """

    def __init__(
        self, tasks: Iterator[Task], repeats: int | None, *, probe: int = 2, outcome: Any = None
    ) -> None:
        if probe < 1:
            raise ValueError(f"probe must be at least 1, got {probe}")
        self._tasks = tasks
        self._repeats = repeats
        self.probe = probe
        self.outcome = outcome or behaviour_signature
        self.groups: dict[str, Group] = {}
        self._order: list[str] = []
        self._fills: deque[Job] = deque()
        self.fresh_exhausted = False
        self.exhausted = False

    def _open(self) -> Group | None:
        task = next(self._tasks, None)
        if task is None:
            self.fresh_exhausted = True
            return None
        group = Group(task, k=self._repeats or task.repeats)
        self.groups[task.task_id] = group
        self._order.append(task.task_id)
        return group

    def _take(self, group: Group, n: int) -> list[Job]:
        jobs = [Job(group.task, group.opened + i) for i in range(n)]
        group.opened += n
        return jobs

    def next_jobs(self, limit: int) -> list[Job]:
        jobs: list[Job] = []
        while self._fills and len(jobs) < limit:
            jobs.append(self._fills.popleft())
        while len(jobs) < limit and not self.fresh_exhausted:
            group = self._open()
            if group is None:
                break
            jobs.extend(self._take(group, min(self.probe, group.k)))
        if len(jobs) < limit and self.fresh_exhausted:
            for tid in self._order:
                group = self.groups[tid]
                if group.stopped and group.settled and group.opened < group.k:
                    group.stopped = False
                    group.filling = True
                    self._fills.extend(self._take(group, group.k - group.opened))
                    break
            while self._fills and len(jobs) < limit:
                jobs.append(self._fills.popleft())
        if not jobs and self.fresh_exhausted and not self._fills:
            self.exhausted = all(g.settled for g in self.groups.values())
        return jobs

    def land(self, job: Job, row: Mapping[str, Any] | None) -> None:
        group = self.groups[job.task.task_id]
        if row is None:
            group.lost += 1
        else:
            group.landed.append(str(self.outcome(row)))
        if group.filling or not group.settled or group.opened >= group.k:
            return
        if group.mixed:
            group.filling = True
            self._fills.extend(self._take(group, group.k - group.opened))
        elif group.landed:
            group.stopped = True

    def report(self) -> dict[str, Any]:
        """Group counts: ``mixed`` (filled), ``stopped`` (unanimous, stopped after the probe),
        ``complete`` (k rollouts), ``partial`` (short of k but not stopped: cut by the budget or
        the clock), ``rollouts_saved`` (what full groups would have cost beyond what was played)."""
        groups = list(self.groups.values())
        full = sum(g.k for g in groups)
        played = sum(len(g.landed) for g in groups)
        return {
            "groups": len(groups),
            "mixed": sum(g.mixed for g in groups),
            "stopped": sum(g.stopped and not g.mixed for g in groups),
            "complete": sum(len(g.landed) >= g.k for g in groups),
            "partial": sum(
                0 < len(g.landed) < g.k and not (g.stopped and not g.mixed) for g in groups
            ),
            "rollouts_saved": max(0, full - played),
        }

    def group_cut(self, task_id: str) -> bool:
        group = self.groups.get(task_id)
        return bool(group and group.filling and len(group.landed) < group.k)
