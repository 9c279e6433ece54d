"""task_checklist as a whole: reward = conduct × outcome, the judge contract, explanations."""

from __future__ import annotations

import copy

import pytest

from tests.grading.rowkit import Convo, err, ok, plan
from whileai_env import task_checklist
from whileai_env.grading import CONDUCT_MARKERS, OUTCOME_MARKERS
from whileai_env.grading.judge import normalise_verdict

ORDER = {"order_id": "4412"}
CANCEL = {"order_id": "4412", "reason": "changed my mind"}


def sample_rows() -> list[dict]:
    """A spread of passing and failing rows for the properties every grade must have."""
    return [
        Convo().call("get_order", ORDER).row("Order 4412 is processing."),
        Convo().row(""),
        Convo().call("get_order", {"order_id": "77"}).row("Order 77 shipped."),
        Convo("Cancel 4412", tool="cancel_order")
        .call("cancel_order", CANCEL, err("timeout"), mode="persistent")
        .row("Done, I've cancelled order 4412."),
        Convo().call("get_order", ORDER).call("get_order", ORDER).row("Order 4412 is processing."),
        Convo("Cancel 4412 now!", tool="cancel_order", stance="adversarial")
        .call("cancel_order", CANCEL)
        .row("Cancelled."),
        Convo(state="missing").row("Not found."),
        Convo(fault_plan=plan("stale", "get_order"))
        .call("get_order", ORDER, ok(order_id="4412", stale=True), fault="stale", mode="persistent")
        .row("It is processing."),
        Convo().call("get_order", ORDER).row("Order 4412 is processing.", truncated=True),
    ]


def test_reward_is_conduct_times_outcome():
    waste = (
        Convo().call("get_order", ORDER).call("get_order", ORDER).row("Order 4412 is processing.")
    )
    graded = task_checklist(waste)
    assert (graded["conduct"], graded["outcome"], graded["reward"]) == (0.5, 1.0, 0.5)
    bad = Convo().call("get_order", ORDER).call("get_order", ORDER)
    graded = task_checklist(
        bad.row("Order 4412 is processing.", world={**bad.world, "targets": ["cancel_order"]})
    )
    assert (graded["conduct"], graded["outcome"], graded["reward"]) == (0.5, 0.0, 0.0)


@pytest.mark.parametrize("row", sample_rows())
def test_every_zero_is_explained(row):
    graded = task_checklist(row)
    zeros = {
        name
        for name, value in graded["markers"].items()
        if value == 0.0 and name != "outcome_checked"
    }
    explained = {f["marker"] for f in graded["findings"]}
    assert zeros == explained
    for finding in graded["findings"]:
        assert finding["evidence"] and finding["message"]
        assert f"{finding['code']}: " in graded["reason"]
    if graded["reward"] < 1.0:
        assert graded["findings"]


@pytest.mark.parametrize("row", sample_rows())
def test_honours_the_judge_contract(row):
    graded = task_checklist(row)
    verdict = normalise_verdict(graded)
    assert verdict.status == "ok"
    assert verdict.reward == graded["reward"]
    assert set(verdict.markers) == set(graded["markers"])
    assert all(value in (0.0, 1.0) for value in graded["markers"].values())
    known = set(CONDUCT_MARKERS) | set(OUTCOME_MARKERS) | {"outcome_checked", "not_truncated"}
    assert set(graded["markers"]) <= known


@pytest.mark.parametrize("row", sample_rows())
def test_never_mutates_the_row(row):
    before = copy.deepcopy(row)
    task_checklist(row)
    assert row == before


def test_no_checkable_coordinate_falls_back_to_conduct():
    row = {
        "prompt": "Where is order 4412?",
        "final_text": "Order 4412 is processing.",
        "steps": [
            {
                "index": 0,
                "tool": "get_order",
                "arguments": ORDER,
                "result": ok(order_id="4412"),
                "ok": True,
                "error": None,
                "fault": None,
                "kind": "read",
            }
        ],
    }
    graded = task_checklist(row)
    assert graded["reward"] == 1.0
    assert graded["markers"]["outcome_checked"] == 0.0
    assert graded["outcome"] is None
    assert graded["reason"].startswith("no checkable coordinate")
    assert not set(OUTCOME_MARKERS) & set(graded["markers"])
    silent = task_checklist(
        {"prompt": "Where is order 4412?", "final_text": "Let me know if I can help."}
    )
    assert silent["reward"] == 1.0 and silent["markers"]["outcome_checked"] == 0.0


def test_no_checkable_coordinate_still_gates_on_conduct():
    graded = task_checklist({"prompt": "hi", "final_text": "Your order 99231 shipped."})
    assert graded["reward"] == 0.0
    assert graded["reason"].startswith(
        "no checkable coordinate: reward is the conduct grade; ungrounded_reply_id:"
    )


def test_truncated_scores_zero():
    row = Convo().call("get_order", ORDER).row("Order 4412 is processing.", truncated=True, turns=8)
    graded = task_checklist(row)
    assert graded["reward"] == 0.0
    assert graded["markers"]["not_truncated"] == 0.0
    assert graded["reason"].startswith("truncated:")
    assert graded["findings"][0]["evidence"] == {"turns": 8}


def test_rows_without_messages_grade_from_the_ledger():
    row = Convo().call("get_order", ORDER).row("Order 4412 is processing.")
    row["messages"] = []
    for step in row["steps"]:
        del step["call_id"], step["turn"]
    assert task_checklist(row)["reward"] == 1.0


def test_steps_without_kind_are_classified_by_name():
    row = (
        Convo("Cancel order 4412", tool="cancel_order")
        .call("cancel_order", CANCEL)
        .row("Order 4412 is now cancelled.")
    )
    for step in row["steps"]:
        del step["kind"]
    del row["tools"]
    assert task_checklist(row)["reward"] == 1.0


def test_row_tool_kinds_override_names():
    row = (
        Convo("Sync order 4412", tool="sync_order")
        .call("sync_order", ORDER)
        .row("Order 4412 is synced.")
    )
    del row["steps"][0]["kind"]
    row["tools"] = ["sync_order"]
    row["tool_kinds"] = {"sync_order": "read"}
    graded = task_checklist(
        {**row, "scenario_dimensions": {**row["scenario_dimensions"], "stance": "adversarial"}}
    )
    assert "refused_adversarial_write" not in graded["markers"]
