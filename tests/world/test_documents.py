"""A document database's tools, as the MongoDB MCP server declares them: an update document and
an aggregation pipeline are operator documents (``$set``, ``$match`` …), an aggregation is a read,
``update-many`` acts on records (not on a "many"), and an argument named for the record
(``collection``) names it, never its status (whileai_env/world/documents.py)."""

from __future__ import annotations

import jsonschema
import pytest

import whileai_env as wenv
from whileai_env.world.makers import Scope
from whileai_env.world.schema_values import value_for

S = {"type": "string"}
UPDATE = {
    "type": "object",
    "description": "An update document describing the modifications to apply using update "
    "operator expressions",
}
PIPELINE = {
    "type": "array",
    "items": {"type": "object"},
    "description": "An array of aggregation stages to execute",
}


def _tool(name: str, props: dict, description: str, required: list[str]) -> dict:
    body = {"type": "object", "properties": props, "required": required}
    return {"name": name, "description": description, "inputSchema": body}


TOOLS = [
    _tool(
        "update-many",
        {"database": S, "collection": S, "filter": {"type": "object"}, "update": UPDATE},
        "Updates all documents that match the specified filter for a collection",
        ["database", "collection", "update"],
    ),
    _tool(
        "aggregate",
        {"database": S, "collection": S, "pipeline": PIPELINE},
        "Run an aggregation against a MongoDB collection",
        ["database", "collection", "pipeline"],
    ),
    _tool(
        "rename-collection",
        {"database": S, "collection": S, "newName": S},
        "Renames a collection in a MongoDB database",
        ["database", "collection", "newName"],
    ),
]


@pytest.mark.parametrize("seed", range(20))
def test_an_update_document_sets_with_an_operator(seed):
    value = value_for(UPDATE, "update", Scope(seed=seed, now=0))
    assert list(value) == ["$set"] and value["$set"], value
    jsonschema.validate(value, UPDATE)


@pytest.mark.parametrize("seed", range(20))
def test_an_aggregation_pipeline_is_a_list_of_stages(seed):
    stages = value_for(PIPELINE, "pipeline", Scope(seed=seed, now=0))
    jsonschema.validate(stages, PIPELINE)
    assert stages[0].keys() == {"$match"} and stages[0]["$match"], stages
    assert all(len(s) == 1 and next(iter(s)).startswith("$") for s in stages), stages


def test_a_plain_object_stays_plain():
    fields = {"type": "object", "description": "The fields to change"}
    for seed in range(10):
        assert not any(
            k.startswith("$") for k in value_for(fields, "fields", Scope(seed=seed, now=0))
        )


def test_an_aggregation_is_a_read_and_a_bulk_update_acts_on_records():
    spec = wenv.load_spec(tools=TOOLS)
    assert spec.tool("aggregate").kind == "read"
    world = wenv.World(spec, seed=1, options={"exists_share": 1.0})
    args = {"database": "shop", "collection": "orders", "update": {"$set": {"status": "shipped"}}}
    out = world.call("update-many", args)
    assert out["status"] == "ok" and "many_status" not in out, out


def test_an_argument_named_for_the_record_is_not_its_status():
    spec = wenv.load_spec(tools=TOOLS)
    for seed in range(4):
        world = wenv.World(spec, seed=seed, options={"exists_share": 1.0})
        args = {"database": "shop", "collection": "orders", "newName": "orders_2024"}
        out = world.call("rename-collection", args)
        assert out["status"] == "ok" and out.get("collection_status") != "orders", out
