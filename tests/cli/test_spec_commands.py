"""``whileai-env check-spec`` says when two tools disagree on an entity's id format: each tool,
argument and format, so a user can fix the spec before a run (the world would mint ids that one
of the tools refuses)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from whileai_env.cli import main


def _tool(name: str, arg: str, schema: dict) -> dict:
    return {
        "name": name,
        "description": f"{name.replace('_', ' ').capitalize()}.",
        "parameters": {"type": "object", "required": [arg], "properties": {arg: schema}},
    }


def _check(tmp_path, tools: list[dict]) -> list[str]:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"name": "s", "system_prompt": "You help.", "tools": tools}))
    result = CliRunner().invoke(main, ["check-spec", str(path), "--samples", "1"])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_check_spec_prints_each_tool_argument_and_format_of_a_conflict(tmp_path):
    lines = _check(
        tmp_path,
        [
            _tool("get_invoice", "invoice_id", {"type": "string", "pattern": "^INV-[0-9]{5}$"}),
            _tool("void_invoice", "invoice_id", {"type": "string", "pattern": "^[a-f0-9]{24}$"}),
        ],
    )
    start = next(i for i, line in enumerate(lines) if line.startswith("Id conflicts"))
    assert lines[start].startswith("Id conflicts (1)")
    assert "invoice ids" in lines[start + 1] and lines[start + 1].lstrip().startswith("!")
    shown = [line.split() for line in lines[start + 2 : start + 4]]
    assert [parts[0] for parts in shown] == ["get_invoice.invoice_id", "void_invoice.invoice_id"]
    assert '"^INV-[0-9]{5}$"' in lines[start + 2] and '"^[a-f0-9]{24}$"' in lines[start + 3]


def test_check_spec_says_so_when_every_tool_agrees(tmp_path):
    same = {"type": "string", "pattern": "^INV-[0-9]{5}$"}
    lines = _check(
        tmp_path,
        [_tool("get_invoice", "invoice_id", same), _tool("void_invoice", "invoice_id", same)],
    )
    assert not any(line.startswith("Id conflicts") for line in lines)
    assert any(line.startswith("Id formats: one per entity type") for line in lines)


def test_an_integer_id_and_a_patterned_string_id_conflict(tmp_path):
    lines = _check(
        tmp_path,
        [
            _tool("get_device", "device_id", {"type": "integer", "minimum": 1}),
            _tool("wipe_device", "device_id", {"type": "string", "pattern": "^dev_[a-z]{8}$"}),
        ],
    )
    found = "\n".join(lines)
    assert "Id conflicts (1)" in found
    assert "get_device.device_id" in found and "wipe_device.device_id" in found


def test_ids_worded_differently_or_nullable_do_not_conflict(tmp_path):
    nullable = {
        "anyOf": [{"type": "string", "description": "The project's slug."}, {"type": "null"}]
    }
    lines = _check(
        tmp_path,
        [
            _tool("get_project", "project_slug", {"type": "string", "description": "A slug."}),
            _tool("list_releases", "project_slug", nullable),
        ],
    )
    assert not any(line.startswith("Id conflicts") for line in lines), lines


def test_check_spec_names_each_argument_no_value_can_satisfy(tmp_path):
    lines = _check(
        tmp_path,
        [
            _tool("add_reminder", "at", {"type": "integer", "minimum": 10, "maximum": 5}),
            _tool("set_mode", "mode", {"type": "string", "enum": []}),
            _tool("get_invoice", "invoice_id", {"type": "string"}),
        ],
    )
    start = next(i for i, line in enumerate(lines) if line.startswith("Argument schema problems"))
    assert lines[start].startswith("Argument schema problems (2)")
    assert "add_reminder.at: minimum 10 is above maximum 5" in lines[start + 1]
    assert "set_mode.mode: enum is empty" in lines[start + 2]
    fine = _check(tmp_path, [_tool("get_invoice", "invoice_id", {"type": "string"})])
    assert any(line.startswith("Argument schemas: every one can be satisfied") for line in fine)


def test_check_spec_names_a_required_field_no_property_declares(tmp_path):
    """``"required": ["contnet"]`` beside ``content`` passed silently; tasks were built around it."""
    tool = {
        "name": "create_task",
        "description": "Create a task.",
        "parameters": {
            "type": "object",
            "properties": {"content": {"type": "string"}},
            "required": ["contnet"],
        },
    }
    lines = _check(tmp_path, [tool])
    assert any(
        "create_task.contnet: required, but no property declares it" in line for line in lines
    )
