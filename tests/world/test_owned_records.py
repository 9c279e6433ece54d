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
