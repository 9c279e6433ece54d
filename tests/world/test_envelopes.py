"""Writes through a tool whose one argument wraps the others (``manage_incidents(manage_request=
{incident_ids, status, assignment})`` of PagerDuty's MCP server) change the records they name.

Found by a new-user trial on PagerDuty's server: the ids sat one level down, so a write named no
record, a missing incident played as existing, and an assignment ``{"id": …}`` overwrote the
incident's own id.
"""

from __future__ import annotations

import re

import pytest

import whileai_env as wenv

_REF = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
_TICKET = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "title": {"type": "string"},
        "status": {"enum": ["open", "pending", "closed"]},
        "queue": {"$ref": "#/$defs/Ref"},
    },
    "required": ["id", "title", "status", "queue"],
}


@pytest.fixture(scope="module")
def spec() -> wenv.Spec:
    manage = {
        "type": "object",
        "properties": {"update_request": {"$ref": "#/$defs/Update"}},
        "required": ["update_request"],
        "$defs": {
            "Ref": _REF,
            "Update": {
                "type": "object",
                "properties": {
                    "ticket_ids": {"type": "array", "items": {"type": "string"}},
                    "status": {"enum": ["open", "pending", "closed"]},
                    "assignee": {"$ref": "#/$defs/Ref"},
                },
                "required": ["ticket_ids"],
            },
        },
    }
    listed = {
        "type": "object",
        "properties": {"response": {"type": "array", "items": {"$ref": "#/$defs/Ticket"}}},
        "required": ["response"],
        "$defs": {"Ref": _REF, "Ticket": _TICKET},
    }
    one = {
        "type": "object",
        "properties": {"result": {"$ref": "#/$defs/Ticket"}},
        "required": ["result"],
        "$defs": {"Ref": _REF, "Ticket": _TICKET},
    }
    return wenv.load_spec(
        tools=[
            {
                "name": "get_ticket",
                "description": "Get a support ticket.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"ticket_id": {"type": "string"}},
                    "required": ["ticket_id"],
                },
                "outputSchema": one,
            },
            {
                "name": "update_tickets",
                "description": "Update one or more tickets: status or assignee.",
                "inputSchema": manage,
                "outputSchema": listed,
            },
        ],
        system_prompt="You are a support assistant.",
    )


def _task(spec: wenv.Spec, state: str) -> wenv.Task:
    tasks = wenv.draw_tasks(spec, 200, seed=1)
    return next(t for t in tasks if t.cell.tool == "update_tickets" and t.world.state == state)


def test_a_wrapped_write_changes_each_record_it_names(spec: wenv.Spec) -> None:
    task = _task(spec, "exists")
    ids = list(task.world.entities["ticket_ids"])
    world = wenv.World(spec, task=task)
    sent = {"update_request": {"ticket_ids": ids, "status": "closed"}}
    result = world.call("update_tickets", sent)
    assert result["status"] == "ok", result
    assert [t["id"] for t in result["response"]] == ids
    assert all(t["status"] == "closed" for t in result["response"])
    for ident in ids:
        read = world.call("get_ticket", {"ticket_id": ident})
        assert read["result"]["id"] == ident and read["result"]["status"] == "closed"
    step = world.ledger[0]
    assert step["arguments"] == sent["update_request"] and step["sent"] == sent


def test_a_missing_record_is_missing_through_the_envelope(spec: wenv.Spec) -> None:
    task = _task(spec, "missing")
    world = wenv.World(spec, task=task)
    ids = list(task.world.entities["ticket_ids"])
    result = world.call("update_tickets", {"update_request": {"ticket_ids": ids, "status": "open"}})
    assert result["status"] == "error" and result["error"]["code"] == "not_found", result


def test_a_call_that_leaves_the_envelope_out_is_rejected_naming_it(spec: wenv.Spec) -> None:
    world = wenv.World(spec)
    result = world.call("update_tickets", {"ticket_ids": ["T-1"], "status": "open"})
    assert result["status"] == "error" and result["error"]["code"] == "rejected"
    assert "update_request" in result["error"]["message"]


def test_a_reference_is_a_field_never_the_record_s_own_id(spec: wenv.Spec) -> None:
    task = _task(spec, "exists")
    ident = task.world.entities["ticket_ids"][0]
    world = wenv.World(spec, task=task)
    sent = {"update_request": {"ticket_ids": [ident], "assignee": {"id": "PUSER42"}}}
    result = world.call("update_tickets", sent)
    assert result["status"] == "ok" and result["updated"] == ["assignee"], result
    read = world.call("get_ticket", {"ticket_id": ident})["result"]
    assert read["id"] == ident


def test_a_reference_s_id_is_an_id_of_its_own_noun(spec: wenv.Spec) -> None:
    task = _task(spec, "exists")
    ident = task.world.entities["ticket_ids"][0]
    read = wenv.World(spec, task=task).call("get_ticket", {"ticket_id": ident})["result"]
    if "queue" in read:
        assert re.match(r"QUE-\d+$", read["queue"]["id"]), read
