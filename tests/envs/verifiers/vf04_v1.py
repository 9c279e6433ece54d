"""The v1 face under verifiers 0.4.x: rollouts through the real taskset, env, null harness and
per-rollout MCP tool server against ``serve``'s endpoint give the in-process reward, and the
transcript the model saw grades the same through Episode and Gymnasium.

Run by ``scripts/test-verifiers.sh`` with the 0.4 venv's python (see ``parity.py``).
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest
import verifiers.v1 as vf

import whileai_env as wenv
from tests.envs.verifiers.parity import KEY_VAR, SPEC, pick_tasks, play, replay_episode, replay_gym
from whileai_env.envs.verifiers.common import assistant_dict
from whileai_env.envs.verifiers.v1_tools import toolset_class
from whileai_env.serving.chat_server import ChatServer
from whileai_env.serving.policies import policy_script


@pytest.fixture(scope="module")
def spec():
    return wenv.load_spec(SPEC)


@pytest.fixture(scope="module")
def tasks(spec):
    return pick_tasks(spec)


def _evaluate(spec, jobs):
    """Each job ``(policy, tasks, load_environment kwargs)`` run through verifiers 0.4 in-process,
    all at once (a rollout is two processes: their start-up overlaps); (task, trace) pairs a job."""

    async def run(env, base_url):
        client = vf.EvalClientConfig(base_url=base_url, api_key_var=KEY_VAR)
        ctx = vf.ModelContext(model="whileai-policy", client=client)
        async with env.serving():
            slots = [s for task in env.taskset for s in env.slots(task)]
            return await asyncio.gather(*(env.run_slot(s, ctx) for s in slots))

    async def run_all(servers):
        envs = [wenv.load_environment(spec, tasks=tasks, **kwargs) for _, tasks, kwargs in jobs]
        return await asyncio.gather(
            *(run(e, s.base_url) for e, s in zip(envs, servers, strict=True))
        )

    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(ChatServer(policy_script(p, spec, t))) for p, t, _ in jobs]
        results = asyncio.run(run_all(servers))
    out = []
    for (_, tasks, _), episodes in zip(jobs, results, strict=True):
        assert all(e.ok and len(e.traces) == 1 for e in episodes), [e.errors for e in episodes]
        by_id = {t.task_id: t for t in tasks}
        out.append([(by_id[e.task.data.id], e.traces[0]) for e in episodes])
    return out


@pytest.fixture(scope="module")
def rollouts(spec, tasks):
    """The three tasks under oracle and seeded, and the multi-turn one capped at one turn."""
    mp = pytest.MonkeyPatch()
    mp.setenv(KEY_VAR, "unused")
    chosen = list(tasks.values())
    jobs = [("oracle", chosen, {}), ("seeded", chosen, {})]
    jobs.append(("oracle", [tasks["multi_turn"]], {"max_turns": 1}))
    try:
        oracle, seeded, capped = _evaluate(spec, jobs)
    finally:
        mp.undo()
    return {"oracle": oracle, "seeded": seeded, "capped": capped}


def test_load_environment_builds_the_v1_env_with_the_specs_schemas(spec, tasks):
    env = wenv.load_environment(spec, tasks=list(tasks.values()))
    assert isinstance(env, vf.Env) and env.config.agent.harness.id == "null"
    task = next(iter(env.taskset))
    assert "privileged" not in str(task.data.prompt) and task.data.info["privileged"]
    (server,) = task.toolsets(task.config)
    assert isinstance(server, toolset_class()) and server.server_name == ""
    asyncio.run(server.setup())
    listed = asyncio.run(server.list_tools())
    assert [t.name for t in listed] == list(spec.tool_names)
    assert [t.input_schema for t in listed] == [
        t["function"]["parameters"] for t in spec.openai_tools()
    ]


@pytest.mark.parametrize("policy", ["oracle", "seeded"])
def test_reward_through_verifiers_v1_equals_the_in_process_reward(spec, rollouts, policy):
    for task, trace in rollouts[policy]:
        expected = play(spec, task, policy).reward()
        assert trace.reward == expected["reward"]
        assert trace.info["grade"]["markers"] == expected["markers"]
        assert trace.metrics["tool_mismatch"] == 0


def test_the_transcript_the_model_saw_grades_the_same_through_gym_and_episode(
    spec, tasks, rollouts
):
    kinds = {
        next(k for k, t in tasks.items() if t is task): trace for task, trace in rollouts["oracle"]
    }
    assert set(kinds) == {"plain", "multi_turn", "faulted"}
    for kind, trace in kinds.items():
        seen = [assistant_dict(m) for m in trace.assistant_messages]
        episode = replay_episode(spec, tasks[kind], seen)
        gym_reward, gym_markers = replay_gym(spec, tasks[kind], seen)
        assert trace.reward == episode["reward"] == gym_reward
        assert trace.info["grade"]["markers"] == episode["markers"] == gym_markers
        # MCP carries no call id: the episode's transcript has the ids the model emitted
        graded = trace.info["transcript"]
        assert _call_ids(graded) == _call_ids(seen) and _call_ids(seen)
    assert sum(m["role"] == "user" for m in kinds["multi_turn"].info["transcript"]) >= 2


def _call_ids(messages):
    return [c["id"] for m in messages for c in m.get("tool_calls") or []]


def test_metrics_are_recorded_beside_the_reward(spec, rollouts):
    trace = rollouts["oracle"][0][1]
    names = {
        "n_calls",
        "truncated",
        "judge_ok",
        "tool_mismatch",
        *(f"calls_{t}" for t in spec.tool_names),
    }
    assert names <= set(trace.metrics) and set(trace.rewards) == {"episode_reward"}
    assert trace.rewards["episode_reward"].weight == 1.0


def test_a_rollout_cut_at_the_turn_cap_scores_zero_and_is_marked_truncated(rollouts):
    ((_, trace),) = rollouts["capped"]
    assert trace.reward == 0.0 and trace.metrics["truncated"] == 1.0
    assert trace.info["grade"]["markers"]["not_truncated"] == 0.0
