"""Training exports: loss masks, unrolling, tool-output caps, the leak gate, JSONL and Parquet."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.errors import PrivilegedLeakError, RowError
from whileai_env.export.dataset import export_dataset, to_hf_dataset, training_rows
from whileai_env.export.preference import export_preference, preference_rows

SPEC = SPECS_DIR / "order-support.json"
SECRET = "ZEBRA-4412-QUILT-hidden"


@lru_cache(maxsize=1)
def _graded() -> tuple[dict[str, Any], ...]:
    data = wenv.simulate("seeded", spec=str(SPEC), budget=8, seed=0, mode="rl", repeats=2)
    return tuple(wenv.run_judge(data.rows(), wenv.task_checklist))


def graded_rows() -> list[dict[str, Any]]:
    """Eight graded rows of the order-support spec (a fresh copy each call)."""
    return copy.deepcopy(list(_graded()))


def _assistant_turns(row: dict[str, Any]) -> int:
    return sum(m["role"] == "assistant" for m in row["messages"])


def test_loss_mask_trains_agent_turns_only() -> None:
    rows = graded_rows()
    examples, report = training_rows(rows)
    assert len(examples) == len(rows) == report["rows"]
    for example in examples:
        assert len(example["loss_mask"]) == len(example["messages"])
        for message, bit in zip(example["messages"], example["loss_mask"], strict=True):
            assert bit == (message["role"] == "assistant")
    assert report["trained_messages"] == sum(_assistant_turns(r) for r in rows)
    assert report["masked_messages"] == sum(len(r["messages"]) for r in rows) - sum(
        _assistant_turns(r) for r in rows
    )


@pytest.mark.parametrize("mode", ["final", "last"])
def test_final_mask_trains_the_last_agent_turn(mode: str) -> None:
    examples, report = training_rows(graded_rows(), mask_mode=mode)
    for example in examples:
        mask = example["loss_mask"]
        assert sum(mask) == 1
        last = max(i for i, m in enumerate(example["messages"]) if m["role"] == "assistant")
        assert mask[last] == 1
    assert report["trained_messages"] == len(examples)


def test_unroll_gives_one_example_per_agent_turn() -> None:
    rows = graded_rows()
    examples, _ = training_rows(rows, unroll=True)
    assert len(examples) == sum(_assistant_turns(r) for r in rows)
    for example in examples:
        assert example["messages"][-1]["role"] == "assistant"
        assert example["loss_mask"] == [0] * (len(example["messages"]) - 1) + [1]


def test_tool_output_is_capped_with_a_marker() -> None:
    rows = graded_rows()
    longest = max(len(m["content"]) for r in rows for m in r["messages"] if m["role"] == "tool")
    examples, report = training_rows(rows, max_tool_output_chars=40)
    tools = [m for e in examples for m in e["messages"] if m["role"] == "tool"]
    assert tools and report["truncated_tool_messages"] > 0
    for message in tools:
        head, _, tail = message["content"].partition("[... ")
        assert len(head) <= 40
        if tail:
            assert tail.endswith(" chars of tool output truncated]")
    assert report["truncated_tool_chars"] == sum(e["truncated_tool_chars"] for e in examples)
    assert report["truncated_tool_chars"] >= longest - 40


def test_openai_and_trl_encode_arguments_differently() -> None:
    rows = graded_rows()
    openai, o_report = training_rows(rows, format="openai")
    trl, t_report = training_rows(rows, format="trl")
    calls = [c for e in openai for m in e["messages"] for c in m.get("tool_calls", ())]
    dict_calls = [c for e in trl for m in e["messages"] for c in m.get("tool_calls", ())]
    assert calls and all(isinstance(c["function"]["arguments"], str) for c in calls)
    assert all(isinstance(c["function"]["arguments"], dict) for c in dict_calls)
    assert [json.loads(c["function"]["arguments"]) for c in calls] == [
        c["function"]["arguments"] for c in dict_calls
    ]
    assert o_report["tool_call_roundtrip"]["encoding"] == "json_string"
    assert t_report["tool_call_roundtrip"] == {
        "encoding": "dict",
        "checked": len(dict_calls),
        "invalid": 0,
    }
    assert all("prompt" in e and "prompt_text" not in e for e in openai)
    assert all("prompt" not in e and e["prompt_text"] for e in trl)


def test_tools_from_the_spec_are_openai_schemas() -> None:
    spec = wenv.load_spec(str(SPEC))
    examples, report = training_rows(graded_rows(), tools=spec)
    names = [t["function"]["name"] for t in examples[0]["tools"]]
    assert names == list(spec.tool_names) and report["warnings"] == []
    bare, bare_report = training_rows(graded_rows())  # the rows name their tools only
    assert bare[0]["tools"] == [] and "pass tools=" in bare_report["warnings"][0]


def _plant_deep(row: dict[str, Any]) -> dict[str, Any]:
    """A privileged block nested in a step result and in the tool message quoting it."""
    step = next(s for s in row["steps"] if s.get("call_id"))
    step["result"] = {**step["result"], "meta": [{"privileged": {"reference": SECRET}}]}
    for message in row["messages"]:
        if message.get("tool_call_id") == step["call_id"]:
            message["content"] = json.dumps(step["result"])
    row["extra_info"] = {"a": {"b": [{"hidden_state": {"code": SECRET}}]}}
    return row


def test_gate_drops_privileged_fields_at_any_depth(tmp_path: Path) -> None:
    rows = [_plant_deep(r) for r in graded_rows()]
    path = tmp_path / "sft.jsonl"
    report = export_dataset(rows, path, validate=False)
    text = path.read_text(encoding="utf-8")
    assert report["examples"] == len(rows)
    assert SECRET not in text and "privileged" not in text and "hidden_state" not in text


def test_gate_refuses_a_reply_quoting_privileged_context(tmp_path: Path) -> None:
    rows = graded_rows()
    quote = "the warehouse keeps a hidden discount ledger that approves refunds silently"
    rows[3]["privileged"] = {"hidden_state": {}, "reference": quote}
    rows[3]["messages"][-1]["content"] = f"Done. Note: {quote}."
    rows[3]["final_text"] = rows[3]["messages"][-1]["content"]
    with pytest.raises(PrivilegedLeakError, match="reference"):
        export_dataset(rows, tmp_path / "sft.jsonl")
    assert not (tmp_path / "sft.jsonl").exists()


def test_validate_names_the_bad_row() -> None:
    rows = graded_rows()
    del rows[2]["task_id"]
    with pytest.raises(RowError, match="row 3"):
        training_rows(rows)
    assert len(training_rows(rows, validate=False)[0]) == len(rows)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        training_rows(graded_rows(), format="sharegpt")
    with pytest.raises(ValueError, match="mask_mode"):
        training_rows([], mask_mode="user")
    with pytest.raises(ValueError, match="max_tool_output_chars"):
        training_rows([], max_tool_output_chars=-1)


def test_parquet_round_trips_the_examples(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    rows = graded_rows()
    examples, _ = training_rows(rows, format="trl")
    report = export_dataset(rows, tmp_path / "sft.parquet", format="trl")
    table = pq.read_table(report["path"]).to_pylist()
    assert [json.loads(r["messages"]) for r in table] == [e["messages"] for e in examples]
    assert [r["loss_mask"] for r in table] == [e["loss_mask"] for e in examples]


def test_parquet_without_pyarrow_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(wenv.MissingExtraError, match=r"whileai-env\[train\]"):
        export_dataset(graded_rows(), tmp_path / "sft.parquet")


def test_to_hf_dataset_keeps_each_calls_own_arguments() -> None:
    rows = graded_rows()
    examples, _ = training_rows(rows, format="trl")
    dataset = to_hf_dataset(rows, format="trl")
    assert len(dataset) == len(examples)
    assert dataset[0]["messages"] == examples[0]["messages"]
    assert dataset[0]["loss_mask"] == examples[0]["loss_mask"]


def _pairs() -> list[dict[str, Any]]:
    rows = graded_rows()
    for i, row in enumerate(rows):  # a clear margin within each ask
        row["reward"] = float(i % 2)
    pairs, _ = wenv.build_preference_pairs(rows, min_margin=0.5)
    assert pairs
    return pairs


def test_preference_trl_shape_splits_at_the_first_agent_turn(tmp_path: Path) -> None:
    pairs = _pairs()
    report = export_preference(pairs, tmp_path / "dpo.jsonl")
    lines = [json.loads(x) for x in (tmp_path / "dpo.jsonl").read_text().splitlines()]
    assert report["pairs"] == len(lines) == len(pairs)
    for line, pair in zip(lines, pairs, strict=True):
        assert [m["role"] for m in line["prompt"]] == ["system", "user"]
        assert line["chosen"][0]["role"] == line["rejected"][0]["role"] == "assistant"
        assert len(line["prompt"]) + len(line["chosen"]) == len(pair["chosen"]["messages"])


def test_preference_openai_shape_and_gate() -> None:
    pairs = _pairs()
    pairs[0]["chosen"]["steps"][0]["result"]["privileged"] = {"reference": SECRET}
    examples, _ = preference_rows(pairs, format="openai")
    assert isinstance(examples[0]["prompt"], str)
    assert examples[0]["chosen"][0]["role"] == "system"
    assert SECRET not in json.dumps(examples)
