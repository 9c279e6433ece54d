"""The publish gate: refuses RL-shaped rows with no gradient, warns, stamps calibration."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.errors import PublishGateError, WhileaiError
from whileai_env.export.gate import calibration_of, publish_gate, rl_shaped


def _rl_rows(rates: dict[str, list[float]]) -> list[dict]:
    return [
        {"task_id": task, "prompt": task, "reward": r, "repeats": len(rs), "agent": "seeded"}
        for task, rs in rates.items()
        for r in rs
    ]


def test_refuses_an_ungraded_rl_set_saying_how_many() -> None:
    rows = wenv.simulate(
        "seeded", spec=SPECS_DIR / "order-support.json", mode="rl", budget=12, quiet=True
    ).rows
    assert rl_shaped(rows) and all(row.get("reward") is None for row in rows)
    with pytest.raises(PublishGateError, match=r"12 of 12 RL-shaped rows are ungraded") as caught:
        publish_gate(rows)
    assert isinstance(caught.value, WhileaiError) and "\n" not in str(caught.value)


def test_refuses_a_set_with_no_mixed_group() -> None:
    rows = _rl_rows({"a": [1.0, 1.0, 1.0], "b": [0.0, 0.0], "c": [0.5, 0.0]})
    with pytest.raises(PublishGateError, match="none of 3 tasks is mixed"):
        publish_gate(rows, mode="rl")


def test_passes_a_good_set_stamps_calibration_and_warns_on_unanimous_and_out_of_band() -> None:
    rows = _rl_rows(
        {"mixed": [1.0, 0.0, 1.0, 0.0], "easy": [1.0] * 9 + [0.0], "solved": [1.0, 1.0]}
    )
    stamped, report = publish_gate(rows, mode="rl")
    assert report["mixed_tasks"] == 2 and report["unanimous"] == {"all_pass": 1, "all_fail": 0}
    assert report["out_of_band"] == 1 and len(report["warnings"]) == 2
    assert calibration_of(stamped[0]) == (0.5, 4, "seeded")
    assert calibration_of(stamped[4]) == (0.9, 10, "seeded")
    assert "calibration" not in rows[0]  # the input is not mutated


def test_a_carried_stamp_is_kept_rather_than_remeasured() -> None:
    rows = _rl_rows({"t": [1.0, 0.0]})
    rows[0]["calibration"] = {"task_pass_rate": 0.25, "task_rollouts": 8, "policy": "old"}
    stamped, report = publish_gate(rows, mode="rl")
    assert calibration_of(stamped[0]) == (0.25, 8, "old")
    assert calibration_of(stamped[1]) == (0.5, 2, "seeded")
    assert report["carried_stamps"] == 1 and report["notes"]


def test_sft_and_explore_rows_pass_ungraded_and_get_no_stamp() -> None:
    rows = wenv.simulate(
        "seeded", spec=SPECS_DIR / "order-support.json", mode="sft", budget=6, quiet=True
    ).rows
    assert not rl_shaped(rows)
    stamped, report = publish_gate(rows)
    assert report["ungraded"] == 6 and not report["warnings"]
    assert all(calibration_of(row) is None for row in stamped)


def test_mode_decides_over_the_rows_and_an_unknown_mode_is_refused() -> None:
    rows = _rl_rows({"a": [1.0, 1.0]})
    assert publish_gate(rows, mode="sft")[1]["rl_shaped"] is False
    with pytest.raises(ValueError, match="mode must be one of"):
        publish_gate(rows, mode="grpo")


def test_endorsed_adds_the_hack_scan_to_an_rl_report() -> None:
    rows = [
        {
            "task_id": f"t{t}",
            "final_text": text,
            "reward": float("###" in text),
            "repeats": 4,
            "steps": [{"tool": "lookup"}] if (i + t) % 2 else [],
        }
        for t in range(8)
        for i, text in enumerate(["Done ###", "It shipped.", "Let me check.", "Done."])
    ]
    _, report = publish_gate(rows, endorsed=["tool:lookup"])
    assert report["hack_scan"]["regime"] == "reward_hack"
    assert any("reward tracks" in warning for warning in report["warnings"])
    assert "hack_scan" not in publish_gate(rows)[1]
