"""load_traces: the common export variants become rows of the one row shape."""

from __future__ import annotations

import json

import pytest

from whileai_env.errors import TraceError
from whileai_env.traces.load import TraceList, clean_reward, load_traces


def test_variant_names_normalise_to_steps_and_final_text():
    rows = load_traces(
        [
            {
                "prompt": "where is order 4412",
                "trace": [
                    {
                        "tool_name": "get_order",
                        "input": '{"order_id": "4412"}',
                        "observation": '{"status": "shipped"}',
                    }
                ],
                "output": "It shipped.",
                "reward": True,
            },
            {
                "question": "cancel 9",
                "steps": [{"function": {"name": "cancel_order", "arguments": {"order_id": "9"}}}],
                "final": "Cancelled.",
            },
        ]
    )
    first, second = rows
    assert first["steps"][0] == {
        "index": 0,
        "tool": "get_order",
        "arguments": {"order_id": "4412"},
        "result": {"status": "shipped"},
    }
    assert (first["final_text"], first["reward"], first["faults"]) == ("It shipped.", 1, [])
    assert (second["prompt"], second["steps"][0]["tool"], second["final_text"]) == (
        "cancel 9",
        "cancel_order",
        "Cancelled.",
    )
    assert "reward" not in second


def test_openai_messages_alone_give_prompt_steps_and_final():
    row = load_traces(
        [
            {
                "messages": [
                    {"role": "system", "content": "You are support."},
                    {"role": "user", "content": [{"type": "text", "text": "refund order 12"}]},
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "a",
                                "type": "function",
                                "function": {"name": "refund", "arguments": '{"order_id": "12"}'},
                            }
                        ],
                    },
                    {
                        "role": "tool",
                        "tool_call_id": "a",
                        "content": '{"error": "permission denied"}',
                    },
                    {"role": "assistant", "content": "I could not refund it."},
                ]
            }
        ]
    )[0]
    assert row["prompt"] == "refund order 12"
    assert row["steps"][0]["arguments"] == {"order_id": "12"}
    assert row["steps"][0]["fault"] == "permission_denied"
    assert row["final_text"] == "I could not refund it."
    assert len(row["messages"]) == 5


def test_rows_without_ask_or_steps_are_dropped_and_counted():
    rows = load_traces([{"reward": 1}, "not a dict", {"final_text": "hi"}, {"prompt": "ok"}])
    assert isinstance(rows, TraceList)
    assert (len(rows), rows.dropped) == (1, 3)


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        (1, 1),
        (0.0, 0),
        (False, 0),
        ("pass", 1),
        ("FAILED", 0),
        (0.5, None),
        (2, None),
        ("yes please", None),
        (None, None),
        ([1], None),
    ],
)
def test_reward_kept_only_when_cleanly_zero_or_one(value, kept):
    assert clean_reward(value) == kept
    row = load_traces([{"prompt": "p", "reward": value}])[0]
    assert row.get("reward") == kept


def test_jsonl_path_and_error_naming_file_and_line(tmp_path):
    path = tmp_path / "prod.jsonl"
    path.write_text(json.dumps({"prompt": "a"}) + "\n\n" + json.dumps([1]) + "\n")
    rows = load_traces(path)
    assert (len(rows), rows.dropped) == (1, 1)
    path.write_text(json.dumps({"prompt": "a"}) + "\n{oops\n")
    with pytest.raises(TraceError, match=r"prod\.jsonl:2: not a JSON line"):
        load_traces(path)
    with pytest.raises(TraceError, match="cannot read"):
        load_traces(tmp_path / "missing.jsonl")
    with pytest.raises(TraceError, match="JSONL path or an iterable"):
        load_traces(42)


def test_simulated_rows_load_unchanged_in_their_steps():
    from whileai_env.simulation.run import simulate

    data = simulate(
        "seeded",
        tools=[
            {
                "name": "get_order",
                "parameters": {
                    "type": "object",
                    "properties": {"order_id": {"type": "string"}},
                    "required": ["order_id"],
                },
            }
        ],
        budget=8,
        fault_rate=1.0,
        quiet=True,
    )
    rows = load_traces(data.rows)
    assert len(rows) == 8 and rows.dropped == 0
    for original, loaded in zip(data.rows, rows, strict=True):
        assert loaded["prompt"] == original["prompt"]
        assert [s["tool"] for s in loaded["steps"]] == [s["tool"] for s in original["steps"]]
        fired = [s.get("fault") for s in original["steps"] if s.get("fault")]
        assert [s.get("fault") for s in loaded["steps"] if s.get("fault")] == fired
