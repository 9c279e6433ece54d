"""Batch writes, exact-id searches, namespaced searches and new contacts (trial users' mail,
phone and CRM specs: a batch delete deleted nothing, a search by a reminder's id listed other
reminders, ``hubspot_search`` answered one made-up record, and adding a contact for a new
phone number answered ``not_found``)."""

from __future__ import annotations

import whileai_env as wenv
from whileai_env.world.profile import profile_for

_IDS = {"type": "array", "items": {"type": "string"}, "description": "List of message IDs"}


def _tool(name: str, props: dict, required: tuple[str, ...] = ()) -> dict:
    body = {"type": "object", "properties": props, "required": list(required)}
    return {"name": name, "description": f"{name.replace('_', ' ')}.", "parameters": body}


MAIL = [
    _tool("read_email", {"messageId": {"type": "string"}}, ("messageId",)),
    _tool("search_emails", {"query": {"type": "string"}}, ("query",)),
    _tool("batch_delete_emails", {"messageIds": _IDS}, ("messageIds",)),
]


def test_a_batch_delete_removes_every_id_it_names():
    world = wenv.World(wenv.load_spec(tools=MAIL), seed=1, options={"exists_share": 1.0})
    listed = [i["messageId"] for i in world.call("search_emails", {"query": "invoice"})["items"]]
    assert len(listed) >= 2
    assert world.call("batch_delete_emails", {"messageIds": listed[:2]})["status"] == "ok"
    for ident in listed[:2]:
        assert world.call("read_email", {"messageId": ident})["error"]["code"] == "not_found"
    after = {i["messageId"] for i in world.call("search_emails", {"query": "invoice"})["items"]}
    assert not after & set(listed[:2])


_LABELS = {"type": "array", "items": {"type": "string"}}
LABELLED = [
    *MAIL,
    _tool(
        "modify_email",
        {"messageId": {"type": "string"}, "addLabelIds": _LABELS, "removeLabelIds": _LABELS},
        ("messageId",),
    ),
    _tool(
        "batch_modify_emails",
        {"messageIds": _IDS, "addLabelIds": _LABELS, "removeLabelIds": _LABELS},
        ("messageIds",),
    ),
]


def test_a_batch_update_changes_every_id_it_names_and_labels_join_the_records_list():
    """A user's Gmail spec: ``batch_modify_emails`` labelled a new, unnamed message, and
    ``modify_email`` stored ``addLabelIds`` as a field, each call overwriting the last."""
    world = wenv.World(wenv.load_spec(tools=LABELLED), seed=1, options={"exists_share": 1.0})
    named = ["msg_111111", "msg_222222"]
    done = world.call(
        "batch_modify_emails", {"messageIds": named, "addLabelIds": ["STARRED", "L1"]}
    )
    assert done["status"] == "ok" and done["updated_ids"] == named, done
    assert {k for k, _ in world.store.entities} == {"message"}
    assert {i for _, i in world.store.entities} == set(named)
    world.call(
        "modify_email",
        {"messageId": named[0], "removeLabelIds": ["STARRED"], "addLabelIds": ["L2"]},
    )
    first, second = (world.call("read_email", {"messageId": m}) for m in named)
    assert first["labelIds"] == ["L1", "L2"] and "addLabelIds" not in first, first
    assert second["labelIds"] == ["STARRED", "L1"], second


def test_a_search_by_a_records_own_id_lists_that_record_alone():
    tools = [
        _tool(
            "search_reminder", {"reminder_id": {"type": "string"}, "content": {"type": "string"}}
        ),
        _tool("get_reminder", {"reminder_id": {"type": "string"}}, ("reminder_id",)),
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=2, options={"exists_share": 1.0})
    for n in range(5):
        items = world.call("search_reminder", {"reminder_id": f"REM-10{n}"})["items"]
        assert [i["reminder_id"] for i in items] == [f"REM-10{n}"]


def test_a_search_after_a_service_name_is_a_search():
    tools = [
        _tool("hubspot_search", {"query": {"type": "string"}}),
        _tool("hubspot_get_contact", {"contactId": {"type": "string"}}, ("contactId",)),
    ]
    assert profile_for(wenv.load_spec(tools=tools)).tools["hubspot_search"].family == "list"


def test_a_new_contacts_own_phone_is_no_reference_that_must_exist():
    tools = [
        _tool(
            "add_contact",
            {"name": {"type": "string"}, "phone_number": {"type": "string"}},
            ("name", "phone_number"),
        ),
        _tool("search_contacts", {"phone_number": {"type": "string"}}),
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=3, options={"exists_share": 0.0})
    made = world.call("add_contact", {"name": "Ada Lovelace", "phone_number": "+14155550123"})
    assert made["status"] == "ok", made
    found = world.call("search_contacts", {"phone_number": "+14155550123"})["items"]
    assert [i.get("name") for i in found] == ["Ada Lovelace"]


def test_a_message_just_sent_reads_back_as_sent_now_with_nothing_attached():
    tools = [
        _tool(
            "send_email",
            {"to": {"type": "array", "items": {"type": "string"}}, "subject": {"type": "string"}},
            ("to", "subject"),
        ),
        _tool("read_email", {"messageId": {"type": "string"}}, ("messageId",)),
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=1)
    sent = world.call("send_email", {"to": ["ana.lind@telia.se"], "subject": "Hi"})
    read = world.call("read_email", {"messageId": sent["messageId"]})
    assert read["subject"] == "Hi" and read.get("attachments", []) == []
    assert read.get("sent_at", sent["created_at"]) == sent["created_at"]


def test_a_moment_a_write_states_as_an_epoch_lies_ahead_of_the_clock():
    when = {"type": "integer", "description": "POSIX timestamp of the reminder"}
    tools = [
        _tool(
            "add_reminder",
            {"content": {"type": "string"}, "reminder_timestamp": when},
            ("content", "reminder_timestamp"),
        )
    ]
    spec = wenv.load_spec(tools=tools)
    stated = [
        t.world.details["add_reminder"]["reminder_timestamp"]
        for t in wenv.draw_tasks(spec, 30, seed=2)
        if "add_reminder" in t.world.details
    ]
    assert stated and all(s > 1_796_040_000 for s in stated)


def test_a_search_operator_narrows_what_is_listed():
    """``from:jmoss@ifrance.com`` listed mail from other senders in a user's mail spec."""
    world = wenv.World(wenv.load_spec(tools=MAIL), seed=1, options={"exists_share": 1.0})
    items = world.call("search_emails", {"query": "from:jmoss@ifrance.com in:inbox"})["items"]
    assert items and all(i["from"] == "jmoss@ifrance.com" for i in items if "from" in i)
    assert any("from" in i for i in items)


def test_a_tasks_label_id_is_never_listed_as_a_message():
    """Two tools take a bare ``id`` (a message's, a label's): on a label task the label's id was
    listed as a message in 31 of 37 tasks of a user's mail spec."""
    tools = [
        _tool("search_messages", {"query": {"type": "string"}}),
        _tool("get_message", {"id": {"type": "string"}}, ("id",)),
        _tool("delete_label", {"id": {"type": "string"}}, ("id",)),
    ]
    spec = wenv.load_spec(tools=tools)
    tasks = [
        t for t in wenv.draw_tasks(spec, 60, seed=1, fault_rate=0) if t.cell.tool == "delete_label"
    ]
    assert tasks
    for task in tasks:
        world = wenv.World(spec, seed=1)
        world.reset(task)
        label = task.world.entities["id"]
        listed = [i.get("id") for i in world.call("search_messages", {"query": "invoice"})["items"]]
        assert label not in listed


def _played(tools: list[dict], state: str, target: str) -> list[tuple[wenv.Task, wenv.World]]:
    """Each drawn task of ``target`` alone in world ``state``, with a world reset to it."""
    spec = wenv.load_spec(tools=tools)
    tasks = [
        t
        for t in wenv.draw_tasks(spec, 200, seed=3, fault_rate=0)
        if t.world.state == state and t.world.targets == (target,)
    ]
    assert tasks
    out = []
    for task in tasks:
        world = wenv.World(spec, seed=1)
        world.reset(task)
        out.append((task, world))
    return out


def test_an_update_already_done_is_held_by_the_record():
    """A CRM spec's update answered ``already_done`` while a read showed none of the values."""
    tools = [
        _tool("get_contact", {"contact_id": {"type": "string"}}, ("contact_id",)),
        _tool(
            "update_contact",
            {"contact_id": {"type": "string"}, "job_title": {"type": "string"}},
            ("contact_id", "job_title"),
        ),
    ]
    for task, world in _played(tools, "already_done", "update_contact"):
        ident = task.world.entities["contact_id"]
        asked = task.world.details["update_contact"]["job_title"]
        assert world.call("get_contact", {"contact_id": ident})["job_title"] == asked


def test_a_record_a_write_is_to_act_on_is_not_already_over():
    """A retail task asked to return items of an order its read showed cancelled (the prompt
    says to check the status first, so an honest agent stopped and scored 0)."""
    status = {"type": "string", "enum": ["pending", "delivered", "cancelled"]}
    tools = [
        _tool("get_order", {"order_id": {"type": "string"}}, ("order_id",)),
        _tool("return_order", {"order_id": {"type": "string"}}, ("order_id",)),
        _tool("list_orders", {"order_status": status}),
    ]
    for task, world in _played(tools, "exists", "return_order"):
        read = world.call("get_order", {"order_id": task.world.entities["order_id"]})
        assert read.get("order_status") != "cancelled", read


def test_a_switch_a_write_sets_is_what_a_read_shows():
    """``set_wifi_status(on=false)`` then ``get_wifi_status()`` answered "active" (a user's phone
    spec): the two reached two records, and the switch left the status as it was."""
    tools = [
        _tool("set_wifi_status", {"on": {"type": "boolean"}}, ("on",)),
        _tool("get_wifi_status", {}),
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=1)
    assert world.call("set_wifi_status", {"on": False})["status"] == "ok"
    read = world.call("get_wifi_status", {})
    assert read["wifi_status"] == "off" and read["on"] is False
