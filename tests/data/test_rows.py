"""Rows, schema v1: the four objects round-trip, validation names the path, exports scrub at any depth."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

import whileai_env as wenv
from whileai_env.data.rows import (
    Judgment,
    Marker,
    PrivilegedLeakError,
    Rollout,
    RowError,
    RowParts,
    export_row,
    from_row,
    load_row_schema,
    row_errors,
    to_row,
    validate_row,
)

SECRET = "the agent cancels order 4412 only after reading it and the reply says so"


@pytest.fixture
def tasks(order_spec):
    drawn = wenv.draw_tasks(order_spec, 40, seed=7, fault_rate=1.0)
    assert any(t.faults for t in drawn) and any(t.privileged.principle for t in drawn)
    return drawn


def rollout_for(task, **extra) -> Rollout:
    call = {
        "id": "call_1_0",
        "type": "function",
        "function": {"name": "get_order", "arguments": '{"order_id": "4412"}'},
    }
    result = {"status": "ok", "order_id": "4412", "state": "processing"}
    return Rollout(
        messages=[
            {"role": "system", "content": "Be helpful."},
            {"role": "user", "content": task.opener},
            {"role": "assistant", "content": "", "tool_calls": [call]},
            {
                "role": "tool",
                "tool_call_id": "call_1_0",
                "name": "get_order",
                "content": json.dumps(result),
            },
            {"role": "assistant", "content": "Order 4412 is processing."},
        ],
        steps=[
            {
                "index": 0,
                "tool": "get_order",
                "arguments": {"order_id": "4412"},
                "result": result,
                "ok": True,
                "error": None,
                "fault": None,
                "fault_mode": None,
                "kind": "read",
                "turn": 1,
                "call_id": "call_1_0",
            }
        ],
        final_text="Order 4412 is processing.",
        faults=[],
        rollout_index=2,
        **extra,
    )


def graded_row(task) -> dict:
    rollout = rollout_for(
        task,
        seeded=["hedge"],
        world_state=task.world.state,
        usage={"input_tokens": 12},
        extra={"turns": 2, "stop_reason": "user_closed", "calibration": {"k": 8, "pass_rate": 0.5}},
    )
    judgment = Judgment(
        reward=0.5,
        reason="waste: repeated call",
        judge_name="task_checklist",
        judge_status="ok",
        judge_meta={"findings": [{"code": "repeated_call"}]},
    )
    markers = [
        Marker("no_waste", 0.0, "conduct", {"step": 1}),
        Marker("polite", 1.0),
        Marker("no_hedging", 1.0, "style"),
        Marker("custom", 0.25, "trace"),
    ]
    return to_row(task, rollout, judgment, markers)


def test_schema_ships_in_the_package():
    path = resources.files("whileai_env.data") / "schemas" / "row-v1.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["properties"]["schema_version"] == {
        "const": "1",
        "description": schema["properties"]["schema_version"]["description"],
    }
    assert load_row_schema() == schema


def test_round_trip_is_exact(tasks):
    for task in tasks:
        row = graded_row(task)
        validate_row(row)
        parts = from_row(row)
        assert isinstance(parts, RowParts) and parts.version == 1
        again = to_row(*parts)
        assert again == row
        assert to_row(parts) == row
        assert to_row(*from_row(json.loads(json.dumps(row)))) == row


def test_from_row_rebuilds_the_task_and_objects(tasks):
    task = tasks[0]
    back_task, rollout, judgment, markers = from_row(graded_row(task))
    assert back_task == task
    assert (
        rollout.rollout_index == 2 and rollout.seeded == ["hedge"] and rollout.extra["turns"] == 2
    )
    assert judgment.reward == 0.5 and judgment.judge_meta["findings"][0]["code"] == "repeated_call"
    by_name = {m.name: m for m in markers}
    assert by_name["no_waste"] == Marker("no_waste", 0.0, "conduct", {"step": 1})
    assert by_name["polite"].family == "judge" and by_name["custom"].family == "trace"
    assert by_name["no_hedging"].family == "style"


def test_marker_meta_only_where_needed(tasks):
    row = graded_row(tasks[0])
    assert row["marker_meta"] == {
        "no_waste": {"evidence": {"step": 1}},
        "custom": {"family": "trace"},
    }


def test_ungraded_row_has_no_judge_columns_and_round_trips(tasks):
    row = to_row(tasks[0], rollout_for(tasks[0]))
    assert not {"reward", "reason", "markers", "judge_name", "judge_status", "judge_meta"} & set(
        row
    )
    validate_row(row)
    task, rollout, judgment, markers = from_row(row)
    assert judgment is None and markers == ()
    assert to_row(task, rollout, judgment, markers) == row


def test_explicit_null_judge_columns_round_trip(tasks):
    row = {
        **to_row(tasks[0], rollout_for(tasks[0])),
        "reward": None,
        "reason": None,
        "markers": {},
        "judge_name": None,
        "judge_status": None,
        "judge_meta": None,
    }
    validate_row(row)
    parts = from_row(row)
    assert parts.judgment is None and parts.markers == ()
    assert to_row(parts) == row


def test_markers_without_a_judgment_round_trip(tasks):
    row = to_row(tasks[0], rollout_for(tasks[0]), None, [Marker("no_hedging", 1.0, "style")])
    assert row["markers"] == {"no_hedging": 1.0} and "reward" not in row
    assert to_row(*from_row(row)) == row


def test_optional_nulls_and_extra_privileged_fields_survive(tasks):
    row = graded_row(next(t for t in tasks if not t.privileged.principle))
    row["seeded"] = None
    row["privileged"]["principle"] = None
    row["privileged"]["rubric"] = "Refund only after checking the order."
    validate_row(row)
    assert to_row(*from_row(row)) == row


def test_version_0_rows_load_by_shape():
    old = {
        "prompt": "Where is order 4412?",
        "messages": [],
        "steps": [],
        "final_text": "It shipped.",
        "scenario_id": "sc-1",
        "reward": 1,
        "world_state": "exists",
    }
    parts = from_row(old)
    assert parts.version == 0 and parts.task is None
    assert parts.rollout.final_text == "It shipped." and parts.judgment.reward == 1
    assert parts.rollout.extra["prompt"] == "Where is order 4412?"
    assert parts.rollout.world_state == "exists"
    assert "schema_version" not in to_row(parts)
    assert row_errors(old)[0].startswith("$.schema_version: missing; this is a version 0 row")


def test_version_0_row_with_task_columns_upgrades(tasks):
    row = graded_row(tasks[0])
    del row["schema_version"]
    parts = from_row(row)
    assert parts.version == 0 and parts.task == tasks[0]
    upgraded = to_row(parts)
    assert upgraded["schema_version"] == "1"
    validate_row(upgraded)


def test_unknown_schema_version_is_refused(tasks):
    with pytest.raises(RowError, match=r"\$\.schema_version: unsupported version '2'"):
        from_row({**graded_row(tasks[0]), "schema_version": "2"})


def test_v1_row_without_task_columns_is_refused():
    with pytest.raises(RowError, match="'world' is a required property"):
        from_row(
            {
                "schema_version": "1",
                "task_id": "t",
                "scenario_id": "s",
                "scenario_dimensions": {},
                "seed": 0,
                "prompt": "p",
            }
        )


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (lambda r: r["steps"][0].update(ok="yes"), "$.steps[0].ok"),
        (lambda r: r["scenario_dimensions"].pop("stance"), "$.scenario_dimensions"),
        (lambda r: r["messages"][1].update(role="robot"), "$.messages[1].role"),
        (lambda r: r["messages"][3].pop("tool_call_id"), "$.messages[3]"),
        (lambda r: r["markers"].update(polite="high"), "$.markers.polite"),
        (lambda r: r.pop("final_text"), "$"),
        (
            lambda r: r.update(fault_plan={"rules": [{"kind": "timeout", "mode": "sometimes"}]}),
            "$.fault_plan",
        ),
        (lambda r: r.update(judge_status="great"), "$.judge_status"),
    ],
)
def test_validate_row_names_the_path(tasks, edit, path):
    row = graded_row(tasks[0])
    edit(row)
    with pytest.raises(RowError) as caught:
        validate_row(row)
    assert caught.value.errors[0].startswith(f"{path}: "), caught.value.errors
    assert str(caught.value).startswith(f"invalid row: {path}: ")


def test_row_errors_does_not_raise():
    assert row_errors("nope") == ["$: a row must be an object, got str"]
    assert row_errors({"schema_version": "1"})[0] == "$: 'task_id' is a required property"


# --- export ---------------------------------------------------------------------------------------


def leaky_tool_row(task) -> dict:
    """A row whose tool result, tool message and carried fields hide privileged data."""
    row = graded_row(task)
    result = {
        "status": "ok",
        "order_id": "4412",
        "reference": "BK-5521",
        "privileged": {"reference": SECRET, "hidden_state": {"owner": "C-1"}},
        "history": [
            {"note": "n", "principle": "never refund twice", "embedding": [0.1, 0.2]},
            {"hidden_state": {"x": 1}, "reference": SECRET},
        ],
    }
    row["steps"][0]["result"] = result
    row["messages"][3]["content"] = json.dumps(result)
    row["messages"][2]["tool_calls"][0]["function"]["arguments"] = json.dumps(
        {"order_id": "4412", "rubric": "r"}
    )
    row["info"] = {
        "privileged": {"reference": SECRET},
        "split": "train",
        "vector": [0.3] * 4,
        "nested": [{"hidden_state": {"a": 1}, "keep": True}],
    }
    row["reference"] = SECRET
    row["embedding"] = [0.5, 0.5]
    return row


def test_export_drops_privileged_at_any_depth(tasks):
    row = leaky_tool_row(tasks[0])
    before = copy.deepcopy(row)
    out = export_row(row)
    assert row == before, "export never mutates its input"
    dumped = json.dumps(out)
    for word in (
        "privileged",
        "hidden_state",
        "principle",
        "rubric",
        "embedding",
        "vector",
        SECRET,
    ):
        assert word not in dumped, word
    assert out["steps"][0]["result"] == {
        "status": "ok",
        "order_id": "4412",
        "reference": "BK-5521",
        "history": [{"note": "n"}, {}],
    }
    assert json.loads(out["messages"][3]["content"]) == out["steps"][0]["result"]
    assert json.loads(out["messages"][2]["tool_calls"][0]["function"]["arguments"]) == {
        "order_id": "4412"
    }
    assert out["info"] == {"split": "train", "nested": [{"keep": True}]}
    assert "reference" not in out
    validate_row(out)


def test_export_leaves_clean_json_strings_byte_for_byte(tasks):
    row = graded_row(tasks[0])
    row["messages"][3]["content"] = '{"status":"ok",  "order_id":"4412"}'
    assert export_row(row)["messages"][3]["content"] == '{"status":"ok",  "order_id":"4412"}'


def test_export_of_a_row_without_privileged_is_a_plain_copy(tasks):
    row = graded_row(tasks[0])
    row.pop("privileged", None)
    out = export_row(row)
    assert out == row and out is not row


def test_exported_row_round_trips(tasks):
    row = export_row(graded_row(tasks[0]))
    assert "privileged" not in row
    assert to_row(*from_row(row)) == row


def test_export_refuses_a_reply_that_quotes_privileged_context(tasks):
    task = tasks[0]
    row = graded_row(task)
    row["privileged"] = {"hidden_state": {}, "reference": SECRET}
    row["final_text"] = f"Done. ({SECRET})"
    row["messages"][-1]["content"] = row["final_text"]
    with pytest.raises(PrivilegedLeakError, match="quotes reference"):
        export_row(row)
    assert "privileged" not in export_row(row, refuse_leaks=False)
