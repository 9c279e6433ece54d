"""What a worker does: play a chunk of rollouts and hand back rows ready for the driver's writer.

``simulate(workers=N)`` keeps the plan, the resume index and the one writer in the driver; a
worker (a process of the pool, or a Ray actor) is set up once from a :class:`WorkerSetup` (the
spec, the agent, the grader, the episode's knobs) and then plays chunks of jobs. Each job comes
back as a :class:`Played`: with a writer, the row's JSON line already encoded (the driver only
appends bytes) and a slim copy of the fields the run's tally and plan read; without one, the
whole row. A model agent keeps its HTTP concurrency inside each worker (a thread pool of
``concurrency`` rollouts per chunk).

>>> from whileai_env.scenarios.draw import draw_tasks
>>> from whileai_env.simulation.plan import Job
>>> from whileai_env.spec.load import load_spec
>>> spec = load_spec("configs/specs/order-support.json")
>>> worker = Worker(WorkerSetup(spec=spec, agent="oracle"))
>>> [p.key for p in worker.play([Job(t, 0) for t in draw_tasks(spec, 2)])] == [
...     (t.task_id, 0) for t in draw_tasks(spec, 2)]
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from whileai_env.data.jsonl import encode_row
from whileai_env.episode.engine import Episode
from whileai_env.errors import AgentError
from whileai_env.simulation.plan import Job
from whileai_env.simulation.players import make_player
from whileai_env.types import Judge

# what Tally.add and the plans' land() read of a row: all a streamed run's driver keeps
SLIM_FIELDS = ("task_id", "scenario_id", "scenario_dimensions", "faults", "reward", "seeded")


def play_job(
    spec: Any, player: Any, job: Job, grader: Judge | None, episode_kwargs: Mapping[str, Any]
) -> tuple[Job, dict[str, Any] | None, str | None]:
    """One rollout of ``job``: its row (graded when ``grader`` is given), or ``None`` and the
    agent's error. The one way a rollout is played, in the driver or in a worker."""
    episode = Episode(
        spec, job.task, rollout_index=job.rollout_index, grade=False, **episode_kwargs
    )
    try:
        extra = player.play(episode)
    except AgentError as exc:
        return job, None, str(exc)
    row = episode.row()
    row["agent"] = getattr(player, "name", "agent")
    row.update(extra or {})
    if grader is not None:
        from whileai_env.grading.judge import grade_own_row

        row = grade_own_row(row, grader)
    return job, row, None


def slim(row: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``row`` the driver's tally and plan read (steps cut to tool, ok, error)."""
    out = {k: row[k] for k in SLIM_FIELDS if k in row}
    out["steps"] = [{k: s.get(k) for k in ("tool", "ok", "error")} for s in row.get("steps") or ()]
    out["final_text"] = row.get("final_text")
    return out


@dataclass(frozen=True)
class Played:
    """One job's result as it travels back: ``row`` (whole, or slim beside ``line``), the encoded
    JSON ``line`` when the run streams to a file, or ``error`` when the agent failed."""

    key: tuple[str, int]
    row: dict[str, Any] | None
    line: bytes | None = None
    repaired: int = 0
    error: str | None = None


@dataclass(frozen=True)
class WorkerSetup:
    """Everything a worker needs, sent once when it starts (it must pickle for the process
    backend; Ray uses cloudpickle). ``agent`` is a name (``"seeded"``, ``"openai:M"``: each
    worker starts its own, HTTP client included) or a player object. ``encode``: hand back
    encoded lines (the run streams to a file). ``concurrency``: rollouts in flight per worker."""

    spec: Any
    agent: Any
    logprobs: bool = False
    grader: Judge | None = None
    episode_kwargs: Mapping[str, Any] = field(default_factory=dict)
    concurrency: int = 1
    encode: bool = False

    def player(self) -> Any:
        return make_player(self.agent, spec=self.spec, logprobs=self.logprobs)


class Worker:
    """Plays chunks of jobs for one worker: the player is started once, reused for every chunk."""

    def __init__(self, setup: WorkerSetup) -> None:
        self.setup = setup
        self.player = setup.player()
        self._threads = ThreadPoolExecutor(setup.concurrency) if setup.concurrency > 1 else None

    def play(self, jobs: Sequence[Job]) -> list[Played]:
        """Play ``jobs`` (up to ``concurrency`` at a time); results in the order of ``jobs``."""
        if self._threads is None:
            return [self._one(job) for job in jobs]
        return list(self._threads.map(self._one, jobs))

    def close(self) -> None:
        """Stop the worker's threads (a model agent's HTTP concurrency)."""
        if self._threads is not None:
            self._threads.shutdown(wait=True)

    def _one(self, job: Job) -> Played:
        s = self.setup
        _, row, error = play_job(s.spec, self.player, job, s.grader, s.episode_kwargs)
        if row is None:
            return Played(job.key, None, error=error)
        if not s.encode:
            return Played(job.key, row)
        from whileai_env.data.rows import export_row

        line, repaired = encode_row(export_row(row, refuse_leaks=False))
        return Played(job.key, slim(row), line, repaired)
