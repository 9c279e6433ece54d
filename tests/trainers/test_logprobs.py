"""LogprobTracker: the sampled KL to the reference is 0 before any update and > 0 after."""

from __future__ import annotations

import pytest

from trainers import LogprobTracker, logprob_report, mean_kl, staleness_report

SAMPLES = [
    {
        "task_id": f"t{i % 2}",
        "prompt": [{"role": "user", "content": f"Check order 44{i} please"}],
        "completion": [{"role": "assistant", "content": "Your order has shipped."}],
    }
    for i in range(4)
]


def _sft(model, tmp_path, **kwargs):
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    data = Dataset.from_list(
        [
            {"messages": [*s["prompt"], {"role": "assistant", "content": "Refunded, all set!"}]}
            for s in SAMPLES
        ]
    )
    args = SFTConfig(
        output_dir=str(tmp_path / "out"),
        use_cpu=True,
        max_steps=3,
        per_device_train_batch_size=2,
        learning_rate=5e-2,
        report_to="none",
        save_strategy="no",
        bf16=False,
        logging_steps=1,
    )
    return SFTTrainer(model=model, args=args, train_dataset=data, **kwargs)


def test_kl_is_zero_before_an_update_and_positive_after_under_peft(
    tiny_model: str, tmp_path
) -> None:
    from trainers.models import load_tokenizer, lora_config

    trainer = _sft(tiny_model, tmp_path, peft_config=lora_config(r=4, alpha=8, dropout=0.0))
    tracker = LogprobTracker(trainer.model, load_tokenizer(tiny_model), samples=SAMPLES, every=1)
    assert tracker.reference is None  # the reference is the base weights, adapter off
    before = tracker.score()
    assert mean_kl(before)["overall"] == pytest.approx(0.0, abs=1e-6)
    trainer.add_callback(tracker)
    trainer.train()
    after = tracker.score()
    report = mean_kl(after)
    assert report["overall"] > 1e-4
    assert set(report["groups"]) == {"t0", "t1"}
    assert tracker.history and tracker.history[-1]["sampled_kl"] > 0
    assert staleness_report(before, tracker.version)["stale"] == len(before)
    assert staleness_report(after, tracker.version)["stale"] == 0


def test_without_peft_the_reference_is_a_frozen_copy(tiny_model: str, tmp_path) -> None:
    from trainers.models import load_tokenizer

    trainer = _sft(tiny_model, tmp_path)
    tracker = LogprobTracker(trainer.model, load_tokenizer(tiny_model), samples=SAMPLES[:2])
    assert mean_kl(tracker.score())["overall"] == pytest.approx(0.0, abs=1e-6)
    trainer.train()
    assert mean_kl(tracker.score())["overall"] > 1e-4


def test_reports_on_rows() -> None:
    rows = [
        {"task_id": "a", "logprob": -4.0, "n_tokens": 2, "kl": 0.1, "policy_version": 3},
        {"task_id": "b", "logprob": -6.0, "n_tokens": 6, "kl": 0.3, "policy_version": 5},
    ]
    assert logprob_report(rows) == {
        "rows": 2,
        "tokens": 8,
        "mean_logprob": -5.0,
        "logprob_per_token": -1.25,
    }
    assert mean_kl(rows)["overall"] == pytest.approx((0.1 * 2 + 0.3 * 6) / 8)
    assert staleness_report(rows, 5) == {
        "rows": 2,
        "stale": 1,
        "share": 0.5,
        "max_lag": 2,
        "version": 5,
    }
