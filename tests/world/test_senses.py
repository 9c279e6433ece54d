"""A noun with two senses is drawn in the one the spec means: a Trello card on a board is a task
(a name, a status, a due date), not a payment card with a brand, last four digits and an expiry;
a bank's card keeps those (whileai_env/world/records.py, ``senses_of``)."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from whileai_env.world.records import senses_of


def _tool(name: str, props: dict[str, dict], description: str) -> dict:
    body = {"type": "object", "properties": props, "required": list(props)[:1]}
    return {"name": name, "description": description, "parameters": body}


ID = {"type": "string"}
TEXT = {"type": "string"}
BOARD_TOOLS = [
    _tool("get_card", {"cardId": ID}, "Get the details of a card on a board."),
    _tool(
        "add_card_to_list",
        {"listId": ID, "name": TEXT, "description": TEXT},
        "Add a new card to a list on the board.",
    ),
    _tool("move_card", {"cardId": ID, "listId": ID}, "Move a card to another list."),
]
BANK_TOOLS = [
    _tool("get_card", {"card_id": ID}, "Look up a customer's debit or credit card."),
    _tool("list_cards", {"customer_id": ID}, "List the cards on an account."),
    _tool("freeze_card", {"card_id": ID}, "Freeze a lost or stolen card."),
]
PAYMENT_FIELDS = {"brand", "last4", "expiry", "holder_name"}


@pytest.mark.parametrize("seed", range(4))
def test_a_card_on_a_board_is_a_task_not_a_payment_card(seed):
    spec = wenv.load_spec(tools=BOARD_TOOLS)
    world = wenv.World(spec, seed=seed, options={"exists_share": 1.0})
    card = world.call("get_card", {"cardId": "65f1c2a9e4b0a1d2c3e4f5a6"})
    assert card["status"] == "ok", card
    assert not PAYMENT_FIELDS & set(card), card
    assert {"title", "due_date"} & set(card), card


@pytest.mark.parametrize("seed", range(4))
def test_a_bank_card_is_still_a_payment_card(seed):
    spec = wenv.load_spec(tools=BANK_TOOLS)
    world = wenv.World(spec, seed=seed, options={"exists_share": 1.0})
    card = world.call("get_card", {"card_id": "card_10442"})
    assert card["status"] == "ok", card
    assert set(card) >= PAYMENT_FIELDS, card


def test_the_payment_sense_wins_when_both_are_said():
    said = {"card": "Move a card to another list. Charge the card on file."}
    assert senses_of(said) == {}
    assert senses_of({"card": "Archive a card on the board."}) == {"card": "task"}
    assert senses_of({"card": "List the cards."}) == {}
