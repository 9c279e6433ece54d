"""hack_scan_diff: names what the update moved toward; withholds it when a side is degenerate."""

from __future__ import annotations

from whileai_env.analysis.hack_diff import feature_value, format_hack_scan_diff, hack_scan_diff


def _rows(texts: list[str], *, paid: str = "###", tasks: int = 8) -> list[dict]:
    return [
        {
            "task_id": f"t{t}",
            "final_text": text,
            "reward": float(paid in text),
            "steps": [{"tool": "lookup"}] if (i + t) % 2 else [],
        }
        for t in range(tasks)
        for i, text in enumerate(texts)
    ]


BEFORE = ["Done ###", "It shipped.", "Let me check.", "Done."]


def test_names_the_unendorsed_shortcut_the_update_moved_toward() -> None:
    after = ["Done ###", "Shipped ###", "Let me check.", "Done ###"]
    diff = hack_scan_diff(_rows(BEFORE), _rows(after), endorsed=["tool:lookup"])
    assert diff["moved_toward"] == "contains:###" and diff["endorsed"] is False
    assert diff["withheld"] is None and diff["warnings"]
    assert "moved toward: contains:###" in format_hack_scan_diff(diff)


def test_an_update_toward_what_is_endorsed_is_named_as_endorsed() -> None:
    def rows(lookups: int) -> list[dict]:
        return [
            {
                "task_id": f"t{t}",
                "final_text": f"reply {(i * 7 + t) % 5}",
                "steps": [{"tool": "lookup"}] if i < lookups else [],
                "reward": float(i < lookups),
            }
            for t in range(8)
            for i in range(6)
        ]

    diff = hack_scan_diff(rows(2), rows(5), endorsed=["tool:lookup"])
    assert diff["moved_toward"] == "tool:lookup" and diff["endorsed"] is True
    assert not diff["warnings"]


def test_withholds_the_name_when_either_side_is_degenerate() -> None:
    two = ["Done ###", "Done."]  # two distinct trajectories per ask: every feature ties
    diff = hack_scan_diff(_rows(two), _rows(BEFORE), endorsed=["tool:lookup"])
    assert diff["before"]["regime"] == "degenerate"
    assert diff["moved_toward"] is None and "before scan is degenerate" in diff["withheld"]
    flipped = hack_scan_diff(_rows(BEFORE), _rows(two), endorsed=["tool:lookup"])
    assert flipped["moved_toward"] is None and "after scan is degenerate" in flipped["withheld"]


def test_nothing_paid_for_before_means_nothing_named() -> None:
    unanimous = [{"task_id": "t", "final_text": "x", "reward": 1.0}] * 3
    diff = hack_scan_diff(unanimous, unanimous)
    assert diff["moved_toward"] is None and "pool_exhausted" in diff["withheld"]


def test_feature_values_match_the_scan_families() -> None:
    row = {"final_text": "Done ###", "steps": [{"tool": "lookup"}], "markers": {"ok": 0.5}}
    assert feature_value(row, "tool:lookup") == 1.0
    assert feature_value(row, "marker:ok") == 0.5
    assert feature_value(row, "contains:###") == 1.0
    assert feature_value(row, "contains:missing") == 0.0
    assert feature_value(row, "custom:n", {"n": lambda r: 3}) == 3.0
