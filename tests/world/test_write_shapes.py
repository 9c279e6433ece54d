"""Writes in the shapes real servers take them (trial users' Jira and Shopify specs: a JSON string
of fields changed nothing, ``transition="Done"`` was stored as a field, and a product's written
``status`` hid the answer's own, so a read after the write looked failed)."""

from __future__ import annotations

import json

import whileai_env as wenv

_KEY = {"type": "string", "description": "Jira issue key (e.g., 'PROJ-123')"}
_TEXT = {"anyOf": [{"type": "string"}, {"type": "null"}]}


def _tool(name: str, description: str, props: dict, required: tuple[str, ...]) -> dict:
    body = {"type": "object", "properties": props, "required": list(required)}
    return {"name": name, "description": description, "parameters": body}


JIRA = [
    _tool("get_issue", "Get a Jira issue.", {"issue_key": _KEY}, ("issue_key",)),
    _tool(
        "update_issue",
        "Update an issue.",
        {
            "issue_key": _KEY,
            "fields": {**_TEXT, "description": "JSON string of fields to update."},
            "transition": {**_TEXT, "description": "Transition name or ID."},
        },
        ("issue_key",),
    ),
    _tool(
        "transition_issue",
        "Transition a Jira issue to a new status.",
        {"issue_key": _KEY, "transition_id": {"type": "string"}},
        ("issue_key", "transition_id"),
    ),
]
SHOP = [
    _tool(
        "get_product", "Get a product by id.", {"product_id": {"type": "string"}}, ("product_id",)
    ),
    _tool(
        "update_product",
        "Update a product.",
        {
            "product_id": {"type": "string"},
            "status": {"type": "string", "enum": ["ACTIVE", "DRAFT", "ARCHIVED"]},
        },
        ("product_id",),
    ),
]


def _world(tools: list[dict]) -> wenv.World:
    return wenv.World(wenv.load_spec(tools=tools), seed=1, options={"exists_share": 1.0})


def test_a_json_string_of_fields_makes_its_changes():
    world = _world(JIRA)
    before = world.call("get_issue", {"issue_key": "PROJ-7"})
    field = next(
        k for k, v in before.items() if k not in ("status", "issue_key") and isinstance(v, str)
    )
    changes = json.dumps({field: "VPN broken", "priority": {"name": "High"}})
    done = world.call("update_issue", {"issue_key": "PROJ-7", "fields": changes})
    assert done["status"] == "ok" and field in done["updated"]
    after = world.call("get_issue", {"issue_key": "PROJ-7"})
    assert after[field] == "VPN broken" and "fields" not in after
    if "priority" in before:
        assert after["priority"] == "High"  # {"name": "High"} is the priority's value


def test_a_transition_sets_the_status_it_names():
    world = _world(JIRA)
    status = next(
        k for k in world.call("get_issue", {"issue_key": "PROJ-7"}) if k.endswith("_status")
    )
    world.call("transition_issue", {"issue_key": "PROJ-7", "transition_id": "In Progress"})
    assert world.call("get_issue", {"issue_key": "PROJ-7"})[status] == "in_progress"
    world.call("update_issue", {"issue_key": "PROJ-7", "transition": "Done"})
    after = world.call("get_issue", {"issue_key": "PROJ-7"})
    assert after[status] == "done" and "transition" not in after


def test_a_written_status_never_hides_the_answers_own():
    world = _world(SHOP)
    assert (
        world.call("update_product", {"product_id": "P-1", "status": "ARCHIVED"})["status"] == "ok"
    )
    read = world.call("get_product", {"product_id": "P-1"})
    assert read["status"] == "ok" and "ARCHIVED" in read.values()
    assert world.ledger[-1]["ok"] is True


AIRTABLE = [
    _tool(
        "get_record",
        "Get a record.",
        {
            "baseId": {"type": "string"},
            "tableId": {"type": "string"},
            "recordId": {"type": "string"},
        },
        ("baseId", "tableId", "recordId"),
    ),
    _tool(
        "update_records",
        "Update up to 10 records in a table.",
        {
            "baseId": {"type": "string"},
            "tableId": {"type": "string"},
            "records": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "fields": {"type": "object"}},
                },
            },
        },
        ("baseId", "tableId", "records"),
    ),
    _tool(
        "delete_records",
        "Delete records from a table.",
        {
            "baseId": {"type": "string"},
            "tableId": {"type": "string"},
            "recordIds": {"type": "array", "items": {"type": "string"}},
        },
        ("baseId", "tableId", "recordIds"),
    ),
]


def test_a_batch_update_changes_each_record_its_items_name():
    """A trial Airtable spec: ``update_records(records=[{id, fields}])`` wrote onto the base, and
    the record read back unchanged."""
    world = _world(AIRTABLE)
    at = {"baseId": "appA", "tableId": "tblB"}
    assert world.call("get_record", {**at, "recordId": "recC"})["status"] == "ok"
    done = world.call(
        "update_records", {**at, "records": [{"id": "recC", "fields": {"Stage": "Offer"}}]}
    )
    assert done["status"] == "ok" and done["records"][0]["updated"] == ["Stage"]
    assert world.call("get_record", {**at, "recordId": "recC"})["Stage"] == "Offer"


def test_an_empty_batch_delete_deletes_nothing():
    """``delete_records(recordIds=[])`` deleted the base the records sat in."""
    world = _world(AIRTABLE)
    at = {"baseId": "appA", "tableId": "tblB"}
    assert world.call("delete_records", {**at, "recordIds": []})["deleted"] is False
    assert world.call("get_record", {**at, "recordId": "recC"})["status"] == "ok"


def test_a_list_of_a_records_own_children_is_what_the_record_holds():
    """A trial Zendesk spec: ``get_ticket.comments`` and ``get_ticket_comments`` disagreed on 69
    of 84 tasks, and a comment just added was listed as "Comment 552" without its text."""
    ticket = {"ticket_id": {"type": "integer"}}
    tools = [
        _tool("get_ticket", "Get a ticket.", ticket, ("ticket_id",)),
        _tool("get_ticket_comments", "List a ticket's comments.", ticket, ("ticket_id",)),
        _tool(
            "create_ticket_comment",
            "Add a comment to a ticket.",
            {**ticket, "comment": {"type": "string"}},
            ("ticket_id", "comment"),
        ),
    ]
    checked = 0
    for seed in range(12):
        world = wenv.World(wenv.load_spec(tools=tools), seed=seed, options={"exists_share": 1.0})
        held = world.call("get_ticket", {"ticket_id": 4412}).get("comments")
        if not isinstance(held, list) or not held:
            continue
        checked += 1
        listed = world.call("get_ticket_comments", {"ticket_id": 4412})["items"]
        assert [c.get("body") for c in listed] == [c.get("body") for c in held]
        world.call("create_ticket_comment", {"ticket_id": 4412, "comment": "Reset link resent."})
        listed = world.call("get_ticket_comments", {"ticket_id": 4412})["items"]
        assert len(listed) == len(held) + 1 and "Reset link resent." in listed[-1].values()
    assert checked


def _customers() -> wenv.Spec:
    text = {"type": "string"}
    return wenv.load_spec(
        tools=[
            _tool("get-customers", "Search customers.", {"searchQuery": text}, ()),
            _tool(
                "update-customer",
                "Update a customer.",
                {"id": text, "firstName": text, "lastName": text},
                ("id",),
            ),
        ]
    )


def test_a_first_and_a_last_name_change_the_one_full_name():
    """Shopify's ``update-customer(firstName, lastName)`` kept only the last name, "Reyes", and a
    search for "Harris" found customers named just "Harris" (a trial Shopify spec)."""
    world = wenv.World(_customers(), seed=1)
    hits = world.call("get-customers", {"searchQuery": "Harris"})["items"]
    assert hits and all(h["name"].endswith(" Harris") for h in hits), hits
    ident = hits[0]["id"]
    done = world.call("update-customer", {"id": ident, "firstName": "Ana", "lastName": "Reyes"})
    assert done["updated"] == ["name"], done
    found = world.call("get-customers", {"searchQuery": "Reyes"})["items"]
    assert any(h["id"] == ident and h["name"] == "Ana Reyes" for h in found), found
