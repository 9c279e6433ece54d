"""A list of paths or ids names each item as a single locator names its one (issue 11, item 4).

Three world defects the corpus oracle met, each on a small spec of its own: a stated list of
paths was never stated (the files answered ``not_found`` in state exists), a search with an
output schema answered ok in state missing (the schema fit came before the world state), and a
read whose locator is a list of ids answered a full list in state missing.
"""

from __future__ import annotations

import pytest

import whileai_env as wenv
from whileai_env.world.store import named_ids

from .conftest import task_in_state

_CONTENT = {
    "type": "object",
    "properties": {"content": {"type": "string"}},
    "required": ["content"],
}
_READ_ONLY = {"readOnlyHint": True}


@pytest.fixture(scope="module")
def spec() -> wenv.Spec:
    """A multi-file read, a folder search and a related-items read, each with a list or path."""
    return wenv.load_spec(
        tools=[
            {
                "name": "read_texts",
                "description": "Read the contents of several files at once, each with its path.",
                "annotations": _READ_ONLY,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "paths": {"type": "array", "items": {"type": "string"}, "minItems": 1}
                    },
                    "required": ["paths"],
                },
                "outputSchema": _CONTENT,
            },
            {
                "name": "search_folder",
                "description": "Recursively search for files matching a glob-style pattern "
                "under a directory.",
                "annotations": _READ_ONLY,
                "parameters": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}, "pattern": {"type": "string"}},
                    "required": ["path", "pattern"],
                },
                "outputSchema": _CONTENT,
            },
            {
                "name": "related_articles",
                "description": "Articles related to the anchor articles you pass by id.",
                "annotations": _READ_ONLY,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "anchor_ids": {"type": "array", "items": {"type": "string"}},
                        "topic": {"type": "string"},
                    },
                    "required": ["anchor_ids", "topic"],
                },
            },
        ]
    )


def _stated_call(task: wenv.Task, tool: str) -> dict:
    """The arguments the task's user states for ``tool``: its entities and its details."""
    return {**task.world.entities_for(tool), **task.world.details_for(tool)}


def test_named_ids_reads_a_single_value_or_each_item_of_a_list():
    assert named_ids("a.txt") == ["a.txt"] and named_ids(42) == ["42"]
    assert named_ids(["A-1", 2, {"x": 1}, None]) == ["A-1", "2"]
    assert named_ids(None) == [] and named_ids(True) == []


def test_a_stated_list_of_paths_is_there_in_state_exists(spec):
    task = task_in_state(spec, "exists", "read_texts")
    args = _stated_call(task, "read_texts")
    assert len(args["paths"]) >= 1
    result = wenv.World(spec, task).call("read_texts", args)
    assert result["status"] == "ok" and isinstance(result["content"], str)


def test_a_search_in_the_missing_folder_is_not_found_before_the_output_schema(spec):
    task = task_in_state(spec, "missing", "search_folder")
    args = _stated_call(task, "search_folder")
    result = wenv.World(spec, task).call("search_folder", args)
    assert result["status"] == "error" and result["error"]["code"] == "not_found"
    assert result["error"]["field"] == "path"


def test_a_search_in_a_folder_that_is_there_answers_by_the_output_schema(spec):
    task = task_in_state(spec, "exists", "search_folder")
    result = wenv.World(spec, task).call("search_folder", _stated_call(task, "search_folder"))
    assert result["status"] == "ok" and isinstance(result["content"], str)


def test_a_search_outside_the_tree_is_not_found(spec):
    world = wenv.world(spec)
    result = world.call("search_folder", {"path": "no/such/folder", "pattern": "*.py"})
    assert result["status"] == "error" and result["error"]["code"] == "not_found"


def test_a_list_of_ids_naming_the_missing_entity_is_not_found(spec):
    task = task_in_state(spec, "missing", "related_articles")
    args = _stated_call(task, "related_articles")
    result = wenv.World(spec, task, options={"exists_share": 1.0}).call("related_articles", args)
    assert result["status"] == "error" and result["error"]["code"] == "not_found"
    assert result["error"]["field"] == "anchor_ids"


def test_a_list_of_ids_that_exist_lists_related_items(spec):
    task = task_in_state(spec, "exists", "related_articles")
    args = _stated_call(task, "related_articles")
    result = wenv.World(spec, task).call("related_articles", args)
    assert result["status"] == "ok" and result["count"] == len(result["items"]) >= 1
