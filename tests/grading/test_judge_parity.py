"""One judge runner behind every face: the same judge gives the same status and reward whether
a row is graded by ``Episode.reward``, the Gymnasium env's last step, ``simulate(grader=...)``
or ``simulate(...).grade()``."""

from __future__ import annotations

import asyncio

import gymnasium as gym
import pytest

import whileai_env as wenv
from tests.conftest import SPECS_DIR

SPEC = SPECS_DIR / "order-support.json"


async def async_judge(row):
    await asyncio.sleep(0)
    return {
        "reward": 0.25 if row.get("final_text") else 0.0,
        "reason": "async",
        "markers": {"async": 1.0},
    }


def raising_judge(row):
    raise RuntimeError("judge down")


def junk_judge(row):
    return "looks fine"


def _by_episode(judge, task):
    episode = wenv.Episode(wenv.load_spec(SPEC), task, judge=judge)
    episode.step("I can't help with that, sorry.")
    while not episode.done:
        episode.step("Thanks, that is all.")
    return episode.reward()


def _by_gym(judge, task):
    env = gym.make("whileai/agent-v0", spec=SPEC, tasks=[task], judge=judge)
    env.reset(seed=0)
    terminated = truncated = False
    action = "I can't help with that, sorry."
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(action)
        action = "Thanks, that is all."
    return {
        "reward": reward if info.get("judge_status") == "ok" else None,
        "judge_status": info["judge_status"],
    }


def _by_simulate_grade(judge, task):
    data = wenv.simulate("silent", spec=SPEC, tasks=[task], budget=1, quiet=True)
    return data.grade(judge).rows()[0]


def _by_simulate_grader(judge, task):
    return wenv.simulate(
        "silent", spec=SPEC, tasks=[task], budget=1, grader=judge, quiet=True
    ).trajectories[0]


@pytest.mark.parametrize(
    "judge", [async_judge, raising_judge, junk_judge], ids=lambda j: j.__name__
)
def test_every_face_grades_alike(judge):
    task = wenv.draw_tasks(wenv.load_spec(SPEC), 1, seed=11, fault_rate=0.0)[0]
    results = [
        _by_episode(judge, task),
        _by_gym(judge, task),
        _by_simulate_grade(judge, task),
        _by_simulate_grader(judge, task),
    ]
    statuses = {r["judge_status"] for r in results}
    assert len(statuses) == 1, results
    expected = {"async_judge": "ok", "raising_judge": "error", "junk_judge": "invalid_result"}[
        judge.__name__
    ]
    assert statuses == {expected}
    rewards = {r["reward"] for r in results}
    assert len(rewards) == 1, results


def test_an_async_judge_runs_inside_a_running_event_loop():
    """A verifiers rollout grades from inside its event loop; the runner must not call
    ``asyncio.run`` on that loop's thread."""
    from whileai_env.grading.judge import judge_verdict

    async def main():
        return judge_verdict(async_judge, {"final_text": "x"})

    verdict = asyncio.run(main())
    assert (verdict.status, verdict.reward) == ("ok", 0.25)
