"""optimize(): the RL prune (junk, duplicates, truncation, unanimous, band, fault round-robin,
calibration) and SFT rejection sampling."""

from __future__ import annotations

import pytest

from whileai_env.analysis.selection import optimize


def _row(task, index, reward, *, kind="success", text=None, **extra):
    return {
        "task_id": task,
        "prompt": f"ask {task}",
        "reward": reward,
        "final_text": text if text is not None else f"{task} reply {index}",
        "scenario_dimensions": {"condition": kind},
        "rollout_index": index,
        **extra,
    }


def _group(task, rewards, **kwargs):
    return [_row(task, i, r, **kwargs) for i, r in enumerate(rewards)]


def test_junk_and_duplicates_go_first():
    rows = [
        *_group("a", [1.0, 0.0, 0.0]),
        _row("a", 9, None),
        _row("a", 8, 1.0, judge_status="error"),
        _row("a", 0, 0.0, text="a reply 1"),  # the same trajectory as rollout 1
    ]
    _, report = optimize(rows)
    assert (report["junk"], report["duplicates"], report["kept_rows"]) == (2, 1, 3)


def test_unanimous_and_out_of_band_groups_are_dropped():
    rows = [
        *_group("pass", [1.0] * 4),
        *_group("fail", [0.0] * 4),
        *_group("easy", [1.0] * 9 + [0.0]),
        *_group("hard", [1.0] + [0.0] * 9),
        *_group("mid", [1.0, 0.0, 1.0, 0.0]),
    ]
    kept, report = optimize(rows)
    assert {row["task_id"] for row in kept} == {"mid"}
    assert report["unanimous"] == {"all_pass": 1, "all_fail": 1}
    assert report["band_dropped"] == {"too_easy": 1, "too_hard": 1}
    kept, _ = optimize(rows, band=(0.1, 0.9))
    assert {row["task_id"] for row in kept} == {"mid", "easy", "hard"}
    kept, _ = optimize(rows, enforce_band=False)
    assert [row["task_id"] for row in kept][:4] == ["mid"] * 4  # in band first, then the rest
    assert {row["task_id"] for row in kept} == {"mid", "easy", "hard"}


@pytest.mark.parametrize(
    ("mode", "n_rows", "reward"),
    [("drop", 2, None), ("keep", 3, 1.0), ("penalize", 3, 0.0)],
)
def test_truncated_rollouts(mode, n_rows, reward):
    rows = [*_group("a", [1.0, 0.0]), _row("a", 5, 1.0, truncated=True)]
    kept, report = optimize(rows, truncated=mode, band=(0.0, 1.0))
    assert len(kept) == n_rows and report["truncated"] == 1
    cut = [row for row in kept if row.get("truncated")]
    if reward is not None:
        assert cut[0]["reward"] == reward
        assert cut[0].get("overlong") is (True if mode == "keep" else None)
        assert cut[0].get("reward_before_penalty") == (1.0 if mode == "penalize" else None)


def test_round_robin_over_fault_kinds():
    rows = []
    for n in range(3):
        rows += _group(f"t{n}", [1.0, 0.0], kind="timeout")
    rows += _group("s0", [1.0, 0.0], kind="success")
    rows += _group("r0", [1.0, 0.0], kind="rate_limit")
    kept, report = optimize(rows, max_groups=3)
    kinds = [row["scenario_dimensions"]["condition"] for row in kept[::2]]
    assert kinds == ["rate_limit", "success", "timeout"]
    assert report["fault_kinds"] == {"rate_limit": 1, "success": 1, "timeout": 3}
    assert report["kept_groups"] == 3


def test_group_stats_and_calibration_stamp():
    rows = [*_group("a", [1.0, 1.0, 0.0, 0.0]), *_group("b", [1.0, 0.0, 0.0, 0.0])]
    rows += _group("c", [1.0] * 4)
    kept, report = optimize(rows)
    row = next(r for r in kept if r["task_id"] == "a")
    assert row["group_stats"] == {
        "n": 4,
        "n0": 2,
        "n1": 2,
        "reward_mean": 0.5,
        "reward_std": 0.5,
    }
    assert row["calibration"]["task_pass_rate"] == 0.5
    assert row["calibration"]["pass_at_1"] == pytest.approx((0.5 + 0.25 + 1.0) / 3)
    assert row["calibration"]["k"] == 4
    assert report["calibration"]["pass_at_k"] is not None
    assert any("pass^k" in warning for warning in report["hygiene_warnings"])


def test_eval_sourced_rows_are_counted_and_warned():
    rows = _group("a", [1.0, 0.0], lineage={"source": "eval"})
    _, report = optimize(rows)
    assert report["eval_sourced"] == 2
    assert any("evaluation" in warning for warning in report["hygiene_warnings"])


def test_inputs_are_not_mutated():
    rows = [*_group("a", [1.0, 0.0]), _row("a", 3, 1.0, truncated=True)]
    before = [dict(row) for row in rows]
    optimize(rows, truncated="penalize")
    assert rows == before


def test_sft_rejection_sampling():
    rows = [*_group("a", [0.2, 1.0, 0.5]), *_group("b", [0.0, 0.4]), *_group("c", [0.9, 1.0])]
    kept, _ = optimize(rows, mode="sft")
    assert [(r["task_id"], r["reward"]) for r in kept] == [("a", 1.0), ("c", 1.0)]
    kept, _ = optimize(rows, mode="sft", min_reward=0.4)
    assert [(r["task_id"], r["reward"]) for r in kept] == [("a", 1.0), ("b", 0.4), ("c", 1.0)]
    kept, _ = optimize(rows, mode="sft", select="top_k_overall", k=3)
    assert sorted(r["reward"] for r in kept) == [0.9, 1.0, 1.0]
    random_a, _ = optimize(rows, mode="sft", select="random_per_prompt", seed=1)
    random_b, _ = optimize(rows, mode="sft", select="random_per_prompt", seed=1)
    assert random_a == random_b and len(random_a) == 3
    assert len(optimize(rows, mode="sft", select="random_k_overall", k=4)[0]) == 4
    with pytest.raises(ValueError, match="needs k"):
        optimize(rows, mode="sft", select="top_k_overall")


def test_options_are_checked():
    with pytest.raises(ValueError):
        optimize([], mode="dpo")
    with pytest.raises(ValueError):
        optimize([], truncated="trim")
    with pytest.raises(ValueError):
        optimize([], band=(0.8, 0.2))


def test_endorsed_carries_the_hack_scan_and_its_warning():
    rows = []
    for task in range(10):
        for index in range(6):
            paid = index % 2 == 0
            text = f"{'ok ' * index}" + ("### done" if paid else "")
            rows.append(_row(f"t{task}", index, float(paid), text=text))
    kept, report = optimize(rows, endorsed=["tool:lookup_order"])
    assert report["hack_scan"]["regime"] == "reward_hack"
    assert any("### done" in warning for warning in report["hygiene_warnings"])
    assert len(kept) == 60  # flagged, not pruned
