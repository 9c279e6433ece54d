"""A record named by its parent's locator and its own (Slack's ``channel`` and ``ts``, GitLab's
``project_id`` and ``issue_iid``) is its own record, not the parent.

Found by new-user trials on Slack and GitLab specs written from the public tool definitions: a
posted message never appeared in the channel's history, deleting a message deleted the channel,
``get_issue(project_id, issue_iid)`` answered the project, and ``conversations_list`` gave ids no
other tool accepts.
"""

from __future__ import annotations

import re

import pytest

import whileai_env as wenv
from whileai_env.spec.arguments import argument_role
from whileai_env.world.arguments import DETAIL_CLOCK, locator_value

_CHANNEL = {
    "type": "string",
    "pattern": "^[CGD][A-Z0-9]{8,10}$",
    "description": "Channel containing the message.",
}
_TS = {"type": "string", "pattern": r"^[0-9]{10}\.[0-9]{6}$"}


def _tool(name: str, description: str, props: dict, required: list[str]) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": props, "required": required},
    }


@pytest.fixture(scope="module")
def slack() -> wenv.Spec:
    """Slack's Web API methods: channels hold messages named by their ``ts``."""
    ts = {**_TS, "description": "Timestamp of the message to be deleted."}
    return wenv.load_spec(
        tools=[
            _tool("conversations_list", "Lists all channels in a Slack team.", {}, []),
            _tool(
                "conversations_history",
                "Fetches a conversation's history of messages and events.",
                {"channel": _CHANNEL},
                ["channel"],
            ),
            _tool(
                "chat_postMessage",
                "Sends a message to a channel.",
                {
                    "channel": _CHANNEL,
                    "text": {"type": "string"},
                    "thread_ts": {
                        **_TS,
                        "description": "Provide another message's ts value to make a reply.",
                    },
                },
                ["channel", "text"],
            ),
            _tool(
                "chat_update",
                "Updates a message.",
                {
                    "channel": _CHANNEL,
                    "ts": {**_TS, "description": "Timestamp of the message to be updated."},
                    "text": {"type": "string"},
                },
                ["channel", "ts", "text"],
            ),
            _tool(
                "chat_delete",
                "Deletes a message.",
                {"channel": _CHANNEL, "ts": ts},
                ["channel", "ts"],
            ),
        ],
        system_prompt="You are a Slack assistant.",
    )


@pytest.fixture(scope="module")
def gitlab() -> wenv.Spec:
    """GitLab's issues, named inside a project by their ``iid``."""
    project = {"type": ["integer", "string"], "description": "The ID or path of the project."}
    iid = {"type": "integer", "description": "The internal ID of the project's issue."}
    return wenv.load_spec(
        tools=[
            _tool("get_project", "Get a project.", {"project_id": project}, ["project_id"]),
            _tool(
                "get_issue",
                "Get a single issue of a project.",
                {"project_id": project, "issue_iid": iid},
                ["project_id", "issue_iid"],
            ),
            _tool(
                "update_issue",
                "Update an issue.",
                {"project_id": project, "issue_iid": iid, "title": {"type": "string"}},
                ["project_id", "issue_iid"],
            ),
        ],
        system_prompt="You help with GitLab.",
    )


@pytest.mark.parametrize(
    ("name", "description", "role"),
    [
        ("issue_iid", "", "locator"),
        ("bookingUid", "", "locator"),  # Cal.com's
        ("uid", "The booking's unique id.", "locator"),
        ("merge_request_iid", "", "locator"),
        ("ts", "Timestamp of the message to be updated.", "locator"),
        ("thread_ts", "Provide another message's ts value.", "locator"),
        ("timestamp", "The timestamp of the message to react to", "locator"),
        ("timestamp", "Timestamp for the engagement (milliseconds since epoch).", "text"),
        ("latest", "Only messages before this Unix timestamp.", "text"),
    ],
)
def test_a_child_records_own_id_is_a_locator(name, description, role):
    assert argument_role(name, {"type": "string", "description": description}) == role


def _channel(world: wenv.World) -> str:
    listed = world.call("conversations_list", {})
    assert listed["status"] == "ok", listed
    return listed["items"][0]["channel"]


def test_listed_channels_carry_the_ids_the_other_tools_take(slack):
    world = wenv.world(slack, seed=3)
    world.reset()
    channel = _channel(world)
    assert re.fullmatch(_CHANNEL["pattern"], channel)
    assert world.call("conversations_history", {"channel": channel})["status"] == "ok"


def test_a_posted_message_is_in_the_history_and_a_deleted_one_is_gone(slack):
    world = wenv.world(slack, seed=3)
    world.reset()
    channel = _channel(world)
    posted = world.call("chat_postMessage", {"channel": channel, "text": "hello there"})
    assert posted["status"] == "ok", posted
    ts = posted["ts"]
    assert re.fullmatch(_TS["pattern"], ts)
    history = world.call("conversations_history", {"channel": channel})
    assert [m["text"] for m in history["items"] if m.get("ts") == ts] == ["hello there"]
    deleted = world.call("chat_delete", {"channel": channel, "ts": ts})
    assert deleted["status"] == "ok", deleted
    after = world.call("conversations_history", {"channel": channel})
    assert after["status"] == "ok", after  # the channel lives on
    assert ts not in [m.get("ts") for m in after["items"]]


def test_an_edited_message_reads_edited_in_its_channel_and_the_channel_is_no_change(slack):
    """A user's Jira spec: ``edit_comment`` answered ok, the issue's read still showed the old
    text, and ``updated`` listed the issue's key as a changed field."""
    world = wenv.world(slack, seed=3)
    world.reset()
    channel = _channel(world)
    ts = world.call("chat_postMessage", {"channel": channel, "text": "hello there"})["ts"]
    edited = world.call("chat_update", {"channel": channel, "ts": ts, "text": "hello again"})
    assert edited["status"] == "ok" and edited["updated"] == ["text"], edited
    history = world.call("conversations_history", {"channel": channel})
    assert [m["text"] for m in history["items"] if m.get("ts") == ts] == ["hello again"]


def test_an_issue_is_read_by_its_iid(gitlab):
    world = wenv.world(gitlab, seed=5)
    world.reset()
    issue = world.call("get_issue", {"project_id": 289, "issue_iid": 3051})
    assert issue["status"] == "ok" and issue.get("issue_iid") == 3051, issue
    assert "name" not in issue or "Project" not in str(issue["name"])
    for title in ("first", "second"):
        updated = world.call("update_issue", {"project_id": 289, "issue_iid": 3051, "title": title})
        assert updated["status"] == "ok" and "title" in updated["updated"], updated
    assert world.call("get_issue", {"project_id": 289, "issue_iid": 3051})["title"] == "second"


def test_a_method_named_for_its_service_is_said_with_its_described_object(slack):
    openers = [
        t.opener.lower() for t in wenv.draw_tasks(slack, 80, seed=2) if t.cell.tool == "chat_update"
    ]
    assert openers
    assert not any("chat for" in o or "the chat" in o for o in openers), openers[:3]


@pytest.mark.parametrize("seed", range(6))
def test_a_ts_whose_description_shows_an_epoch_is_a_recent_one(seed):
    """Slack's "in the format '1234567890.123456'": the example's digits redrawn gave a ts in 2050."""
    schema = {
        "type": "string",
        "description": "The timestamp of the parent message in the format '1234567890.123456'.",
    }
    ts = locator_value("thread_ts", schema, seed)
    seconds, _, micros = ts.partition(".")
    assert DETAIL_CLOCK - 60 * 86400 <= int(seconds) <= DETAIL_CLOCK and len(micros) == 6, ts


def test_a_list_of_a_record_s_children_does_not_hold_the_record():
    """Linear's ``list_issues(parentId)`` listed the parent among its own sub-issues (20 of 23
    such calls on a trial Linear spec)."""
    spec = wenv.load_spec(
        tools=[
            _tool(
                "list_issues",
                "List issues, e.g. the sub-issues of a parent issue.",
                {"parentId": {"type": "string", "description": "Parent issue ID"}},
                [],
            ),
            _tool("get_issue", "Get an issue by ID.", {"id": {"type": "string"}}, ["id"]),
        ]
    )
    tasks = wenv.draw_tasks(spec, 80, seed=0, fault_rate=0)
    named = [t for t in tasks if t.cell.tool == "list_issues" and "parentId" in t.world.entities]
    assert named
    for task in named:
        parent = task.world.entities["parentId"]
        listed = wenv.World(spec, task=task).call("list_issues", {"parentId": parent})
        if listed["status"] == "ok":
            assert parent not in [i.get("id") for i in listed["items"]], listed


def test_a_customer_s_orders_carry_the_customer_s_own_name_and_email():
    """Shopify's ``get-customer-orders(customerId)`` listed three strangers' emails on one
    customer's orders, and wrote the customer's id as their name (a trial Shopify spec)."""
    spec = wenv.load_spec(
        tools=[
            _tool(
                "get-customer",
                "Get a customer.",
                {"customerId": {"type": "string"}},
                ["customerId"],
            ),
            _tool(
                "get-customer-orders",
                "Get a customer's orders.",
                {"customerId": {"type": "string"}},
                ["customerId"],
            ),
            _tool("get-order", "Get an order.", {"orderId": {"type": "string"}}, ["orderId"]),
        ]
    )
    for seed in range(3):
        world = wenv.World(spec, seed=seed, options={"exists_share": 1.0})
        customer = world.call("get-customer", {"customerId": "2844735072750"})
        orders = world.call("get-customer-orders", {"customerId": "2844735072750"})["items"]
        assert orders
        for order in orders:
            full = world.call("get-order", {"orderId": order["orderId"]})
            for key in ("customer_email", "customer_name"):
                if key in full:
                    assert full[key] == customer[key.removeprefix("customer_")], (full, customer)


def test_a_delete_of_a_record_s_children_deletes_them_not_the_record():
    """Shopify's ``delete-product-variants(productId, variantIds)`` answered ok with
    ``"deleted": false`` and deleted nothing, again and again; a new variant's id came back as
    text though every tool takes variant ids as a list (a trial Shopify spec)."""
    ids = {"type": "array", "items": {"type": "string"}}
    spec = wenv.load_spec(
        tools=[
            _tool(
                "get-product-by-id",
                "Get a product.",
                {"productId": {"type": "string"}},
                ["productId"],
            ),
            _tool(
                "manage-product-variants",
                "Create variants of a product.",
                {
                    "productId": {"type": "string"},
                    "variants": {"type": "array", "items": {"type": "object"}},
                },
                ["productId", "variants"],
            ),
            _tool(
                "delete-product-variants",
                "Delete one or more variants from a product.",
                {"productId": {"type": "string"}, "variantIds": ids},
                ["productId", "variantIds"],
            ),
        ]
    )
    world = wenv.World(spec, seed=1, options={"exists_share": 1.0})
    made = world.call("manage-product-variants", {"productId": "P-1", "variants": [{"sku": "A-1"}]})
    assert made["status"] == "ok" and isinstance(made["variantIds"], list), made
    gone = world.call("delete-product-variants", {"productId": "P-1", "variantIds": ["VAR-11111"]})
    assert gone["status"] == "ok" and gone["deleted"] is True, gone
    again = world.call("delete-product-variants", {"productId": "P-1", "variantIds": ["VAR-11111"]})
    assert again["status"] == "error" and again["error"]["code"] == "not_found", again
    assert world.call("get-product-by-id", {"productId": "P-1"})["status"] == "ok"
