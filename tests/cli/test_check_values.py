"""``whileai-env check-spec --values``: sample values per argument, and the arguments the world
could not fill well flagged with why."""

from __future__ import annotations

import json

from click.testing import CliRunner

from whileai_env.cli import main
from whileai_env.world.preview import value_problems

TOOLS = [
    {
        "name": "get_order",
        "description": "Look up an order.",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string", "pattern": "^ORD-\\d{6}$"}},
            "required": ["order_id"],
        },
    },
    {
        "name": "tag_order",
        "description": "Tag an order.",
        "parameters": {
            "type": "object",
            "required": ["order_id", "tag"],
            "properties": {
                "order_id": {"type": "string", "pattern": "^ORD-\\d{6}$"},
                # No string is at least 5 and at most 2 characters long: nothing can fill this.
                "tag": {"type": "string", "minLength": 5, "maxLength": 2},
            },
        },
    },
]


def _spec_file(tmp_path):
    path = tmp_path / "orders.json"
    path.write_text(
        json.dumps(
            {
                "name": "orders",
                "system_prompt": "You help with orders. Never tag twice.",
                "tools": TOOLS,
            }
        )
    )
    return path


def test_values_prints_samples_and_flags_what_cannot_be_filled(tmp_path):
    result = CliRunner().invoke(
        main, ["check-spec", str(_spec_file(tmp_path)), "--values", "--samples", "1"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Values"))
    section = lines[
        start : next(i for i, line in enumerate(lines) if "arguments flagged" in line) + 1
    ]
    ids = [line for line in section if "order_id (locator):" in line]
    assert len(ids) == 2 and all(not line.lstrip().startswith("!") for line in ids)
    assert all(line.count('"ORD-') == 3 for line in ids)  # three samples, each fitting the pattern
    tag = next(i for i, line in enumerate(section) if "tag (" in line)
    assert section[tag].lstrip().startswith("!")
    assert "fails its schema" in section[tag + 1]
    assert section[-1].strip() == "1 of 3 arguments flagged"


def test_without_values_there_is_no_values_section(tmp_path):
    result = CliRunner().invoke(main, ["check-spec", str(_spec_file(tmp_path)), "--samples", "1"])
    assert result.exit_code == 0 and "Values" not in result.output


def test_value_problems_name_fillers_templates_and_placeholders():
    params = {
        "type": "object",
        "properties": {
            "owner": {"type": "string"},
            "mode": {"type": "string", "enum": ["none", "text"]},
            "date": {"type": "string"},
            "legs": {
                "type": "array",
                "items": {"type": "object", "properties": {"date": {"type": "string"}}},
            },
            "argv": {"type": "array", "items": {"type": "string"}},
            "order_id": {"type": "string"},
            "when": {"type": "string", "format": "date"},
        },
    }
    assert value_problems(params, "owner", "text", ["as discussed"]) == [
        "'as discussed' is a filler word, not a value"
    ]
    assert value_problems(params, "owner", "text", ["Dana Kim"]) == []
    assert value_problems(params, "mode", "text", ["none", "text"]) == []  # listed by the enum
    assert "format template" in value_problems(params, "date", "text", ["YYYY-MM-DD"])[0]
    assert (
        "format template" in value_problems(params, "legs", "text", [[{"date": "YYYY-MM-DD"}]])[0]
    )
    assert (
        value_problems(params, "argv", "text", [["npm", "test"]]) == []
    )  # command words, not fillers
    assert "would refuse" in value_problems(params, "order_id", "locator", ["<order id>"])[0]
    assert "fails its schema" in value_problems(params, "when", "text", ["2026-13-45"])[0]


def test_a_required_name_no_property_declares_is_flagged(tmp_path):
    tools = [
        {
            "name": "book_hotel",
            "description": "Book a hotel.",
            "parameters": {
                "type": "object",
                "properties": {"hotel_id": {"type": "string"}},
                "required": ["hotel_id", "phone"],
                "additionalProperties": False,
            },
        }
    ]
    path = tmp_path / "hotels.json"
    path.write_text(json.dumps({"tools": tools}))
    result = CliRunner().invoke(main, ["check-spec", str(path), "--values"])
    assert result.exit_code == 0, result.output
    assert "! phone" in result.output and "no call can be valid" in result.output
