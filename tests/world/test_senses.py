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


def test_the_payment_sense_wins_when_both_are_said():
    said = {"card": "Move a card to another list. Charge the card on file."}
    assert senses_of(said) == {}
    assert senses_of({"card": "Archive a card on the board."}) == {"card": "task"}
    assert senses_of({"card": "List the cards."}) == {}


TRACKER_TOOLS = [
    _tool("jira_get_issue", {"issue_key": ID}, "Get details of a specific Jira issue."),
    _tool(
        "jira_update_issue",
        {"issue_key": ID, "summary": TEXT},
        "Update an existing Jira issue: its fields, labels or sprint.",
    ),
    _tool("jira_search", {"jql": TEXT}, "Search Jira issues using JQL."),
]
HELPDESK_TOOLS = [
    _tool("get_issue", {"issue_id": ID}, "Get a customer's support issue by id."),
    _tool("close_issue", {"issue_id": ID}, "Close a requester's issue once it is solved."),
]
BOOKING_TOOLS = [
    _tool("getBooking", {"bookingUid": ID}, "Get a booking with its attendees and event type."),
    _tool("cancelBooking", {"bookingUid": ID, "reason": TEXT}, "Cancel a booking of a meeting."),
]
FLIGHT_TOOLS = [
    _tool("get_booking", {"booking_id": ID}, "Get a flight booking: its passengers and cabin."),
    _tool("cancel_booking", {"booking_id": ID}, "Cancel a flight booking."),
]


@pytest.mark.parametrize("seed", range(4))
def test_a_booking_of_a_meeting_is_an_event_not_a_flight(seed):
    """A user's Cal.com spec: every booking came back with flights, a cabin and passengers."""
    spec = wenv.load_spec(tools=BOOKING_TOOLS)
    world = wenv.World(spec, seed=seed, options={"exists_share": 1.0})
    booking = world.call("getBooking", {"bookingUid": "BK-45911"})
    assert booking["status"] == "ok", booking
    assert not {"flights", "cabin", "passengers"} & set(booking), booking
    assert "start_time" in booking, booking
    cancelled = world.call("cancelBooking", {"bookingUid": "BK-45911", "reason": "clash"})
    again = world.call("getBooking", {"bookingUid": "BK-45911"})
    if cancelled["status"] == "ok":
        assert "cancel" in str(again).lower(), again


ONCALL_TOOLS = [
    _tool("get_incident", {"incident_id": ID}, "Get an incident: its urgency and responders."),
    _tool(
        "manage_incident",
        {"incident_id": ID, "status": TEXT},
        "Acknowledge or resolve an incident paged to the on-call.",
    ),
]


#: (tools, read, its arguments, fields the record must not have, fields it must have): a noun
#: in its second sense, and in its first kept. From users' Trello, Jira and PagerDuty specs:
#: cards came back with a brand and an expiry, issues and incidents with a requester's email
#: and IT-desk subjects.
SENSES = {
    "board card: a task": (
        BOARD_TOOLS,
        "get_card",
        {"cardId": "65f1c2a9e4b0a1d2c3e4f5a6"},
        PAYMENT_FIELDS,
        {"title"},
    ),
    "bank card: a payment card": (
        BANK_TOOLS,
        "get_card",
        {"card_id": "card_10442"},
        set(),
        PAYMENT_FIELDS,
    ),
    "tracker issue: a work item": (
        TRACKER_TOOLS,
        "jira_get_issue",
        {"issue_key": "PROJ-641"},
        {"requester_email", "requester_name", "subject"},
        {"title", "reporter"},
    ),
    "customer's issue: a support ticket": (
        HELPDESK_TOOLS,
        "get_issue",
        {"issue_id": "T-10442"},
        set(),
        {"subject", "requester_email"},
    ),
    "flight booking: flights": (
        FLIGHT_TOOLS,
        "get_booking",
        {"booking_id": "BK-45911"},
        set(),
        {"flights", "passengers"},
    ),
    "on-call incident: an outage": (
        ONCALL_TOOLS,
        "get_incident",
        {"incident_id": "INC100001"},
        {"requester_email", "requester_name", "subject"},
        {"title", "urgency", "service"},
    ),
}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("case", list(SENSES))
def test_a_record_takes_the_sense_its_spec_means(case, seed):
    tools, read, args, absent, present = SENSES[case]
    world = wenv.World(wenv.load_spec(tools=tools), seed=seed, options={"exists_share": 1.0})
    record = world.call(read, args)
    assert record["status"] == "ok", record
    assert not absent & set(record) and present <= set(record), record


def test_the_sense_said_more_often_wins():
    """Linear's ``get_issue(includeCustomerNeeds)`` beside its labels, projects, cycles and
    milestones: one customer word left its issues helpdesk tickets (a trial Linear spec)."""
    tracker = "List issues by label, project, cycle or milestone. includeCustomerNeeds: customer"
    assert senses_of({"issue": tracker}) == {"issue": "work item"}
    helpdesk = (
        "A customer's issue: the requester, the customer's email, the help desk queue, a label"
    )
    assert senses_of({"issue": helpdesk}) == {}
