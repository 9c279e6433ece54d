"""``reported_result``: a target that succeeded is reported by a later reply (a value it returned,
or the write claimed); making the right call and then saying anything is not the task."""

from __future__ import annotations

from tests.grading.rowkit import Convo, ok
from whileai_env import task_checklist
from whileai_env.grading.report import _act_named_done, facts

ORDER = {"order_id": "4412"}
CANCEL = {"order_id": "4412", "reason": "changed my mind"}


def reward(row):
    return task_checklist(row)


def test_a_read_is_reported_by_a_value_it_returned():
    convo = Convo().call("get_order", ORDER, ok(order_id="4412", state="shipped", carrier="DHL"))
    result = reward(convo.row("Order 4412 shipped with DHL."))
    assert result["reward"] == 1.0 and result["markers"]["reported_result"] == 1.0


def test_a_read_followed_by_anything_else_fails():
    for reply in ("I tried that, but the request was rejected.", "I like turtles.", "Order 4412."):
        convo = Convo().call(
            "get_order", ORDER, ok(order_id="4412", state="shipped", carrier="DHL")
        )
        result = reward(convo.row(reply))
        assert result["reward"] == 0.0 and result["markers"]["reported_result"] == 0.0, reply
        assert "result_not_reported" in result["reason"]


def test_an_empty_result_is_reported_by_saying_nothing_was_found():
    convo = Convo("Any orders for me?", tool="list_orders", entities={})
    convo.call("list_orders", {}, ok(items=[], count=0))
    assert reward(convo.row("You have no orders on file."))["reward"] == 1.0
    convo = Convo("Any orders for me?", tool="list_orders", entities={})
    convo.call("list_orders", {}, ok(items=[], count=0))
    assert reward(convo.row("Done."))["markers"]["reported_result"] == 0.0


def test_a_result_with_nothing_to_report_asks_for_nothing():
    assert (
        reward(Convo().call("get_order", ORDER).row("Order 4412 is processing."))["reward"] == 1.0
    )


def test_a_write_is_reported_by_claiming_it():
    convo = Convo("Cancel order 4412", tool="cancel_order").call("get_order", ORDER)
    assert (
        reward(convo.call("cancel_order", CANCEL).row("Order 4412 is now cancelled."))["reward"]
        == 1.0
    )
    convo = Convo("Cancel order 4412", tool="cancel_order").call("cancel_order", CANCEL)
    result = reward(convo.row("I tried that, but the request was rejected."))
    assert result["reward"] == 0.0 and result["markers"]["reported_result"] == 0.0


def test_a_write_that_made_its_change_is_not_reported_by_saying_it_was_done_already():
    """A trial Airtable spec: swapping the reply after a successful update for "That was already
    done earlier, so there is nothing more to do." kept 85 of 89 rows at 1.0."""
    note = "That was already done earlier, so there is nothing more to do."
    convo = Convo("Cancel order 4412", tool="cancel_order").call("cancel_order", CANCEL)
    result = reward(convo.row(note))
    assert result["reward"] == 0.0 and result["markers"]["reported_result"] == 0.0
    convo = Convo("Cancel order 4412", tool="cancel_order")
    convo.call("cancel_order", CANCEL, ok(order_id="4412", updated=[]))
    assert reward(convo.row(note))["markers"]["reported_result"] == 1.0


def test_a_yes_no_field_is_reported_by_its_name():
    convo = Convo(
        "Verify me, I'm customer C-1",
        tool="verify_identity",
        entities={"customer_id": "C-1"},
        tools=["verify_identity"],
    )
    convo.call(
        "verify_identity", {"customer_id": "C-1"}, ok(customer_id="C-1", verified=True), kind="read"
    )
    assert reward(convo.row("You are verified."))["reward"] == 1.0


def test_facts_walk_nested_results_top_level_first():
    result = {
        "status": "ok",
        "result": {"invoice_id": "INV-1", "total": 467.25, "lines": [{"description": "Mug"}]},
        "note": "paid",
    }
    assert facts(result, {"inv-1"}) == [
        ("note", "paid"),
        ("total", "467.25"),
        ("description", "mug"),
    ]
    assert facts(result, {"inv-1"}, as_written=True)[-1] == ("description", "Mug")
    assert facts({"result": 2.70264097104e48, "n": 3.0}) == [
        ("result", "2.70264097104e+48"),
        ("n", "3"),
    ]


def test_a_camel_case_yes_no_field_is_reported_by_its_last_word():
    """``nextThoughtNeeded: true`` is reported by a reply that says the next thought is needed,
    as ``next_thought_needed`` would be: a field's name is split the same way in either case."""
    for field in ("nextThoughtNeeded", "next_thought_needed"):
        said = Convo().call("get_order", ORDER, ok(order_id="4412", **{field: True}))
        result = reward(said.row("For order 4412 another thought is needed: yes."))
        assert result["markers"]["reported_result"] == 1.0, (field, result["reason"])
        unsaid = Convo().call("get_order", ORDER, ok(order_id="4412", **{field: True}))
        assert reward(unsaid.row("I looked at order 4412."))["markers"]["reported_result"] == 0.0


def test_a_write_reported_by_naming_its_act_as_made():
    """ "I have requested the return of the delivered order items" reported nothing (7 rows of
    a retail spec, an honest agent's)."""
    assert _act_named_done(
        "return_delivered_order_items", "I have requested the return as you asked."
    )
    assert _act_named_done("exchange_items", "Your exchange request is in.")
    assert not _act_named_done("return_delivered_order_items", "Our return policy allows 30 days.")
