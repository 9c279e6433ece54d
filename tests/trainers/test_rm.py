"""``trainers.rm`` takes 2 steps on the tiny model; ``reward_model`` grades rows through run_judge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import trainers
import whileai_env as wenv
from tests.conftest import ROOT
from tests.trainers.conftest import SPEC
from whileai_env.grading.judge import judge_report, judge_verdict, run_judge


@pytest.fixture(scope="module")
def trained(tiny_model: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from trainers.rm import main

    out = tmp_path_factory.mktemp("rm")
    summary = main(
        [
            "--config",
            str(ROOT / "configs" / "train" / "rm-tiny-cpu.yaml"),
            "--model_name_or_path",
            tiny_model,
            "--spec",
            SPEC,
            "--run_dir",
            str(out / "run"),
            "--output_dir",
            str(out / "model"),
        ]
    )
    assert summary["status"] == "done"
    assert any(note.startswith("pair accuracy on ") for note in summary["notes"])
    return out


def test_two_steps_and_pair_accuracy_before_and_after(trained: Path) -> None:
    metrics = [
        json.loads(line) for line in (trained / "run" / "metrics.jsonl").read_text().splitlines()
    ]
    assert [m["step"] for m in metrics if "loss" in m] == [1, 2]
    record = json.loads((trained / "model" / "rm.json").read_text())
    assert record["train_pairs"] >= 1 and record["held_out_pairs"] >= 1
    assert 0.0 <= record["before"] <= 1.0 and 0.0 <= record["after"] <= 1.0
    assert record["max_length"] == 512


def test_reward_model_grades_rows_through_run_judge(trained: Path) -> None:
    judge = trainers.reward_model(trained / "model", threshold=0.5)
    rows = wenv.simulate("seeded", spec=SPEC, budget=3, quiet=True).rows
    graded = run_judge(rows, judge)
    assert judge_report(graded)["ok"] == 3
    for row in graded:
        meta = row["judge_meta"]
        assert row["reward"] == float(meta["rm_prob"] >= 0.5)
        assert isinstance(meta["rm_score"], float) and meta["threshold"] == 0.5
    strict = run_judge(rows, trainers.reward_model(trained / "model", threshold=0.999999))
    assert [row["reward"] for row in strict] == [0.0, 0.0, 0.0]


def test_reward_model_reads_a_text_row_as_hack_monitor_gold_does(trained: Path) -> None:
    judge = trainers.reward_model(trained / "model")
    verdict = judge_verdict(judge, {"prompt": "where is order 7?", "final_text": "It shipped."})
    assert verdict.status == "ok" and verdict.reward in (0.0, 1.0)


def test_pass_fail_pairs_need_a_mixed_task() -> None:
    from trainers.rm import pass_fail_pairs

    with pytest.raises(ValueError, match="no pass-vs-fail pairs in 2 graded rows"):
        pass_fail_pairs([{"task_id": "a", "reward": 1.0}, {"task_id": "a", "reward": 1.0}])


def test_a_threshold_outside_zero_one_is_refused(trained: Path) -> None:
    with pytest.raises(ValueError, match="threshold is a probability"):
        trainers.reward_model(trained / "model", threshold=1.5)


def test_reward_model_is_hack_monitors_gold(trained: Path) -> None:
    def sampler(trainer, holdout, k):
        return [
            {
                "prompt": [{"role": "user", "content": h["q"]}],
                "completion": [{"role": "assistant", "content": "It shipped" + "!" * i}],
            }
            for h in holdout
            for i in range(k)
        ]

    monitor = trainers.HackMonitor(
        holdout=[{"q": "where is order 7?"}, {"q": "cancel order 9"}],
        gold=trainers.reward_model(trained / "model"),
        every=1,
        k=2,
        sampler=sampler,
    )
    monitor.wrap(lambda prompts, completions, **_: [1.0] * len(completions))
    monitor.check(1)
    gold = monitor.points[-1]["gold_reward"]
    assert isinstance(gold, float) and 0.0 <= gold <= 1.0
