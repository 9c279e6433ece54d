"""How a tool's name is said in an opener."""

from __future__ import annotations

import whileai_env as wenv


def test_a_name_written_object_first_is_said_verb_first():
    """``refund-create`` (Shopify's MCP server) read "a refund on a create" in every opener."""
    tools = [
        {
            "name": name,
            "description": "",
            "parameters": {
                "type": "object",
                "properties": {"orderId": {"type": "string"}},
                "required": ["orderId"],
            },
        }
        for name in ("refund-create", "order-cancel")
    ]
    spec = wenv.load_spec(tools=tools)
    for task in wenv.draw_tasks(spec, 60, seed=1):
        if task.cell.tool in ("refund-create", "order-cancel"):
            assert "a create" not in task.opener.lower() and "cancel for" not in task.opener.lower()
