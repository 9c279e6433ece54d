"""RemotePool against fake backends: a dead worker's chunk is sent again, rows come back in the
order sent, and a failure the pool cannot recover from reaches the caller instead of a hang."""

from __future__ import annotations

import time
from concurrent.futures import Future
from types import SimpleNamespace

import pytest

from whileai_env.errors import WorkerError
from whileai_env.simulation.plan import Job
from whileai_env.simulation.pools import RETRIES, RemotePool
from whileai_env.simulation.workers import Played


class Died(Exception):
    pass


class FakeBackend:
    """Plays a chunk at once; the first ``deaths`` sends fail as a dead worker would."""

    start_hint = "check how the workers start"
    slots = None

    def __init__(self, deaths: int = 0, replace_fails: bool = False) -> None:
        self.deaths, self.replace_fails = deaths, replace_fails
        self.sent = self.replaced = 0

    def send(self, chunk):
        self.sent += 1
        future: Future = Future()
        if self.sent <= self.deaths:
            future.set_exception(Died("killed"))
        else:
            future.set_result([Played(job.key, {"task_id": job.key[0]}) for job in chunk])
        return future, self.sent

    def died(self, exc):
        return isinstance(exc, Died)

    def replace(self, token):
        if self.replace_fails:
            raise RuntimeError("no worker can start")
        self.replaced += 1

    def close(self):
        pass


def _jobs(n: int) -> list[Job]:
    return [Job(SimpleNamespace(task_id=f"t-{i}"), 0) for i in range(n)]  # type: ignore[arg-type]


def _play(backend: FakeBackend, n: int = 5) -> tuple[RemotePool, list]:
    pool = RemotePool(backend, chunk=2)
    futures = [pool.submit(job) for job in _jobs(n)]
    pool.flush()
    try:
        return pool, [f.result(timeout=5) for f in futures]
    finally:
        pool.close()


def test_a_dead_workers_chunk_is_sent_again_and_rows_keep_their_order():
    backend = FakeBackend(deaths=1)
    pool, results = _play(backend)
    assert [job.key for job, *_ in results] == [(f"t-{i}", 0) for i in range(5)]
    assert pool.restarts == backend.replaced == 1


def test_a_chunk_whose_worker_keeps_dying_fails_with_worker_error():
    with pytest.raises(WorkerError, match=f"died {RETRIES + 1} times"):
        _play(FakeBackend(deaths=100), n=1)


def test_workers_that_die_before_any_chunk_comes_back_say_what_to_check():
    with pytest.raises(WorkerError, match="no worker has played a chunk yet: check how the"):
        _play(FakeBackend(deaths=100), n=1)


def test_a_worker_that_dies_after_chunks_came_back_gets_no_start_hint():
    backend = FakeBackend()
    pool = RemotePool(backend, chunk=1)
    try:
        assert pool.submit(_jobs(1)[0]).result(timeout=5)
        backend.deaths, backend.sent = 100, 0
        future = pool.submit(_jobs(2)[1])
        with pytest.raises(WorkerError) as caught:
            future.result(timeout=5)
    finally:
        pool.close()
    assert "died" in str(caught.value) and "check how" not in str(caught.value)


def test_a_backend_that_cannot_replace_a_worker_fails_the_jobs_instead_of_hanging():
    with pytest.raises(RuntimeError, match="no worker can start"):
        _play(FakeBackend(deaths=1, replace_fails=True), n=1)


class OneSlot(FakeBackend):
    """Takes one chunk at a time and plays it only when told (a busy worker)."""

    slots = 1

    def __init__(self) -> None:
        super().__init__()
        self.held: list[tuple[Future, list]] = []

    def send(self, chunk):
        self.sent += 1
        future: Future = Future()
        self.held.append((future, list(chunk)))
        return future, self.sent

    def finish(self) -> None:
        held, self.held = self.held, []
        for future, chunk in held:
            future.set_result(
                [Played(job.key, {"task_id": job.key[0], "by": "worker"}) for job in chunk]
            )


class DriverWorker:
    def play(self, jobs):
        return [Played(job.key, {"task_id": job.key[0], "by": "driver"}) for job in jobs]

    def close(self):
        pass


def test_the_driver_plays_the_chunks_no_worker_has_taken_while_it_waits():
    backend = OneSlot()
    pool = RemotePool(backend, chunk=2, helper=DriverWorker())  # type: ignore[arg-type]
    futures = [pool.submit(job) for job in _jobs(7)]
    pool.flush()
    try:
        assert backend.sent == 1  # one slot: the other three chunks wait in the driver
        pool.help_until(futures)
        assert pool.helped == 3 and not futures[0].done()
        backend.finish()
        results = [f.result(timeout=5) for f in futures]
    finally:
        pool.close()
    assert [row["by"] for _, row, *_ in results] == ["worker"] * 2 + ["driver"] * 5
    assert [job.key for job, *_ in results] == [(f"t-{i}", 0) for i in range(7)]


def test_a_pool_without_a_helper_leaves_waiting_chunks_to_the_workers():
    backend = OneSlot()
    pool = RemotePool(backend, chunk=2)
    futures = [pool.submit(job) for job in _jobs(4)]
    pool.flush()
    try:
        pool.help_until(futures)
        assert pool.helped == 0 and backend.sent == 1
        backend.finish()  # the first chunk back frees the slot for the next
        futures[0].result(timeout=5)
        deadline = time.monotonic() + 5
        while backend.sent < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert backend.sent == 2
        backend.finish()
        assert [f.result(timeout=5)[1]["by"] for f in futures] == ["worker"] * 4
    finally:
        pool.close()
