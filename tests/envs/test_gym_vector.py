"""The env in gymnasium's ``AsyncVectorEnv``: each sub-env plays as a single env would."""

import functools

import gymnasium as gym
import pytest

import whileai_env as wenv
from whileai_env.agents import oracle_agent
from whileai_env.envs.gym import AgentEnv

from ..conftest import SPECS_DIR

SPEC = SPECS_DIR / "order-support.json"


def _script(spec, task):
    """The oracle's turns for ``task``, played on a bare episode."""
    policy = oracle_agent(spec)
    policy.start(task)
    episode = wenv.Episode(spec, task)
    actions = []
    while not episode.done:
        actions.append(policy(episode.messages))
        episode.step(actions[-1])
    return actions


def _single(spec, task, actions, observation="messages"):
    env = AgentEnv(spec=spec, tasks=[task], observation=observation)
    env.reset(seed=0)
    for action in actions:
        obs, reward, terminated, truncated, _ = env.step(action)
    return obs, reward, terminated, truncated


@pytest.fixture(scope="module")
def played():
    spec = wenv.load_spec(SPEC)
    tasks = wenv.draw_tasks(spec, 2, seed=4, fault_rate=1.0)
    return spec, tasks, [_script(spec, t) for t in tasks]


@pytest.mark.parametrize("observation", ["messages", "new_messages"])
def test_two_async_envs_end_as_the_single_envs_do(played, observation):
    spec, tasks, scripts = played
    fns = [
        functools.partial(AgentEnv, spec=spec, tasks=[t], observation=observation) for t in tasks
    ]
    vec = gym.vector.AsyncVectorEnv(fns, shared_memory=False, copy=False)
    try:
        vec.reset(seed=0)
        ended: dict[int, tuple] = {}
        for turn in range(max(map(len, scripts))):
            actions = [s[min(turn, len(s) - 1)] for s in scripts]
            obs, rewards, terms, truncs, _ = vec.step(actions)
            for i, script in enumerate(scripts):
                if turn == len(script) - 1:
                    ended[i] = (obs[i], float(rewards[i]), bool(terms[i]), bool(truncs[i]))
    finally:
        vec.close()
    for i, task in enumerate(tasks):
        assert ended[i] == _single(spec, task, scripts[i], observation)
    assert any(e[1] > 0 for e in ended.values())
