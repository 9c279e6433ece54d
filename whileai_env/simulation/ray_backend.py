"""``backend="ray"``: workers as Ray actors, on this machine or on a cluster (the ``ray`` extra).

Ray is an existing distributed engine, so nothing here schedules machines: ``ray.init()`` starts
a local instance by default, or joins the cluster at ``address`` (or ``RAY_ADDRESS``); a Ray
already initialised by the caller (``ray job submit``, a notebook) is used as it is. Each actor
holds one :class:`~whileai_env.simulation.workers.Worker`, set up once from the run's
:class:`~whileai_env.simulation.workers.WorkerSetup` (sent once with ``ray.put``); chunks go to
the actor with the fewest in flight. An actor that dies (``ray.kill``, a lost node) is replaced
by :meth:`RayBackend.replace` and the driver sends its chunks again (so is one Ray's memory
monitor stopped on a crowded node). Actors are named
``whileai-worker-<run>-<slot>`` so an operator can find them (``ray list actors``).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

from whileai_env.errors import MissingExtraError
from whileai_env.simulation.plan import Job
from whileai_env.simulation.workers import Played, Worker, WorkerSetup

ACTOR_PREFIX = "whileai-worker"
_RUNS = itertools.count()


class _Actor:
    """The body of one Ray actor: a worker, started when the actor starts."""

    def __init__(self, setup: WorkerSetup) -> None:
        self.worker = Worker(setup)

    def play(self, chunk: Sequence[Job]) -> list[Played]:
        return self.worker.play(chunk)


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("ray", "ray") from None
    return ray


class RayBackend:
    """``workers`` Ray actors (one per CPU of the cluster when ``None``), each one CPU; with
    ``helped``, the driver is one of the ``workers`` (one actor fewer, two chunks in flight with
    each actor, the rest played by the driver: see :mod:`~whileai_env.simulation.pools`)."""

    start_hint = ""

    def __init__(
        self,
        setup: WorkerSetup,
        workers: int | None,
        *,
        address: str | None = None,
        helped: bool = False,
    ) -> None:
        ray = self.ray = _ray()
        if not ray.is_initialized():
            ray.init(address=address or os.environ.get("RAY_ADDRESS") or None)
        workers = (workers or max(1, int(ray.cluster_resources().get("CPU", 1)))) - helped
        self.slots: int | None = 2 * workers if helped else None
        self._cls = ray.remote(num_cpus=1)(_Actor)
        self._setup = ray.put(setup)
        self._run = f"{os.getpid()}-{next(_RUNS)}"
        self._born = itertools.count()
        self.actors = [self._start(slot) for slot in range(workers)]
        self.load = [0] * workers

    def _start(self, slot: int) -> Any:
        name = f"{ACTOR_PREFIX}-{self._run}-{slot}-{next(self._born)}"
        return self._cls.options(name=name).remote(self._setup)

    def send(self, chunk: Sequence[Job]) -> tuple[Future, Any]:
        slot = min(range(len(self.actors)), key=self.load.__getitem__)
        actor = self.actors[slot]
        self.load[slot] += 1
        future = actor.play.remote(list(chunk)).future()
        future.add_done_callback(lambda _: self._settle(slot, actor))
        return future, (slot, actor)

    def _settle(self, slot: int, actor: Any) -> None:
        if self.actors[slot] is actor:
            self.load[slot] = max(0, self.load[slot] - 1)

    def died(self, exc: BaseException) -> bool:
        """An actor lost: killed, crashed, its node gone, or stopped by Ray's memory monitor."""
        errors = self.ray.exceptions
        return isinstance(
            exc,
            (
                errors.RayActorError,
                errors.OutOfMemoryError,
                errors.WorkerCrashedError,
                errors.NodeDiedError,
            ),
        )

    def replace(self, token: Any) -> None:
        """A fresh actor in ``token``'s slot, unless it was replaced already."""
        slot, actor = token
        if self.actors[slot] is actor:
            self.actors[slot] = self._start(slot)
            self.load[slot] = 0

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
