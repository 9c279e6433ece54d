"""A read of several paths checks and answers each one (issue 11, item 2).

``read_multiple_files(paths)``, whose description says a failed read does not stop the rest,
answers every listed path: its content or its own error, not only the first. Without that
promise a missing path fails the whole call, whichever position it holds.
"""

from __future__ import annotations

import pytest

import whileai_env as wenv

_PATHS = {
    "type": "object",
    "properties": {"paths": {"type": "array", "items": {"type": "string"}}},
    "required": ["paths"],
}
_WRITE = {
    "name": "write_file",
    "description": "Create or overwrite a file with new content.",
    "parameters": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"],
    },
}


def _world(description: str) -> wenv.World:
    read = {
        "name": "read_many",
        "description": description,
        "annotations": {"readOnlyHint": True},
        "parameters": _PATHS,
    }
    world = wenv.world(wenv.load_spec(tools=[read, _WRITE]))
    world.call("write_file", {"path": "notes/a.txt", "content": "alpha"})
    world.call("write_file", {"path": "notes/b.txt", "content": "beta"})
    return world


@pytest.fixture
def tolerant() -> wenv.World:
    return _world(
        "Read the contents of multiple files at once. Each file's content is returned with its "
        "path. Failed reads for individual files won't stop the entire operation."
    )


def test_every_listed_path_is_read(tolerant):
    result = tolerant.call("read_many", {"paths": ["notes/a.txt", "notes/b.txt"]})
    assert result["status"] == "ok"
    assert [(f["path"], f["content"]) for f in result["files"]] == [
        ("notes/a.txt", "alpha"),
        ("notes/b.txt", "beta"),
    ]
    assert "alpha" in result["content"] and "beta" in result["content"]


def test_a_missing_path_is_answered_on_its_own_and_the_rest_still_read(tolerant):
    result = tolerant.call("read_many", {"paths": ["notes/a.txt", "no/such.txt", "notes/b.txt"]})
    assert result["status"] == "ok" and result["failed"] == 1
    by_path = {f["path"]: f for f in result["files"]}
    assert by_path["no/such.txt"]["error"]["code"] == "not_found"
    assert by_path["notes/b.txt"]["content"] == "beta"


def test_without_the_promise_a_missing_later_path_fails_the_call():
    world = _world("Read the contents of several files, each with its path.")
    result = world.call("read_many", {"paths": ["notes/a.txt", "no/such.txt"]})
    assert result["status"] == "error" and result["error"]["code"] == "not_found"
    assert "no/such.txt" in result["error"]["message"]
