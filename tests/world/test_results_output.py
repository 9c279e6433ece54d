"""Output-schema results read from the entity store (whileai_env/world/output.py), on specs of our own."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.world.output import is_ok_flag


def _issue_tools(output: dict[str, Any]) -> list[dict[str, Any]]:
    key = {"issue_key": {"type": "string"}}
    return [
        {
            "name": "get_issue",
            "description": "Get an issue by key.",
            "parameters": {"type": "object", "properties": key, "required": ["issue_key"]},
            "outputSchema": output,
        },
        {
            "name": "fetch_issue",
            "description": "Fetch an issue by key.",
            "parameters": {"type": "object", "properties": key, "required": ["issue_key"]},
        },
        {
            "name": "close_issue",
            "description": "Close an issue.",
            "parameters": {"type": "object", "properties": key, "required": ["issue_key"]},
        },
    ]


OUTPUT = {
    "type": "object",
    "properties": {
        "state": {"type": "string", "enum": ["OPEN", "CLOSED", "PENDING", "ACTIVE"]},
        "success": {"type": "boolean"},
        "reviewer_login": {"type": "string"},
    },
    "required": ["state", "success", "reviewer_login"],
}


def _world() -> wenv.World:
    return wenv.World(_issue_tools(OUTPUT), seed=4, options={"exists_share": 1.0})


def test_a_state_field_reads_the_one_status_of_the_entity() -> None:
    world = _world()
    read = world.call("get_issue", {"issue_key": "PRJ-12"})
    stored = world.store.peek("issue", "PRJ-12").record["issue_status"]
    assert read["state"].lower() == stored.lower()
    world.call("close_issue", {"issue_key": "PRJ-12"})
    assert world.call("get_issue", {"issue_key": "PRJ-12"})["state"] == "CLOSED"


def test_a_success_flag_says_the_call_succeeded() -> None:
    assert _world().call("get_issue", {"issue_key": "PRJ-12"})["success"] is True


def test_a_required_field_the_store_lacked_is_stored_once() -> None:
    world = _world()
    first = world.call("get_issue", {"issue_key": "PRJ-7"})["reviewer_login"]
    assert world.call("fetch_issue", {"issue_key": "PRJ-7"})["reviewer_login"] == first
    assert world.call("get_issue", {"issue_key": "PRJ-7"})["reviewer_login"] == first


def test_a_field_named_as_an_argument_echoes_it() -> None:
    tools = [
        {
            "name": "post_message",
            "description": "Post a message to a channel.",
            "parameters": {
                "type": "object",
                "properties": {"channel_id": {"type": "string"}, "text": {"type": "string"}},
                "required": ["channel_id", "text"],
            },
            "outputSchema": {
                "type": "object",
                "properties": {"ok": {"type": "boolean"}, "text": {"type": "string"}},
                "required": ["ok", "text"],
            },
        }
    ]
    world = wenv.World(tools, seed=2, options={"exists_share": 1.0})
    result = world.call("post_message", {"channel_id": "C0123", "text": "deploy at 5"})
    assert result["ok"] is True and result["text"] == "deploy at 5"


def test_a_list_item_reads_the_record_it_names() -> None:
    tools = [
        *_issue_tools(OUTPUT),
        {
            "name": "list_issues",
            "description": "List issues.",
            "parameters": {"type": "object", "properties": {}},
            "outputSchema": {
                "type": "object",
                "properties": {
                    "issues": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "issue_key": {"type": "string"},
                                "state": OUTPUT["properties"]["state"],
                            },
                        },
                    }
                },
            },
        },
    ]
    world = wenv.World(tools, seed=1, options={"exists_share": 1.0})
    result = world.call("list_issues", {})
    assert result["issues"]
    for item in result["issues"]:
        read = world.call("get_issue", {"issue_key": item["issue_key"]})
        shared = set(item) & set(read) - {"status"}
        assert shared and all(read[k] == item[k] for k in shared), (item, read)


@given(st.sampled_from(["ok", "success", "is_success", "succeeded"]), st.booleans())
def test_ok_flags_are_booleans_named_for_success(name: str, writes: bool) -> None:
    assert is_ok_flag(name, {"type": "boolean"}, writes=writes)
    assert not is_ok_flag(name, {"type": "string"}, writes=writes)


def test_a_yes_no_status_is_an_outcome_of_a_write_and_a_fact_of_a_read() -> None:
    assert is_ok_flag("added_status", {"type": "boolean"}, writes=True)
    assert not is_ok_flag("login_status", {"type": "boolean"}, writes=False)


def test_a_message_posted_to_a_channel_shows_in_its_history() -> None:
    channel = {"channel_id": {"type": "string"}}
    tools = [
        {
            "name": "post_message",
            "description": "Post a message to a channel.",
            "parameters": {
                "type": "object",
                "properties": {**channel, "text": {"type": "string"}},
                "required": ["channel_id", "text"],
            },
        },
        {
            "name": "get_channel_history",
            "description": "Get the recent messages of a channel.",
            "parameters": {"type": "object", "properties": channel, "required": ["channel_id"]},
        },
    ]
    world = wenv.World(tools, seed=2, options={"exists_share": 1.0})
    posted = world.call("post_message", {"channel_id": "C0123", "text": "deploy at 5"})
    history = world.call("get_channel_history", {"channel_id": "C0123"})
    assert posted["status"] == "ok" and history["status"] == "ok"
    assert {"message_id": posted["message_id"], "text": "deploy at 5"}.items() <= next(
        m for m in history["messages"] if m["message_id"] == posted["message_id"]
    ).items()


RECORD = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "fields": {"type": "object", "additionalProperties": {}},
    },
    "required": ["id", "fields"],
    "additionalProperties": False,
}


def _sheet_tools() -> list[dict[str, Any]]:
    """A spreadsheet-like service whose records are keyed by ``recordId`` in calls and by a bare
    ``id`` in every declared result (the common shape of a REST API's MCP wrapper)."""
    where = {"sheetId": {"type": "string"}}
    one = {**where, "recordId": {"type": "string"}}
    return [
        {
            "name": "list_records",
            "description": "List the records of a sheet.",
            "parameters": {"type": "object", "properties": where, "required": ["sheetId"]},
            "outputSchema": {
                "type": "object",
                "properties": {"records": {"type": "array", "items": RECORD}},
                "required": ["records"],
                "additionalProperties": False,
            },
        },
        {
            "name": "get_record",
            "description": "Get one record of a sheet.",
            "parameters": {"type": "object", "properties": one, "required": list(one)},
            "outputSchema": RECORD,
        },
        {
            "name": "create_record",
            "description": "Create a record in a sheet.",
            "parameters": {
                "type": "object",
                "properties": {**where, "fields": {"type": "object"}},
                "required": ["sheetId", "fields"],
            },
            "outputSchema": RECORD,
        },
    ]


def test_a_declared_id_is_the_record_asked_for_and_a_list_shows_the_stored_records() -> None:
    world = wenv.World(_sheet_tools(), seed=2, options={"exists_share": 1.0})
    got = world.call("get_record", {"sheetId": "SHT-1", "recordId": "REC-77"})
    assert got["status"] == "ok" and got["id"] == "REC-77"
    listed = world.call("list_records", {"sheetId": "SHT-1"})["records"]
    assert listed and all(r["id"] != "SHT-1" for r in listed)
    for record in listed:  # each listed id reads back as itself
        assert (
            world.call("get_record", {"sheetId": "SHT-1", "recordId": record["id"]})["id"]
            == record["id"]
        )


def test_a_created_record_reads_back_and_is_listed_with_its_fields() -> None:
    world = wenv.World(_sheet_tools(), seed=3, options={"exists_share": 1.0})
    made = world.call("create_record", {"sheetId": "SHT-1", "fields": {"Name": "Launch plan"}})
    assert made["status"] == "ok" and made["fields"] == {"Name": "Launch plan"}
    got = world.call("get_record", {"sheetId": "SHT-1", "recordId": made["id"]})
    assert got["id"] == made["id"] and got["fields"] == {"Name": "Launch plan"}
    listed = world.call("list_records", {"sheetId": "SHT-1"})["records"]
    assert {"id": made["id"], "fields": {"Name": "Launch plan"}} in listed


def _wrapped(result: dict[str, Any]) -> dict[str, Any]:
    """What FastMCP declares for a function's return value: it under ``result``."""
    return {
        "type": "object",
        "properties": {"result": result},
        "required": ["result"],
        "x-fastmcp-wrap-result": True,
    }


def test_a_fastmcp_wrapped_string_is_the_worlds_own_record_not_a_drawn_word() -> None:
    tools = _issue_tools(_wrapped({"type": "string"}))
    world = wenv.World(tools, seed=4, options={"exists_share": 1.0})
    read = world.call("get_issue", {"issue_key": "PRJ-12"})
    assert "result" not in read and read["issue_key"] == "PRJ-12"


def test_a_fastmcp_wrapped_object_is_nested_under_result() -> None:
    inner = {
        "type": "object",
        "properties": {"issue_key": {"type": "string"}, "summary": {"type": "string"}},
        "required": ["issue_key", "summary"],
    }
    world = wenv.World(_issue_tools(_wrapped(inner)), seed=4, options={"exists_share": 1.0})
    read = world.call("get_issue", {"issue_key": "PRJ-12"})
    assert read["result"]["issue_key"] == "PRJ-12" and isinstance(read["result"]["summary"], str)


TALLY = {
    "type": "object",
    "properties": {
        "completed": {"type": "array", "items": {"type": "string"}},
        "failures": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"item": {"type": "string"}, "error": {"type": "string"}},
                "required": ["item", "error"],
            },
        },
        "successCount": {"type": "number"},
        "failureCount": {"type": "number"},
        "totalRequested": {"type": "number"},
    },
    "required": ["completed", "failures", "successCount", "failureCount", "totalRequested"],
}


def test_a_batch_writes_tally_reports_what_the_call_did() -> None:
    ids = {"ids": {"type": "array", "items": {"type": "string"}}}
    tools = [
        {
            "name": "complete_tasks",
            "description": "Complete tasks by id.",
            "parameters": {"type": "object", "properties": ids, "required": ["ids"]},
            "outputSchema": TALLY,
        },
        {
            "name": "get_task",
            "description": "Get a task.",
            "parameters": {
                "type": "object",
                "properties": {"task_id": {"type": "string"}},
                "required": ["task_id"],
            },
        },
    ]
    for seed in range(5):
        world = wenv.World(tools, seed=seed, options={"exists_share": 1.0})
        done = world.call("complete_tasks", {"ids": ["TSK-1", "TSK-2"]})
        assert done["status"] == "ok", done
        assert done["completed"] == ["TSK-1", "TSK-2"] and done["failures"] == []
        assert (done["successCount"], done["failureCount"], done["totalRequested"]) == (2, 0, 2)


def test_a_result_that_holds_its_record_under_object_shows_that_record() -> None:
    wrapped = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "object": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "issue_status": {"type": "string"}},
                "required": ["id", "issue_status"],
            },
        },
        "required": ["id", "object"],
    }
    world = wenv.World(_issue_tools(wrapped), seed=4, options={"exists_share": 1.0})
    read = world.call("get_issue", {"issue_key": "PRJ-12"})
    stored = world.store.peek("issue", "PRJ-12").record
    assert read["object"]["id"] == "PRJ-12"
    assert read["object"]["issue_status"] == stored["issue_status"]


def test_a_state_outside_the_nouns_statuses_still_sets_its_one_status() -> None:
    key = {"project_id": {"type": "string"}}
    tools = [
        {
            "name": "get_project",
            "description": "Get a project.",
            "parameters": {"type": "object", "properties": key, "required": ["project_id"]},
        },
        {
            "name": "update_project",
            "description": "Update a project.",
            "parameters": {
                "type": "object",
                "properties": {**key, "state": {"type": "string"}},
                "required": ["project_id"],
            },
        },
    ]
    world = wenv.World(tools, seed=5, options={"exists_share": 1.0})
    world.call("get_project", {"project_id": "PRJ-9"})
    assert (
        world.call("update_project", {"project_id": "PRJ-9", "state": "completed"})["status"]
        == "ok"
    )
    record = world.store.peek("project", "PRJ-9").record
    assert record["project_status"] == "completed" and "state" not in record


def test_a_writes_own_verb_done_is_its_outcome_and_answers_true() -> None:
    """MongoDB's ``rename-collection`` answered ``renamed: false`` (and ``drop-collection``
    ``dropped: false``) on success, and a reply claiming the rename was still paid in full."""
    flag = {"type": "boolean"}
    assert is_ok_flag("renamed", flag, writes=True, tool="rename-collection")
    assert is_ok_flag("was_dropped", flag, writes=True, tool="drop_database")
    assert not is_ok_flag("archived", flag, writes=True, tool="unarchive_card")
    assert not is_ok_flag("renamed", flag, writes=False, tool="get_rename_history")
    out = {"type": "object", "properties": {"renamed": flag}, "required": ["renamed"]}
    tool = {
        "name": "rename-collection",
        "description": "Renames a collection in a database.",
        "inputSchema": {
            "type": "object",
            "properties": {"collection": {"type": "string"}, "newName": {"type": "string"}},
            "required": ["collection", "newName"],
        },
        "outputSchema": out,
    }
    for seed in range(4):
        world = wenv.World([tool], seed=seed, options={"exists_share": 1.0})
        result = world.call("rename-collection", {"collection": "orders", "newName": "v2"})
        assert result["status"] == "ok" and result["renamed"] is True, result
