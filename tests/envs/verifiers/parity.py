"""What the verifiers tests compare against: the same tasks played in-process, and one
transcript replayed through ``Episode`` and ``gymnasium.make`` (no verifiers import here).

The verifiers tests are named ``vf03_*.py``/``vf04_*.py``, not ``test_*.py``: the main suite (whose
venv has no verifiers) never collects them; ``scripts/test-verifiers.sh`` runs them by path with
each verifiers venv's python.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium

import whileai_env as wenv
from whileai_env.agents.reference import make_reference_agent
from whileai_env.episode.engine import Episode

SPEC = Path(__file__).resolve().parents[3] / "configs" / "specs" / "order-support.json"
KEY_VAR = "WHILEAI_TEST_KEY"


def play(spec: wenv.Spec, task: wenv.Task, policy: str) -> Episode:
    """``task`` played in-process by a reference agent (rollout index 0, as the server plays it)."""
    episode = Episode(spec, task)
    agent = make_reference_agent(policy, spec)
    agent.start(task)
    while not episode.done:
        episode.step(agent(episode.messages))
    return episode


def pick_tasks(spec: wenv.Spec, n: int = 40) -> dict[str, wenv.Task]:
    """A plain task, a multi-turn one (the user answers a question) and a faulted one."""
    picked: dict[str, wenv.Task] = {}
    for task in wenv.draw_tasks(spec, n, mode="rl", seed=0):
        episode = play(spec, task, "oracle")
        users = sum(m["role"] == "user" for m in episode.messages)
        if users >= 2:
            picked.setdefault("multi_turn", task)
        elif episode.world.faults_fired:
            picked.setdefault("faulted", task)
        elif episode.world.ledger:
            picked.setdefault("plain", task)
    assert set(picked) == {"plain", "multi_turn", "faulted"}, picked
    return picked


def assistant_turns(transcript: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in transcript if m["role"] == "assistant"]


def replay_episode(
    spec: wenv.Spec, task: wenv.Task, transcript: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The grade ``Episode`` gives the transcript's assistant turns."""
    episode = Episode(spec, task)
    for turn in assistant_turns(transcript):
        episode.step(turn)
    assert episode.done
    return episode.reward()


def replay_gym(
    spec: wenv.Spec, task: wenv.Task, transcript: Sequence[dict[str, Any]]
) -> tuple[float, dict[str, float]]:
    """The reward and markers ``gymnasium.make`` gives the same turns."""
    env = gymnasium.make("whileai/agent-v0", spec=spec, tasks=[task])
    env.reset(options={"task": task})
    done, reward, info = False, 0.0, {}
    for turn in assistant_turns(transcript):
        _, reward, terminated, truncated, info = env.step(turn)
        done = terminated or truncated
    assert done
    return reward, info["markers"]
