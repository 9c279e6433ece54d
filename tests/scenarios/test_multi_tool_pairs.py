"""A multi-tool task's read and write are about one entity (a trial user's Shopify spec: "check
customer 3214251724, then change product for it" passed the customer's ``id`` to
``update-product``'s ``id``, 19 of 49 multi-tool tasks)."""

from __future__ import annotations

import whileai_env as wenv
from whileai_env.world.profile import profile_for


def _tool(name: str, description: str) -> dict:
    body = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    return {"name": name, "description": description, "parameters": body}


TOOLS = [
    _tool("get-customer-by-id", "Get a customer by id."),
    _tool("get-product-by-id", "Get a product by id."),
    _tool("update-product", "Update a product."),
    _tool("delete-product", "Delete a product."),
    _tool("update-customer", "Update a customer."),
]


def test_the_read_of_a_multi_tool_task_names_the_writes_entity():
    spec = wenv.load_spec(tools=TOOLS)
    tools = profile_for(spec).tools
    tasks = [t for t in wenv.draw_tasks(spec, 400, seed=1) if t.cell.tool == "multi_tool"]
    pairs = [t.world.targets for t in tasks if len(t.world.targets) == 2]
    assert len(pairs) >= 10
    for read, write in pairs:
        assert tools[read].nouns["id"] == tools[write].nouns["id"], (read, write)


def test_a_read_naming_the_entity_by_another_argument_is_about_the_same_record():
    """``get-product-by-id(productId)`` and ``update-product(id)``: one product, one id (each
    had drawn its own, so the read showed another product than the one updated)."""
    read = {
        "name": "get-product-by-id",
        "description": "Get a product by id.",
        "parameters": {
            "type": "object",
            "properties": {"productId": {"type": "string"}},
            "required": ["productId"],
        },
    }
    orders = {
        "name": "get-orders",
        "description": "List orders.",
        "parameters": {"type": "object", "properties": {}},
    }
    spec = wenv.load_spec(tools=[read, orders, _tool("update-product", "Update a product.")])
    tasks = [t for t in wenv.draw_tasks(spec, 300, seed=2) if t.cell.tool == "multi_tool"]
    pairs = [t for t in tasks if t.world.targets == ("get-product-by-id", "update-product")]
    assert len(pairs) >= 5 and len(pairs) == len(tasks)
    for task in pairs:
        assert task.world.entities["productId"] == task.world.entities["id"]
