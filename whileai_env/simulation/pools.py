"""The driver's side of ``simulate(workers=N)``: jobs out in chunks, one future per job back.

:class:`RemotePool` buffers the jobs the run loop submits into chunks, sends each chunk to a
backend (:mod:`~whileai_env.simulation.process_backend`, :mod:`~whileai_env.simulation.ray_backend`)
and resolves every job's future with ``(job, row, error, encoded)`` for the loop to land in plan
order through its one writer. A chunk whose worker died (``kill -9`` of a pool process,
``ray.kill`` of an actor) is sent again to a fresh worker, up to :data:`RETRIES` times; the
worker wrote nothing, so no row is lost or landed twice. Workers only play; the plan, the
resume index and the file stay in the driver.

On either backend the driver is one of the run's ``workers``: ``workers=N`` starts N - 1 pool
processes or Ray actors, keeps two chunks in flight with each, and the driver plays the chunks
they have not taken whenever it would otherwise wait for a row (:meth:`RemotePool.help_until`). The
driver's own work (drawing every task, writing every row) is then the only thing that decides
how many chunks it plays: on two cores, a pool process beside a driver that draws and plays
uses both, where two pool processes and a drawing driver were three busy processes on two
cores. On a cluster the same holds: chunks wait for the driver only while every actor has two,
so a driver that cannot keep N - 1 actors fed plays none. A model agent (``concurrency > 1``)
keeps N pool processes or actors and a driver that only waits:
its rollouts wait on HTTP, and a driver playing them would stall the draw and the writer.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Iterable, Sequence
from concurrent.futures import Future
from typing import Any, Protocol

from whileai_env.errors import ConfigError, WorkerError
from whileai_env.simulation.config import BACKENDS
from whileai_env.simulation.plan import Job
from whileai_env.simulation.workers import Played, Worker, WorkerSetup

RETRIES = 3
# rollouts the loop keeps in flight with workers: fixed (not a function of the worker count), so
# a reproducible run asks its plan for the same rounds, and lands the same rows, on 1 or 64 workers
WINDOW = 256


class Backend(Protocol):
    """Where chunks are played: ``send`` returns the chunk's future and a token naming the worker
    it went to; ``died(exc)`` says whether a failure was the worker's death; ``replace(token)``
    puts a fresh worker in the dead one's place (once, however many chunks it took down);
    ``start_hint``: what to check when workers die before any chunk comes back; ``slots``: how
    many chunks to keep sent at once (``None``: send each as it fills), the rest wait in the
    driver where it can play them itself."""

    start_hint: str
    slots: int | None

    def send(self, chunk: Sequence[Job]) -> tuple[Future, Any]: ...

    def died(self, exc: BaseException) -> bool: ...

    def replace(self, token: Any) -> None: ...

    def close(self) -> None: ...


def make_backend(
    name: str, setup: WorkerSetup, workers: int | None, address: str | None = None
) -> Backend:
    """Start ``workers`` workers on backend ``name`` (``"process"`` or ``"ray"``; Ray's default is
    one per CPU of the cluster), the driver counted as one of them for an offline agent."""
    helped = setup.concurrency == 1  # the driver plays too: one worker fewer
    if name == "process" and workers in (None, 1):
        return InlineBackend(setup)
    if name == "process":
        from whileai_env.simulation.process_backend import ProcessBackend

        return ProcessBackend(setup, int(workers or 1) - helped, slots_each=2 if helped else None)
    if name == "ray":
        from whileai_env.simulation.ray_backend import RayBackend

        return RayBackend(setup, workers, address=address, helped=helped)
    raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, got {name!r}")


class InlineBackend:
    """One worker in the driver's own process (``workers=1``): the same chunks, rounds and rows
    as a pool, with no process to start or pickle to pay."""

    start_hint = ""
    slots: int | None = None

    def __init__(self, setup: WorkerSetup) -> None:
        self.worker = Worker(setup)

    def send(self, chunk: Sequence[Job]) -> tuple[Future, Any]:
        future: Future = Future()
        future.set_result(self.worker.play(chunk))
        return future, None

    def died(self, exc: BaseException) -> bool:
        return False

    def replace(self, token: Any) -> None:
        """Nothing to replace: the driver is the worker."""

    def close(self) -> None:
        self.worker.close()


class RemotePool:
    """Chunks submitted jobs to a backend; each job's future resolves to its landed tuple."""

    def __init__(self, backend: Backend, chunk: int, helper: Worker | None = None) -> None:
        self.backend = backend
        self.chunk = max(1, chunk)
        self.helper = helper
        self.restarts = 0
        self.returned = 0  # chunks that came back played
        self.helped = 0  # chunks the driver played itself
        self._buffer: list[tuple[Job, Future]] = []
        self._waiting: deque[list[tuple[Job, Future]]] = deque()  # filled, not sent yet
        self._sent = 0  # chunks sent and not yet resolved
        self._results: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._dispatcher = threading.Thread(target=self._dispatch, daemon=True)
        self._dispatcher.start()

    def submit(self, job: Job) -> Future:
        """Queue ``job``; it is sent with its chunk when the chunk fills or at :meth:`flush`."""
        future: Future = Future()
        self._buffer.append((job, future))
        if len(self._buffer) >= self.chunk:
            self.flush()
        return future

    def flush(self) -> None:
        """Send what is buffered (the loop calls this before it waits)."""
        if self._buffer:
            batch, self._buffer = self._buffer, []
            with self._lock:
                self._waiting.append(batch)
            self._pump()

    def _pump(self) -> None:
        """Send waiting chunks while the backend has free slots."""
        slots = self.backend.slots
        while True:
            with self._lock:
                if not self._waiting or (slots is not None and self._sent >= slots):
                    return
                batch = self._waiting.popleft()
                self._sent += 1
            try:
                self._send(batch, attempt=0)
            except Exception as exc:  # a backend that refuses the chunk: its jobs fail, not hang
                with self._lock:
                    self._sent -= 1
                for _, job_future in batch:
                    job_future.set_exception(exc)

    def help_until(self, futures: Iterable[Future]) -> None:
        """Play waiting chunks here, in the driver, until every one of ``futures`` is done or no
        chunk is left waiting (then the caller waits for the workers)."""
        pending = [f for f in futures if not f.done()]
        while self.helper is not None and pending:
            with self._lock:
                batch = self._waiting.popleft() if self._waiting else None
            if batch is None:
                return
            try:
                played = self.helper.play([job for job, _ in batch])
            except Exception as exc:  # as a worker's failure: the run loop raises it
                for _, job_future in batch:
                    job_future.set_exception(exc)
            else:
                _resolve(batch, played)
                self.helped += 1
            pending = [f for f in pending if not f.done()]

    def _send(self, batch: list[tuple[Job, Future]], attempt: int) -> None:
        with self._lock:
            future, token = self.backend.send([job for job, _ in batch])
        future.add_done_callback(lambda f: self._results.put((batch, attempt, token, f)))

    def _dispatch(self) -> None:
        """Resolve job futures as chunks come back; a failure here fails the chunk's jobs (the
        run loop then raises it) rather than leave them waiting for ever."""
        while True:
            item = self._results.get()
            if item is None:
                return
            batch = item[0]
            try:
                self._handle(*item)
            except Exception as exc:  # a backend that cannot restart a worker, a short reply
                for _, job_future in batch:
                    if not job_future.done():
                        job_future.set_exception(exc)

    def _handle(
        self, batch: list[tuple[Job, Future]], attempt: int, token: Any, future: Future
    ) -> None:
        """One chunk back: resolve its jobs, or send it again when its worker died."""
        exc = future.exception()
        if exc is not None and self.backend.died(exc) and attempt < RETRIES:
            with self._lock:
                self.backend.replace(token)
                self.restarts += 1
            self._send(batch, attempt + 1)
            return
        with self._lock:
            self._sent -= 1
        if exc is None:
            _resolve(batch, future.result())
            self.returned += 1
        else:
            failure = self._death(exc, attempt) if self.backend.died(exc) else exc
            for _, job_future in batch:
                job_future.set_exception(failure)
        self._pump()

    def _death(self, exc: BaseException, attempt: int) -> WorkerError:
        hint = "" if self.returned else self.backend.start_hint
        return WorkerError(
            f"a worker died {attempt + 1} times playing a chunk ({exc})"
            + (f"; no worker has played a chunk yet: {hint}" if hint else "")
        )

    def close(self) -> None:
        """Stop the dispatcher, the backend's workers and the driver's own worker."""
        self._results.put(None)
        self._dispatcher.join(timeout=5)
        self.backend.close()
        if self.helper is not None:
            self.helper.close()


def _resolve(batch: list[tuple[Job, Future]], played: list[Played]) -> None:
    for (job, future), result in zip(batch, played, strict=True):
        encoded = (result.line, result.repaired) if result.line is not None else None
        future.set_result((job, result.row, result.error, encoded))


def open_pool(
    settings: Any,
    *,
    spec: Any,
    agent: Any,
    player: Any,
    grader: Any,
    episode_kwargs: dict[str, Any],
    concurrency: int,
) -> RemotePool:
    """The pool of ``settings.workers`` workers on ``settings.backend`` (Ray's default: one per
    CPU of the cluster): each plays ``concurrency``
    rollouts at a time (a model agent's HTTP concurrency, per worker), starting its own agent
    when ``agent`` is a name, else a copy of ``player``."""
    setup = WorkerSetup(
        spec=spec,
        agent=agent if isinstance(agent, str) else player,
        logprobs=settings.logprobs,
        grader=grader,
        episode_kwargs=episode_kwargs,
        concurrency=concurrency,
        encode=settings.output is not None,
    )
    backend = make_backend(settings.backend, setup, settings.workers, settings.ray_address)
    helper = Worker(setup) if backend.slots is not None else None
    return RemotePool(backend, chunk=max(8, concurrency), helper=helper)
