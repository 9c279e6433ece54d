"""Searches in a query language and tools named only by their service (a trial user's Jira and
Confluence spec, from sooperset/mcp-atlassian: ``jira_search(jql="key = ITSD-42")`` listed made-up
``JIR-…`` records named "Jira 528", the same after the issue was deleted)."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from whileai_env.world.profile import profile_for

_KEY = {"type": "string", "description": "Jira issue key (e.g., 'PROJ-123')"}


def _tool(name: str, description: str, props: dict, required: tuple[str, ...] = ()) -> dict:
    body = {"type": "object", "properties": props, "required": list(required)}
    return {"name": name, "description": description, "parameters": body}


JIRA = [
    _tool(
        "jira_get_issue",
        "Get details of a specific Jira issue.",
        {"issue_key": _KEY},
        ("issue_key",),
    ),
    _tool(
        "jira_search",
        "Search Jira issues using JQL (Jira Query Language).",
        {"jql": {"type": "string"}, "limit": {"type": "integer"}},
        ("jql",),
    ),
    _tool(
        "jira_delete_issue", "Delete an existing Jira issue.", {"issue_key": _KEY}, ("issue_key",)
    ),
    _tool(
        "confluence_get_page", "Get content of a Confluence page.", {"page_id": {"type": "string"}}
    ),
    _tool("confluence_delete_page", "Delete a page.", {"page_id": {"type": "string"}}),
    _tool(
        "confluence_search", "Search Confluence content using CQL.", {"query": {"type": "string"}}
    ),
]


def test_a_tool_named_by_its_service_alone_acts_on_what_its_description_names():
    tools = profile_for(wenv.load_spec(tools=JIRA)).tools
    assert tools["jira_search"].noun == "issue"
    # "content" is no noun of a tool; the service's tools name pages
    assert tools["confluence_search"].noun == "page"
    assert tools["confluence_get_page"].noun == "page"


@pytest.mark.parametrize(
    "query", ["key = PROJ-42", 'issue_key = "PROJ-42"', "key:PROJ-42 ORDER BY created"]
)
def test_a_query_for_a_key_lists_that_record_until_it_is_deleted(query):
    world = wenv.World(wenv.load_spec(tools=JIRA), seed=1, options={"exists_share": 1.0})
    assert world.call("jira_get_issue", {"issue_key": "PROJ-42"})["status"] == "ok"
    listed = world.call("jira_search", {"jql": query})["items"]
    assert [i["issue_key"] for i in listed] == ["PROJ-42"]
    assert world.call("jira_delete_issue", {"issue_key": "PROJ-42"})["status"] == "ok"
    assert world.call("jira_search", {"jql": query})["items"] == []


def test_a_query_languages_field_comparison_narrows_what_is_listed():
    world = wenv.World(wenv.load_spec(tools=JIRA), seed=3, options={"exists_share": 1.0})
    sample = world.call("jira_search", {"jql": "project = PROJ"})["items"][0]
    field = next(
        k for k, v in sample.items() if k != "issue_key" and isinstance(v, str) and " " not in v
    )
    value = sample[field]
    items = world.call("jira_search", {"jql": f'{field} = "{value}" AND project = PROJ'})["items"]
    assert items and all(i.get(field, value) == value for i in items)


def test_a_list_filtered_by_a_formula_lists_records_and_computes_nothing():
    """Airtable's ``list_records(baseId, tableId, filterByFormula?)`` was taken for a calculator:
    without a formula it answered "give an expression to evaluate" (16% of a trial user's oracle
    tasks below 1.0), and ``{Stage} = 'Offer'`` was "cannot parse"."""
    tools = [
        _tool(
            "list_records",
            "List records from a table.",
            {
                "baseId": {"type": "string"},
                "tableId": {"type": "string"},
                "filterByFormula": {"type": "string", "description": "Airtable formula to filter"},
            },
            ("baseId", "tableId"),
        ),
        _tool("calculate", "Evaluate a formula.", {"formula": {"type": "string"}}, ("formula",)),
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=1, options={"exists_share": 1.0})
    for args in (
        {"baseId": "app1", "tableId": "tbl1"},
        {"baseId": "app1", "tableId": "tbl1", "filterByFormula": "{Stage} = 'Offer'"},
    ):
        listed = world.call("list_records", args)
        assert listed["status"] == "ok" and "items" in listed, listed
    assert world.call("calculate", {"formula": "71 * (8 + 2)"})["result"] == 710


def test_a_name_that_ends_with_how_it_reads_acts_on_the_records_it_names():
    """A trial Zendesk spec: ``search_tickets_export``, ``search_by_source`` and
    ``get_ticket_relationships`` listed made-up "Export 639", "Source 789", "Relationship 645"."""
    ticket = {"ticket_id": {"type": "integer"}}
    tools = [
        _tool("get_ticket", "Get a ticket.", ticket, ("ticket_id",)),
        _tool("update_ticket", "Update a ticket.", ticket, ("ticket_id",)),
        _tool(
            "search_tickets_export",
            "Export tickets matching a query.",
            {"query": {"type": "string"}},
        ),
        _tool(
            "search_by_source",
            "Search tickets by their source channel.",
            {"source": {"type": "string"}},
        ),
        _tool(
            "get_ticket_relationships", "Get tickets related to a ticket.", ticket, ("ticket_id",)
        ),
    ]
    profile = profile_for(wenv.load_spec(tools=tools)).tools
    for name in ("search_tickets_export", "search_by_source", "get_ticket_relationships"):
        assert profile[name].noun == "ticket", name


def test_a_search_by_an_email_finds_that_record_alone():
    """A trial Shopify spec: ``get-customers(searchQuery=<email>)`` listed the customer and three
    strangers, one with the same name and another email (another customer's data shown)."""
    tools = [
        _tool(
            "get_customer",
            "Get a customer by id.",
            {"customer_id": {"type": "string"}},
            ("customer_id",),
        ),
        _tool(
            "search_customers",
            "Search customers.",
            {"searchQuery": {"type": "string"}},
            ("searchQuery",),
        ),
    ]
    for seed in range(10):
        world = wenv.World(wenv.load_spec(tools=tools), seed=seed, options={"exists_share": 1.0})
        email = world.call("get_customer", {"customer_id": "C-1042"}).get("email")
        if not email:
            continue
        items = world.call("search_customers", {"searchQuery": email})["items"]
        assert [i.get("email") for i in items] == [email]


def test_a_search_by_a_status_operator_lists_the_record_just_set_to_it():
    """A trial Zendesk spec: after ``update_ticket(status="solved")``, ``search_tickets("status:solved")``
    listed other solved tickets and never that one (86 of 86 once ticket ids were realistic)."""
    ticket = {"ticket_id": {"type": "integer"}}
    tools = [
        _tool("get_ticket", "Get a ticket.", ticket, ("ticket_id",)),
        _tool(
            "update_ticket",
            "Update a ticket.",
            {**ticket, "status": {"type": "string", "enum": ["open", "pending", "solved"]}},
            ("ticket_id",),
        ),
        _tool("search_tickets", "Search tickets.", {"query": {"type": "string"}}, ("query",)),
    ]
    for seed in range(8):
        world = wenv.World(wenv.load_spec(tools=tools), seed=seed, options={"exists_share": 1.0})
        assert (
            world.call("update_ticket", {"ticket_id": 4412, "status": "solved"})["status"] == "ok"
        )
        listed = world.call("search_tickets", {"query": "status:solved"})["items"]
        assert 4412 in [i["ticket_id"] for i in listed]


def test_a_list_by_a_parent_whose_key_prefixes_the_tasks_record_holds_it():
    """A trial Jira spec: ``jira_get_project_issues("PROJ")`` left out the task's own issue
    ``PROJ-857`` on 181 of 183 tasks."""
    project = {"project_key": {"type": "string", "description": "Project key (e.g. 'PROJ')"}}
    tools = [
        _tool("jira_get_issue", "Get a Jira issue.", {"issue_key": _KEY}, ("issue_key",)),
        _tool(
            "jira_get_project_issues",
            "Get all issues of a Jira project.",
            project,
            ("project_key",),
        ),
        _tool("jira_delete_issue", "Delete a Jira issue.", {"issue_key": _KEY}, ("issue_key",)),
    ]
    spec = wenv.load_spec(tools=tools)
    checked = 0
    for task in wenv.draw_tasks(spec, 200, seed=3, fault_rate=0):
        key = str(task.world.entities.get("issue_key", ""))
        if task.world.state != "exists" or "-" not in key:
            continue
        world = wenv.World(spec, task)
        listed = world.call("jira_get_project_issues", {"project_key": key.rsplit("-", 1)[0]})
        if listed["status"] != "ok" or not listed["items"]:
            continue
        checked += 1
        assert key in [i.get("issue_key") for i in listed["items"]]
    assert checked >= 5
