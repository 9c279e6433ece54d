"""``simulate(workers=N, backend="ray")`` on a local Ray (``num_cpus=2``, one per module): the
same rows as the process backend, and an actor killed mid-run (``ray.kill``) costs no row and
lands none twice."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.corpus import CORPUS_DIR
from whileai_env.grading.checklist import task_checklist
from whileai_env.simulation import simulate
from whileai_env.simulation.ray_backend import ACTOR_PREFIX

ray = pytest.importorskip("ray", reason="the ray extra (scripts/test.sh installs it)")

SPEC = CORPUS_DIR / "tau2-airline.json"


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _run(out, **kw):
    return simulate("seeded", spec=SPEC, output=str(out), quiet=True, grader=task_checklist, **kw)


def test_ray_rows_are_the_process_backends_rows(tmp_path):
    _run(tmp_path / "ray.jsonl", budget=24, workers=2, backend="ray", reproducible=True)
    _run(tmp_path / "inline.jsonl", budget=24, reproducible=True)
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "inline.jsonl").read_bytes()


def test_the_driver_is_one_of_the_workers_for_an_offline_agent(tmp_path):
    """``workers=2``: one actor and the driver, which plays the chunks the actor has not taken
    (two in flight with it); ``workers=1`` starts no actor and plays every chunk itself."""
    two = _run(tmp_path / "two.jsonl", budget=96, workers=2, backend="ray", reproducible=True)
    chunks = two.search["chunks_played"]  # 96 rows in chunks of 8, each played once
    assert sum(chunks.values()) == 12 and chunks["workers"] >= 1, chunks
    one = _run(tmp_path / "one.jsonl", budget=96, workers=1, backend="ray", reproducible=True)
    assert one.search["chunks_played"] == {"workers": 0, "driver": 12}
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def _our_actors() -> list[str]:
    from ray.util import list_named_actors

    return sorted(name for name in list_named_actors() if name.startswith(ACTOR_PREFIX))


def test_an_actor_killed_mid_run_is_replaced_and_every_row_lands_once(tmp_path):
    out = tmp_path / "rows.jsonl"
    result: dict = {}
    run = threading.Thread(
        target=lambda: result.update(data=_run(out, budget=500, workers=2, backend="ray"))
    )
    run.start()
    deadline = time.monotonic() + 120
    while not (out.exists() and out.read_bytes().count(b"\n") >= 40):
        assert time.monotonic() < deadline and run.is_alive(), "the run never reached 40 rows"
        time.sleep(0.01)
    ray.kill(ray.get_actor(_our_actors()[0]))
    run.join(timeout=180)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    keys = [(r["task_id"], r["rollout_index"]) for r in rows]
    assert len(keys) == len(set(keys)) == 500
    assert result["data"].search["worker_restarts"] >= 1
    assert not _our_actors()  # the run's actors are gone once it ends
