"""curriculum() and retire_solved()."""

from __future__ import annotations

from whileai_env.analysis.curriculum import curriculum, format_curriculum, retire_solved


def _rows(rates):
    return [
        {"task_id": task, "reward": float(i < round(rate * 10))}
        for task, rate in rates.items()
        for i in range(10)
    ]


def test_split_order_and_tiers():
    rows = _rows({"a": 0.1, "b": 0.5, "c": 0.9, "d": 0.0, "e": 0.7, "f": 0.3, "g": 1.0})
    cur = curriculum(rows, tiers=2)
    assert cur["schedule"] == ["e", "b", "f", "a"]
    assert cur["tiers"] == [["e", "b"], ["f", "a"]]
    assert cur["retired"] == ["c", "g"]
    assert cur["not_ready"] == ["d"]
    assert cur["in_band"] == 3
    assert "trainable 4 (3 in band)" in format_curriculum(cur)


def test_thresholds_move_the_split():
    rows = _rows({"a": 0.1, "b": 0.8})
    cur = curriculum(rows, solved=1.0, floor=0.1)
    assert (cur["schedule"], cur["not_ready"], cur["retired"]) == (["b"], ["a"], [])


def test_unjudged_rows_are_left_out():
    rows = [{"task_id": "a", "reward": None}, {"task_id": "b", "reward": 1.0}]
    assert curriculum(rows)["rates"] == {"b": 1.0}


def test_retire_solved_keeps_every_other_row_in_order():
    rows = _rows({"a": 0.5, "b": 1.0, "c": 0.2})
    kept = retire_solved(rows)
    assert [r["task_id"] for r in kept] == ["a"] * 10 + ["c"] * 10
    assert len(retire_solved(rows, solved=0.5)) == 10
