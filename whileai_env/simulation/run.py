"""``simulate()``: sample the environment and play an agent through it, row by row.

Tasks come from the coverage grid (or a previous run's task set); each rollout is one
:class:`~whileai_env.episode.engine.Episode`, so the world, the fault schedule, the simulated user and
truncation are the engine's. Rows are written and flushed as they land; ``resume=True``
continues a run that was killed without duplicating or losing a row.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import deque
from collections.abc import Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from whileai_env.data.jsonl import RowWriter, iter_rows, write_rows
from whileai_env.scenarios.draw import iter_situations, tasks_from_rows
from whileai_env.scenarios.grid import build_grid
from whileai_env.scenarios.task import Task, Topology, topology
from whileai_env.simulation.config import SimulationConfig
from whileai_env.simulation.data import FileTrajectories, SimulationData, load_run_rows
from whileai_env.simulation.plan import FixedPlan, Job, SuccessivePlan
from whileai_env.simulation.players import ModelPlayer, make_player
from whileai_env.simulation.progress import Progress
from whileai_env.simulation.tally import Tally
from whileai_env.simulation.workers import play_job
from whileai_env.spec.load import load_spec
from whileai_env.types import Execute, Judge

MODEL_CONCURRENCY = 16
_ALIASES = {
    "n": "phrasings",
    "requests_per_situation": "phrasings",
    "rollouts_per_request": "repeats",
    "policy": "system_prompt",
    "risk": "fault_rate",
}
_ADVANCED = {"concurrency", "seed", "avg_turns", "probe", "max_turns"}
_KNOBS = tuple(f.name for f in fields(SimulationConfig))


def simulate(
    agent: Any = None,
    *,
    spec: Any = None,
    tools: Any = None,
    system_prompt: str | None = None,
    config: SimulationConfig | Mapping[str, Any] | str | os.PathLike | None = None,
    simulator: Any = False,
    tasks: Any = None,
    traces: Any = None,
    rubric: str | os.PathLike | None = None,
    grader: Judge | None = None,
    user: Any = None,
    execute: Execute | None = None,
    advanced: Mapping[str, Any] | None = None,
    **knobs: Any,
) -> SimulationData:
    """Play ``agent`` through tasks drawn from a spec's grid and return the rows.

    ``agent`` is a callable ``agent(message) -> {"steps", "final_text"}`` (its tool calls meet
    faults through :func:`whileai_env.world`, bound to the current rollout), a step policy
    ``policy(observation) -> action``, ``"openai:MODEL"`` / ``"vllm:MODEL@URL"`` / ``"hf:PATH"``,
    or one of the reference agents ``"seeded"``, ``"oracle"``, ``"silent"``.

    The run's knobs are a :class:`SimulationConfig`: pass ``config=`` (an object, a mapping or a
    YAML file) and/or the knobs as keywords (``mode=``, ``budget=``, ``fault_rate=`` …; keywords
    win). Modes: ``explore`` (a new situation per row), ``sft`` (phrasings × repeats), ``rl``
    (successive allocation: probe two rollouts per prompt, fill to ``repeats`` only where they
    disagree; with ``grader=`` the decision reads rewards), ``adaptive`` (a mix; with
    ``until="saturation"`` it stops when coverage plateaus). ``tasks=`` re-runs a previous run's
    task set (a run, its rows, its JSONL or tasks) at its k unless ``repeats=`` is given.
    ``rubric=`` (text or a path) is put on every row's privileged block and, unless ``grader=`` is
    given, rows are graded against it as they land by
    :func:`~whileai_env.judges.rubric.rubric_judge` on ``$WHILEAI_JUDGE``.
    ``traces=`` (trace rows or a JSONL path: :mod:`whileai_env.traces`) weights the draw toward the
    tools, faults and world states the traces got wrong and drops every task whose opener
    near-copies a trace's prompt; ``data.search["traces"]`` says what it aimed at.

    The run stops at ``budget`` rows, at ``time_budget`` seconds, at saturation, when the task
    set is done, or when the agent fails every rollout (called off after ``max(16, 2 * budget)``
    lost rollouts); ``data.stopped_because`` says which. Aliases: ``n=``/``requests_per_situation=``
    for ``phrasings``, ``rollouts_per_request=`` for ``repeats``, ``policy=`` for
    ``system_prompt``, ``risk=`` for ``fault_rate``; ``advanced={"concurrency", "seed",
    "avg_turns", "probe", "max_turns"}``.

    >>> data = simulate("oracle", spec="configs/specs/order-support.json", budget=10, quiet=True)
    >>> len(data.rows), data.stopped_because
    (10, 'budget')
    """
    system_prompt, knobs = _unalias(system_prompt, knobs)
    settings = _settings(config, knobs, advanced)
    if spec is None and tools is None:
        raise ValueError(
            "simulate() needs spec= (a path, dict or Spec) or tools= (and system_prompt=)"
        )
    the_spec = load_spec(spec, tools=tools, system_prompt=system_prompt)
    if rubric is not None:  # every row carries it, and rubric_judge grades unless grader= does
        from whileai_env.judges.rubric import rubric_grading

        the_spec, grader = rubric_grading(the_spec, rubric, grader)
    aim = _aim(traces, the_spec)
    topo, pinned, task_stream = _tasks(settings, the_spec, tasks, aim)
    if simulator:
        task_stream = _model_openers(task_stream, simulator, the_spec)
    if aim is not None:
        task_stream = aim.screen(task_stream)
    player = make_player(agent, spec=the_spec, logprobs=settings.logprobs)
    concurrency = settings.concurrency or (
        MODEL_CONCURRENCY if isinstance(player, ModelPlayer) else 1
    )
    outcome = (lambda row: row.get("reward")) if grader is not None else None
    plan: Any = (
        SuccessivePlan(task_stream, topo.repeats, probe=settings.probe, outcome=outcome)
        if settings.mode == "rl"
        else FixedPlan(task_stream, topo.repeats)
    )
    writer = _writer(settings, the_spec, topo, player, pinned, grader, aim)
    episode_kwargs = {
        "user": user,
        "avg_turns": settings.avg_turns,
        "max_turns": settings.max_turns,
        "execute": execute,
    }
    remote = None
    if settings.workers is not None or settings.backend == "ray":
        from whileai_env.simulation.pools import WINDOW, open_pool

        remote = open_pool(
            settings,
            spec=the_spec,
            agent=agent,
            player=player,
            grader=grader,
            episode_kwargs=episode_kwargs,
            concurrency=concurrency,
        )
    runner = _Runner(
        spec=the_spec,
        plan=plan,
        player=player,
        budget=settings.budget,
        time_budget=settings.time_budget,
        grader=grader,
        concurrency=concurrency if remote is None else WINDOW,
        reproducible=settings.reproducible or (concurrency == 1 and remote is None),
        writer=writer,
        remote=remote,
        until=settings.until,
        quiet=settings.quiet,
        pinned=pinned is not None,
        episode_kwargs=episode_kwargs,
    )
    try:
        search = runner.run()
        if aim is not None:
            search["traces"] = aim.summary()
    finally:
        if writer:
            writer.close()
    if writer is None:
        trajectories: Any = runner.rows
    else:
        if runner.cut_tasks:
            _stamp_cut(writer.path, runner.cut_tasks)
        trajectories = FileTrajectories(
            writer.path, None if runner.cut_tasks else writer.offsets, the_spec
        )
    return SimulationData(
        trajectories,
        search=search,
        spec=the_spec,
        mode=settings.mode,
        phrasings=topo.phrasings,
        repeats=topo.repeats,
        output=writer.path if writer else None,
    )


def _unalias(system_prompt: str | None, knobs: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """Resolve the seeds' alias names (``n=``, ``risk=`` …); an unknown keyword is a ``TypeError``."""
    out = {k: v for k, v in knobs.items() if k in _KNOBS}
    given = {"system_prompt": system_prompt}
    for alias, value in knobs.items():
        if alias in _KNOBS:
            continue
        if alias not in _ALIASES:
            raise TypeError(f"simulate() got an unexpected keyword argument {alias!r}")
        target = _ALIASES[alias]
        current = given.get(target) if target == "system_prompt" else out.get(target)
        if current is not None and current != value:
            raise TypeError(f"simulate() got both {target}= and its alias {alias}=")
        if target == "system_prompt":
            given["system_prompt"] = value
        else:
            out[target] = value
    return given["system_prompt"], out


def _settings(
    config: Any, knobs: Mapping[str, Any], advanced: Mapping[str, Any] | None
) -> SimulationConfig:
    """The run's config: ``config`` (object, mapping or file), then keywords, then ``advanced``."""
    if config is None:
        base = SimulationConfig()
    elif isinstance(config, SimulationConfig):
        base = config
    elif isinstance(config, Mapping):
        base = SimulationConfig.from_mapping(config)
    else:
        base = SimulationConfig.from_file(config)
    extra = dict(advanced or {})
    unknown = set(extra) - _ADVANCED
    if unknown:
        raise ValueError(
            f"unknown advanced keys {', '.join(sorted(unknown))}; known: {', '.join(sorted(_ADVANCED))}"
        )
    changes = {**knobs, **extra}
    return base.replace(**changes) if changes else base


def _aim(traces: Any, spec: Any) -> Any:
    """The :class:`~whileai_env.traces.aim.TraceAim` of ``traces=``, or ``None`` without traces."""
    if traces is None:
        return None
    from whileai_env.traces.aim import aim_run

    return aim_run(traces, spec)


def _tasks(
    settings: SimulationConfig, spec: Any, tasks: Any, aim: Any = None
) -> tuple[Topology, list[Task] | None, Iterator[Task]]:
    """The run's topology, its pinned task set (``tasks=``) if any, and the stream of tasks to play."""
    topo = topology(settings.mode, settings.phrasings, settings.repeats)
    if tasks is not None:
        rows = load_run_rows(tasks)
        if not rows:
            raise ValueError("tasks= holds no rows to re-run")
        pinned = tasks_from_rows(rows, spec)
        inherited = max(_repeats_of(r) for r in rows)
        topo = replace(
            topo, repeats=settings.repeats if settings.repeats is not None else inherited
        )
        return topo, pinned, iter(pinned)
    stream = iter_situations(
        spec,
        mode=settings.mode,
        seed=settings.seed,
        phrasings=topo.phrasings,
        repeats=topo.repeats,
        fault_rate=settings.fault_rate,
        grid=aim.grid if aim is not None else None,
        weights=aim.weights if aim is not None else None,
    )
    if settings.situations is not None:
        stream = itertools.islice(stream, settings.situations)
    return topo, None, (task for group in stream for task in group)


def _writer(
    settings: SimulationConfig,
    spec: Any,
    topo: Topology,
    player: Any,
    pinned: list[Task] | None,
    grader: Judge | None,
    aim: Any = None,
) -> RowWriter | None:
    """The streaming writer of ``settings.output`` (or ``None``), stamped with what makes a run this
    run (a resume must match all of it: see :mod:`whileai_env.data.resume`)."""
    if settings.output is None:
        return None
    from whileai_env.grading.judge import judge_name

    stamp = {
        "spec_hash": spec.content_hash,
        "mode": settings.mode,
        "seed": settings.seed,
        "phrasings": topo.phrasings,
        "repeats": topo.repeats,
        "fault_rate": settings.fault_rate,
        "agent": getattr(player, "name", "agent"),
        "pinned_tasks": len(pinned) if pinned is not None else None,
        "grader": judge_name(grader) if grader is not None else None,
    }
    if aim is not None:  # other traces aim the draw elsewhere: such a file is not this run
        stamp["traces"] = aim.fingerprint()
    return RowWriter(settings.output, config=stamp, resume=settings.resume)


def _repeats_of(item: Task | Mapping[str, Any]) -> int:
    """The k a pinned task was played at: its ``repeats``, or more if a row shows a later rollout."""
    if isinstance(item, Task):
        return item.repeats
    return max(int(item.get("repeats") or 1), 1 + int(item.get("rollout_index") or 0))


def _model_openers(tasks: Iterator[Task], simulator: Any, spec: Any) -> Iterator[Task]:
    from whileai_env.agents.opener_model import ModelOpenerWriter

    writer = (
        simulator
        if callable(simulator) and not isinstance(simulator, str)
        else ModelOpenerWriter(simulator)
    )
    for task in tasks:
        yield replace(task, opener=writer(task, spec))


def _stamp_cut(path: Path, cut: set[str]) -> None:
    """Mark ``group_cut`` on the file's rows of the groups the clock cut, streaming it through a
    temporary file (never all rows in memory)."""
    stamped = (
        {**row, "group_cut": True} if row.get("task_id") in cut else row for row in iter_rows(path)
    )
    tmp = path.with_name(path.name + ".stamped")
    write_rows(stamped, tmp)
    tmp.replace(path)


class _Runner:
    """The scheduling loop of one run (a sliding window of rollouts over the plan).

    With a writer, each row goes to disk as it lands and only its summary statistics stay
    (:class:`~whileai_env.simulation.tally.Tally`), so memory does not grow with the run;
    without one, :attr:`rows` keeps them (they are the run's result).
    """

    def __init__(
        self,
        *,
        spec: Any,
        plan: Any,
        player: Any,
        budget: int,
        time_budget: float | None,
        grader: Any,
        concurrency: int,
        reproducible: bool,
        writer: RowWriter | None,
        episode_kwargs: dict[str, Any],
        until: str,
        quiet: bool,
        pinned: bool,
        remote: Any = None,
    ) -> None:
        self.spec, self.plan, self.player = spec, plan, player
        self.budget, self.time_budget, self.grader = budget, time_budget, grader
        self.concurrency, self.reproducible = concurrency, reproducible
        self.writer, self.remote = writer, remote
        self.resumed = dict(writer.resumed) if writer is not None else {}
        self.episode_kwargs, self.until, self.pinned = episode_kwargs, until, pinned
        self.grid = build_grid(spec)
        self.rows: list[dict[str, Any]] = []
        self.tally = Tally(self.grid)
        self.lost = 0
        self.first_error: str | None = None
        self.cut_tasks: set[str] = set()
        self.progress = Progress(budget=budget, quiet=quiet)
        self.started = time.perf_counter()
        self._queue: deque[Job] = deque()
        # jobs asked of the plan at once: a fixed plan is a stream, so workers get their first
        # chunk after one chunk's draw, not after the window's (a driver drawing 256 tasks
        # before it sent any left its workers idle); rl rounds keep the window's size
        self._batch = (
            remote.chunk if remote is not None and isinstance(plan, FixedPlan) else concurrency
        )

    def _next_job(self) -> Job | None:
        if not self._queue:
            self._queue.extend(self.plan.next_jobs(max(1, self._batch)))
        return self._queue.popleft() if self._queue else None

    def play(self, job: Job) -> tuple[Job, dict[str, Any] | None, str | None]:
        """One rollout: the row, or ``None`` and the agent's error."""
        return play_job(self.spec, self.player, job, self.grader, self.episode_kwargs)

    def run(self) -> dict[str, Any]:
        """Play the plan out; the run's report (``search``)."""
        stopped = None
        max_lost = max(16, 2 * self.budget)
        with self.progress:
            pool = (
                ThreadPoolExecutor(self.concurrency)
                if self.concurrency > 1 and self.remote is None
                else None
            )
            inflight: dict[Future, Job] = {}
            try:
                while True:
                    if stopped is None:
                        stopped = self._stop_reason(max_lost, len(inflight))
                    while (
                        stopped is None
                        and len(inflight) < self.concurrency
                        and self.tally.rows + len(inflight) < self.budget
                    ):
                        job = self._next_job()
                        if job is None:
                            break
                        if job.key in self.resumed:
                            assert self.writer is not None
                            self._land(
                                job,
                                self.writer.read_at(self.resumed.pop(job.key)),
                                None,
                                write=False,
                            )
                            continue
                        if self.remote is not None:
                            inflight[self.remote.submit(job)] = job
                            continue
                        if pool is None:
                            self._land(*self.play(job))
                            stopped = self._stop_reason(max_lost, 0)
                            continue
                        inflight[pool.submit(self.play, job)] = job
                    if not inflight:
                        if stopped is None:
                            stopped = self._stop_reason(max_lost, 0) or (
                                "budget" if self.tally.rows >= self.budget else "tasks_done"
                            )
                        break
                    if self.remote is not None:
                        self.remote.flush()
                    if self.reproducible:
                        done = list(inflight)
                        if self.remote is not None:
                            self.remote.help_until(done)
                        wait(done)
                    elif self.remote is not None:  # plan order, as soon as the head has landed
                        self.remote.help_until([next(iter(inflight))])
                        next(iter(inflight)).exception()
                        done = list(itertools.takewhile(Future.done, inflight))
                    else:
                        done = list(wait(list(inflight), return_when=FIRST_COMPLETED).done)
                    for future in done:
                        inflight.pop(future)
                        self._land(*future.result())
            finally:
                if pool is not None:
                    pool.shutdown(wait=True, cancel_futures=True)
                if self.remote is not None:
                    self.remote.close()
        if not self.tally.rows and self.lost:
            stopped = "agent_failed"
        if stopped == "time_budget":
            self._stamp_cut_groups()
        return self._search(stopped)

    def _stop_reason(self, max_lost: int, inflight: int) -> str | None:
        if self.tally.rows >= self.budget:
            return "budget"
        if self.lost >= max_lost:
            return "agent_failed"
        if self.time_budget and time.perf_counter() - self.started >= self.time_budget:
            return "time_budget"
        if self.until == "saturation" and self.tally.saturated():
            return "saturation"
        if self.plan.exhausted and not self._queue and not inflight:
            return "tasks_done"
        return None

    def _land(
        self,
        job: Job,
        row: dict[str, Any] | None,
        error: str | None,
        encoded: tuple[bytes, int] | None = None,
        *,
        write: bool = True,
    ) -> None:
        self.plan.land(job, row)
        if row is None:
            self.lost += 1
            self.first_error = self.first_error or error
            self.progress.update(rows=self.tally.rows, lost=self.lost)
            return
        if self.writer is None:
            self.rows.append(row)
        elif write and encoded is not None:  # a worker's line, encoded as write() would
            self.writer.write_encoded(*encoded)
        elif write:
            from whileai_env.data.rows import export_row

            self.writer.write(export_row(row, refuse_leaks=False))
        self.tally.add(row)
        self.progress.update(
            rows=self.tally.rows,
            lost=self.lost,
            coverage=self.tally.coverage_share(),
            faults=sum(self.tally.faults.values()),
        )

    def _stamp_cut_groups(self) -> None:
        """Mark the rows of groups the clock cut (in memory now; on disk by :func:`_stamp_cut`)."""
        self.cut_tasks = {
            task_id for task_id in self.tally.task_ids if self.plan.group_cut(task_id)
        }
        for row in self.rows:
            if row["task_id"] in self.cut_tasks:
                row["group_cut"] = True
        if self.writer is None:
            self.cut_tasks = set()

    def _search(self, stopped: str | None) -> dict[str, Any]:
        elapsed = time.perf_counter() - self.started
        search: dict[str, Any] = {
            "stopped_because": stopped or "budget",
            **self.tally.report(),
            "elapsed_s": round(elapsed, 3),
            "rows_per_min": round(60 * self.tally.rows / elapsed, 1) if elapsed > 0 else None,
            "grid_cells": len(self.grid),
        }
        groups = self.plan.report()
        if groups:
            search["groups"] = groups
        if self.remote is not None:
            # where the rollouts were played: with a helping driver, its share says how much of
            # the run the pool took (a driver that plays most chunks means workers it starved)
            search["chunks_played"] = {
                "workers": self.remote.returned,
                "driver": self.remote.helped,
            }
            if self.remote.restarts:
                search["worker_restarts"] = self.remote.restarts
        if self.lost:
            search["agent_errors"] = self.lost
            search["first_agent_error"] = self.first_error
        if self.writer is not None and self.writer.recovered:
            search["corrupt_lines_set_aside"] = list(self.writer.recovered)
        reward_mean = self.tally.reward_mean()
        if reward_mean is not None:
            search["reward_mean"] = reward_mean
        return search
