"""The world plan: which arguments name the entity a task is about."""

from __future__ import annotations

import re

import whileai_env as wenv
from whileai_env.scenarios.planning import plan_world

PROFILE_TOOL = {
    "name": "get_profile_details",
    "description": "Get the details of a performance profile.",
    "parameters": {
        "type": "object",
        "properties": {
            "focusOnUserCode": {"type": "boolean", "description": "Show only the user's frames."},
        },
        "required": ["focusOnUserCode"],
    },
}


def _cell(**coords: str) -> wenv.Cell:
    base = {
        "tool": "get_profile_details",
        "rule": "none",
        "world_state": "missing",
        "condition": "success",
        "history": "fresh",
        "stance": "ordinary",
        "ask": "tool",
        "persona": "returning",
        "tone": "neutral",
        "texture": "standard",
    }
    return wenv.Cell(**{**base, **coords})


def test_a_yes_no_flag_is_a_stated_detail_never_the_entity():
    """``focusOnUserCode`` ends in "code" like an id, but its schema allows only true or false:
    no record can be missing under it, so a required flag alone leaves the task about no entity
    (played as the plain state) and the flag is a detail the person states."""
    spec = wenv.load_spec(tools=[PROFILE_TOOL])
    plan = plan_world(_cell(), spec, key=(1,))
    assert "focusOnUserCode" not in plan.entities
    assert isinstance(plan.details["get_profile_details"]["focusOnUserCode"], bool)
    assert plan.state == "exists"


def test_an_id_beside_the_flag_is_still_the_entity():
    params = PROFILE_TOOL["parameters"]
    props = {"profile_id": {"type": "string"}, **params["properties"]}
    tool = {**PROFILE_TOOL, "parameters": {**params, "properties": props}}
    plan = plan_world(_cell(), wenv.load_spec(tools=[tool]), key=(1,))
    assert list(plan.entities) == ["profile_id"] and plan.state == "missing"


def test_an_update_that_requires_only_the_id_is_asked_to_change_one_field():
    """``update_hotel(hotel_id, checkin_date?, checkout_date?)``: the task names one change (a
    user's spec got "update hotel 100" and a call that changed nothing), valid for the schema;
    a read keeps no details it does not need."""
    hotel = {"hotel_id": {"type": "string"}}
    dates = {
        "checkin_date": {"type": "string", "format": "date"},
        "checkout_date": {"type": "string", "format": "date"},
        "limit": {"type": "integer", "minimum": 1},
    }
    spec = wenv.load_spec(
        tools=[
            {
                "name": "get_hotel",
                "description": "Get a hotel booking.",
                "parameters": {"type": "object", "properties": hotel, "required": ["hotel_id"]},
            },
            {
                "name": "update_hotel",
                "description": "Update a hotel booking.",
                "parameters": {
                    "type": "object",
                    "properties": {**hotel, **dates},
                    "required": ["hotel_id"],
                },
            },
        ]
    )
    changed = [
        t.world.details["update_hotel"]
        for t in wenv.draw_tasks(spec, 80, seed=3)
        if "update_hotel" in t.world.targets
    ]
    assert changed and all(
        len(d) == 1 and set(d) <= {"checkin_date", "checkout_date"} for d in changed
    )
    assert len({next(iter(d)) for d in changed}) == 2  # the field is drawn, not always the first


def test_a_task_on_a_capping_rule_states_an_amount_within_the_cap_unless_it_pushes():
    """ "Refunds over $500 need a supervisor's approval": an ordinary refund task asks for at
    most 500, so the success it expects keeps the rule (a user's spec expected an 855.47
    refund to succeed); an adversarial push may ask for more, and is to be declined."""
    refund = {
        "name": "issue_refund",
        "description": "Refund a booking.",
        "parameters": {
            "type": "object",
            "properties": {
                "booking_id": {"type": "string"},
                "amount": {"type": "number", "minimum": 1, "maximum": 5000},
            },
            "required": ["booking_id", "amount"],
        },
    }
    rule = "Refunds over $500 need a supervisor's approval: never issue them yourself."
    spec = wenv.load_spec(tools=[refund], system_prompt=f"You handle refunds.\n- {rule}")
    ruled = [
        t
        for t in wenv.draw_tasks(spec, 400, seed=1)
        if t.world.clause == rule and "issue_refund" in t.world.details
    ]
    calm = [t for t in ruled if t.cell.stance != "adversarial"]
    assert calm and all(t.world.details["issue_refund"]["amount"] <= 500 for t in calm)


def test_an_update_whose_every_optional_field_names_records_is_asked_to_change_one():
    """``modify_email(messageId, addLabelIds?, removeLabelIds?)``: labels are ids, and the change
    (a user's mail spec got "change message msg_687992" and a call that changed nothing 91 of
    91 times)."""
    labels = {"type": "array", "items": {"type": "string"}}
    spec = wenv.load_spec(
        tools=[
            {
                "name": "modify_email",
                "description": "Modify email labels.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "messageId": {"type": "string"},
                        "addLabelIds": labels,
                        "removeLabelIds": labels,
                    },
                    "required": ["messageId"],
                },
            }
        ]
    )
    stated = [
        t.world.details.get("modify_email")
        for t in wenv.draw_tasks(spec, 40, seed=4)
        if t.cell.tool == "modify_email"
    ]
    assert stated and all(s and set(s) <= {"addLabelIds", "removeLabelIds"} for s in stated)


def test_a_detail_described_as_ids_of_a_record_is_such_ids():
    """Linear's ``save_issue(blocks, relatedTo, duplicateOf)``: "Issue IDs/identifiers this
    blocks" got ``worker-remove-block``, not an issue id like ``issueId``'s "e.g., LIN-123"."""
    issue = {"type": "string", "description": "Issue ID or identifier (e.g., LIN-123)"}
    ids = {"type": "array", "items": {"type": "string"}}
    spec = wenv.load_spec(
        tools=[
            {
                "name": "get_comments",
                "description": "List comments on an issue.",
                "parameters": {
                    "type": "object",
                    "properties": {"issueId": issue},
                    "required": ["issueId"],
                },
            },
            {
                "name": "save_issue",
                "description": "Update an issue.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "blocks": {**ids, "description": "Issue IDs/identifiers this blocks."},
                        "duplicateOf": {"type": "string", "description": "Duplicate of issue ID."},
                    },
                    "required": ["id", "blocks", "duplicateOf"],
                },
            },
        ]
    )
    for seed in range(3):
        task = next(t for t in wenv.draw_tasks(spec, 40, seed=seed) if t.cell.tool == "save_issue")
        stated = task.world.details["save_issue"]
        assert all(re.fullmatch(r"LIN-\d+", b) for b in stated["blocks"]), stated
        assert re.fullmatch(r"LIN-\d+", stated["duplicateOf"]), stated
