"""A spec whose tool names all start with the service (``jira_get_issue``): the reference agent
speaks of the record, not the service, and the look-up rule binds its writes."""

from __future__ import annotations

import re

import whileai_env as wenv
from whileai_env.grading.checklist import task_checklist

KEY = {"type": "string", "description": "Jira issue key (e.g. 'PROJ-123')"}
PROMPT = (
    "You are the Jira assistant of an engineering team.\n"
    "1. Always look up the issue with jira_get_issue before you update or delete it.\n"
    "2. Never delete an issue unless the user has explicitly confirmed it."
)


def _tool(name: str, description: str, props: dict, read: bool = False) -> dict:
    tool = {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": props, "required": list(props)[:1]},
    }
    if read:
        tool["annotations"] = {"readOnlyHint": True}
    return tool


TOOLS = [
    _tool("jira_get_issue", "Get details of a specific Jira issue.", {"issue_key": KEY}, True),
    _tool("jira_search", "Search Jira issues using JQL.", {"jql": {"type": "string"}}, True),
    _tool(
        "jira_update_issue",
        "Update an existing Jira issue.",
        {"issue_key": KEY, "summary": {"type": "string", "description": "New summary"}},
    ),
    _tool("jira_delete_issue", "Delete an existing Jira issue.", {"issue_key": KEY}),
]


def test_the_oracle_looks_up_the_issue_first_and_never_says_the_service_as_a_verb():
    """A user's Jira spec: the rule went ungraded ("issue" read as a verb, ``jira`` as the
    record), and the oracle said "I cannot jira issue PROJ-912"."""
    spec = wenv.load_spec(tools=TOOLS, system_prompt=PROMPT)
    data = wenv.simulate("oracle", spec=spec, budget=80, seed=0, fault_rate=0.0, quiet=True)
    graded = [(row, task_checklist(row)) for row in data.rows]
    assert all(g["reward"] == 1.0 for _, g in graded), [g["reason"] for _, g in graded]
    looked = [
        g["markers"]["looked_up_first"] for _, g in graded if "looked_up_first" in g["markers"]
    ]
    assert len(looked) >= 5 and all(m == 1.0 for m in looked), looked
    said = " ".join(
        str(m.get("content") or "")
        for row, _ in graded
        for m in row["messages"]
        if m["role"] == "assistant"
    ).lower()
    assert not re.search(r"\bjira (issue|update|delete|get|search)\b", said), said[:500]
