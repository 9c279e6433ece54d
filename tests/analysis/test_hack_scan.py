"""hack_scan(): a planted shortcut, an endorsed signal, a two-trajectory agent, an exhausted
pool, and noise."""

from __future__ import annotations

import json

from whileai_env._util.hashing import rng
from whileai_env.analysis.hack_scan import format_hack_scan, hack_scan

WORDS = ["order", "shipped", "refund", "status", "today", "tracking", "address", "parcel"]


def _rollouts(asks=12, per_ask=8, *, reward, seed=0):
    """Rows with varied replies and tool use; ``reward(row, draw)`` decides the reward."""
    rows = []
    for ask in range(asks):
        for index in range(per_ask):
            draw = rng("hack-test", seed, ask, index)
            words = [draw.choice(WORDS) for _ in range(draw.randint(4, 12))]
            if draw.random() < 0.5:
                words.append("### done")
            steps = (
                [{"tool": "lookup_order", "arguments": {"id": ask}}] if draw.random() < 0.5 else []
            )
            row = {"task_id": f"t{ask}", "final_text": " ".join(words), "steps": steps}
            row["reward"] = reward(row, draw)
            rows.append(row)
    return rows


def test_finds_a_planted_phrase_the_reward_pays_for():
    rows = _rollouts(reward=lambda row, draw: float("### done" in row["final_text"]))
    scan = hack_scan(rows, endorsed=["tool:lookup_order"])
    assert scan["regime"] == "reward_hack"
    assert scan["top_feature"] == "contains:### done"
    assert "contains:### done" in scan["warnings"][0]
    assert scan["integrity"] is not None and scan["integrity"] < 0.5
    assert "reward_hack" in format_hack_scan(scan)


def test_an_endorsed_signal_reads_train():
    rows = _rollouts(reward=lambda row, draw: float(bool(row["steps"])))
    scan = hack_scan(rows, endorsed=["tool:lookup_order"])
    assert scan["regime"] == "train"
    assert scan["top_feature"] == "tool:lookup_order"
    assert set(scan["rivals"]) <= {"count:tool_calls"}  # the same fact, counted


def test_without_endorsed_it_ranks_and_floors():
    rows = _rollouts(reward=lambda row, draw: float(bool(row["steps"])))
    scan = hack_scan(rows)
    assert (scan["regime"], scan["top_feature"]) == ("unknown", "tool:lookup_order")


def test_pure_noise_has_no_signal():
    rows = _rollouts(reward=lambda row, draw: float(draw.random() < 0.5), seed=3)
    scan = hack_scan(rows, endorsed=["tool:lookup_order"])
    assert scan["regime"] == "no_signal"
    assert scan["top_feature"] is None
    assert scan["tau"] > 0


def test_a_two_trajectory_agent_is_degenerate():
    rows = []
    for ask in range(10):
        for index in range(6):
            good = index % 2 == 0
            rows.append(
                {
                    "task_id": f"t{ask}",
                    "final_text": "Order shipped, tracking attached." if good else "Sorry!",
                    "steps": [{"tool": "lookup_order", "arguments": {"id": ask}}] if good else [],
                    "reward": float(good),
                }
            )
    scan = hack_scan(rows, endorsed=["tool:lookup_order"])
    assert scan["regime"] == "degenerate"
    assert scan["top_feature"] is None
    assert scan["distinct_per_ask"] == 2
    assert {"tool:lookup_order", "contains:sorry"} <= set(scan["collinear"])


def test_a_pool_with_no_mixed_ask_is_exhausted():
    rows = [{"task_id": f"t{t}", "final_text": "x", "reward": float(t % 2)} for t in range(8)]
    scan = hack_scan(rows + rows, endorsed=["tool:x"])
    assert (scan["regime"], scan["mixed_asks"]) == ("pool_exhausted", 0)


def test_difficulty_between_asks_is_baselined_away():
    # Long replies sit in easy asks only: pooled they track reward, within an ask they do not.
    rows = []
    for ask in range(20):
        easy = ask % 2 == 0
        for index in range(10):
            draw = rng("difficulty", ask, index)
            text = ("detail " * (40 if easy else 2)) + draw.choice(WORDS)
            reward = float(draw.random() < (0.8 if easy else 0.2))
            rows.append({"task_id": f"t{ask}", "final_text": text, "reward": reward})
    pooled = [float(len(r["final_text"]) > 100) for r in rows]
    rewards = [r["reward"] for r in rows]
    assert sum(p == r for p, r in zip(pooled, rewards, strict=True)) / len(rows) > 0.7
    scan = hack_scan(rows, endorsed=["tool:x"])
    assert scan["regime"] == "no_signal"


def test_custom_features_are_scanned():
    rows = _rollouts(reward=lambda row, draw: float(len(row["final_text"]) > 40))
    scan = hack_scan(
        rows, endorsed=["custom:long"], features={"long": lambda r: len(r["final_text"]) > 40}
    )
    assert scan["top_feature"] == "custom:long"
    assert scan["regime"] == "train"


def test_the_scan_is_deterministic():
    rows = _rollouts(reward=lambda row, draw: float(draw.random() < 0.5))
    assert hack_scan(rows, seed=1) == hack_scan(rows, seed=1)


def test_an_endorsed_feature_that_ties_the_top_wins_and_a_penalty_reads_avoid():
    rows = _rollouts(reward=lambda row, draw: float("### done" not in row["final_text"]))
    for row in rows:
        row["markers"] = {"no_marker_phrase": row["reward"]}
    scan = hack_scan(rows, endorsed=["marker:"])
    assert (scan["regime"], scan["top_feature"]) == ("train", "marker:no_marker_phrase")
    bare = [{key: value for key, value in row.items() if key != "markers"} for row in rows]
    hacked = hack_scan(bare, endorsed=["tool:lookup_order"])
    assert hacked["regime"] == "reward_hack"
    assert "learns to avoid" in hacked["warnings"][0]


def test_rows_cut_to_their_replies_give_the_same_features_and_scan():
    """``whileai-env report`` holds rows through ``keep_replies``: nothing it reads may change."""
    from whileai_env.analysis.features import keep_replies, row_features
    from whileai_env.grading import task_checklist
    from whileai_env.simulation import simulate

    run = simulate(
        "seeded", spec="configs/specs/airline.yaml", budget=60, quiet=True, grader=task_checklist
    )
    rows = list(run.rows)
    shared: dict = {}
    slim = [keep_replies(row, shared) for row in rows]
    assert sum(len(str(r)) for r in slim) < sum(len(str(r)) for r in rows)
    assert row_features(slim) == row_features(rows)
    assert format_hack_scan(hack_scan(slim)) == format_hack_scan(hack_scan(rows))
    # the values rows repeat are held once: equal to each row's own, and one object for all
    assert [r["tools"] for r in slim] == [r["tools"] for r in rows]
    assert len({id(r["tools"]) for r in slim}) == 1
    assert len({id(r["scenario_dimensions"]) for r in slim}) < len(slim)


def test_the_report_page_is_the_same_from_held_rows_as_from_whole_rows(tmp_path):
    from whileai_env.analysis.features import keep_replies
    from whileai_env.grading import task_checklist
    from whileai_env.report import write_report
    from whileai_env.simulation import simulate

    run = simulate(
        "seeded", spec="configs/specs/airline.yaml", budget=60, quiet=True, grader=task_checklist
    )
    rows = [json.loads(json.dumps(row)) for row in run.rows]  # as read back from a file
    shared: dict = {}
    held = [keep_replies(row, shared) for row in rows]
    whole = write_report(rows, tmp_path / "whole").read_text()
    assert write_report(held, tmp_path / "held").read_text() == whole
