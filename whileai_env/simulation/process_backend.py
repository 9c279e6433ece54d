"""``backend="process"``: workers as processes on this machine (the standard library's
``concurrent.futures.ProcessPoolExecutor``). Workers start from a ``forkserver`` that has imported
the package and built its value pools once (:mod:`~whileai_env.simulation.worker_preload`;
``spawn`` where there is no forkserver), so a worker never inherits a forked copy of the
driver's threads, locks or HTTP clients, and a second pool in the same driver starts in
milliseconds.

Each process builds its :class:`~whileai_env.simulation.workers.Worker` once, in the pool's
initializer. A process killed mid-chunk breaks the pool (``BrokenProcessPool``, every chunk in
flight fails with it): :meth:`ProcessBackend.replace` starts one new pool for all of them and
the driver sends those chunks again. A worker whose driver is gone (``kill -9`` of the driver
leaves nobody to stop it) notices within half a second and exits. Each pool's workers get the
driver's environment as it is when the pool starts (``OPENAI_API_KEY``, a base URL set a moment
ago), not the forkserver's from whenever it started.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import pickle
import sys
import threading
import time
import types
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from whileai_env.errors import WorkerError
from whileai_env.simulation.plan import Job
from whileai_env.simulation.workers import Played, Worker, WorkerSetup

_WORKER: Worker | None = None


def _start(setup: WorkerSetup, driver: int, environ: dict[str, str]) -> None:
    """The pool's initializer: the driver's environment, this process's worker (started once),
    and the watch on its driver."""
    global _WORKER
    os.environ.clear()
    os.environ.update(environ)
    threading.Thread(target=_watch, args=(driver,), daemon=True).start()
    _WORKER = Worker(setup)


def _watch(driver: int) -> None:
    """Exit this process once the ``driver`` process is gone."""
    while _alive(driver):
        time.sleep(0.5)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


def _play(chunk: Sequence[Job]) -> list[Played]:
    if _WORKER is None:  # pragma: no cover - the initializer always ran first
        raise WorkerError("the worker process was not started")
    return _WORKER.play(chunk)


class _MainWatch(pickle.Pickler):
    """A pickler that notes the functions and classes it sends by reference to ``__main__``."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), protocol=pickle.HIGHEST_PROTOCOL)
        self.from_main: list[str] = []

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, type | types.FunctionType) and obj.__module__ == "__main__":
            self.from_main.append(obj.__qualname__)
        return NotImplemented  # pickled as it would be


def check_picklable(setup: WorkerSetup) -> None:
    """Refuse, in one line, a setup that cannot be sent to another process, or that a worker
    could not load: a function or class of an interactive ``__main__`` (a notebook,
    ``python -c``) is pickled by name, and a worker has no such ``__main__`` to find it in."""
    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    if main_file is not None and not os.path.isfile(main_file):
        raise WorkerError(
            f"workers with backend='process' start by importing the script that started the run, "
            f"and this one ({main_file}) is not a file a worker can import: save it to a file "
            "and run that, or use backend='ray'"
        )
    sent = {"agent": setup.agent, "grader": setup.grader, "spec": setup.spec}
    sent.update(setup.episode_kwargs)  # user=, execute= and the episode's numbers
    for name, value in sent.items():
        _check_one(name, value, interactive=main_file is None)


def _check_one(name: str, value: Any, *, interactive: bool) -> None:
    watch = _MainWatch()
    try:
        watch.dump(value)
    except Exception as exc:
        raise WorkerError(
            f"workers with backend='process' need a picklable {name} ({type(exc).__name__}: "
            f"{exc}); pass the agent by name or as a module-level function, or use "
            "backend='ray' (cloudpickle sends closures)"
        ) from None
    if interactive and watch.from_main:
        raise WorkerError(
            f"workers with backend='process' cannot load the {name}: "
            f"{', '.join(dict.fromkeys(watch.from_main))} is defined in this interactive "
            "session, which a worker process does not have; define it in a module (or a "
            "script run as a file), pass the agent by name, or use backend='ray'"
        )


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["whileai_env.simulation.worker_preload"])
    return context


GUARD = (
    "a worker process starts by importing the script that started the run, so a script that "
    "calls simulate(workers=N) with backend='process' must do it under "
    '`if __name__ == "__main__":`'
)


class ProcessBackend:
    """``workers`` spawned processes sharing one queue of chunks."""

    start_hint = GUARD

    def __init__(self, setup: WorkerSetup, workers: int, slots_each: int | None = None) -> None:
        # multiprocessing's own flag for a process still importing its parent's script: this is
        # that script's unguarded call, run again inside a worker that is starting
        if getattr(multiprocessing.current_process(), "_inheriting", False):
            raise WorkerError(f"simulate(workers=N) ran inside a starting worker: {GUARD}")
        check_picklable(setup)
        self.setup, self.workers = setup, workers
        # chunks sent at once: one playing and one queued per process, or all as they fill
        self.slots = None if slots_each is None else slots_each * workers
        self._context = _context()
        self._pool = self._new_pool()
        self._closed = threading.Event()
        threading.Thread(target=self._watch_pools, daemon=True).start()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=self._context,
            initializer=_start,
            initargs=(self.setup, os.getpid(), dict(os.environ)),
        )

    def send(self, chunk: Sequence[Job]) -> tuple[Future, Any]:
        """Submit ``chunk``; to a fresh pool when this one broke (a killed worker) and the
        failures of its chunks have not come back yet: a broken pool refuses new work at once."""
        try:
            return self._pool.submit(_play, list(chunk)), self._pool
        except BrokenProcessPool:
            self.replace(self._pool)
            return self._pool.submit(_play, list(chunk)), self._pool

    def died(self, exc: BaseException) -> bool:
        return isinstance(exc, BrokenProcessPool)

    def replace(self, token: Any) -> None:
        """A new pool, unless one already replaced the broken pool ``token``."""
        if token is self._pool:
            token.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()

    def _watch_pools(self) -> None:
        """Break a pool whose worker died while it was sending a chunk's rows back.

        Written by hand because the standard library misses this case: a worker killed half-way
        through writing its result leaves the pool's result reader blocked on the rest of that
        message for ever (the driver holds the pipe's write end, so no end-of-file comes), the
        pool never learns the worker died, and its chunks never fail. A pool with a dead worker
        that is still not broken a second later is stuck so: its other workers are stopped
        and the driver's copy of the write end closed, the reader hits end-of-file, and the
        pool breaks as it does for any killed worker (its chunks are sent again)."""
        stuck: dict[int, int] = {}
        while not self._closed.wait(0.5):
            pool = self._pool
            processes = list(getattr(pool, "_processes", {}).values())
            if getattr(pool, "_broken", False) or not any(
                p.exitcode is not None for p in processes
            ):
                stuck.clear()
                continue
            stuck[id(pool)] = stuck.get(id(pool), 0) + 1
            if stuck[id(pool)] >= 3:
                _unstick(pool, processes)

    def close(self) -> None:
        self._closed.set()
        self._pool.shutdown(wait=True, cancel_futures=True)


def _unstick(pool: ProcessPoolExecutor, processes: list[Any]) -> None:
    """End-of-file for ``pool``'s result reader: every writer of its result pipe gone."""
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None and not writer.closed:
        writer.close()
