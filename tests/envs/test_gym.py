import json
import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.agents import oracle_agent
from whileai_env.envs.gym import AgentEnv

from ..conftest import SPECS_DIR

ORDER_SPEC = SPECS_DIR / "order-support.json"


def _make(**kwargs):
    kwargs.setdefault("spec", ORDER_SPEC)
    kwargs.setdefault("situations", 20)
    return gym.make("whileai/agent-v0", **kwargs)


def test_make_resolves_the_unversioned_id():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gym.make("whileai/agent", spec=ORDER_SPEC, situations=5)
    assert isinstance(env.unwrapped, AgentEnv)


@pytest.mark.parametrize("observation", ["messages", "text", "new_messages"])
def test_check_env_passes_without_warnings(observation):
    env = gym.make(
        "whileai/agent-v0",
        spec=ORDER_SPEC,
        situations=10,
        observation=observation,
        render_mode="ansi",
    ).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=False)


def test_reset_info_is_public_and_step_returns_five_tuple():
    env = _make()
    obs, info = env.reset(seed=3)
    assert obs[0]["role"] == "system" and obs[-1]["role"] == "user"
    assert set(info) == {"task_id", "scenario_id", "scenario_dimensions", "tools"}
    assert "privileged" not in json.dumps(info) and "hidden_state" not in json.dumps(info)
    obs2, reward, terminated, truncated, _info2 = env.step("Could you tell me your order number?")
    assert (
        isinstance(reward, float) and isinstance(terminated, bool) and isinstance(truncated, bool)
    )
    assert obs2[-2]["role"] == "assistant"


def test_reset_is_repeatable_and_accepts_a_task():
    env = _make()
    first, info_a = env.reset(seed=11)
    again, info_b = env.reset(seed=11)
    assert first == again and info_a["task_id"] == info_b["task_id"]
    task = env.unwrapped.tasks[4]
    _, info = env.reset(options={"task_id": task.task_id})
    assert info["task_id"] == task.task_id
    _, info = env.reset(options={"task": task.to_dict()})
    assert info["task_id"] == task.task_id
    with pytest.raises(ValueError, match="no task 'nope'"):
        env.reset(options={"task_id": "nope"})
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"tsk": 1})


def test_sampled_actions_never_crash():
    env = _make(max_turns=6)
    env.action_space.seed(0)
    for episode in range(5):
        env.reset(seed=episode)
        for _ in range(6):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                break


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.text(max_size=200),
        st.dictionaries(
            st.sampled_from(["role", "content", "tool_calls", "name", "arguments"]),
            st.one_of(
                st.text(max_size=20),
                st.lists(st.dictionaries(st.text(max_size=5), st.text(max_size=5)), max_size=2),
            ),
            max_size=4,
        ),
        st.builds(
            lambda name, args: f'<tool_call>{{"name": "{name}", "arguments": {args}}}</tool_call>',
            st.sampled_from(["get_order", "cancel_order", "nope", ""]),
            st.sampled_from(["{}", "[1]", '{"order_id": 4}', "x"]),
        ),
    )
)
def test_fuzzed_actions_never_raise_out_of_step(action):
    env = AgentEnv(spec=ORDER_SPEC, situations=3, max_turns=4)
    env.reset(seed=0)
    for _ in range(3):
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break


def test_vector_envs():
    fns = [lambda: AgentEnv(spec=ORDER_SPEC, situations=5, max_turns=3) for _ in range(2)]
    for vec in (gym.vector.SyncVectorEnv(fns), gym.vector.AsyncVectorEnv(fns, shared_memory=False)):
        obs, _ = vec.reset(seed=1)
        assert len(obs) == 2
        for _ in range(4):
            obs, rewards, _terms, _truncs, _infos = vec.step(["Which order do you mean?", "Hello"])
            assert len(rewards) == 2
        vec.close()


def test_standard_wrappers():
    env = gym.wrappers.RecordEpisodeStatistics(
        gym.wrappers.TimeLimit(AgentEnv(spec=ORDER_SPEC, situations=5), 3)
    )
    env.reset(seed=0)
    done = False
    steps = 0
    while not done:
        _, _, terminated, truncated, info = env.step("Can you tell me more?")
        done = terminated or truncated
        steps += 1
    assert steps <= 3 and "episode" in info


def test_render_modes(capsys):
    env = AgentEnv(spec=ORDER_SPEC, situations=3, render_mode="ansi")
    env.reset(seed=0)
    assert "user:" in env.render()
    human = AgentEnv(spec=ORDER_SPEC, situations=3, render_mode="human")
    human.reset(seed=0)
    human.step("Hello")
    assert "assistant: Hello" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        AgentEnv(spec=ORDER_SPEC, situations=3, render_mode="rgb_array")


def test_text_observation_lists_tools_first():
    env = AgentEnv(spec=ORDER_SPEC, situations=3, observation="text")
    obs, _ = env.reset(seed=0)
    assert obs.startswith("Tools:\n- get_order")
    assert "user:" in obs


def test_tasks_from_jsonl(tmp_path):
    spec = wenv.load_spec(ORDER_SPEC)
    tasks = wenv.draw_tasks(spec, 4, seed=2)
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(t.to_dict()) + "\n" for t in tasks))
    env = AgentEnv(spec=spec, tasks=path)
    assert [t.task_id for t in env.tasks] == [t.task_id for t in tasks]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\nnot json\n")
    with pytest.raises(ValueError, match=r"bad\.jsonl:2"):
        AgentEnv(spec=spec, tasks=bad)


def test_parity_episode_vs_gymnasium():
    spec = wenv.load_spec(ORDER_SPEC)
    tasks = wenv.draw_tasks(spec, 25, seed=5, fault_rate=1.0)
    env = gym.make("whileai/agent-v0", spec=spec, tasks=tasks)
    for task in tasks:
        policy = oracle_agent(spec)
        policy.start(task)
        episode = wenv.Episode(spec, task)
        actions = []
        while not episode.done:
            action = policy(episode.messages)
            actions.append(action)
            episode.step(action)
        direct = episode.row()
        env.reset(options={"task_id": task.task_id})
        reward = 0.0
        for action in actions:
            _, reward, terminated, truncated, _ = env.step(action)
        via_gym = env.unwrapped.row()
        assert terminated or truncated
        assert via_gym["messages"] == direct["messages"]
        assert via_gym["steps"] == direct["steps"]
        assert via_gym == direct
        assert reward == direct["reward"]


@pytest.mark.parametrize("spec_path", sorted(p.name for p in SPECS_DIR.iterdir()))
def test_oracle_reaches_ceiling_through_gymnasium(spec_path):
    spec = wenv.load_spec(SPECS_DIR / spec_path)
    tasks = wenv.draw_tasks(spec, 120, seed=8, fault_rate=0.8)
    env = gym.make("whileai/agent-v0", spec=spec, tasks=tasks)
    rewards, failures = [], []
    multi_turn = 0
    for task in tasks:
        policy = oracle_agent(spec)
        obs, _ = env.reset(options={"task_id": task.task_id})
        policy.start(env.unwrapped.episode.task)
        done = False
        while not done:
            obs, reward, terminated, truncated, _info = env.step(policy(obs))
            done = terminated or truncated
        row = env.unwrapped.row()
        multi_turn += sum(m["role"] == "user" for m in row["messages"]) > 1
        if row["markers"].get("outcome_checked"):
            rewards.append(reward)
            if reward < 1:
                failures.append((task.dimensions, row["reason"]))
    assert multi_turn > 5
    assert sum(rewards) / len(rewards) >= 0.98, failures[:5]


def test_fault_rate_zero_switches_off_the_faults_of_given_tasks():
    """``gym.make(..., tasks=draw_tasks(spec, 100), fault_rate=0.0)`` still fired faults; another
    rate with given tasks is refused, as they carry their own schedule."""
    spec = wenv.load_spec(SPECS_DIR / "order-support.json")
    tasks = wenv.draw_tasks(spec, 60, seed=2, fault_rate=1.0)
    assert any(t.faults for t in tasks)
    env = AgentEnv(spec, tasks=tasks, fault_rate=0.0)
    assert not any(t.faults for t in env.tasks)
    with pytest.raises(ValueError, match=r"fault_rate=0\.5 applies to the tasks AgentEnv draws"):
        AgentEnv(spec, tasks=tasks, fault_rate=0.5)
