"""A tool whose one argument wraps all the others (a pydantic model argument of a Python MCP
server): the world reads the wrapped fields, the agent sees and sends the schema as published."""

from __future__ import annotations

import whileai_env as wenv
from whileai_env._util.frozen import thaw
from whileai_env.spec.envelope import envelope_of

_REQUEST = {
    "type": "object",
    "properties": {"request": {"$ref": "#/$defs/TicketUpdate"}},
    "required": ["request"],
    "$defs": {
        "TicketUpdate": {
            "type": "object",
            "title": "TicketUpdate",
            "properties": {
                "ticket_ids": {"type": "array", "items": {"type": "string"}},
                "priority": {"enum": ["low", "high"]},
            },
            "required": ["ticket_ids"],
        }
    },
}


def test_one_required_object_argument_is_an_envelope() -> None:
    name, fields = envelope_of(_REQUEST)
    assert name == "request"
    assert list(fields["properties"]) == ["ticket_ids", "priority"]
    assert fields["required"] == ["ticket_ids"]
    assert "$defs" in fields and "title" not in fields


def test_other_shapes_are_no_envelope() -> None:
    two = {**_REQUEST, "properties": {**_REQUEST["properties"], "dry_run": {"type": "boolean"}}}
    optional = {**_REQUEST, "required": []}
    text = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    bare = {"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"]}
    for params in (two, optional, text, bare):
        assert envelope_of(params) is None


def test_the_tool_reads_the_fields_and_shows_the_published_schema() -> None:
    spec = wenv.load_spec(
        tools=[
            {"name": "update_tickets", "description": "Update tickets.", "inputSchema": _REQUEST}
        ]
    )
    tool = spec.tool("update_tickets")
    assert tool.envelope == "request" and tool.kind == "update"
    assert "ticket_ids" in tool.properties and tool.required == ("ticket_ids",)
    assert thaw(tool.to_openai()["function"]["parameters"]) == _REQUEST
    assert tool.to_dict()["parameters"] == _REQUEST
    assert tool.sent({"ticket_ids": ["T1"]}) == {"request": {"ticket_ids": ["T1"]}}
    assert tool.fields_of({"request": {"ticket_ids": ["T1"]}}) == {"ticket_ids": ["T1"]}
    # a call not wrapped is kept as sent: the world refuses it by the published schema
    assert tool.fields_of({"ticket_ids": ["T1"]}) == {"ticket_ids": ["T1"]}
    again = wenv.load_spec(tools=[tool.to_dict()])
    assert again.tool("update_tickets") == tool
