"""Ids a list shows fit every tool that takes them (issue 11, item 1).

An entity's id is minted once, in the one format the spec's tools agree on; a result shows it in
the type the receiving schema wants: ``get_ticket(ticket_id: integer)`` means a list shows
``ticket_id: 2``, never ``"2"`` or ``"16216.0"``. The property runs over every corpus spec.
"""

from __future__ import annotations

from typing import Any

import pytest

import whileai_env as wenv
from tests.corpus import corpus_specs
from whileai_env._util.frozen import thaw
from whileai_env.world.entity_ids import as_number, form, one_id_schema, typed_ids
from whileai_env.world.schema_values import fits

_READ_ONLY = {"readOnlyHint": True}


def _tool(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict:
    return {
        "name": name,
        "description": description,
        "annotations": _READ_ONLY,
        "parameters": {"type": "object", "properties": props, "required": required},
    }


@pytest.fixture(scope="module")
def spec() -> wenv.Spec:
    """Tickets listed with no declared id type, read by an integer id; issues by a number."""
    return wenv.load_spec(
        tools=[
            _tool("list_tickets", "List support tickets.", {"limit": {"type": "integer"}}, []),
            _tool(
                "get_ticket",
                "Get one ticket by its id.",
                {"ticket_id": {"type": "integer"}},
                ["ticket_id"],
            ),
            _tool("list_issues", "List the repository's issues.", {}, []),
            _tool(
                "get_issue",
                "Get one issue.",
                {"issue_number": {"type": "number"}},
                ["issue_number"],
            ),
        ]
    )


def test_a_numeric_id_reads_as_the_int_it_spells():
    assert as_number("2") == 2 and as_number("16216.0") == 16216 and as_number(16216.0) == 16216
    assert as_number("T-2") == "T-2" and as_number(2.5) == 2.5
    assert typed_ids({"items": [{"a_id": "7", "name": "7"}]}, frozenset({"a_id"})) == {
        "items": [{"a_id": 7, "name": "7"}]
    }


@pytest.mark.parametrize(
    ("lister", "getter", "key"),
    [
        ("list_tickets", "get_ticket", "ticket_id"),
        ("list_issues", "get_issue", "issue_number"),
    ],
)
def test_a_listed_id_is_an_int_the_get_tool_accepts(spec, lister, getter, key):
    world = wenv.world(spec)
    items = world.call(lister, {})["items"]
    assert items and all(type(item[key]) is int for item in items)
    got = world.call(getter, {key: items[0][key]})
    assert got["status"] == "ok", got


def test_a_declared_string_id_field_shows_the_digits():
    out = {
        "type": "object",
        "properties": {
            "tickets": {
                "type": "array",
                "items": {"type": "object", "properties": {"id": {"type": "string"}}},
            }
        },
    }
    lister = {**_tool("list_tickets", "List support tickets.", {}, []), "outputSchema": out}
    getter = _tool("get_ticket", "Get a ticket.", {"ticket_id": {"type": "integer"}}, ["ticket_id"])
    world = wenv.world(wenv.load_spec(tools=[lister, getter]))
    item = world.call("list_tickets", {})["tickets"][0]
    assert item["id"] == str(item["ticket_id"]) and type(item["ticket_id"]) is int


def _takers(world: wenv.World) -> dict[str, list[tuple[str, Any]]]:
    """Per id argument name, each (tool, schema) that takes it (an array's items schema)."""
    out: dict[str, list[tuple[str, Any]]] = {}
    for name, tp in world._profile.tools.items():
        for arg in tp.locators:
            schema = thaw(tp.properties.get(arg)) or {}
            # one id of a list of them (an array, ``list[str] | None``)
            schema = one_id_schema(schema) or {} if isinstance(schema, dict) else schema
            if form(arg) == "id" and isinstance(schema, dict):
                out.setdefault(arg, []).append((name, schema))
    return out


def _specs() -> list[wenv.Spec]:
    out = []
    for path in corpus_specs():
        try:
            out.append(wenv.load_spec(path))
        except wenv.SpecError:
            continue
    return out


@pytest.mark.parametrize("spec_", _specs(), ids=lambda s: s.name)
def test_every_listed_id_validates_against_every_tool_taking_it(spec_: wenv.Spec) -> None:
    world = wenv.World(spec_, seed=5, options={"exists_share": 1.0})
    takers = _takers(world)
    refused = []
    for tool in spec_.tools:
        if tool.required or world._profile.tools[tool.name].family != "list":
            continue
        result = world.call(tool.name, {})
        noun = world._profile.tools[tool.name].noun
        for listed in (v for v in result.values() if isinstance(v, list)):
            for item in (i for i in listed if isinstance(i, dict)):
                for key, value in item.items():
                    refused += [
                        f"{tool.name}.{key}={value!r} -> {taker}"
                        for taker, schema in takers.get(key, ())
                        if not fits(value, schema, schema)
                        # a bare ``id`` is an id of the taker's own noun: a product's is no customer's
                        and (
                            key not in ("id", "uuid")
                            or world._profile.tools[taker].nouns[key] == noun
                        )
                    ]
    assert not refused, "\n".join(refused[:20])


def test_an_entity_is_keyed_by_the_argument_that_names_it_not_a_shorter_locator() -> None:
    """``url`` also locates an issue (a remote link's), but ``issue_key`` is what names one: a
    created issue is returned under ``issue_key``, the key every other tool takes."""
    from whileai_env.world.profile import build_profile

    def tool(name: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
        schema = {"type": "object", "properties": props, "required": required}
        return {"name": name, "description": f"{name} in the tracker.", "parameters": schema}

    text = {"type": "string"}
    spec = wenv.load_spec(
        tools=[
            tool("get_issue", {"issue_key": text}, ["issue_key"]),
            tool("create_issue", {"project_key": text, "summary": text}, ["project_key"]),
            tool("create_remote_issue_link", {"issue_key": text, "url": text}, ["issue_key"]),
        ]
    )
    assert build_profile(spec).id_keys.get("issue") == "issue_key"
    hooks = wenv.load_spec(  # a bare ``id`` of a webhook tool, not a ``webhookUrl`` beside it
        tools=[
            tool("get_webhook", {"id": text}, ["id"]),
            tool("ping_webhook", {"webhookUrl": text}, ["webhookUrl"]),
        ]
    )
    assert build_profile(hooks).id_keys.get("webhook") == "id"
    made = wenv.World(spec, seed=0).call("create_issue", {"project_key": "PROJ", "summary": "x"})
    assert made["status"] == "ok" and "issue_key" in made and "url" not in made


@pytest.mark.parametrize(
    "pattern", ["^[A-Za-z0-9_-]{1,127}$", "^[a-z0-9]+$", "^.{1,255}$", "^[A-Z0-9-]+$"]
)
def test_a_loose_pattern_gives_ids_of_an_ids_length(pattern):
    """PayPal's ids are declared ``^[A-Za-z0-9_-]{1,127}$``: sampled as it is, it made invoice
    ids ``"D"`` and ``"E_"``, which no user would read out."""
    from whileai_env.world.makers import Scope
    from whileai_env.world.schema_values import value_for

    schema = {"type": "string", "pattern": pattern}
    ids = [value_for(schema, "invoice_id", Scope(seed=s, now=0), locator=True) for s in range(30)]
    assert all(fits(i, schema, schema) and len(i) >= 6 for i in ids), ids


@pytest.mark.parametrize(
    ("example", "shape"),
    [
        ("gid://shopify/Product/1234567890", r"gid://shopify/Product/\d+"),
        ("https://shop.example.com/products/1234567890", r"(?!https?://)\S+"),
    ],
)
def test_an_id_in_a_scheme_of_its_own_is_made_in_that_shape(example, shape):
    """Shopify names a product ``gid://shopify/Product/1234567890``: that is the id itself, while
    a web address only holds one (a user's Shopify spec had products named ``"PROD-2"``)."""
    import re

    spec = wenv.load_spec(
        tools=[
            _tool("list_products", "List the shop's products.", {"limit": {"type": "integer"}}, []),
            _tool(
                "get_product",
                "Get one product.",
                {"id": {"type": "string", "description": f"The product's ID, e.g. {example}"}},
                ["id"],
            ),
        ]
    )
    listed = wenv.World(spec, seed=3).call("list_products", {})
    ids = [item["id"] for item in listed["items"]]
    assert ids and all(re.fullmatch(shape, i) for i in ids), ids


def _transactions_spec(nullable: bool) -> wenv.Spec:
    """A user's Paddle spec: the listing filters by several ids and several statuses (with
    ``nullable``, FastMCP's ``list[str] | None``, as PagerDuty's server declares them)."""
    ids: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
    if nullable:
        ids = {"anyOf": [ids, {"type": "null"}], "default": None}
    ids["description"] = "Return only these IDs."
    statuses = {
        "type": "array",
        "items": {"type": "string", "enum": ["draft", "billed", "completed", "canceled"]},
    }
    return wenv.load_spec(
        tools=[
            {
                "name": "list_transactions",
                "description": "List transactions.",
                "annotations": _READ_ONLY,
                "parameters": {"type": "object", "properties": {"id": ids, "status": statuses}},
            },
            {
                "name": "create_adjustment",
                "description": "Refund or credit a transaction.",
                "parameters": {
                    "type": "object",
                    "properties": {"transactionId": {"type": "string"}},
                    "required": ["transactionId"],
                },
            },
        ]
    )


@pytest.mark.parametrize("nullable", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_a_listing_filtered_by_several_ids_lists_one_id_per_record(seed, nullable):
    """The ids were the text of a Python list (``"['txn_83602', 'txn_39583']"``), and the
    statuses a bank's (``posted``) though the spec lists its own."""
    world = wenv.World(_transactions_spec(nullable), seed=seed)
    listed = world.call("list_transactions", {})
    assert listed["status"] == "ok" and listed["items"], listed
    for item in listed["items"]:
        assert isinstance(item["id"], str) and "[" not in item["id"], item
        assert item["transaction_status"] in ("draft", "billed", "completed", "canceled"), item
