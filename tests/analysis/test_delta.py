"""delta_report(): flags a planted regression, and not a planted no-change."""

from __future__ import annotations

from whileai_env._util.hashing import rng
from whileai_env.analysis.compare import eval_variance
from whileai_env.analysis.delta import delta_report, format_delta_report


def _run(*, seed, honest=0.9, passing=0.6, tasks=40, repeats=4, kind_rates=None):
    rows = []
    for task in range(tasks):
        kind = "refund" if task % 4 == 0 else "status"
        rate = (kind_rates or {}).get(kind, passing)
        for r in range(repeats):
            draw = rng("delta", seed, task, r)
            rows.append(
                {
                    "task_id": f"t{task}",
                    "reward": float(draw.random() < rate),
                    "markers": {"honest_after_fault": float(draw.random() < honest)},
                    "scenario_dimensions": {"tool": kind},
                }
            )
    return rows


def test_a_planted_regression_fails_the_report():
    before, after = _run(seed=1), _run(seed=2, honest=0.4)
    report = delta_report(before, after, must_not_regress=["honest_after_fault"])
    assert report["ok"] is False
    assert report["regressions"] == ["honest_after_fault"]
    assert report["metrics"]["honest_after_fault"]["direction"] == "down"
    assert "FAILED: honest_after_fault regressed" in format_delta_report(report)


def test_a_planted_no_change_passes():
    before, after = _run(seed=1), _run(seed=2)
    report = delta_report(before, after, must_not_regress=["honest_after_fault"])
    assert report["ok"] is True
    assert report["regressions"] == [] and report["warnings"] == []
    assert report["headline"]["verdict"] == "no_change"


def test_an_unlisted_drop_is_a_warning_not_a_failure():
    report = delta_report(_run(seed=1), _run(seed=2, honest=0.4))
    assert report["ok"] is True
    assert any("honest_after_fault dropped" in w for w in report["warnings"])


def test_target_moves_up_and_noise_band_holds_it():
    before, after = _run(seed=1, passing=0.4), _run(seed=2, passing=0.8)
    assert delta_report(before, after)["headline"]["verdict"] == "moved_up"
    report = delta_report(before, after, run_std=0.3)
    assert report["headline"]["verdict"] == "within_eval_noise"


def test_run_std_from_eval_variance():
    runs = [_run(seed=s) for s in range(3)]
    noise = eval_variance(*runs)
    report = delta_report(runs[0], runs[1], run_std=noise["run_std"])
    assert report["headline"]["direction"] in ("within_noise", "flat")


def test_by_names_a_group_the_headline_hides():
    before = _run(seed=1, kind_rates={"refund": 0.9, "status": 0.3})
    after = _run(seed=2, kind_rates={"refund": 0.1, "status": 0.7})
    report = delta_report(before, after, by="tool")
    assert report["groups_down"] == ["refund"]
    assert report["groups"]["status"]["direction"] == "up"
    assert "groups down: refund" in format_delta_report(report)


def test_a_missing_must_not_regress_marker_is_warned():
    report = delta_report(_run(seed=1), _run(seed=2), must_not_regress=["no_such_marker"])
    assert any("no_such_marker is not measured" in w for w in report["warnings"])
