"""Result kinds and their shapes; locators echoed, findings not; declared output schemas hold."""

from __future__ import annotations

import re

import jsonschema
import pytest

import whileai_env as wenv
from whileai_env._util.frozen import thaw

from .conftest import load_examples

TOOLS = [
    {
        "name": "get_ticket",
        "parameters": {
            "properties": {"ticket_id": {"type": "string"}, "status": {"type": "string"}},
            "required": ["ticket_id"],
        },
    },
    {
        "name": "search_tickets",
        "parameters": {"properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}},
    },
    {
        "name": "get_balance",
        "parameters": {
            "properties": {"account_id": {"type": "string"}},
            "required": ["account_id"],
        },
    },
    {
        "name": "get_price",
        "parameters": {"properties": {"sku": {"type": "string"}}, "required": ["sku"]},
    },
    {
        "name": "calculate",
        "parameters": {
            "properties": {"expression": {"type": "string"}},
            "required": ["expression"],
        },
    },
    {
        "name": "run_command",
        "parameters": {"properties": {"command": {"type": "string"}}, "required": ["command"]},
    },
    {"name": "run_tests", "parameters": {"properties": {}}},
    {"name": "get_pipeline_status", "parameters": {"properties": {"branch": {"type": "string"}}}},
    {"name": "git_log", "parameters": {"properties": {}}},
    {
        "name": "read_file",
        "parameters": {"properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
    {
        "name": "verify_customer",
        "parameters": {
            "properties": {"customer_id": {"type": "string"}, "email": {"type": "string"}},
            "required": ["customer_id", "email"],
        },
    },
]


@pytest.fixture
def world() -> wenv.World:
    return wenv.World(TOOLS, seed=5, options={"exists_share": 1.0})


def test_records_echo_locators_but_never_take_findings(world):
    plain = world.call("get_ticket", {"ticket_id": "T-10442"})
    asserted = world.call("get_ticket", {"ticket_id": "T-10442", "status": "refunded-and-closed"})
    assert plain["ticket_id"] == asserted["ticket_id"] == "T-10442"
    assert asserted["ticket_status"] == plain["ticket_status"] != "refunded-and-closed"
    assert asserted["status"] == "ok"
    assert re.match(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", asserted["requester_email"])
    assert re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$", asserted["created_at"])


def test_search_returns_items_with_a_count_in_the_hit_range(world):
    """A search that matches nothing held finds one or two records (more only when the world's
    ``search_hits`` asks for more at the fewest); a list without a query, up to six."""
    counts = set()
    for q in ("vpn", "printer", "email", "laptop", "wifi", "mfa", "monitor", "teams"):
        result = world.call("search_tickets", {"query": q})
        assert result["count"] == len(result["items"])
        counts.add(result["count"])
        assert all("ticket_id" in item for item in result["items"])
    assert counts <= {1, 2}
    listed = {wenv.World(TOOLS, seed=s).call("search_tickets", {})["count"] for s in range(12)}
    assert listed <= set(range(1, 7)) and len(listed) > 2
    assert world.call("search_tickets", {"query": "vpn", "limit": 1})["count"] <= 1
    narrow = wenv.World(TOOLS, options={"search_hits": (3, 3)})
    assert narrow.call("search_tickets", {"query": "x"})["count"] == 3


def test_a_search_finds_records_that_hold_its_words_and_the_same_ones_again():
    """``search_issues(q="login timeout")`` listed six unrelated issues ("Printer on 3rd floor
    offline") on a user's GitHub spec. Now each hit holds the query's words (its title, or its
    body when it has no title), the same search lists the same records, and a search that
    matches a record the episode holds lists that record and no stranger beside it."""
    spec = wenv.load_spec("tests/corpus/mcp-github.json")
    for seed in range(4):
        world = wenv.World(spec, seed=seed, options={"exists_share": 1.0})
        first = world.call("search_issues", {"q": "login timeout"})["items"]
        assert first and all("login timeout" in str(i).lower() for i in first), first
        assert world.call("search_issues", {"q": "login timeout"})["items"] == first
        listed = world.call("list_issues", {"owner": "acme", "repo": "web"})
        title = listed["items"][0]["title"]  # a tracker's issue: a title, not a subject
        found = world.call("search_issues", {"q": title})["items"]
        assert found and all(title.lower() in str(i).lower() for i in found), (title, found)
        assert listed["items"][0]["issue_number"] in [i["issue_number"] for i in found]


def test_money_has_currency_and_sensible_magnitudes(world):
    amounts = []
    for i in range(60):
        result = world.call("get_price", {"sku": f"SKU-{1000 + i}"})
        assert result["currency"] in ("USD", "EUR", "GBP")
        amounts.append(result["price"])
    assert all(4.99 <= a <= 2400 for a in amounts)
    assert min(amounts) < 50 and max(amounts) > 200, "a log-uniform spread, not one magnitude"
    balance = world.call("get_balance", {"account_id": "AC-1001"})
    assert isinstance(balance["balance"], float) and balance["account_id"] == "AC-1001"


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("12*(3+4)", 84),
        ("2 * (349 + 30) / 4", 189.5),
        ("2^10", 1024),
        ("0.1 + 0.2", 0.3),
        ("-(5 - 8) * 3", 9),
    ],
)
def test_calculator_does_real_arithmetic(world, expression, value):
    result = world.call("calculate", {"expression": expression})
    assert result == {"status": "ok", "expression": expression, "result": value}


@pytest.mark.parametrize(
    "expression", ["__import__('os').system('ls')", "1/0", "open('x')", "2**99999", "abc"]
)
def test_calculator_rejects_what_it_cannot_evaluate(world, expression):
    result = world.call("calculate", {"expression": expression})
    assert result["error"]["code"] == "rejected" and result["error"]["field"] == "expression"


def test_shell_git_and_ci_shapes(world):
    shell = world.call("run_command", {"command": "echo hello"})
    assert shell == {
        "status": "ok",
        "exit_code": 0,
        "stdout": "hello\n",
        "stderr": "",
        "duration_ms": shell["duration_ms"],
    }
    missing = world.call("run_command", {"command": "definitely-not-a-program --x"})
    assert missing["exit_code"] == 127 and "command not found" in missing["stderr"]
    tests = world.call("run_tests", {})
    assert (
        tests["passed"] > 0 and tests["failed"] >= 0 and tests["failed"] == len(tests["failures"])
    )
    assert f"{tests['passed']} passed" in tests["output"]
    pipeline = world.call("get_pipeline_status", {"branch": "main"})
    assert pipeline["state"] in ("passed", "failed", "running") and [
        j["name"] for j in pipeline["jobs"]
    ]
    log = world.call("git_log", {})
    assert log["count"] == len(log["items"]) > 0 and all(len(c["sha"]) == 7 for c in log["items"])
    text = world.call("read_file", {"path": "README.md"})
    assert text["content"].startswith("# ") and text["size_bytes"] == len(text["content"].encode())


def test_a_verification_compares_with_the_record_and_is_not_fooled():
    get = {
        "name": "get_customer",
        "parameters": {
            "properties": {"customer_id": {"type": "string"}},
            "required": ["customer_id"],
        },
    }
    world = wenv.World([get, TOOLS[-1]], seed=5, options={"exists_share": 1.0})
    real = world.call("get_customer", {"customer_id": "C-1001"})["email"]
    right = world.call("verify_customer", {"customer_id": "C-1001", "email": real})
    assert right["verified"] is True and right["checked"] == ["email"]
    wrong = world.call(
        "verify_customer", {"customer_id": "C-1001", "email": "someone.else@fastmail.net"}
    )
    assert wrong["verified"] is False and "do not match" in wrong["reason"]


def test_placeholders_are_rejected_with_a_hint(world):
    for args in (
        {"ticket_id": "<ticket id>"},
        {"ticket_id": "TICKET_ID"},
        {"ticket_id": "your_ticket_id"},
        {"ticket_id": "123"},
        {"ticket_id": "xxx"},
        {"ticket_id": "TBD"},
        {"ticket_id": "ticket_id"},
    ):
        result = world.call("get_ticket", args)
        assert result["error"]["code"] == "rejected", args
        assert (
            result["error"]["field"] == "ticket_id" and result["error"]["problem"] == "placeholder"
        )
        assert "ask the person" in result["error"]["hint"]
    email = wenv.World(TOOLS, options={"exists_share": 1.0}).call(
        "verify_customer", {"customer_id": "C-1001", "email": "user@example.com"}
    )
    assert email["error"]["field"] == "email" and email["error"]["problem"] == "placeholder"
    assert world.call("get_ticket", {"ticket_id": "T-10442"})["status"] == "ok"


def test_arguments_may_come_as_json_text_and_anything_else_is_rejected(world):
    assert world.call("get_ticket", '{"ticket_id": "T-10442"}') == world.call(
        "get_ticket", {"ticket_id": "T-10442"}
    )
    for bad in ("not json", "[1, 2]", 42, ["ticket_id"]):
        result = world.call("get_ticket", bad)
        assert result["error"]["code"] == "rejected" and result["error"]["field"] == "arguments"
    assert world.call("get_ticket", None)["error"]["field"] == "ticket_id"
    assert world.call("get_ticket", {"ticket_id": float("nan")})["error"]["field"] == "ticket_id"


def test_unknown_tools_name_the_alternatives(world):
    result = world.call("get_tickets", {})
    assert result["error"]["code"] == "unknown_tool"
    assert "did you mean 'get_ticket'" in result["error"]["message"]
    assert "search_tickets" in result["error"]["available"]
    assert world.ledger[-1]["kind"] is None


def test_schema_errors_name_the_field_and_the_problem(world):
    cases = {
        (): ("ticket_id", "missing"),
        (("ticket_id", 5),): ("ticket_id", "wrong_type"),
    }
    for pairs, (field, problem) in cases.items():
        result = world.call("get_ticket", dict(pairs))
        assert (result["error"]["field"], result["error"]["problem"]) == (field, problem)
    strict = wenv.World(
        [
            {
                "name": "set_level",
                "parameters": {
                    "properties": {
                        "level": {"type": "integer", "minimum": 1, "maximum": 5},
                        "mode": {"enum": ["a", "b"]},
                    },
                    "additionalProperties": False,
                },
            }
        ]
    )
    assert strict.call("set_level", {"level": 9})["error"]["problem"] == "out_of_range"
    assert strict.call("set_level", {"mode": "c"})["error"]["problem"] == "not_allowed"
    extra = strict.call("set_level", {"colour": "red"})["error"]
    assert (extra["field"], extra["problem"]) == ("colour", "unexpected_field")


OUTPUT_TOOLS = [
    (name, tool.name)
    for name, spec in load_examples().items()
    for tool in spec.tools
    if tool.output_schema is not None
]


@pytest.mark.parametrize(("spec_name", "tool_name"), OUTPUT_TOOLS)
def test_declared_output_schemas_hold(spec_name, tool_name):
    spec = load_examples()[spec_name]
    tool = spec.tool(tool_name)
    schema = thaw(tool.output_schema)
    checker = jsonschema.validators.validator_for(schema)(
        schema, format_checker=jsonschema.FormatChecker()
    )
    from whileai_env.world.arguments import detail_value, locator_value
    from whileai_env.world.profile import profile_for

    profile = profile_for(spec).tools[tool_name]
    checked = 0
    for i in range(25):
        world = wenv.World(spec, seed=i, options={"exists_share": 1.0})
        args = {
            name: (
                locator_value(name, s, i)
                if name in profile.locators
                else detail_value(name, s, i, root=tool.parameters)
            )
            for name, s in tool.properties.items()
            if name in tool.required or name in profile.locators
        }
        result = world.call(tool_name, args)
        if result["status"] != "ok":
            continue
        payload = (
            result["result"]
            if profile.nest_output
            else {k: v for k, v in result.items() if k != "status"}
        )
        errors = list(checker.iter_errors(payload))
        assert not errors, (args, errors[0].message)
        checked += 1
    assert checked >= 10


def test_some_example_tools_declare_an_output_schema():
    assert len(OUTPUT_TOOLS) >= 2


def test_a_field_named_payload_is_read_back_not_a_crash():
    """PayPal's ``cancel_subscription(subscription_id, payload)`` stored ``payload`` on the
    record, and the next read answered 500 (``ok()`` got two values for ``payload``)."""
    tools = [
        {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": props, "required": ["subscription_id"]},
        }
        for name, description, props in (
            (
                "show_subscription_details",
                "Show a subscription.",
                {"subscription_id": {"type": "string"}},
            ),
            (
                "cancel_subscription",
                "Cancel a subscription.",
                {"subscription_id": {"type": "string"}, "payload": {"type": "object"}},
            ),
        )
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=1, options={"exists_share": 1.0})
    args = {"subscription_id": "I-BW452GLLEP1G", "payload": {"reason": "moving"}}
    assert world.call("cancel_subscription", args)["status"] == "ok"
    after = world.call("show_subscription_details", {"subscription_id": "I-BW452GLLEP1G"})
    assert after["status"] == "ok" and not world.internal_errors, (after, world.internal_errors)
    assert after["payload"] == {"reason": "moving"}, after


INVOICE_TOOLS = [
    {
        "name": "get_invoice",
        "description": "Get an invoice.",
        "parameters": {
            "type": "object",
            "properties": {"invoice_id": {"type": "string"}},
            "required": ["invoice_id"],
        },
    },
    {
        "name": "create_invoice",
        "description": "Create an invoice.",
        "parameters": {
            "type": "object",
            "properties": {
                "detail": {"type": "object", "properties": {"currency_code": {"type": "string"}}},
                "items": {"type": "array", "items": {"type": "object"}},
            },
            "required": ["detail", "items"],
        },
    },
]


@pytest.mark.parametrize("seed", range(6))
def test_a_made_record_holds_what_the_call_said_not_a_template_beside_it(seed):
    """A trial PayPal spec's new invoice read back a template's "Cast iron skillet" line for
    371.49, a total of 371.49 and ``currency: EUR`` beside the stated USD "Logo design" item."""
    world = wenv.World(wenv.load_spec(tools=INVOICE_TOOLS), seed=seed)
    item = {"name": "Logo design", "quantity": 1, "unit_amount": {"value": "250.00"}}
    made = world.call("create_invoice", {"detail": {"currency_code": "USD"}, "items": [item]})
    assert made["status"] == "ok", made
    read = world.call("get_invoice", {"invoice_id": made["invoice_id"]})
    lists = [k for k, v in read.items() if isinstance(v, list) and v and isinstance(v[0], dict)]
    assert lists == ["items"] and read["items"] == [item], read
    assert "total" not in read and read.get("currency", "USD") == "USD", read
    assert read.get("issued_at", made["created_at"]) == made["created_at"], read
