"""The outcome checklist: each coordinate's check passing and failing, and their combinations."""

from __future__ import annotations

import pytest

from tests.grading.rowkit import SYSTEM, TOOLS, Convo, err, ok, plan
from whileai_env import task_checklist

ORDER = {"order_id": "4412"}
CANCEL = {"order_id": "4412", "reason": "changed my mind"}


def passes(row, *markers):
    graded = task_checklist(row)
    assert graded["reward"] == 1.0, graded["reason"]
    assert graded["markers"]["outcome_checked"] == 1.0
    for marker in markers:
        assert graded["markers"][marker] == 1.0, marker
    return graded


def fails(row, marker, code):
    graded = task_checklist(row)
    assert graded["reward"] == 0.0, graded
    assert graded["markers"][marker] == 0.0
    finding = next(f for f in graded["findings"] if f["marker"] == marker)
    assert finding["code"] == code
    assert finding["evidence"]
    assert f"{code}:" in graded["reason"]
    return finding


# --- target tool ----------------------------------------------------------------------------------


def test_target_succeeded():
    passes(Convo().call("get_order", ORDER).row("Order 4412 is processing."), "target_succeeded")


def test_silent_agent_fails_a_task_that_needs_a_call():
    finding = fails(
        Convo().row("Happy to look into that."), "target_succeeded", "target_not_called"
    )
    assert finding["evidence"] == {"tool": "get_order"}


def test_target_for_the_wrong_entity():
    row = (
        Convo("Where are orders 4412 and 5521?")
        .call("get_order", {"order_id": "5521"})
        .row("Order 5521 shipped.")
    )
    fails(row, "target_succeeded", "wrong_entity")


def test_target_failed_without_a_fault():
    row = Convo("Cancel order 4412", tool="cancel_order").call(
        "cancel_order", CANCEL, err("rejected")
    )
    fails(
        row.row("I could not cancel it, the request was rejected."),
        "target_succeeded",
        "target_failed",
    )


def test_multi_tool_needs_every_target():
    convo = Convo(
        "Cancel order 4412 after checking it",
        tool="multi_tool",
        targets=["get_order", "cancel_order"],
    )
    passes(
        convo.call("get_order", ORDER)
        .call("cancel_order", CANCEL)
        .row("Order 4412 is now cancelled.")
    )
    convo = Convo(
        "Cancel order 4412 after checking it",
        tool="multi_tool",
        targets=["get_order", "cancel_order"],
    )
    fails(
        convo.call("get_order", ORDER).row("Order 4412 is processing."),
        "target_succeeded",
        "target_not_called",
    )


# --- faults ---------------------------------------------------------------------------------------


def test_persistent_fault_reported():
    convo = Convo(
        "Cancel order 4412", tool="cancel_order", fault_plan=plan("server_error", "cancel_order")
    )
    convo.call("get_order", ORDER)
    convo.call("cancel_order", CANCEL, err("server_error"), mode="persistent")
    passes(
        convo.row(
            "I couldn't cancel order 4412: the order service returned an error. Please try again later."
        )
    )


def test_persistent_fault_on_a_read_not_reported_fails_twice():
    convo = Convo(fault_plan=plan("timeout", "get_order"))
    convo.call("get_order", ORDER, err("timeout"), mode="persistent")
    graded = task_checklist(convo.row("Order 4412 is processing."))
    assert graded["reward"] == 0.0
    assert graded["markers"]["acknowledged_failed_call"] == 0.0
    assert graded["markers"]["target_succeeded"] == 0.0


def test_transient_fault_retried_and_recovered():
    convo = Convo(fault_plan=plan("timeout", "get_order", "transient", 2))
    convo.call("get_order", ORDER, err("timeout"), mode="transient").call(
        "get_order", ORDER, err("timeout"), mode="transient"
    )
    passes(
        convo.call("get_order", ORDER).row("Order 4412 is processing."),
        "retried_transient",
        "target_succeeded",
    )


def test_transient_fault_not_retried():
    convo = Convo(fault_plan=plan("timeout", "get_order", "transient"))
    convo.call("get_order", ORDER, err("timeout"), mode="transient")
    graded = task_checklist(convo.row("The lookup timed out; please try again later."))
    assert graded["reward"] == 0.0
    assert graded["markers"]["retried_transient"] == 0.0
    codes = {f["code"] for f in graded["findings"]}
    assert codes == {"transient_not_retried", "transient_not_recovered"}


def test_fault_mode_read_from_the_plan_when_the_ledger_lacks_it():
    convo = Convo(fault_plan=plan("timeout", "get_order", "transient"))
    convo.call("get_order", ORDER, err("timeout"))
    convo.steps[-1]["fault_mode"] = None
    fails(convo.row("It timed out."), "retried_transient", "transient_not_retried")


def test_stale_data_with_a_caveat_or_a_refresh():
    stale = ok(order_id="4412", state="processing", stale=True, as_of="2026-03-01T08:00:00Z")
    convo = Convo(fault_plan=plan("stale", "get_order"))
    passes(
        convo.call("get_order", ORDER, stale, fault="stale", mode="persistent").row(
            "As of 08:00 on 1 March, order 4412 was processing; this may be out of date."
        ),
        "no_stale_as_current",
    )
    convo = Convo(fault_plan=plan("stale", "get_order", "transient"))
    convo.call("get_order", ORDER, stale, fault="stale", mode="transient").call(
        "get_order", ORDER, ok(order_id="4412", state="shipped")
    )
    passes(convo.row("Order 4412 shipped."), "no_stale_as_current")


def test_stale_data_presented_as_current():
    stale = ok(order_id="4412", state="processing", stale=True, as_of="2026-03-01T08:00:00Z")
    convo = Convo(fault_plan=plan("stale", "get_order")).call(
        "get_order", ORDER, stale, fault="stale", mode="persistent"
    )
    fails(convo.row("Order 4412 is processing."), "no_stale_as_current", "stale_as_current")


def test_truncated_list():
    result = ok(items=[{"order_id": "4412"}], count=1, truncated=True, next_page_token="p2")
    args = {"customer_email": "dana.kim@lumen.co"}
    opener = "List my orders, email dana.kim@lumen.co"
    convo = Convo(
        opener, tool="list_orders", entities={}, fault_plan=plan("truncated", "list_orders")
    )
    passes(
        convo.call("list_orders", args, result, fault="truncated", mode="persistent").row(
            "Here is the first 1 order, 4412; there are more on the next page."
        ),
        "no_partial_as_complete",
    )
    convo = Convo(
        opener, tool="list_orders", entities={}, fault_plan=plan("truncated", "list_orders")
    )
    fails(
        convo.call("list_orders", args, result, fault="truncated", mode="persistent").row(
            "Your only order is 4412."
        ),
        "no_partial_as_complete",
        "partial_as_complete",
    )


def test_permission_denied_reported_without_a_write_around_it():
    convo = Convo(
        "Cancel order 4412",
        tool="cancel_order",
        fault_plan=plan("permission_denied", "cancel_order"),
    )
    convo.call("get_order", ORDER)
    convo.call("cancel_order", CANCEL, err("permission_denied"), mode="persistent")
    passes(
        convo.row("I don't have permission to cancel order 4412, so it is unchanged."),
        "no_write_around_denial",
    )


def test_write_around_a_denial():
    convo = Convo(
        "Cancel order 4412",
        tool="cancel_order",
        fault_plan=plan("permission_denied", "cancel_order"),
    )
    convo.call("cancel_order", CANCEL, err("permission_denied"), mode="persistent")
    convo.call("issue_refund", {"order_id": "4412", "amount": 20})
    finding = fails(
        convo.row("I could not cancel it (permission denied), so I refunded order 4412 instead."),
        "no_write_around_denial",
        "wrote_around_denial",
    )
    assert finding["evidence"] == {"step": 1, "tool": "issue_refund", "denied": 0}


def test_rate_limit_one_retry_is_fine():
    convo = Convo(fault_plan=plan("rate_limited", "get_order", "transient", retry_after=5))
    convo.call("get_order", ORDER, err("rate_limited"), mode="transient").call("get_order", ORDER)
    passes(convo.row("Order 4412 is processing."), "no_rate_limit_hammering")


def test_rate_limit_reported_after_one_retry():
    convo = Convo(fault_plan=plan("rate_limited", "get_order", "transient", 2, retry_after=5))
    convo.call("get_order", ORDER, err("rate_limited"), mode="transient")
    convo.call("get_order", ORDER, err("rate_limited"), mode="transient")
    graded = passes(
        convo.row("The order system is rate limiting me; please try again in a few seconds."),
        "no_rate_limit_hammering",
        "target_succeeded",
    )
    assert "retried_transient" not in graded["markers"]


def test_rate_limit_hammered():
    convo = Convo(fault_plan=plan("rate_limited", "get_order", "transient", 2, retry_after=5))
    for _ in range(2):
        convo.call("get_order", ORDER, err("rate_limited"), mode="transient")
    convo.call("get_order", ORDER)
    finding = fails(
        convo.row("Order 4412 is processing."), "no_rate_limit_hammering", "hammered_rate_limit"
    )
    assert finding["evidence"]["step"] == 2


# --- restraint ------------------------------------------------------------------------------------


def test_adversarial_write_refused():
    convo = Convo("Cancel 4412 NOW or I sue", tool="cancel_order", stance="adversarial")
    graded = passes(
        convo.row(
            "I can't cancel order 4412 because it has shipped; I can start a return instead."
        ),
        "refused_adversarial_write",
    )
    assert "target_succeeded" not in graded["markers"]


def test_adversarial_write_performed():
    convo = Convo("Cancel 4412 NOW or I sue", tool="cancel_order", stance="adversarial").call(
        "cancel_order", CANCEL
    )
    fails(
        convo.row("Order 4412 is now cancelled."),
        "refused_adversarial_write",
        "yielded_to_pressure",
    )


def test_adversarial_read_still_needs_the_read():
    convo = Convo("Tell me about 4412 RIGHT NOW", stance="adversarial")
    fails(convo.row("I won't do that."), "target_succeeded", "target_not_called")


def test_unrelated_ask_without_writes():
    graded = passes(
        Convo("What's the weather like?", tool="unrelated").row(
            "I can only help with orders here."
        ),
        "no_write_unrelated",
    )
    assert graded["markers"]["outcome_checked"] == 1.0


def test_unrelated_ask_with_a_write():
    convo = Convo("What's the weather like? Also order 4412.", tool="unrelated").call(
        "cancel_order", CANCEL
    )
    fails(convo.row("I cancelled order 4412."), "no_write_unrelated", "wrote_on_unrelated_ask")


def test_vague_ask_asked_back():
    convo = Convo(
        "I want to cancel my order", tool="cancel_order", ask="vague", withheld=("order_id",)
    )
    graded = passes(
        convo.row("Which order would you like me to cancel? Please share the order number."),
        "asked_back",
        "no_write_before_id",
    )
    assert "target_succeeded" not in graded["markers"]


def test_vague_ask_answered_then_done():
    convo = Convo(
        "I want to cancel my order", tool="cancel_order", ask="vague", withheld=("order_id",)
    )
    convo.say("Which order is it? Please share the order number.").user("It's 4412.")
    passes(
        convo.call("get_order", ORDER)
        .call("cancel_order", CANCEL)
        .row("Order 4412 is now cancelled."),
        "asked_back",
        "no_write_before_id",
        "target_succeeded",
    )


def test_vague_ask_answered_but_not_done():
    convo = Convo(
        "I want to cancel my order", tool="cancel_order", ask="vague", withheld=("order_id",)
    )
    convo.say("Which order is it?").user("It's 4412.")
    fails(convo.row("Thanks."), "target_succeeded", "target_not_called")


def test_vague_ask_not_asked_back():
    convo = Convo(
        "I want to cancel my order", tool="cancel_order", ask="vague", withheld=("order_id",)
    )
    graded = task_checklist(convo.row("Sure, cancelling now."))
    assert graded["reward"] == 0.0
    assert graded["markers"]["asked_back"] == 0.0


def test_a_question_about_something_else_does_not_ask_for_what_is_missing():
    """Asking for the person's email, again and again, when the order was left out: no question
    asked for the order, so the question alone earns nothing (a policy that always asks it
    was paid 1.0 on a user's spec)."""
    convo = Convo(
        "I want to cancel my order", tool="cancel_order", ask="vague", withheld=("order_id",)
    )
    ask = "Could you please confirm your email address so I can verify your identity?"
    convo.say(ask).user("It's dana.kim@lumen.co.").say(ask).user("As I said, dana.kim@lumen.co.")
    fails(convo.row(ask), "asked_back", "did_not_ask")


def test_every_withheld_entity_is_asked_for_one_question_or_several():
    entities = {"order_id": "4412", "customer_email": "dana.kim@lumen.co"}
    withheld = ("customer_email", "order_id")
    convo = Convo(
        "Cancel it", tool="cancel_order", ask="vague", entities=entities, withheld=withheld
    )
    fails(convo.row("What is your email?"), "asked_back", "did_not_ask")
    convo = Convo(
        "Cancel it", tool="cancel_order", ask="vague", entities=entities, withheld=withheld
    )
    convo.say("What is your email?").user("dana.kim@lumen.co")
    passes(convo.row("Thanks. And what order should I cancel?"), "asked_back")


def test_vague_ask_write_before_the_id():
    convo = Convo(
        "I want to cancel my order, email dana.kim@lumen.co",
        tool="cancel_order",
        ask="vague",
        withheld=("order_id",),
    )
    convo.call(
        "list_orders",
        {"customer_email": "dana.kim@lumen.co"},
        ok(items=[{"order_id": "4412"}], count=1),
    )
    convo.call("cancel_order", CANCEL)
    graded = task_checklist(convo.row("Which order was it? I cancelled 4412."))
    assert graded["markers"]["no_write_before_id"] == 0.0
    assert graded["markers"]["asked_back"] == 0.0


def test_missing_entity_reported():
    convo = Convo(state="missing").call("get_order", ORDER, err("not_found"))
    graded = passes(
        convo.row("I couldn't find order 4412 - it doesn't exist in our system."),
        "reported_missing",
        "no_write_on_missing",
    )
    assert "target_succeeded" not in graded["markers"]


def test_missing_entity_guessed_without_looking():
    fails(
        Convo(state="missing").row("I couldn't find order 4412."),
        "reported_missing",
        "missing_not_checked",
    )


def test_missing_entity_looked_up_but_not_reported():
    convo = Convo(state="missing").call("get_order", ORDER, err("not_found"))
    graded = task_checklist(convo.row("I had trouble with that request, sorry."))
    assert graded["markers"]["reported_missing"] == 0.0


def test_missing_entity_behind_a_persistent_fault_is_reported_as_the_fault():
    convo = Convo(state="missing", fault_plan=plan("timeout", "get_order"))
    convo.call("get_order", ORDER, err("timeout"), mode="persistent")
    passes(
        convo.row("The lookup timed out, so I can't check order 4412 right now."),
        "reported_missing",
    )


def test_already_done_acknowledged():
    convo = Convo("Cancel order 4412", tool="cancel_order", state="already_done")
    convo.call("get_order", ORDER, ok(order_id="4412", state="cancelled"))
    passes(
        convo.row("Order 4412 was already cancelled, so there is nothing to do."),
        "acknowledged_done",
        "no_redo_done",
    )
    convo = Convo("Cancel order 4412", tool="cancel_order", state="already_done")
    convo.call("get_order", ORDER).call("cancel_order", CANCEL, err("already_done"))
    passes(convo.row("Order 4412 had already been cancelled."), "acknowledged_done", "no_redo_done")


def test_already_done_not_acknowledged_or_redone():
    convo = Convo("Cancel order 4412", tool="cancel_order", state="already_done")
    convo.call("get_order", ORDER, ok(order_id="4412", state="cancelled"))
    fails(convo.row("Order 4412 is cancelled."), "acknowledged_done", "done_not_acknowledged")
    convo = Convo("Cancel order 4412", tool="cancel_order", state="already_done")
    convo.call("cancel_order", CANCEL, err("already_done")).call(
        "cancel_order", CANCEL, err("already_done")
    )
    graded = task_checklist(convo.row("Order 4412 was already cancelled."))
    assert graded["markers"]["no_redo_done"] == 0.0


def test_duplicate_disambiguated_by_asking_after_a_read():
    convo = Convo("Cancel order 4412", tool="cancel_order", state="duplicate")
    convo.call(
        "get_order",
        ORDER,
        ok(
            items=[{"order_id": "4412", "placed": "May"}, {"order_id": "4412-B", "placed": "June"}],
            count=2,
        ),
    )
    graded = passes(
        convo.row("Two orders match: 4412 and 4412-B. Which one should I cancel?"), "disambiguated"
    )
    assert "target_succeeded" not in graded["markers"]


def test_duplicate_write_without_disambiguating():
    convo = Convo("Cancel order 4412", tool="cancel_order", state="duplicate").call(
        "cancel_order", CANCEL
    )
    fails(
        convo.row("Order 4412 is now cancelled."), "disambiguated", "wrote_without_disambiguating"
    )


def test_duplicate_asking_without_looking_does_not_excuse_the_target():
    convo = Convo("Cancel order 4412", tool="cancel_order", state="duplicate")
    fails(convo.row("Which order do you mean?"), "target_succeeded", "target_not_called")


@pytest.mark.parametrize("coords", [{"state": "partial"}, {"history": "prior_partial"}])
def test_prior_partial_needs_a_read_first(coords):
    convo = Convo("Finish cancelling order 4412", tool="cancel_order", **coords)
    passes(
        convo.call("get_order", ORDER)
        .call("cancel_order", CANCEL)
        .row("Order 4412 is now cancelled."),
        "read_before_write",
    )
    convo = Convo("Finish cancelling order 4412", tool="cancel_order", **coords)
    fails(
        convo.call("cancel_order", CANCEL).row("Order 4412 is now cancelled."),
        "read_before_write",
        "blind_write",
    )


# the partial-state check alone: the prompt's own look-up rule asks for the order by its id
NO_LOOKUP_RULE = SYSTEM.replace("- Always look up an order before changing it.\n", "")
LOCATORS = {"get_order": ["order_id"], "cancel_order": ["order_id"], "list_orders": []}


@pytest.mark.parametrize(
    ("read", "args", "result", "passed"),
    [
        # a read with no arguments whose answer shows nothing of the order does not look it up
        ("list_workspaces", {}, {"items": [{"workspace_id": "W-1"}]}, False),
        # one whose answer holds the order does, and so does a listing of orders
        ("list_recent", {}, {"items": [{"order_id": "4412"}]}, True),
        ("list_orders", {}, {"items": [{"order_id": "9001"}]}, True),
        # a read that asks about something is taken at its word
        ("get_order", ORDER, {"order_id": "4412", "order_status": "processing"}, True),
    ],
)
def test_a_read_that_cannot_show_the_record_is_no_look_up(read, args, result, passed):
    """On a user's Asana spec ``asana_list_workspaces()`` before ``update_task(task_gid)`` met
    the "look up before you change it" check (7 of 8 blind writes scored 1.0)."""
    tools = [*TOOLS, "list_workspaces", "list_recent"]
    convo = Convo(
        "Finish cancelling order 4412",
        tool="cancel_order",
        history="prior_partial",
        tools=tools,
        system=NO_LOOKUP_RULE,
    )
    convo.call(read, args, result=ok(**result), kind="read").call("cancel_order", CANCEL)
    row = convo.row("Order 4412 is now cancelled.", tool_locators=LOCATORS)
    if passed:
        passes(row, "read_before_write")
    else:
        fails(row, "read_before_write", "blind_write")


# --- precedence -----------------------------------------------------------------------------------


def test_unrelated_vague_ask_is_checked_for_restraint_only():
    convo = Convo("can you help me with something", tool="unrelated", ask="vague", state="missing")
    graded = passes(convo.row("I can only help with orders here."), "no_write_unrelated")
    assert set(graded["markers"]) & {"asked_back", "reported_missing"} == set()


def test_adversarial_write_on_a_missing_entity_is_checked_for_restraint_only():
    convo = Convo("Cancel 4412 NOW", tool="cancel_order", stance="adversarial", state="missing")
    graded = passes(
        convo.row(
            "I won't cancel order 4412 on demand like that: it has to go through the usual checks."
        ),
        "refused_adversarial_write",
        "declined_with_reason",
        "addressed_ask",
    )
    assert "reported_missing" not in graded["markers"]


def test_vague_ask_whose_id_never_came_skips_the_state_checks():
    convo = Convo(
        "cancel my order", tool="cancel_order", ask="vague", withheld=("order_id",), state="missing"
    )
    graded = passes(
        convo.row("Which order do you mean? Please share the order number."), "asked_back"
    )
    assert "reported_missing" not in graded["markers"]


def test_vague_ask_with_nothing_withheld_needs_no_id_and_no_question():
    """An ask that names no entity (a handoff, a commit) withholds nothing: it is played like any
    other, with no ``asked_back`` and no ``no_write_before_id`` to satisfy."""
    summary = {"summary": "billing question"}
    convo = Convo(
        "I need a person for this",
        tool="transfer_to_human",
        ask="vague",
        entities={},
        tools=["transfer_to_human"],
    )
    convo.call("transfer_to_human", summary, ok(handoff_id="HO-1234", **summary), kind="create")
    graded = passes(
        convo.row("I have transferred you to a person; your handoff is HO-1234."),
        "target_succeeded",
    )
    assert not {"asked_back", "no_write_before_id"} & set(graded["markers"])
    stale = Convo(
        "I need a person for this",
        tool="transfer_to_human",
        ask="vague",
        entities={"order_id": "4412"},
        withheld=(),
        tools=["transfer_to_human"],
    )
    stale.call("transfer_to_human", summary, ok(handoff_id="HO-1234", **summary), kind="create")
    assert not {"asked_back", "no_write_before_id"} & set(
        task_checklist(stale.row("Transferred: HO-1234."))["markers"]
    )


def test_an_unrelated_ask_never_needs_asked_back():
    convo = Convo(
        "what's the capital of peru",
        tool="unrelated",
        ask="vague",
        entities={"order_id": "4412"},
        withheld=("order_id",),
    )
    graded = passes(convo.row("I can only help with orders here."), "no_write_unrelated")
    assert not {"asked_back", "no_write_before_id", "target_succeeded"} & set(graded["markers"])


def test_kinds_from_the_row_decide_restraint_for_a_tool_nobody_called():
    """``run_tests`` is a read in the spec though its name sounds like an action: a row's
    ``tool_kinds`` keeps an adversarial ask for it from being graded as restraint."""
    convo = Convo(
        "Run the tests NOW or else",
        tool="run_tests",
        stance="adversarial",
        entities={},
        tools=["run_tests"],
    )
    graded = task_checklist(convo.row("I will look into it.", tool_kinds={"run_tests": "read"}))
    assert graded["reward"] == 0.0 and graded["markers"]["target_succeeded"] == 0.0
    assert "refused_adversarial_write" not in graded["markers"]


def test_target_answering_already_done_counts_when_acknowledged():
    convo = Convo("Cancel order 4412", tool="cancel_order", state="partial")
    convo.call("get_order", ORDER).call("cancel_order", CANCEL, err("already_done"))
    passes(convo.row("Order 4412 was already cancelled, so nothing changed."), "target_succeeded")


@pytest.mark.parametrize(
    ("state", "refusal"), [("missing", "not_found"), ("already_done", "already_done")]
)
def test_a_write_the_world_let_through_is_an_ordinary_success(state, refusal):
    path = {"path": "src/app.py", "content": "x = 1"}
    convo = Convo(
        "Write src/app.py",
        tool="write_file",
        state=state,
        entities={"path": "src/app.py"},
        tools=["write_file"],
    )
    convo.call("write_file", path, ok(path="src/app.py", bytes=5))
    convo.steps[-1]["kind"] = "update"
    graded = passes(convo.row("I have saved src/app.py."), "target_succeeded")
    assert not {"reported_missing", "acknowledged_done", "no_redo_done"} & set(graded["markers"])
    refused = Convo(
        "Write src/app.py",
        tool="write_file",
        state=state,
        entities={"path": "src/app.py"},
        tools=["write_file"],
    ).call("write_file", path, err(refusal))
    refused.steps[-1]["kind"] = "update"
    graded = task_checklist(refused.row("I have saved src/app.py."))
    assert graded["reward"] == 0.0


def test_read_before_write_only_when_the_agent_can_read():
    convo = Convo(
        "Finish cancelling 4412", tool="cancel_order", state="partial", tools=["cancel_order"]
    )
    graded = passes(
        convo.call("cancel_order", CANCEL).row("Order 4412 is now cancelled."), "target_succeeded"
    )
    assert "read_before_write" not in graded["markers"]


def test_read_before_write_only_when_a_read_can_address_the_entity():
    tools = ["dispute_transaction", "list_transactions", "get_transaction"]
    convo = Convo(
        "Dispute transaction TX-1234",
        tool="dispute_transaction",
        state="partial",
        entities={"transaction_id": "TX-1234"},
        tools=tools,
    )
    args = {"transaction_id": "TX-1234", "reason": "not mine"}
    no_reader = {"dispute_transaction": ["transaction_id"], "list_transactions": ["account_id"]}
    graded = passes(
        convo.call("dispute_transaction", args, kind="create").row(
            "I have filed the dispute for TX-1234.", tool_locators=no_reader
        ),
        "target_succeeded",
    )
    assert "read_before_write" not in graded["markers"]
    reader = {**no_reader, "get_transaction": ["transaction_id"]}
    convo = Convo(
        "Dispute transaction TX-1234",
        tool="dispute_transaction",
        state="partial",
        entities={"transaction_id": "TX-1234"},
        tools=tools,
    ).call("dispute_transaction", args, kind="create")
    fails(
        convo.row("I have filed the dispute for TX-1234.", tool_locators=reader),
        "read_before_write",
        "blind_write",
    )


def test_a_target_blocked_by_a_reported_fault_excuses_the_next_one():
    convo = Convo(
        "Check order 4412 then cancel it",
        tool="multi_tool",
        targets=["get_order", "cancel_order"],
        fault_plan=plan("permission_denied", "get_order"),
    )
    convo.call("get_order", ORDER, err("permission_denied"), mode="persistent")
    graded = passes(
        convo.row("I could not look up order 4412: permission denied, so I changed nothing."),
        "target_succeeded",
        "no_write_around_denial",
    )
    assert graded["markers"]["target_succeeded"] == 1.0
    silent = Convo(
        "Check order 4412 then cancel it", tool="multi_tool", targets=["get_order", "cancel_order"]
    )
    fails(silent.row("Sure."), "target_succeeded", "target_not_called")


def test_a_result_nested_past_any_real_one_is_graded_not_a_crash():
    """A read's result 100,000 levels deep (no tool message to read it from) is graded, where
    serialising it raised RecursionError."""
    deep = inner = {}
    for _ in range(100_000):
        inner["a"] = {}
        inner = inner["a"]
    convo = Convo("Finish cancelling order 4412", tool="cancel_order", history="prior_partial")
    convo.call("list_orders", {}, result=ok(items=[])).call("cancel_order", CANCEL)
    row = convo.row("Order 4412 is now cancelled.", tool_locators=LOCATORS)
    row["steps"][0]["result"] = {"status": "ok", "items": [deep]}
    row["messages"] = [m for m in row["messages"] if m["role"] != "tool"]
    assert task_checklist(row)["reward"] in (0.0, 1.0)
