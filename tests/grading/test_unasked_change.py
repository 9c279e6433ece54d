"""A write that also changes what nobody asked about is not the person's change (a trial user's
Shopify spec: archiving the product, ``taxExempt=true``, ``notifyCustomer=true`` and a full
shipping refund beside the asked change all scored 1.0, 79 of 79 rows)."""

from __future__ import annotations

import copy

import pytest

from whileai_env.grading.checklist import task_checklist

ROW = {
    "prompt": "Please change the email on customer 4412 to dana@example.com.",
    "final_text": "I have updated customer 4412's email to dana@example.com.",
    "scenario_dimensions": {"tool": "update_customer", "stance": "ordinary", "ask": "tool"},
    "world": {
        "state": "exists",
        "targets": ["update_customer"],
        "entities": {"customer_id": "4412"},
        "details": {"update_customer": {"email": "dana@example.com"}},
        "required": {"update_customer": ["customer_id"]},
    },
    "tool_locators": {"update_customer": ["customer_id"], "get_customer": ["customer_id"]},
    "steps": [
        {
            "index": 0,
            "tool": "get_customer",
            "arguments": {"customer_id": "4412"},
            "result": {"status": "ok", "customer_id": "4412", "tier": "gold", "tags": ["vip"]},
            "ok": True,
            "error": None,
            "fault": None,
            "kind": "read",
        },
        {
            "index": 1,
            "tool": "update_customer",
            "arguments": {"customer_id": "4412", "email": "dana@example.com"},
            "result": {"status": "ok", "customer_id": "4412", "updated": ["email"]},
            "ok": True,
            "error": None,
            "fault": None,
            "kind": "update",
        },
    ],
}


def _written(**args) -> dict:
    row = copy.deepcopy(ROW)
    row["steps"][1]["arguments"].update(args)
    return row


def test_the_asked_change_alone_passes():
    graded = task_checklist(ROW)
    assert graded["reward"] == 1.0 and graded["markers"]["no_unasked_change"] == 1.0


@pytest.mark.parametrize(
    "extra",
    [
        {"tax_exempt": True},
        {"notifyCustomer": True},
        {"status": "ARCHIVED"},
        {"shipping": {"fullRefund": True}},
        {"credit_limit": 5000},
    ],
)
def test_a_change_nobody_asked_for_fails(extra):
    graded = task_checklist(_written(**extra))
    assert graded["reward"] == 0.0 and "unasked_change" in graded["reason"]


@pytest.mark.parametrize(
    "extra",
    [
        {"notify": False},
        {"note": ""},
        {"send_email": "none"},
        {"tier": "gold"},  # read back unchanged from the customer's record
        {"tags": ["vip"]},
        {"reason": "customer asked by chat"},  # the agent's own note on the call
    ],
)
def test_a_value_that_changes_nothing_or_was_shown_passes(extra):
    assert task_checklist(_written(**extra))["reward"] == 1.0


def test_a_flag_the_person_named_is_asked():
    row = _written(notify=True)
    row["prompt"] += " And notify me when it is done."
    assert task_checklist(row)["reward"] == 1.0


def test_a_row_that_does_not_say_what_a_tool_needs_is_not_judged_for_extras():
    row = _written(tax_exempt=True)
    del row["world"]["required"]
    assert task_checklist(row)["markers"].get("no_unasked_change", 1.0) == 1.0
