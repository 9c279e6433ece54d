"""The task's person holds the task's own record (a trial user's Shopify and Jira specs: the
email the person gave never matched the ``customer_email`` on their order, 7 of 7, nor the
ticket's requester, 0 of 25, so an agent that verified identity as the prompt said had to refuse)."""

from __future__ import annotations

import json
import re

import gymnasium as gym

import whileai_env  # noqa: F401  (registers the env)

SPEC = {
    "system_prompt": "You are a store's support agent. Verify the customer's email before any change.",
    "tools": [
        {
            "name": "get_order",
            "description": "Get an order by id.",
            "parameters": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string", "description": "Order id, e.g. 'ORD-1042'"}
                },
                "required": ["order_id"],
            },
        },
        {
            "name": "cancel_order",
            "description": "Cancel an order.",
            "parameters": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string", "description": "Order id, e.g. 'ORD-1042'"}
                },
                "required": ["order_id"],
            },
        },
    ],
}


def test_the_email_the_person_gives_is_the_one_on_their_order(tmp_path):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC))
    env = gym.make("whileai/agent-v0", spec=str(path))
    checked = 0
    for seed in range(60):
        obs, _ = env.reset(seed=seed)
        order = re.search(r"\bORD-\d+", obs[-1]["content"])
        if order is None:
            continue
        obs, *_ = env.step("What is your email address?")
        said = re.search(r"[\w.+-]+@[\w.-]+\w", obs[-1]["content"] or "")
        call = {"name": "get_order", "arguments": {"order_id": order.group(0)}}
        obs, *_ = env.step(f"<tool_call>{json.dumps(call)}</tool_call>")
        record = json.loads(obs[-1]["content"]) if obs[-1]["role"] == "tool" else {}
        on_file = next((v for k, v in record.items() if k.endswith("email")), None)
        if said is None or on_file is None or record.get("status") != "ok":
            continue
        checked += 1
        assert said.group(0) == on_file, (seed, said.group(0), record)
    assert checked >= 10


TICKETS = [
    {
        "name": "get_tickets",
        "description": "List the latest tickets.",
        "parameters": {"type": "object", "properties": {}},
    },
    {
        "name": "get_ticket",
        "description": "Get a ticket.",
        "parameters": {
            "type": "object",
            "properties": {
                "ticket_id": {"type": "integer", "description": "The ID of the ticket to retrieve"}
            },
            "required": ["ticket_id"],
        },
    },
    {
        "name": "create_ticket",
        "description": "Create a new ticket.",
        "parameters": {
            "type": "object",
            "properties": {"subject": {"type": "string"}, "description": {"type": "string"}},
            "required": ["subject", "description"],
        },
    },
]


def test_a_new_record_never_takes_an_id_the_episode_holds_and_is_listed():
    """A trial Zendesk spec: integer ticket ids were drawn from 1 to 4 (read as a quantity from
    "The ID of the ticket"), and a new ticket took the id of one listed a moment before,
    overwriting it, on 58 of 84 tasks; a new ticket could also drop out of the list."""
    import whileai_env as wenv

    spec = wenv.load_spec(tools=TICKETS)
    for seed in range(30):
        world = wenv.World(spec, seed=seed, options={"exists_share": 1.0})
        listed = {i["ticket_id"]: i for i in world.call("get_tickets", {})["items"]}
        for ident in listed:
            world.call("get_ticket", {"ticket_id": ident})
        made = world.call("create_ticket", {"subject": "VPN drops", "description": "Every hour."})
        assert made["ticket_id"] not in listed
        after = {i["ticket_id"]: i for i in world.call("get_tickets", {})["items"]}
        assert made["ticket_id"] in after
        assert all(after[i]["subject"] == listed[i]["subject"] for i in listed if i in after)
        assert all(i >= 10 for i in after)


def test_a_new_comment_on_a_record_whose_change_was_done_is_added():
    """A trial Zendesk spec: in a world where closing the ticket was done already, a new comment
    on it answered ``already_done`` (14 of 14)."""
    import whileai_env as wenv

    tools = [
        {
            "name": name,
            "description": f"{name.replace('_', ' ')}.",
            "parameters": {
                "type": "object",
                "properties": {"ticket_id": {"type": "integer"}, **extra},
                "required": ["ticket_id"],
            },
        }
        for name, extra in (
            ("close_ticket", {}),
            ("create_ticket_comment", {"comment": {"type": "string"}}),
        )
    ]
    spec = wenv.load_spec(tools=tools)
    tasks = [
        t
        for t in wenv.draw_tasks(spec, 200, seed=1, fault_rate=0)
        if t.world.state == "already_done" and t.world.targets == ("close_ticket",)
    ]
    assert tasks
    for task in tasks:
        world = wenv.World(spec, task)
        ident = task.world.entities["ticket_id"]
        assert world.call("close_ticket", {"ticket_id": ident})["error"]["code"] == "already_done"
        added = world.call(
            "create_ticket_comment", {"ticket_id": ident, "comment": "Called again."}
        )
        assert added["status"] == "ok", added
