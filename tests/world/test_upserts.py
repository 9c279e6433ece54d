"""One tool that creates or updates (Linear's ``save_issue`` and ``save_comment``: "If `id` is
provided, updates the existing comment; otherwise creates a new one"), a comment's own text,
and a record read by what a person calls it.

Found by a new-user trial on Linear's MCP server: a comment saved on an issue overwrote the body
of another comment, a new issue came back with no id, comments had a name and no text, and
``get_user(query="Brooke Schmidt")`` answered another person.
"""

from __future__ import annotations

import pytest

import whileai_env as wenv
from whileai_env.scenarios.planning import _locators
from whileai_env.world.profile import is_upsert

_ID = {"type": "string"}


def _tool(name: str, description: str, props: dict, required: list[str]) -> dict:
    body = {"type": "object", "properties": props, "required": required}
    return {"name": name, "description": description, "parameters": body}


@pytest.fixture(scope="module")
def spec() -> wenv.Spec:
    return wenv.load_spec(
        tools=[
            _tool(
                "save_issue",
                "Create or update an issue. If `id` is provided, updates the existing issue; "
                "otherwise creates a new one.",
                {"id": _ID, "title": _ID, "team": _ID},
                [],
            ),
            _tool("get_issue", "Get an issue by ID.", {"id": _ID}, ["id"]),
            _tool(
                "save_comment",
                "Create or update a comment on an issue or a document. If `id` is provided, "
                "updates the existing comment; otherwise creates a new one.",
                {"documentId": _ID, "id": _ID, "issueId": _ID, "body": _ID},
                ["body"],
            ),
            _tool(
                "list_comments",
                "List comments on an issue or a document.",
                {"documentId": _ID, "issueId": _ID},
                [],
            ),
            _tool(
                "get_user", "Retrieve a user.", {"query": {**_ID, "description": "name"}}, ["query"]
            ),
        ]
    )


def test_create_or_update_is_an_upsert(spec: wenv.Spec) -> None:
    assert is_upsert(spec.tool("save_issue")) and is_upsert(spec.tool("save_comment"))
    assert not is_upsert(spec.tool("get_issue"))
    plain = wenv.load_spec(tools=[_tool("update_issue", "Update an issue.", {"id": _ID}, ["id"])])
    assert not is_upsert(plain.tool("update_issue"))


def test_an_upsert_naming_no_record_of_its_own_makes_one(spec: wenv.Spec) -> None:
    world = wenv.World(spec, seed=0)
    made = world.call("save_issue", {"title": "Crash on upload", "team": "web"})
    assert made["status"] == "ok" and made.get("id"), made
    read = world.call("get_issue", {"id": made["id"]})
    assert "Crash on upload" in read.values() and read["team"] == "web", read
    renamed = world.call("save_issue", {"id": made["id"], "title": "Crash on big uploads"})
    assert renamed["status"] == "ok" and renamed["updated"], renamed
    after = world.call("get_issue", {"id": made["id"]})
    assert "Crash on big uploads" in after.values() and "Crash on upload" not in after.values()


def test_comments_saved_on_an_issue_are_each_listed_with_their_text(spec: wenv.Spec) -> None:
    world = wenv.World(spec, seed=0)
    first = world.call("save_comment", {"issueId": "ISS-200", "body": "First note"})
    second = world.call("save_comment", {"issueId": "ISS-200", "body": "Second note"})
    assert first["id"] != second["id"], (first, second)
    listed = world.call("list_comments", {"issueId": "ISS-200"})["items"]
    bodies = {item["id"]: item.get("body") for item in listed}
    assert bodies[first["id"]] == "First note" and bodies[second["id"]] == "Second note"
    assert all(item.get("body") for item in listed), listed


def test_a_task_names_the_record_the_description_names_first(spec: wenv.Spec) -> None:
    assert _locators(spec.tool("save_comment")) == ["issueId"]
    assert _locators(spec.tool("list_comments")) == ["issueId"]


def test_a_record_read_by_name_is_the_record_of_that_name(spec: wenv.Spec) -> None:
    for seed in range(3):
        user = wenv.World(spec, seed=seed).call("get_user", {"query": "Brooke Schmidt"})
        assert user["status"] == "ok" and user["name"] == "Brooke Schmidt", user
