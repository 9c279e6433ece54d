"""The example specs shipped in configs/specs load, split into clauses, classify and draw tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

import whileai_env as wenv

SPECS_DIR = Path(__file__).resolve().parent.parent / "configs" / "specs"
SPEC_SUFFIXES = (".json", ".yaml", ".yml")
SPEC_FILES = ("spec.json", "spec.yaml", "spec.yml")


def _is_spec(path: Path) -> bool:
    if path.is_dir():
        return any((path / name).is_file() for name in SPEC_FILES)
    return path.is_file() and path.suffix in SPEC_SUFFIXES


def _spec_paths() -> list[Path]:
    return [path for path in sorted(SPECS_DIR.iterdir()) if _is_spec(path)]


SPEC_PATHS = _spec_paths()


def _load(name: str) -> wenv.Spec:
    matches = [p for p in SPEC_PATHS if p.stem == name or p.name == name]
    assert matches, f"no example spec called {name!r} in {SPECS_DIR}"
    return wenv.load_spec(matches[0])


# A few tools per spec and the kind each must have.
EXPECTED_KINDS: dict[str, dict[str, str | tuple[str, ...]]] = {
    "order-support": {
        "get_order": "read",
        "list_orders": "read",
        "cancel_order": ("update", "delete"),
        "refund_order": "update",
        "update_shipping_address": "update",
    },
    "airline": {
        "get_user": "read",
        "search_flights": "read",
        "check_flight_status": "read",
        "calculate": "read",
        "book_flight": "create",
        "cancel_reservation": ("update", "delete"),
        "change_flight": "update",
        "send_certificate": "create",
        "transfer_to_human": "create",  # set by the spec's kinds override
    },
    "coding-agent": {
        "read_file": "read",
        "search_code": "read",
        "git_status": "read",
        "git_diff": "read",
        "run_tests": "read",  # set by the spec's kinds override
        "write_file": "update",
        "run_shell": "update",
        "git_commit": "create",
        "git_push": "update",
    },
    "calendar-email": {
        "list_events": "read",
        "read_email": "read",
        "search_emails": "read",
        "create_event": "create",
        "send_email": "create",
        "reply_email": "create",
        "update_event": "update",
        "delete_event": "delete",
    },
    "messy": {
        "get_current_user": "read",
        "get-user-profile": "read",
        "listInvoices": "read",
        "fetch_exchange_rate": "read",
        "createCreditNote": "create",
        "update_contact": "update",
        "invoices.void": "delete",
        "reconcile_payments": "read",  # given by the tool's own "kind"
    },
    "helpdesk": {
        "get_ticket": "read",
        "lookup_user": "read",
        "create_ticket": "create",
        "update_ticket_status": "update",
        "assign_ticket": "update",
        "reset_password": "update",
    },
    "bank-support": {
        "get_balance": "read",
        "verify_identity": "read",
        "transfer_funds": "update",
        "freeze_card": "update",
        "dispute_transaction": "create",  # set by the spec's kinds override
    },
}


def test_every_expected_spec_ships():
    names = {wenv.load_spec(p).name for p in SPEC_PATHS}
    assert set(EXPECTED_KINDS) <= names, f"missing example specs: {set(EXPECTED_KINDS) - names}"


def test_spec_names_are_unique_and_match_their_files():
    names = [wenv.load_spec(p).name for p in SPEC_PATHS]
    assert len(names) == len(set(names))
    for path, name in zip(SPEC_PATHS, names, strict=True):
        assert name == (path.name if path.is_dir() else path.stem)


@pytest.mark.parametrize("path", SPEC_PATHS, ids=lambda p: p.name)
def test_spec_loads_with_clauses_and_sound_tools(path: Path):
    spec = wenv.load_spec(path)
    assert spec.tools
    assert len(spec.clauses) >= 1, f"{spec.name}: the system prompt yields no policy clauses"
    assert all(len(c.text) >= 8 for c in spec.clauses)
    # No preamble ("You are ...") slips into the clauses.
    assert not any(c.text.lower().startswith("you are") for c in spec.clauses)
    kinds = {t.kind for t in spec.tools}
    assert "read" in kinds and kinds - {"read"}, f"{spec.name}: want both read and write tools"
    for tool in spec.tools:
        assert tool.description, f"{spec.name}.{tool.name} has no description"
        assert tool.parameters["type"] == "object"
        # Every required argument is declared (catches typos in hand-written schemas).
        missing = set(tool.required) - set(tool.properties)
        assert not missing, f"{spec.name}.{tool.name} requires undeclared {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(EXPECTED_KINDS))
def test_tool_kinds(name: str):
    spec = _load(name)
    for tool_name, expected in EXPECTED_KINDS[name].items():
        allowed = (expected,) if isinstance(expected, str) else expected
        assert spec.tool(tool_name).kind in allowed, (name, tool_name, spec.tool(tool_name).kind)


@pytest.mark.parametrize("path", SPEC_PATHS, ids=lambda p: p.name)
def test_spec_builds_a_grid_and_draws_tasks(path: Path):
    spec = wenv.load_spec(path)
    grid = wenv.build_grid(spec)
    assert len(grid) > 0
    assert {c.rule for c in grid} == {"none", *(c.id for c in spec.clauses)}
    tasks = wenv.draw_tasks(spec, 50, seed=0, grid=grid)
    assert len(tasks) == 50
    assert all(isinstance(t.opener, str) and t.opener.strip() for t in tasks)
    # Every id the world plans for an opener is carried in the opener verbatim.
    for task in tasks:
        for name, value in task.world.entities.items():
            if name not in task.world.withheld and any(
                name in task.world.required.get(target, ()) for target in task.world.targets
            ):
                assert str(value) in task.opener, (task.cell.tool, name, value, task.opener)
    again = wenv.draw_tasks(spec, 50, seed=0, grid=grid)
    assert [t.opener for t in again] == [t.opener for t in tasks]


def test_airline_is_the_largest_spec():
    sizes = {wenv.load_spec(p).name: len(wenv.load_spec(p).tools) for p in SPEC_PATHS}
    largest = max(sizes.values())
    assert sizes["airline"] == largest
    assert [n for n, size in sizes.items() if size == largest] == ["airline"]
    assert 12 <= sizes["airline"] <= 14


def test_airline_schemas_are_detailed():
    spec = _load("airline")
    search = spec.tool("search_flights").properties
    assert search["cabin"]["enum"] == ["basic_economy", "economy", "business"]
    assert search["departure_date"]["format"] == "date"
    assert search["passenger_count"]["type"] == "integer"
    assert (search["passenger_count"]["minimum"], search["passenger_count"]["maximum"]) == (1, 9)
    passengers = spec.tool("book_flight").properties["passengers"]
    assert passengers["type"] == "array" and passengers["items"]["type"] == "object"
    assert "expression" in spec.tool("calculate").required
    assert len(spec.clauses) >= 8


def test_helpdesk_is_a_folder_spec_with_a_rubric():
    path = SPECS_DIR / "helpdesk"
    assert path.is_dir()
    spec = wenv.load_spec(path)
    assert spec.name == "helpdesk"
    assert spec.rubric
    assert spec.rubric == (path / "rubric.md").read_text(encoding="utf-8").strip()
    points = [line for line in spec.rubric.splitlines() if line[:2].rstrip(".").isdigit()]
    assert 5 <= len(points) <= 8
    assert spec.to_dict()["rubric"] == spec.rubric


def test_messy_spec_normalises_every_shape():
    spec = _load("messy")
    for tool in spec.tools:
        assert tool.parameters["type"] == "object", tool.name
        assert isinstance(dict(tool.properties), dict), tool.name
    # No "parameters" key at all, and "parameters": {} with no type.
    assert dict(spec.tool("reconcile_payments").properties) == {}
    assert dict(spec.tool("get_current_user").properties) == {}
    # Properties without a type.
    assert "type" not in spec.tool("search_customers").properties["query"]
    # $defs + $ref and the older definitions + $ref survive normalisation.
    shipment = spec.tool("create_shipment").parameters
    assert shipment["properties"]["to_address"]["$ref"] == "#/$defs/address"
    assert "parcel" in shipment["$defs"]
    contact = spec.tool("update_contact").parameters
    assert contact["properties"]["primary_phone"]["$ref"] == "#/definitions/phone"
    assert contact["properties"]["vat_number"]["type"] == ["string", "null"]
    # oneOf / anyOf, integer enums.
    assert "oneOf" in spec.tool("schedule_report").properties["when"]
    assert "anyOf" in spec.tool("get-user-profile").parameters
    assert spec.tool("listInvoices").properties["pageSize"]["enum"] == [10, 25, 50, 100]
    assert spec.tool("apply_discount").properties["percent"]["enum"] == [5, 10, 15, 20]
    # strict mode, MCP inputSchema/outputSchema, Anthropic input_schema, "returns".
    credit = spec.tool("createCreditNote")
    assert credit.strict and credit.parameters["additionalProperties"] is False
    assert credit.to_openai()["function"]["strict"] is True
    assert set(spec.tool("fetch_exchange_rate").output_schema["required"]) == {"rate", "as_of"}
    assert "base_currency" in spec.tool("fetch_exchange_rate").required
    assert "percent" in spec.tool("apply_discount").required
    assert spec.tool("get_invoice").output_schema["type"] == "object"
    # The explicit "kind" wins over the name, which would otherwise read as a write.
    assert wenv.load_spec(tools=[{"name": "reconcile_payments"}]).tools[0].kind != "read"
    assert spec.tool("reconcile_payments").kind == "read"


def test_the_evidence_now_gives_what_the_kinds_overrides_say():
    # run_tests (a light verb of a read) and transfer_to_human (a hand-off) were overridden
    # because name keywords took them for updates; the description and schema now give the
    # same kinds without the override.
    for name, tool_name in (("coding-agent", "run_tests"), ("airline", "transfer_to_human")):
        spec = _load(name)
        plain = wenv.load_spec(tools=[spec.tool(tool_name).to_openai()])
        assert plain.tools[0].kind == spec.tool(tool_name).kind


def test_openai_export_reloads_to_the_same_tools():
    for path in SPEC_PATHS:
        spec = wenv.load_spec(path)
        again = wenv.load_spec(spec.to_dict())
        assert again.tool_names == spec.tool_names
        assert [t.kind for t in again.tools] == [t.kind for t in spec.tools]
        assert [t.parameters for t in again.tools] == [t.parameters for t in spec.tools]
        assert again.clauses == spec.clauses
