"""delta_report(proxy=): a proxy up while the target did not follow fails the report."""

from __future__ import annotations

from whileai_env.analysis.delta import delta_report, format_delta_report


def _rows(reward: float, proxy: float, tasks: int = 20) -> list[dict]:
    return [
        {"task_id": f"t{i}", "reward": reward if i % 2 else 0.0, "markers": {"rm": proxy}}
        for i in range(tasks)
    ]


def test_proxy_up_while_the_target_stays_flat_fails_the_report() -> None:
    report = delta_report(_rows(1.0, 0.2), _rows(1.0, 0.9), proxy="rm")
    assert report["proxy"]["diverged"] and report["proxy"]["target_direction"] == "flat"
    assert report["ok"] is False and "proxy rm moved up" in report["proxy"]["message"]
    assert "FAILED: proxy rm up, target not" in format_delta_report(report)


def test_proxy_and_target_up_together_pass() -> None:
    before = [{"task_id": f"t{i}", "reward": 0.0, "markers": {"rm": 0.2}} for i in range(20)]
    after = [{"task_id": f"t{i}", "reward": 1.0, "markers": {"rm": 0.9}} for i in range(20)]
    report = delta_report(before, after, proxy="rm")
    assert report["proxy"] == {
        "name": "rm",
        "direction": "up",
        "target_direction": "up",
        "diverged": False,
    }
    assert report["ok"]


def test_a_proxy_rise_inside_the_eval_noise_is_not_a_divergence() -> None:
    report = delta_report(_rows(1.0, 0.5), _rows(1.0, 0.55), proxy="rm", run_std=0.05)
    assert report["proxy"]["direction"] == "within_noise" and report["ok"]


def test_a_proxy_that_is_not_a_column_is_measured_as_reward_or_warned() -> None:
    before = [{"task_id": f"t{i}", "reward": 0.4} for i in range(20)]
    after = [{"task_id": f"t{i}", "reward": 0.8} for i in range(20)]
    report = delta_report(before, after, proxy="reward")
    assert report["proxy"]["diverged"] and not report["ok"]  # reward up, pass@1 (0 both) not
    missing = delta_report(before, after, proxy="rm_score")
    assert missing["ok"] and "proxy rm_score is not measured on both sides" in missing["warnings"]
