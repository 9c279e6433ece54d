"""A tool's verb and noun are read past a service prefix (``linear_createIssue``,
``jira_update_issue``): a user's Linear spec had every create mint a ``create_id`` and every
status write stored as a field named ``update``."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from whileai_env.world.profile import tool_noun, verb_of


@pytest.mark.parametrize(
    ("name", "verb", "noun"),
    [
        ("linear_createIssue", "create", "issue"),
        ("github_create_issue", "create", "issue"),
        ("jira_update_issue", "update", "issue"),
        ("linear_getIssueById", "get", "issue"),
        ("issue_refund", "issue", "refund"),
        ("invoices.void", "void", "invoice"),
        ("create_issue", "create", "issue"),
    ],
)
def test_the_verb_and_noun_of_a_name(name, verb, noun):
    assert verb_of(name) == verb and tool_noun(name)[0] == noun


def _tool(name: str, props: dict, required: list[str]) -> dict:
    return {
        "name": name,
        "description": name.replace("_", " "),
        "parameters": {"type": "object", "properties": props, "required": required},
    }


def test_a_prefixed_create_makes_a_readable_record_and_an_update_changes_its_status():
    issue = {"issue_id": {"type": "string"}}
    spec = wenv.load_spec(
        tools=[
            _tool("jira_get_issue", issue, ["issue_id"]),
            _tool("jira_create_issue", {"title": {"type": "string"}}, ["title"]),
            _tool(
                "jira_update_issue",
                {**issue, "status": {"type": "string", "enum": ["open", "done"]}},
                ["issue_id", "status"],
            ),
        ]
    )
    world = wenv.World(spec, seed=2)
    made = world.call("jira_create_issue", {"title": "Checkout button unresponsive"})
    assert "issue_id" in made, made
    read = world.call("jira_get_issue", {"issue_id": made["issue_id"]})
    assert read["status"] == "ok" and "Checkout button unresponsive" in read.values()
    world.call("jira_update_issue", {"issue_id": made["issue_id"], "status": "done"})
    again = world.call("jira_get_issue", {"issue_id": made["issue_id"]})
    assert "done" in again.values() and "update" not in again


def test_a_record_made_now_has_no_history_from_before_it_existed():
    spec = wenv.load_spec(
        tools=[
            _tool("get_ticket", {"ticket_id": {"type": "string"}}, ["ticket_id"]),
            _tool("create_ticket", {"subject": {"type": "string"}}, ["subject"]),
        ]
    )
    world = wenv.World(spec, seed=4)
    made = world.call("create_ticket", {"subject": "Printer offline"})
    read = world.call("get_ticket", {"ticket_id": made["ticket_id"]})
    assert read["created_at"] == made["created_at"]
    assert read.get("updated_at", read["created_at"]) == read["created_at"]
    assert not read.get("comments")


def test_a_list_asked_for_any_of_several_states_shows_only_those():
    states = {"type": "array", "items": {"type": "string", "enum": ["todo", "done", "canceled"]}}
    spec = wenv.load_spec(
        tools=[
            _tool("get_issue", {"issue_id": {"type": "string"}}, ["issue_id"]),
            _tool("search_issues", {"states": states}, []),
            _tool(
                "update_issue",
                {
                    "issue_id": {"type": "string"},
                    "state": {"type": "string", "enum": ["todo", "done", "canceled"]},
                },
                ["issue_id", "state"],
            ),
        ]
    )
    world = wenv.World(spec, seed=6)
    for wanted in (["done"], ["todo", "canceled"]):
        items = world.call("search_issues", {"states": wanted})["items"]
        assert items and all(i["issue_status"] in wanted for i in items), items
