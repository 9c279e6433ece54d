"""build_preference_pairs(): margin, length match, per-prompt cap, duplicates."""

from __future__ import annotations

import pytest

from whileai_env.analysis.pairs import build_preference_pairs


def _row(task, reward, text):
    return {"task_id": task, "prompt": f"ask {task}", "reward": reward, "final_text": text}


def test_margin_and_cap():
    rows = [
        _row("a", 1.0, "good"),
        _row("a", 0.7, "fine"),
        _row("a", 0.0, "bad"),
        _row("a", 0.2, "poor"),
        _row("b", 0.6, "x"),
        _row("b", 0.5, "y"),
    ]
    pairs, report = build_preference_pairs(rows)
    assert [(p["chosen"]["final_text"], p["rejected"]["final_text"]) for p in pairs] == [
        ("good", "bad")
    ]
    assert report["no_margin"] == 1 and report["asks"] == 2 and report["asks_paired"] == 1
    pairs, _ = build_preference_pairs(rows, max_pairs_per_prompt=2)
    assert [(p["chosen"]["final_text"], p["rejected"]["final_text"]) for p in pairs] == [
        ("good", "bad"),
        ("fine", "poor"),
    ]
    pairs, _ = build_preference_pairs(rows, min_margin=0.1, max_pairs_per_prompt=5)
    assert len(pairs) == 3  # each rollout in one pair at most


def test_length_match_drops_pairs_a_length_preference_would_explain():
    rows = [
        _row("a", 1.0, "a long and thorough answer " * 5),
        _row("a", 0.0, "no"),
        _row("a", 0.0, "a short wrong answer " * 6),
    ]
    pairs, report = build_preference_pairs(rows, length_match=1.5)
    assert len(pairs) == 1
    assert pairs[0]["rejected"]["final_text"].startswith("a short")
    assert report["length_filtered"] == 1
    assert report["chosen_longer"] == 1.0


def test_duplicates_and_unjudged_rows_never_pair():
    rows = [_row("a", 1.0, "same"), _row("a", 0.0, "same"), _row("a", None, "none")]
    pairs, _ = build_preference_pairs(rows)
    assert pairs == []


def test_pairs_are_copies_with_the_fields_a_trainer_reads():
    rows = [_row("a", 1.0, "good"), _row("a", 0.0, "bad")]
    (pair,), _ = build_preference_pairs(rows)
    assert set(pair) >= {"prompt", "task_id", "chosen", "rejected", "margin"}
    pair["chosen"]["final_text"] = "edited"
    assert rows[0]["final_text"] == "good"


def test_options_are_checked():
    with pytest.raises(ValueError):
        build_preference_pairs([], max_pairs_per_prompt=0)
    with pytest.raises(ValueError):
        build_preference_pairs([], length_match=0.5)
