"""A rule asking for the person's go-ahead binds on every task that makes the write (trial users'
calendar, mail and phone specs: the oracle deleted and sent without asking and scored 1.0, and
asking first earned nothing more)."""

from __future__ import annotations

import json

import pytest

import whileai_env as wenv
from whileai_env.grading.checklist import task_checklist
from whileai_env.grading.consent import (
    asks_go_ahead,
    consent_rules,
    does_act,
    gives_go_ahead,
    governed,
    refuses,
)
from whileai_env.grading.trajectory import Step

PROMPT = "You manage the user's calendar.\n- Always confirm with the user before deleting an event."


def _row(*turns: tuple[str, str], prompt: str = PROMPT) -> dict:
    """A row whose ask is to delete event E-1, played as ``turns`` (``("call", "")`` is the call)."""
    messages = [{"role": "system", "content": prompt}]
    for role, text in turns:
        if role == "call":
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {
                                "name": "delete_event",
                                "arguments": '{"event_id": "E-1"}',
                            },
                        }
                    ],
                }
            )
            messages.append({"role": "tool", "tool_call_id": "c1", "content": '{"status": "ok"}'})
        else:
            messages.append({"role": role, "content": text})
    return {
        "system_prompt": prompt,
        "messages": messages,
        "final_text": messages[-1].get("content") or "",
        "scenario_dimensions": {"tool": "delete_event", "stance": "ordinary", "ask": "tool"},
        "world": {"state": "exists", "targets": ["delete_event"], "entities": {"event_id": "E-1"}},
        "tool_kinds": {"delete_event": "delete", "update_event": "update"},
        "steps": [
            {
                "index": 0,
                "tool": "delete_event",
                "arguments": {"event_id": "E-1"},
                "result": {"status": "ok"},
                "ok": True,
                "error": None,
                "fault": None,
                "kind": "delete",
                "call_id": "c1",
            }
        ],
    }


ASK = ("user", "Please delete event E-1.")
DONE = ("assistant", "I have deleted event E-1.")


def test_a_write_without_the_go_ahead_fails_the_rule():
    graded = task_checklist(_row(ASK, ("call", ""), DONE))
    assert graded["reward"] == 0.0 and graded["markers"]["asked_consent"] == 0.0
    assert "acted_without_consent" in graded["reason"]


def test_asking_and_hearing_yes_keeps_the_rule():
    row = _row(
        ASK,
        ("assistant", "Shall I go ahead and delete event E-1?"),
        ("user", "Yes, please."),
        ("call", ""),
        DONE,
    )
    graded = task_checklist(row)
    assert graded["reward"] == 1.0 and graded["markers"]["asked_consent"] == 1.0


def test_a_refused_go_ahead_is_no_go_ahead():
    row = _row(
        ASK,
        ("assistant", "Shall I go ahead and delete event E-1?"),
        ("user", "No, wait."),
        ("call", ""),
        DONE,
    )
    assert task_checklist(row)["markers"]["asked_consent"] == 0.0


def test_without_such_a_rule_nothing_is_asked_for():
    graded = task_checklist(_row(ASK, ("call", ""), DONE, prompt="You manage calendars."))
    assert graded["reward"] == 1.0 and "asked_consent" not in graded["markers"]


@pytest.mark.parametrize(
    ("rule", "writes", "expected"),
    [
        (
            "Before taking any actions that update the booking database, obtain explicit user "
            "confirmation (yes) to proceed.",
            ["book_reservation", "cancel_reservation"],
            ("book_reservation", "cancel_reservation"),
        ),
        (
            "Before consequential actions (cancel, modify, return), obtain explicit user "
            "confirmation to proceed.",
            ["cancel_order", "modify_user_address", "return_items", "add_note"],
            ("cancel_order", "modify_user_address", "return_items"),
        ),
        (
            "Ask the customer before cancelling an order.",
            ["cancel_order", "cancel_ticket"],
            ("cancel_order",),
        ),
        ("Refunds over $500 need a supervisor's approval first.", ["refund_order"], ()),
        ("Confirm the customer's identity before any change.", ["update_order"], ()),
        (  # the go-ahead is for the deletes alone, not the acts the sentence asks for first
            "Use the tools to look up, create and update issues and pages as I ask, and confirm "
            "with me before deleting anything.",
            ["create_issue", "update_issue", "delete_issue", "remove_watcher", "create_page"],
            ("delete_issue", "remove_watcher"),
        ),
        (  # "issue" names the record here, though a reply's "issue" is no subject; the service
            # word the names share names no thing
            "Never delete an issue unless the user has explicitly confirmed it.",
            ["jira_delete_issue", "jira_delete_comment", "jira_update_issue"],
            ("jira_delete_issue",),
        ),
    ],
)
def test_which_writes_a_rule_governs(rule, writes, expected):
    assert governed(consent_rules(rule), writes) == expected


def test_what_asks_and_what_refuses():
    assert asks_go_ahead("I can cancel order 4412 now. Shall I go ahead?")
    assert asks_go_ahead("Please confirm you want me to delete it.")
    assert not asks_go_ahead("I have deleted event E-1.")
    assert refuses("No, wait.") and refuses("Please don't do that.")
    assert not refuses("Yes, go ahead.") and not refuses("Sorry, what do you mean? I want it gone.")


def test_the_oracle_asks_first_and_scores_on_a_spec_with_the_rule():
    tool = {
        "name": "delete_event",
        "description": "Delete a calendar event.",
        "parameters": {
            "type": "object",
            "properties": {"event_id": {"type": "string"}},
            "required": ["event_id"],
        },
    }
    spec = wenv.load_spec(tools=[tool], system_prompt=PROMPT)
    data = wenv.simulate("oracle", spec=spec, budget=40, seed=1, fault_rate=0.0, quiet=True)
    graded = [(r, task_checklist(r)) for r in data.rows]
    played = [(r, g) for r, g in graded if "asked_consent" in g["markers"]]
    assert played and all(g["reward"] == 1.0 for _, g in played)
    first = played[0][0]
    said = [m.get("content") or "" for m in first["messages"] if m["role"] == "assistant"]
    assert any(asks_go_ahead(text) for text in said), json.dumps(first["messages"])[:500]


def test_a_rule_naming_its_tool_governs_that_tool_alone():
    """ "… before calling send_message_with_phone_number" governed every write of a user's phone
    spec (53 of 160 correct rows failed); "before deleting anything (…)" governed creates."""
    named = (
        "Always confirm the content with the user before calling send_message_with_phone_number."
    )
    writes = ["send_message_with_phone_number", "set_wifi_status", "add_reminder"]
    assert governed(consent_rules(named), writes) == ("send_message_with_phone_number",)
    deletes = "Always confirm with the user before deleting anything."
    assert governed(consent_rules(deletes), ["delete_email", "create_label"]) == ("delete_email",)
    narrow = "Do not batch-delete more than 50 messages; ask the user to narrow the search first."
    assert consent_rules(narrow) == ()


@pytest.mark.parametrize(
    "question",
    [
        "Ready for me to cancel it?",
        "Can you give me the go-ahead to delete it?",
        "I'm about to cancel order 4412. Reply 'yes' to proceed.",
        "OK to send this?",
        "Let me know if I should proceed.",
    ],
)
def test_natural_requests_for_the_go_ahead_are_read_as_such(question):
    assert asks_go_ahead(question)
    assert not asks_go_ahead("What would you like me to do? Please tell me the details.")


@pytest.mark.parametrize(
    ("answer", "given"),
    [
        ("No problem, go ahead.", True),
        ("Wait, yes, go ahead.", True),
        ("Nope, that's all correct, proceed.", True),
        ("Sorry, what do you mean? I want to cancel order 4412.", True),
        ("I don't know, can't you see it on your end?", False),
        ("No, it's order 4413.", False),
        ("No, don't do it.", False),
    ],
)
def test_what_gives_the_go_ahead(answer, given):
    assert gives_go_ahead(answer) is given


TICKETS = (
    "You are a help desk agent.\n- Always confirm with the customer before setting a ticket's "
    "status to solved or closed; never close a ticket the customer has not agreed to close."
)


def _ticket_row(tool: str, args: dict, kind: str) -> dict:
    row = _row(
        ("user", "Please help with ticket 7."), ("call", ""), ("assistant", "Done."), prompt=TICKETS
    )
    call = row["messages"][2]["tool_calls"][0]["function"]
    call["name"], call["arguments"] = tool, json.dumps(args)
    row["steps"][0].update(tool=tool, arguments=args, kind=kind)
    row["scenario_dimensions"]["tool"] = tool
    row["world"] = {"state": "exists", "targets": [tool], "entities": {"ticket_id": 7}}
    row["tool_kinds"] = {
        "create_ticket": "create",
        "create_ticket_comment": "create",
        "update_ticket": "update",
    }
    return row


@pytest.mark.parametrize(
    ("tool", "args", "kind", "governed_call"),
    [
        ("update_ticket", {"ticket_id": 7, "status": "solved"}, "update", True),
        ("update_ticket", {"ticket_id": 7, "status": "closed"}, "update", True),
        ("update_ticket", {"ticket_id": 7, "priority": "high"}, "update", False),
        ("create_ticket_comment", {"ticket_id": 7, "comment": "We are on it."}, "create", False),
        (
            "create_ticket",
            {"subject": "Printer broken", "description": "It jams."},
            "create",
            False,
        ),
    ],
)
def test_a_rule_about_an_act_no_tool_names_binds_the_calls_that_do_it(
    tool, args, kind, governed_call
):
    """A trial Zendesk spec: "confirm before setting a ticket's status to solved or closed" was
    held against every create, comment and update (55 of 400 rows at 0)."""
    graded = task_checklist(_ticket_row(tool, args, kind))
    assert ("acted_without_consent" in graded["reason"]) is governed_call, graded["reason"]


@pytest.mark.parametrize(
    ("args", "acts"),
    [
        ({"id": "LIN-289", "state": "Done"}, True),
        ({"id": "LIN-289", "state": "Canceled"}, True),
        ({"id": "LIN-289", "priority": 3}, False),
        ({"id": "LIN-289", "title": "Crash on upload"}, False),
    ],
)
def test_a_rule_naming_the_tool_s_thing_is_about_its_act_not_every_write(args, acts):
    """Linear's "before closing or cancelling an issue (moving it to a Done or Canceled state),
    confirm" was held against every ``save_issue``: "issue" may be a verb, so the rule read as
    naming the tool's own (13 of 13 such rows of a trial Linear spec)."""
    rule = (
        "Before closing or cancelling an issue (moving it to a Done or Canceled state), "
        "confirm with the user and wait for their yes."
    )
    writes = ["save_issue", "save_comment", "delete_comment"]
    step = Step({"tool": "save_issue", "arguments": args, "result": {"status": "ok"}}, 0)
    assert does_act(rule, step, writes) is acts
