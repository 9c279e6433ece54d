"""The CI checker of a vf-eval run fails on a reward that differs from in-process, or an error."""

from __future__ import annotations

import json

import pytest

import whileai_env as wenv
from tests.envs.verifiers.parity import SPEC, play
from tests.envs.verifiers.vf_eval_check import main


def _results(tmp_path, reward_shift=0.0, error=None):
    spec = wenv.load_spec(SPEC)
    rows = []
    for task in wenv.draw_tasks(spec, 3, mode="rl", seed=0):
        reward = play(spec, task, "oracle").reward()["reward"]
        rows.append(
            {
                "info": json.dumps(task.to_dict()),
                "reward": reward + reward_shift,
                "error": error,
                "is_completed": True,
            }
        )
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(tmp_path)


def test_a_run_that_matches_passes(tmp_path):
    assert main(_results(tmp_path), str(SPEC), "oracle") == 0


@pytest.mark.parametrize(("shift", "error"), [(-0.5, None), (0.0, "ModelError")])
def test_a_differing_reward_or_an_errored_rollout_fails(tmp_path, shift, error):
    assert main(_results(tmp_path, shift, error), str(SPEC), "oracle") == 1
