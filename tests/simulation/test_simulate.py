import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

import whileai_env as wenv
from whileai_env.simulation import OutputExistsError, ResumeMismatchError, read_rows, simulate
from whileai_env.world import world as make_world

from ..conftest import ROOT, SPECS_DIR

ORDER = SPECS_DIR / "order-support.json"
AIRLINE = SPECS_DIR / "airline.yaml"


def test_explore_budget_is_exact_and_rows_are_export_safe():
    data = simulate("seeded", spec=ORDER, budget=37, quiet=True)
    assert len(data.rows) == 37 and data.stopped_because == "budget"
    assert len({r["task_id"] for r in data.rows}) == 37
    assert all("privileged" not in r for r in data.rows)
    assert all("privileged" in r for r in data.trajectories)
    assert data.search["coverage"]["stance"] > 0.5
    assert data.rows() == data.rows


def test_callable_agent_meets_faults_through_the_bound_world():
    spec = wenv.load_spec(ORDER)
    world = make_world(spec)
    seen = Counter()

    def agent(message):
        result = world.call("get_order", {"order_id": "1234567"})
        seen[result.get("status")] += 1
        return {
            "steps": [
                {"tool": "get_order", "arguments": {"order_id": "1234567"}, "result": result}
            ],
            "final_text": "Checked it." if result.get("status") == "ok" else "The lookup failed.",
        }

    data = simulate(agent, spec=spec, budget=40, fault_rate=1.0, quiet=True)
    assert len(data.rows) == 40
    fired = [r for r in data.rows if r["faults"]]
    assert fired, "faults never reached the callable agent"
    assert all(r["steps"][0]["tool"] == "get_order" for r in data.rows)
    assert seen["error"] > 0


def test_callable_agent_own_steps_are_kept_when_no_world_is_used():
    def agent(message):
        return {
            "steps": [
                {
                    "tool": "get_order",
                    "arguments": {"order_id": "4412"},
                    "result": {"status": "shipped"},
                }
            ],
            "final_text": "Order 4412 shipped yesterday.",
        }

    data = simulate(agent, spec=ORDER, budget=5, quiet=True)
    assert all(r["steps"][0]["reported"] and r["steps"][0]["ok"] for r in data.rows)
    assert data.rows[0]["messages"][-1] == {
        "role": "assistant",
        "content": "Order 4412 shipped yesterday.",
    }


def test_step_policy_is_played_through_the_engine():
    def policy(observation):
        return "Could you tell me which order this is about?"

    data = simulate(policy, spec=ORDER, budget=6, quiet=True)
    assert all(r["messages"][-1]["role"] in ("assistant", "user") for r in data.rows)
    assert all(r["stop_reason"] in ("user_closed", "max_turns") for r in data.rows)
    assert any(sum(m["role"] == "user" for m in r["messages"]) > 1 for r in data.rows)


@pytest.mark.parametrize("agent", ["seeded", "oracle", "silent"])
def test_reference_agents(agent):
    data = simulate(agent, spec=ORDER, budget=12, quiet=True)
    assert len(data.rows) == 12
    if agent == "silent":
        assert all(not r["steps"] for r in data.rows)
    if agent == "seeded":
        assert all(isinstance(r["seeded"], list) for r in data.rows)


def test_agent_failures_are_counted_and_called_off():
    def broken(message):
        raise RuntimeError("endpoint down")

    data = simulate(broken, spec=ORDER, budget=5, quiet=True)
    assert data.stopped_because == "agent_failed" and len(data.rows) == 0
    assert data.search["agent_errors"] == 16
    assert "endpoint down" in data.search["first_agent_error"]

    calls = Counter()

    def flaky(message):
        calls["n"] += 1
        if calls["n"] % 3 == 0:
            return {"oops": 1}
        return {"steps": [], "final_text": "ok"}

    data = simulate(flaky, spec=ORDER, budget=10, quiet=True)
    assert len(data.rows) == 10 and data.stopped_because == "budget"
    assert data.search["agent_errors"] == 4
    assert "final_text" in data.search["first_agent_error"]


def test_sft_topology_and_aliases():
    data = simulate(
        "oracle", spec=ORDER, mode="sft", budget=24, n=2, rollouts_per_request=3, quiet=True
    )
    assert len(data.rows) == 24
    per_task = Counter(r["task_id"] for r in data.rows)
    assert set(per_task.values()) == {3}
    per_situation = Counter((r["scenario_id"], r["situation"]) for r in data.rows)
    assert set(per_situation.values()) == {6}
    with pytest.raises(TypeError, match="both phrasings= and its alias n="):
        simulate("oracle", spec=ORDER, phrasings=2, n=3, budget=2, quiet=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'repeat'"):
        simulate("oracle", spec=ORDER, repeat=2, budget=2, quiet=True)


class SplitPolicy:
    """Behaves the same on every rollout of most tasks, differently by rollout on a few."""

    is_policy = True

    def __init__(self, mixed_every=3):
        self.mixed_every = mixed_every
        self.task = None
        self.rollout = 0

    def start(self, task, rollout_index=0):
        self.task, self.rollout = task, rollout_index

    def __call__(self, observation):
        mixed = int(self.task.task_id[-4:], 16) % self.mixed_every == 0
        if mixed and self.rollout % 2 == 1:
            return "I could not help."
        return "Thanks, noted."


def _mixed(task_id):
    return int(task_id[-4:], 16) % 3 == 0


def test_rl_successive_allocation():
    data = simulate(SplitPolicy(), spec=ORDER, mode="rl", repeats=6, budget=100, quiet=True)
    assert data.stopped_because == "budget" and len(data.rows) == 100
    per_task = Counter(r["task_id"] for r in data.rows)
    mixed = [t for t in per_task if _mixed(t)]
    unanimous = [t for t in per_task if not _mixed(t)]
    assert len(mixed) >= 3 and unanimous
    assert all(per_task[t] == 2 for t in unanimous), (
        "unanimous prompts did not stop after the probe"
    )
    last = max(mixed, key=lambda t: max(i for i, r in enumerate(data.rows) if r["task_id"] == t))
    assert all(per_task[t] == 6 for t in mixed if t != last), "mixed prompts were not filled to k"
    groups = data.search["groups"]
    assert groups["mixed"] == len(mixed) and groups["rollouts_saved"] >= 4 * len(unanimous)


def test_rl_resumes_unanimous_groups_when_nothing_fresh_is_left():
    data = simulate(
        SplitPolicy(), spec=ORDER, mode="rl", repeats=4, situations=6, budget=1000, quiet=True
    )
    assert data.stopped_because == "tasks_done"
    assert set(Counter(r["task_id"] for r in data.rows).values()) == {4}


def test_rl_with_grader_reads_rewards():
    def grader(row):
        return {"reward": 1.0 if "noted" in row["final_text"] else 0.0}

    data = simulate(
        SplitPolicy(), spec=ORDER, mode="rl", repeats=4, budget=60, grader=grader, quiet=True
    )
    assert all(r["judge_status"] == "ok" for r in data.rows)
    assert data.search["groups"]["mixed"] > 0
    per_task = Counter(r["task_id"] for r in data.rows)
    last = data.rows[-1]["task_id"]
    for task_id, n in per_task.items():
        if task_id == last:
            continue
        rewards = {r["reward"] for r in data.rows if r["task_id"] == task_id}
        assert n == (4 if len(rewards) > 1 else 2)
    assert data.pass_at.k == 2 and data.pass_at.pass_pow_k is None and data.pass_at.note


def test_tasks_rerun_inherits_k_and_stops_when_done():
    base = simulate(
        "oracle", spec=ORDER, mode="rl", repeats=4, budget=40, quiet=True, fault_rate=1.0
    )
    rerun = simulate("seeded", spec=ORDER, tasks=base, mode="rl", budget=1000, quiet=True)
    assert rerun.rollouts_per_request == base.rollouts_per_request == 4
    assert rerun.stopped_because == "tasks_done"
    assert {r["task_id"] for r in rerun.rows} == {r["task_id"] for r in base.rows}
    for a, b in zip(base.tasks, rerun.tasks, strict=True):
        assert a.task_id == b.task_id and a.faults == b.faults and a.opener == b.opener
    again = simulate("oracle", spec=ORDER, tasks=base.rows, repeats=1, budget=1000, quiet=True)
    assert set(Counter(r["task_id"] for r in again.rows).values()) == {1}


def test_adaptive_stops_at_saturation():
    data = simulate(
        "oracle", spec=ORDER, mode="adaptive", until="saturation", budget=5000, quiet=True
    )
    assert data.stopped_because == "saturation"
    assert len(data.rows) < 5000


def test_time_budget_stops():
    def slow(message):
        time.sleep(0.02)
        return {"steps": [], "final_text": "ok"}

    data = simulate(slow, spec=ORDER, budget=10_000, time_budget=0.3, quiet=True)
    assert data.stopped_because == "time_budget" and 0 < len(data.rows) < 100


def test_streaming_writes_each_row_as_it_lands(tmp_path):
    out = tmp_path / "rows.jsonl"
    counts = []

    def agent(message):
        counts.append(len(out.read_text().splitlines()) if out.exists() else 0)
        return {"steps": [], "final_text": "noted"}

    data = simulate(agent, spec=ORDER, budget=8, output=out, quiet=True)
    assert counts == list(range(8))
    assert read_rows(out) == [json.loads(json.dumps(r)) for r in data.rows]
    with pytest.raises(OutputExistsError, match="resume=True"):
        simulate(agent, spec=ORDER, budget=8, output=out, quiet=True)
    with pytest.raises(ResumeMismatchError, match="seed"):
        simulate(agent, spec=ORDER, budget=8, output=out, resume=True, seed=9, quiet=True)


RUN_SCRIPT = """
import sys, time
sys.path.insert(0, {root!r})
from whileai_env.simulation import simulate
slow = float(sys.argv[2])
def agent(message):
    time.sleep(slow)
    return {{"steps": [], "final_text": "noted " + message[:20]}}
simulate("seeded", spec={spec!r}, budget=60, output=sys.argv[1], resume=sys.argv[3] == "1",
         reproducible=True, concurrency=1, quiet=True, seed=5)
"""


def _run(out, slow, resume, wait=True):
    code = RUN_SCRIPT.format(root=str(ROOT), spec=str(ORDER))
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(out), str(slow), "1" if resume else "0"],
        env={**os.environ, "PYTHONHASHSEED": str(os.getpid() % 1000)},
    )
    if wait:
        assert proc.wait(timeout=120) == 0
    return proc


def test_kill_9_then_resume_loses_and_duplicates_nothing(tmp_path):
    reference = tmp_path / "reference.jsonl"
    _run(reference, 0.0, False)
    out = tmp_path / "rows.jsonl"
    proc = _run(out, 0.05, False, wait=False)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 15):
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = len(out.read_text().splitlines())
    assert 15 <= partial < 60
    with out.open("a") as fh:
        fh.write('{"task_id": "t-half-written", "rollo')
    _run(out, 0.0, True)
    rows = read_rows(out)
    keys = [(r["task_id"], r["rollout_index"]) for r in rows]
    assert len(rows) == 60 and len(set(keys)) == 60
    assert out.read_bytes() == reference.read_bytes()


def test_reproducible_across_processes(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _run(a, 0.0, False)
    _run(b, 0.0, False)
    assert a.read_bytes() == b.read_bytes()


def test_reproducible_with_concurrency_matches_sequential():
    def agent(message):
        return {"steps": [], "final_text": "noted " + message[:10]}

    one = simulate(agent, spec=ORDER, budget=30, concurrency=1, quiet=True)
    four = simulate(agent, spec=ORDER, budget=30, concurrency=4, reproducible=True, quiet=True)
    assert [r["task_id"] for r in one.rows] == [r["task_id"] for r in four.rows]
    strip = lambda rows: [{k: v for k, v in r.items() if k != "elapsed"} for r in rows]  # noqa: E731
    assert strip(one.rows) == strip(four.rows)


def test_grade_with_judges_and_pass_at():
    data = simulate("oracle", spec=ORDER, mode="rl", repeats=4, budget=48, quiet=True)
    scored = data.grade()
    assert len(scored) == len(data) and all(
        r["judge_name"] == "task_checklist" for r in scored.trajectories
    )
    assert all(r.get("reward") is None for r in data.trajectories)
    statuses = data.grade(judge=lambda row: {"reason": "forgot"}).trajectories
    assert {r["judge_status"] for r in statuses} == {"missing_reward"} and all(
        r["reward"] is None for r in statuses
    )
    print(scored.pass_at)
    assert scored.pass_at.n_rows == len(data)


def test_bad_arguments_are_clear():
    with pytest.raises(ValueError, match="needs an agent"):
        simulate(spec=ORDER, budget=2, quiet=True)
    with pytest.raises(ValueError, match="budget"):
        simulate("oracle", spec=ORDER, budget=0, quiet=True)
    with pytest.raises(
        ValueError, match=r"unknown agent 'orcale': use 'seeded', 'oracle' or 'silent'"
    ):
        simulate("orcale", spec=ORDER, budget=2, quiet=True)
    with pytest.raises(ValueError, match="spec="):
        simulate("oracle", budget=2, quiet=True)
    with pytest.raises(ValueError, match="unknown advanced keys"):
        simulate("oracle", spec=ORDER, budget=2, advanced={"conc": 2}, quiet=True)
    with pytest.raises(ValueError, match="reproducible=True needs the clock off"):
        simulate("oracle", spec=ORDER, budget=2, reproducible=True, time_budget=3, quiet=True)
    with pytest.raises(ValueError, match="resume=True needs output="):
        simulate("oracle", spec=ORDER, budget=2, resume=True, quiet=True)


def test_inline_tools_and_policy_alias():
    tools = json.loads(ORDER.read_text())["tools"]
    data = simulate(
        "oracle",
        tools=tools,
        policy="You are support.\n- Never refund twice.",
        budget=5,
        quiet=True,
    )
    assert len(data.rows) == 5


def test_groups_cut_at_the_clock_are_stamped(tmp_path):
    class SlowOnFifth(SplitPolicy):
        def __call__(self, observation):
            if self.rollout == 4:
                time.sleep(1.0)
            return super().__call__(observation)

    simulate(SplitPolicy(), spec=ORDER, mode="rl", repeats=2, budget=2, quiet=True)
    out = tmp_path / "rows.jsonl"
    data = simulate(
        SlowOnFifth(mixed_every=1),
        spec=ORDER,
        mode="rl",
        repeats=8,
        budget=10_000,
        time_budget=0.8,
        output=out,
        quiet=True,
    )
    assert data.stopped_because == "time_budget"
    cut = [r for r in data.trajectories if r.get("group_cut")]
    assert cut, "no group was cut"
    cut_tasks = {r["task_id"] for r in cut}
    per_task = Counter(r["task_id"] for r in data.rows)
    assert all(per_task[t] < 8 for t in cut_tasks)
    on_disk = [r for r in read_rows(out) if r.get("group_cut")]
    assert {r["task_id"] for r in on_disk} == cut_tasks


def test_tasks_from_a_jsonl_file(tmp_path):
    out = tmp_path / "base.jsonl"
    base = simulate("seeded", spec=ORDER, mode="sft", budget=12, output=out, quiet=True)
    rerun = simulate("oracle", spec=ORDER, tasks=str(out), budget=100, quiet=True)
    assert rerun.stopped_because == "tasks_done"
    assert sorted(r["task_id"] for r in rerun.rows) == sorted(r["task_id"] for r in base.rows)
    assert [t.privileged for t in rerun.tasks] == [t.privileged for t in base.tasks]
    with pytest.raises(ValueError, match="not drawn from this spec"):
        simulate("oracle", spec=AIRLINE, tasks=str(out), budget=5, quiet=True)


def test_progress_bar_shows_rows_rate_coverage_and_faults(capsys):
    simulate("seeded", spec=ORDER, budget=30, fault_rate=1.0)
    err = capsys.readouterr().err
    assert "30/30" in err and "/min" in err and "coverage" in err and "faults" in err
