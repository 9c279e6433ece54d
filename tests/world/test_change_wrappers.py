"""An update's wrapper of changes (``patch``, ``changes``) is opened, never stored as a field."""

from __future__ import annotations

import pytest

import whileai_env as wenv

SPEC = wenv.load_spec(
    tools=[
        {
            "name": "get_ticket",
            "parameters": {
                "type": "object",
                "properties": {"ticket_id": {"type": "string"}},
                "required": ["ticket_id"],
            },
        },
        {
            "name": "update_ticket",
            "parameters": {
                "type": "object",
                "properties": {"ticket_id": {"type": "string"}, "priority": {"type": "string"}},
                "required": ["ticket_id"],
            },
        },
    ]
)


@pytest.mark.parametrize("value", [None, "", "raise it", [], ["priority"]])
def test_a_wrapper_holding_no_object_changes_nothing(value):
    world = wenv.World(SPEC, seed=0, options={"exists_share": 1.0})
    assert world.call("get_ticket", {"ticket_id": "T-1"})["status"] == "ok"
    result = world.call("update_ticket", {"ticket_id": "T-1", "priority": "high", "changes": value})
    assert result["status"] == "ok" and "changes" not in result["updated"]
    after = world.call("get_ticket", {"ticket_id": "T-1"})
    assert "changes" not in after and after.get("priority") == "high"


def test_a_wrapper_holding_an_object_is_opened():
    world = wenv.World(SPEC, seed=0, options={"exists_share": 1.0})
    world.call("get_ticket", {"ticket_id": "T-1"})
    result = world.call("update_ticket", {"ticket_id": "T-1", "patch": {"priority": "low"}})
    after = world.call("get_ticket", {"ticket_id": "T-1"})
    assert "priority" in result["updated"] and after.get("priority") == "low"
    assert "patch" not in after


def test_an_object_named_for_the_record_wraps_its_changes():
    """Freshdesk's ``update_ticket(ticket={"status": "pending"})`` stored the whole object as
    the ticket's ``ticket_status`` (the field its name is near) and changed nothing else."""
    tools = [
        {
            "name": "get_ticket",
            "parameters": {
                "type": "object",
                "properties": {"ticket_id": {"type": "integer"}},
                "required": ["ticket_id"],
            },
        },
        {
            "name": "update_ticket",
            "parameters": {
                "type": "object",
                "properties": {
                    "ticket_id": {"type": "integer"},
                    "ticket": {"type": "object", "additionalProperties": {}},
                },
                "required": ["ticket_id", "ticket"],
            },
        },
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=1, options={"exists_share": 1.0})
    before = world.call("get_ticket", {"ticket_id": 2317})
    status = next(k for k in before if k.endswith("_status"))
    changes = {"status": "pending", "subject": "VPN drops every hour"}
    assert world.call("update_ticket", {"ticket_id": 2317, "ticket": changes})["status"] == "ok"
    after = world.call("get_ticket", {"ticket_id": 2317})
    assert after[status] == "pending" and after["subject"] == "VPN drops every hour", after
    assert "ticket" not in after
    # a field the ticket does not have yet is added, and the status stays a status
    due = {"due_date": "2027-01-08"}
    assert world.call("update_ticket", {"ticket_id": 2317, "ticket": due})["status"] == "ok"
    after = world.call("get_ticket", {"ticket_id": 2317})
    assert after[status] == "pending" and after["due_date"] == "2027-01-08", after
