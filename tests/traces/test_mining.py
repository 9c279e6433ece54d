"""mine_traces / flaw_rows / opening_share."""

from __future__ import annotations

from whileai_env.traces.mining import flaw_rows, mine_traces, opening_share, row_flaws

ROWS = [
    {"prompt": "a", "steps": [{"tool": "get_order", "error": "timeout"}], "reward": 1},
    {
        "prompt": "b",
        "steps": [
            {"tool": "get_order", "result": {"id": "1"}},
            {"tool": "refund", "result": {"id": "1"}},
        ],
        "reward": 0,
    },
    {"prompt": "c", "steps": [{"tool": "get_order", "result": {"id": "1"}}], "reward": 1},
    {"prompt": "d", "steps": [{"tool": "cancel", "result": {"error": "Order not found"}}]},
    {"prompt": "e", "world_state": "duplicate", "steps": []},
]


def test_flaw_rows_are_failed_calls_zero_labels_and_odd_world_states():
    assert [r["prompt"] for r in flaw_rows(ROWS)] == ["a", "b", "d", "e"]


def test_a_zero_label_without_a_failed_call_blames_every_tool_it_called():
    assert row_flaws(ROWS[1])["tool"] == {"get_order", "refund"}
    assert row_flaws(ROWS[0])["tool"] == {"get_order"}
    assert row_flaws(ROWS[2]) == {}


def test_counts():
    mined = mine_traces(ROWS)
    assert (mined["rows"], mined["graded"], mined["ungraded"], mined["failed"]) == (5, 3, 2, 1)
    assert mined["flaws"] == 4
    assert mined["tools"] == {"get_order": 3, "refund": 1, "cancel": 1}
    assert mined["faults"] == {"timeout": 1, "missing": 1}
    assert mined["aimed"]["tool"] == {"get_order": 2, "refund": 1, "cancel": 1}
    assert mined["aimed"]["world_state"] == {"missing": 1, "duplicate": 1}
    assert len(mined["flaw_rows"]) == 4


def test_opening_share_reads_raw_messages():
    rows = [
        {"messages": [{"role": "system", "content": "s"}, {"role": "assistant", "content": "Hi"}]},
        {"messages": [{"role": "user", "content": "hi"}]},
        {"prompt": "no messages"},
        {"messages": "not a list"},
    ]
    assert opening_share(rows) == 0.25
    assert opening_share([]) == 0.0
