"""RunLogger's record and verdict, HackMonitor's alarms and its stop, on the tiny model."""

from __future__ import annotations

import json

import pytest

from trainers import HackMonitor, RunLogger
from trainers.hack_monitor import format_hack_monitor, hack_scan
from trainers.verdict import holdout_verdict


def _proxy(prompts, completions, **_):
    """A proxy that pays for exclamation marks."""
    return [min(1.0, c[-1]["content"].count("!") / 5) for c in completions]


def _gold(row):
    """A gold judge that does not care about exclamation marks."""
    return 0.5


class ClimbingSampler:
    """Holdout samples whose proxy reward climbs with each check while gold stays flat."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, trainer, holdout, k):
        self.calls += 1
        return [
            {
                "prompt": [{"role": "user", "content": h["q"]}],
                "completion": [{"role": "assistant", "content": "Done" + "!" * self.calls}],
            }
            for h in holdout
            for _ in range(k)
        ]


HOLDOUT = [{"q": f"question {i}"} for i in range(4)]


def test_divergence_fires_when_the_proxy_climbs_and_gold_stays_flat() -> None:
    monitor = HackMonitor(
        holdout=HOLDOUT, gold=_gold, every=1, k=2, window=3, sampler=ClimbingSampler()
    )
    monitor.wrap(_proxy)
    assert monitor.check(1) == [] and monitor.check(2) == []
    fired = monitor.check(3)
    assert [a["alarm"] for a in fired] == ["divergence"]
    assert "step 3: divergence" in format_hack_monitor(monitor.summary())


def test_no_divergence_when_gold_rises_with_the_proxy() -> None:
    monitor = HackMonitor(
        holdout=HOLDOUT,
        gold=lambda row: row["final_text"].count("!") / 5,
        every=1,
        k=2,
        sampler=ClimbingSampler(),
    )
    monitor.wrap(_proxy)
    fired = [a["alarm"] for step in (1, 2, 3) for a in monitor.check(step)]
    assert "divergence" not in fired


def test_the_feature_scan_flags_rewards_without_the_endorsed_call() -> None:
    bare = [([{"role": "assistant", "content": "Refunded!"}], 1.0)] * 10
    backed = [
        (
            [
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [{"function": {"name": "refund"}}],
                }
            ],
            1.0,
        )
    ] * 10
    assert hack_scan(bare, ["tool:refund"])["verdict"] == "reward_hack"
    assert hack_scan(backed, ["tool:refund"])["verdict"] == "clean"


def test_drift_fires_past_the_kl_budget() -> None:
    monitor = HackMonitor(holdout=HOLDOUT, every=1, k=1, kl_budget=0.1, sampler=ClimbingSampler())
    monitor.wrap(_proxy)
    monitor.on_log(None, None, None, logs={"kl": 0.5})
    assert [a["alarm"] for a in monitor.check(1)] == ["drift"]


def test_a_monitor_told_to_stop_ends_training_and_the_run_is_stopped(
    tiny_model: str, tmp_path
) -> None:
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    run = RunLogger(tmp_path / "run", config={"what": "monitor test"})
    monitor = HackMonitor(
        run,
        holdout=HOLDOUT,
        gold=_gold,
        every=1,
        k=2,
        stop_on="divergence",
        sampler=ClimbingSampler(),
    )
    monitor.wrap(_proxy)
    data = Dataset.from_list(
        [
            {
                "messages": [
                    {"role": "user", "content": f"hi {i}"},
                    {"role": "assistant", "content": "hello"},
                ]
            }
            for i in range(8)
        ]
    )
    args = SFTConfig(
        output_dir=str(tmp_path / "out"),
        use_cpu=True,
        max_steps=10,
        per_device_train_batch_size=2,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        bf16=False,
    )
    trainer = SFTTrainer(model=tiny_model, args=args, train_dataset=data, callbacks=[monitor, run])
    trainer.train()
    assert trainer.state.global_step == 3
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["status"] == "stopped" and summary["reason"].startswith("divergence")
    assert (tmp_path / "run" / "curves.png").stat().st_size > 0
    lines = (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()
    assert any("loss" in json.loads(line) for line in lines)
    assert any("proxy_reward" in json.loads(line) for line in lines)
    assert json.loads((tmp_path / "run" / "config.json").read_text())["what"] == "monitor test"
    assert monitor.picture(str(tmp_path / "hack.png"))


def test_holdout_verdict_reads_a_paired_interval() -> None:
    before, after = [0.0] * 30 + [1.0] * 10, [1.0] * 30 + [1.0] * 10
    assert holdout_verdict(before, after)["verdict"] == "Better"
    assert holdout_verdict(after, before)["verdict"] == "Worse"
    noisy_b, noisy_a = [0, 1] * 20, [1, 0] * 20
    record = holdout_verdict(noisy_b, noisy_a)
    assert record["verdict"] == "About the same" and record["ci95"][0] < 0 < record["ci95"][1]
    assert (
        holdout_verdict([2.0, 2.1, 1.9, 2.0], [1.0, 1.1, 0.9, 1.0], metric="loss")["verdict"]
        == "Better"
    )


def test_holdout_pairs_graded_rows_by_task(tmp_path) -> None:
    run = RunLogger(tmp_path)
    before = [{"task_id": f"t{i}", "reward": 0.0} for i in range(10)]
    after = [{"task_id": f"t{i}", "reward": 1.0} for i in range(10)] + [
        {"task_id": "new", "reward": 0.0}
    ]
    record = run.holdout(before, after)
    assert record["tasks"] == 10 and record["verdict"] == "Better"
    assert json.loads((tmp_path / "summary.json").read_text())["holdout"]["verdict"] == "Better"


def test_unknown_alarm_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown alarm"):
        HackMonitor(stop_on="loud")


def test_the_built_in_sampler_plays_the_holdout_from_the_live_policy_and_alarms(
    tiny_model: str, tmp_path
) -> None:
    """No ``sampler=``: every step the monitor plays the held-out task rows with the trainer's
    model through the environment, scores them with the proxy and the gold judge, and stops on
    the divergence the climbing proxy makes against the flat gold."""
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    import whileai_env as wenv
    from tests.trainers.conftest import SPEC
    from trainers import environment_factory
    from trainers.data import task_row
    from trainers.environment import WhileaiEnvironment

    spec = wenv.load_spec(SPEC)
    holdout = [task_row(spec, t) for t in wenv.draw_tasks(spec, 1, mode="rl", seed=5)]
    seen: list[list] = []

    def climbing(prompts, completions, environments=None, **_):
        seen.append(list(environments or []))
        return [len(seen) / 4] * len(completions)

    monitor = HackMonitor(
        holdout=holdout,
        gold=_gold,
        every=1,
        k=1,
        window=2,
        stop_on="divergence",
        environment=environment_factory(spec),
    )
    monitor.wrap(climbing)
    data = Dataset.from_list(
        [{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"}]}]
        * 8
    )
    args = SFTConfig(
        output_dir=str(tmp_path / "out"),
        use_cpu=True,
        max_steps=6,
        per_device_train_batch_size=2,
        report_to="none",
        save_strategy="no",
        bf16=False,
    )
    trainer = SFTTrainer(model=tiny_model, args=args, train_dataset=data, callbacks=[monitor])
    monitor.trainer = trainer
    trainer.train()
    assert trainer.state.global_step == 2 and monitor.stopped.startswith("divergence")
    assert [p["gold_reward"] for p in monitor.points] == [0.5] * 2
    assert len(seen) == 2 and all(len(envs) == 1 for envs in seen)
    played = [e for envs in seen for e in envs]
    assert all(isinstance(e, WhileaiEnvironment) and e.episode.done for e in played)
    assert {e.episode.task.task_id for e in seen[0]} == {r["task_id"] for r in holdout}


def test_a_run_started_again_in_its_directory_sets_the_earlier_record_aside(tmp_path) -> None:
    first = RunLogger(tmp_path)
    first.log(1, loss=2.0)
    first.log(2, loss=1.5)
    first.finish()
    second = RunLogger(tmp_path)
    second.log(1, loss=9.0)
    lines = (tmp_path / "metrics.jsonl").read_text().splitlines()
    assert [json.loads(line)["loss"] for line in lines] == [9.0]
    earlier = tmp_path / "earlier" / "1"
    assert len((earlier / "metrics.jsonl").read_text().splitlines()) == 2
    assert (earlier / "summary.json").exists() and not (tmp_path / "summary.json").exists()
    RunLogger(tmp_path)
    assert (tmp_path / "earlier" / "2" / "metrics.jsonl").exists()
