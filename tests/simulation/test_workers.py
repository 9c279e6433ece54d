"""``simulate(workers=N)``: rows identical for any worker count, a killed worker or driver costs
no row and lands none twice (process backend; the Ray backend is in ``test_ray_backend.py``)."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import whileai_env as wenv
from tests.corpus import CORPUS_DIR
from whileai_env.errors import ConfigError, WorkerError
from whileai_env.grading.checklist import task_checklist
from whileai_env.simulation import simulate

SPEC = CORPUS_DIR / "tau2-airline.json"
ROOT = Path(__file__).resolve().parents[2]


def _run(out: Path | None, **kw):
    kw.setdefault("budget", 24)
    return simulate(
        "seeded",
        spec=SPEC,
        output=str(out) if out else None,
        quiet=True,
        grader=task_checklist,
        **kw,
    )


def _keys(path: Path) -> list[tuple[str, int]]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return [(r["task_id"], r["rollout_index"]) for r in rows]


def test_rows_are_byte_identical_for_1_2_and_4_workers(tmp_path):
    _run(tmp_path / "inline.jsonl", reproducible=True)
    reference = (tmp_path / "inline.jsonl").read_bytes()
    for workers in (1, 2, 4):
        out = tmp_path / f"w{workers}.jsonl"
        data = _run(out, reproducible=True, workers=workers)
        assert out.read_bytes() == reference, workers
        assert data.search["rows"] == 24
        chunks = data.search["chunks_played"]  # 24 rows in chunks of 8, each played once
        assert sum(chunks.values()) == 3 and chunks["workers"] >= 1, (workers, chunks)


def test_rl_rounds_do_not_depend_on_the_worker_count():
    one = _run(None, mode="rl", reproducible=True, workers=1, budget=30)
    two = _run(None, mode="rl", reproducible=True, workers=2, budget=30)
    assert list(one.rows) == list(two.rows)
    assert one.search["groups"] == two.search["groups"]


def _children_now() -> dict[int, multiprocessing.Process]:
    return {p.pid: p for p in multiprocessing.active_children() if p.pid is not None}


def _wait_rows(path: Path, at_least: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= at_least:
            return
        time.sleep(0.01)
    raise AssertionError(f"{path} never reached {at_least} rows")


def test_a_worker_killed_mid_run_is_replaced_and_every_row_lands_once(tmp_path):
    out = tmp_path / "rows.jsonl"
    result: dict = {}
    before = _children_now()
    run = threading.Thread(target=lambda: result.update(data=_run(out, budget=200, workers=2)))
    run.start()
    _wait_rows(out, 20)
    victim = min(pid for pid in _children_now() if pid not in before)  # one of this run's pool
    os.kill(victim, signal.SIGKILL)
    run.join(timeout=120)
    keys = _keys(out)
    assert len(keys) == len(set(keys)) == 200
    assert result["data"].search["worker_restarts"] >= 1
    _run(tmp_path / "ref.jsonl", budget=200)
    assert out.read_bytes() == (tmp_path / "ref.jsonl").read_bytes()


def _die_half_way_through_the_result() -> None:
    """A worker killed while it writes its result: the header of a long message and a few of
    its bytes reach the pool's result pipe, then the process is gone."""
    import struct

    frame = sys._getframe()
    while "result_queue" not in frame.f_locals:  # the pool's own worker loop, up the stack
        assert frame.f_back is not None
        frame = frame.f_back
    os.write(frame.f_locals["result_queue"]._writer.fileno(), struct.pack("!i", 1 << 20) + b"rows")
    os._exit(1)


def test_a_worker_killed_while_sending_its_rows_breaks_the_pool_instead_of_hanging():
    from concurrent.futures.process import BrokenProcessPool

    from whileai_env.simulation.process_backend import ProcessBackend
    from whileai_env.simulation.workers import WorkerSetup

    # the standard library's pool alone waits on the rest of that message for ever

    backend = ProcessBackend(WorkerSetup(spec=wenv.load_spec(SPEC), agent="seeded"), 1)
    future = backend._pool.submit(_die_half_way_through_the_result)
    with pytest.raises(BrokenProcessPool):
        future.result(timeout=30)
    backend.close()


DRIVER = """
import sys
from whileai_env.grading.checklist import task_checklist
from whileai_env.simulation import simulate
simulate("seeded", spec=sys.argv[1], output=sys.argv[2], budget=300, workers=2, quiet=True,
         grader=task_checklist)
"""


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except (OSError, ValueError):
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads children from /proc (Linux)")
def test_kill_9_of_the_driver_then_resume_gives_the_clean_runs_file(tmp_path):
    out = tmp_path / "rows.jsonl"
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(SPEC), str(out)], cwd=ROOT, env=os.environ.copy()
    )
    try:
        _wait_rows(out, 40)
        workers = [pid for child in _children(driver.pid) for pid in [child, *_children(child)]]
        driver.send_signal(signal.SIGKILL)
    finally:
        driver.wait(timeout=30)
    assert workers
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers), "workers outlived their driver"
    assert 40 <= out.read_bytes().count(b"\n") < 300
    _run(out, budget=300, workers=2, resume=True)
    _run(tmp_path / "ref.jsonl", budget=300)
    assert out.read_bytes() == (tmp_path / "ref.jsonl").read_bytes()


def test_an_agent_that_cannot_be_sent_to_a_process_is_refused_in_one_line():
    def closure(observation):
        return {"role": "assistant", "content": "ok"}

    with pytest.raises(WorkerError, match="picklable agent"):
        simulate(closure, spec=SPEC, budget=2, workers=2, quiet=True)


UNGUARDED = """
from whileai_env.simulation import simulate
simulate("seeded", spec={spec!r}, budget=8, workers=2, quiet=True)
"""


def test_a_script_without_the_main_guard_is_told_to_add_it(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(UNGUARDED.format(spec=str(SPEC)))
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    # the driver's error, last; before it, each starting worker's, at the script's re-run call
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode != 0
    assert last.startswith("whileai_env.errors.WorkerError: a worker died"), done.stderr
    assert "no worker has played a chunk yet: a worker process starts by importing" in last
    assert 'if __name__ == "__main__":' in last
    assert "WorkerError: simulate(workers=N) ran inside a starting worker" in done.stderr


def _run_python(args: list[str], code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        input=code if args == ["-"] else None,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_run_from_standard_input_is_refused_before_any_worker_starts():
    # a worker imports the starting script; "<stdin>" is no file, so every worker would die
    done = _run_python(["-"], UNGUARDED.format(spec=str(SPEC)))
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("whileai_env.errors.WorkerError: workers with backend='process'")
    assert "(<stdin>) is not a file a worker can import" in last and "backend='ray'" in last


def test_an_agent_defined_in_an_interactive_session_is_refused_by_name():
    code = (
        "from whileai_env.simulation import simulate\n"
        "def my_agent(messages):\n"
        "    return {'role': 'assistant', 'content': 'no'}\n"
        f"simulate(my_agent, spec={str(SPEC)!r}, budget=4, workers=2, quiet=True)\n"
    )
    done = _run_python(["-c", code], "")
    last = done.stderr.strip().splitlines()[-1]
    assert "cannot load the agent: my_agent is defined in this interactive session" in last


def test_a_user_hook_defined_in_an_interactive_session_is_refused_by_its_knob():
    code = (
        "from whileai_env.simulation import simulate\n"
        "def my_user(episode, last):\n"
        "    return None\n"
        f"simulate('seeded', spec={str(SPEC)!r}, budget=4, workers=2, quiet=True, user=my_user)\n"
    )
    last = _run_python(["-c", code], "").stderr.strip().splitlines()[-1]
    assert "cannot load the user: my_user is defined in this interactive session" in last


def test_a_named_agent_runs_with_workers_from_an_interactive_session():
    code = (
        "from whileai_env.simulation import simulate\n"
        f"print(len(simulate('seeded', spec={str(SPEC)!r}, budget=6, workers=2, quiet=True).rows))"
    )
    done = _run_python(["-c", code], "")
    assert done.stdout.split() == ["6"], done.stderr


def test_bad_worker_knobs_are_config_errors():
    with pytest.raises(ConfigError, match="workers must be a positive integer"):
        simulate("seeded", spec=SPEC, budget=2, workers=0)
    with pytest.raises(ConfigError, match="backend must be one of process, ray"):
        simulate("seeded", spec=SPEC, budget=2, workers=2, backend="threads")
    with pytest.raises(ConfigError, match="ray_address needs backend='ray'"):
        simulate("seeded", spec=SPEC, budget=2, ray_address="ray://head:10001")


def test_a_model_agent_keeps_its_http_concurrency_in_every_worker(chat_server, monkeypatch):
    lock, state = threading.Lock(), {"now": 0, "most": 0}

    def slow_reply(request):
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.02)
        with lock:
            state["now"] -= 1
        return {"content": "I could not find that; which order number is it?"}

    server = chat_server(slow_reply)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    data = simulate("openai:test-model", spec=SPEC, budget=24, workers=2, concurrency=4, quiet=True)
    assert data.search["rows"] == 24
    assert state["most"] > 4  # two workers, four rollouts in flight each
