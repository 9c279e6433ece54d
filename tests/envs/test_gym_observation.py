"""The Gymnasium observation: one list per episode grown in place, never copied whole."""

import pytest

from whileai_env.agents import oracle_agent
from whileai_env.envs.gym import AgentEnv
from whileai_env.episode.transcript import render_messages, render_tools

from ..conftest import SPECS_DIR

ORDER_SPEC = SPECS_DIR / "order-support.json"


def _play(env, task_index):
    """Each observation of one oracle episode, with the env after it."""
    task = env.tasks[task_index]
    obs, _ = env.reset(options={"task_id": task.task_id})
    policy = oracle_agent(env.spec_)
    policy.start(task)
    seen = [obs]
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(policy(env.transcript()))
        seen.append(obs)
        done = terminated or truncated
    return seen


@pytest.mark.parametrize("task_index", range(6))
def test_the_messages_observation_is_the_episode_transcript_and_one_list(task_index):
    env = AgentEnv(spec=ORDER_SPEC, situations=6, seed=2)
    seen = _play(env, task_index)
    assert all(obs is seen[0] for obs in seen)
    assert seen[-1] == env.episode.messages
    assert env.transcript() == env.episode.messages and env.transcript() is not seen[-1]


def test_editing_the_observation_leaves_the_episode_alone():
    env = AgentEnv(spec=ORDER_SPEC, situations=3)
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step("Which order do you mean?")
    obs[-1]["content"] = "edited"
    obs.append({"role": "user", "content": "injected"})
    assert env.episode.messages[-1]["content"] != "edited"
    assert all(m["content"] != "injected" for m in env.episode.messages)


def test_a_reset_starts_a_new_list():
    env = AgentEnv(spec=ORDER_SPEC, situations=3)
    first, _ = env.reset(seed=0)
    env.step("Which order do you mean?")
    second, _ = env.reset(seed=0)
    assert second is not first and len(second) < len(first)


@pytest.mark.parametrize("task_index", range(4))
def test_the_text_observation_renders_the_whole_transcript_at_every_step(task_index):
    env = AgentEnv(spec=ORDER_SPEC, situations=4, seed=1, observation="text")
    task = env.tasks[task_index]
    text, _ = env.reset(options={"task_id": task.task_id})
    policy = oracle_agent(env.spec_)
    policy.start(task)
    done = False
    while True:
        tools = render_tools(env.spec_.openai_tools())
        assert text == f"Tools:\n{tools}\n\n{render_messages(env.episode.messages)}"
        if done:
            break
        text, _, terminated, truncated, _ = env.step(policy(env.transcript()))
        done = terminated or truncated


@pytest.mark.parametrize("task_index", range(4))
def test_the_new_messages_observation_is_what_each_step_added(task_index):
    env = AgentEnv(spec=ORDER_SPEC, situations=4, seed=3, observation="new_messages")
    seen = _play(env, task_index)
    assert all(env.observation_space.contains(obs) for obs in seen)
    assert [m for obs in seen for m in obs] == env.episode.messages == env.transcript()


def test_a_new_messages_step_observation_does_not_grow_with_the_episode():
    env = AgentEnv(spec=ORDER_SPEC, situations=2, observation="new_messages", max_turns=200)
    env.reset(seed=0)
    call = {"name": "get_order", "arguments": '{"order_id": "4412"}'}
    action = {"role": "assistant", "content": "", "tool_calls": [{"id": "c", "function": call}]}
    sizes = []
    for _ in range(40):
        obs, _, terminated, truncated, _ = env.step(action)
        sizes.append(len(obs))
    assert not (terminated or truncated) and len(env.transcript()) > 80
    assert set(sizes) == {2}  # the turn and its tool result
