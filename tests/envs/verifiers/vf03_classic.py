"""The classic face under verifiers 0.3.x: rollouts through verifiers against ``serve``'s endpoint
give the in-process reward, and each transcript grades the same through Episode and Gymnasium.

Run by ``scripts/test-verifiers.sh`` with the 0.3 venv's python (see ``parity.py``).
"""

from __future__ import annotations

import pytest
import verifiers as vf

import whileai_env as wenv
from tests.envs.verifiers.parity import KEY_VAR, SPEC, pick_tasks, play, replay_episode, replay_gym
from whileai_env.envs.verifiers.classic import environment_class
from whileai_env.serving.chat_server import ChatServer
from whileai_env.serving.policies import policy_script


@pytest.fixture(scope="module")
def spec():
    return wenv.load_spec(SPEC)


@pytest.fixture(scope="module")
def tasks(spec):
    return pick_tasks(spec)


def _evaluate(spec, tasks, policy, monkeypatch, rollouts=1):
    monkeypatch.setenv(KEY_VAR, "unused")
    env = wenv.load_environment(spec, tasks=tasks)
    with ChatServer(policy_script(policy, spec, tasks)) as server:
        client = vf.ClientConfig(api_base_url=server.base_url, api_key_var=KEY_VAR, max_retries=0)
        out = env.evaluate_sync(
            client,
            model="whileai-policy",
            rollouts_per_example=rollouts,
            state_columns=["grade", "transcript"],
        )
    for (
        request
    ) in server.requests:  # what verifiers sent: every tool message answers a call the model made
        calls = [c["id"] for m in request["messages"] for c in m.get("tool_calls") or []]
        assert [m["tool_call_id"] for m in request["messages"] if m["role"] == "tool"] == calls
    return out["outputs"]


def test_load_environment_builds_the_classic_env_with_the_specs_schemas(spec):
    env = wenv.load_environment(spec, n=4)
    assert isinstance(env, environment_class()) and isinstance(env, vf.MultiTurnEnv)
    assert [t.name for t in env.tool_defs] == list(spec.tool_names)
    assert [t.parameters for t in env.tool_defs] == [
        t["function"]["parameters"] for t in spec.openai_tools()
    ]
    assert len(env.dataset) == 4 and "privileged" not in str(env.dataset[0]["prompt"])


@pytest.mark.parametrize("policy", ["oracle", "seeded"])
def test_reward_through_verifiers_equals_the_in_process_reward(spec, tasks, policy, monkeypatch):
    chosen = list(tasks.values())
    outputs = _evaluate(spec, chosen, policy, monkeypatch)
    assert len(outputs) == len(chosen) and all(
        o["error"] is None and o["is_completed"] for o in outputs
    )
    by_id = {t.task_id: t for t in chosen}
    for output in outputs:
        expected = play(spec, by_id[output["info"]["task_id"]], policy).reward()
        assert output["reward"] == expected["reward"]
        assert output["grade"]["markers"] == expected["markers"]


def test_one_transcript_grades_the_same_through_verifiers_gym_and_episode(spec, tasks, monkeypatch):
    # four rollouts a task: enough requests that the endpoint's ids ("call_13_0") outrun the turn count
    outputs = _evaluate(spec, list(tasks.values()), "oracle", monkeypatch, rollouts=4)
    by_id = {t.task_id: t for t in tasks.values()}
    kinds = {}
    for output in outputs:
        task = by_id[output["info"]["task_id"]]
        kinds[next(k for k, t in tasks.items() if t is task)] = output
        episode = replay_episode(spec, task, output["transcript"])
        gym_reward, gym_markers = replay_gym(spec, task, output["transcript"])
        assert output["reward"] == episode["reward"] == gym_reward
        assert output["grade"]["markers"] == episode["markers"] == gym_markers
    assert set(kinds) == {"plain", "multi_turn", "faulted"}
    assert sum(m["role"] == "user" for m in kinds["multi_turn"]["transcript"]) >= 2


def test_metrics_are_logged_at_weight_zero(spec, tasks, monkeypatch):
    outputs = _evaluate(spec, [tasks["faulted"]], "oracle", monkeypatch)
    metrics = outputs[0]["metrics"]
    assert {"n_calls", "truncated", "judge_ok", *(f"calls_{t}" for t in spec.tool_names)} <= set(
        metrics
    )
    assert metrics["n_calls"] >= 1 and metrics["truncated"] == 0 and metrics["judge_ok"] == 1


def test_a_rollout_cut_at_the_turn_cap_scores_zero_and_is_marked_truncated(
    spec, tasks, monkeypatch
):
    monkeypatch.setenv(KEY_VAR, "unused")
    env = wenv.load_environment(spec, tasks=[tasks["multi_turn"]], max_turns=1)
    with ChatServer(policy_script("oracle", spec, [tasks["multi_turn"]])) as server:
        out = env.evaluate_sync(
            vf.ClientConfig(api_base_url=server.base_url, api_key_var=KEY_VAR),
            model="m",
            state_columns=["grade"],
        )
    output = out["outputs"][0]
    assert output["reward"] == 0.0 and output["metrics"]["truncated"] == 1.0
    assert output["grade"]["markers"]["not_truncated"] == 0.0
