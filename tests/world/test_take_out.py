"""A write that takes one record out of another (``remove_member_from_card``) deletes neither:
Asana's ``remove_project_from_task`` deleted the task, and Trello's ``remove_member_from_card``
the card."""

from __future__ import annotations

import whileai_env as wenv


def _tool(name: str, props: dict[str, dict], description: str) -> dict:
    body = {"type": "object", "properties": props, "required": list(props)}
    return {"name": name, "description": description, "parameters": body}


ID = {"type": "string"}
TOOLS = [
    _tool("get_card", {"card_id": ID}, "Get a card by id."),
    _tool("get_member", {"member_id": ID}, "Get a member by id."),
    _tool(
        "remove_member_from_card", {"card_id": ID, "member_id": ID}, "Remove a member from a card."
    ),
]


def test_taking_a_member_off_a_card_keeps_both_and_the_cards_status():
    spec = wenv.load_spec(tools=TOOLS)
    assert spec.tool("remove_member_from_card").kind == "update"
    for seed in range(4):
        world = wenv.World(spec, seed=seed, options={"exists_share": 1.0})
        card = world.call("get_card", {"card_id": "CARD-10442"})
        status = next((k for k in card if k.endswith("_status")), None)
        args = {"card_id": "CARD-10442", "member_id": "MEM-20331"}
        assert world.call("remove_member_from_card", args)["status"] == "ok"
        after = world.call("get_card", {"card_id": "CARD-10442"})
        assert after["status"] == "ok" and "member_id" not in after, after
        assert status is None or after[status] == card[status]
        assert world.call("get_member", {"member_id": "MEM-20331"})["status"] == "ok"
