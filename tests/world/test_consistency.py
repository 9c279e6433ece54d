"""Consistency: a record read twice, or through two tools, agrees; writes, deletes and creates
are visible to later reads; ids the world hands out exist."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from whileai_env.scenarios.grid import build_grid

from .conftest import SPECS_DIR, task_in_state


@pytest.fixture
def world(order_tools_spec: wenv.Spec) -> wenv.World:
    return wenv.World(order_tools_spec, seed=11, options={"exists_share": 1.0})


def _without(result: dict, *keys: str) -> dict:
    return {k: v for k, v in result.items() if k not in keys}


def test_a_record_read_twice_agrees(world):
    first = world.call("get_order", {"order_id": "48213"})
    second = world.call("get_order", {"order_id": "48213"})
    assert first["status"] == "ok"
    assert first == second
    assert first is not second


def test_mutating_a_result_does_not_change_the_world(world):
    first = world.call("get_order", {"order_id": "48213"})
    first["items"].clear()
    first["order_status"] = "tampered"
    again = world.call("get_order", {"order_id": "48213"})
    assert again["items"] and again["order_status"] != "tampered"


def test_two_worlds_of_one_seed_agree_and_other_seeds_differ(order_tools_spec):
    a = wenv.World(order_tools_spec, seed=3, options={"exists_share": 1.0}).call(
        "get_order", {"order_id": "777001"}
    )
    b = wenv.World(order_tools_spec, seed=3, options={"exists_share": 1.0}).call(
        "get_order", {"order_id": "777001"}
    )
    c = wenv.World(order_tools_spec, seed=4, options={"exists_share": 1.0}).call(
        "get_order", {"order_id": "777001"}
    )
    assert a == b
    assert _without(a, "order_id") != _without(c, "order_id")


def test_a_list_agrees_with_reads_of_its_items(world):
    listing = world.call("list_orders", {"customer_email": "dana.kim@fastmail.net"})
    assert listing["status"] == "ok" and listing["count"] == len(listing["items"]) >= 1
    for item in listing["items"]:
        record = world.call("get_order", {"order_id": item["order_id"]})
        assert record["status"] == "ok"
        for key, value in item.items():
            assert record[key] == value, key
        assert record["customer_email"] == "dana.kim@fastmail.net"


def test_a_filtered_list_only_holds_matching_items_and_a_write_moves_them(world):
    listing = world.call(
        "list_orders", {"customer_email": "lee.park@fastmail.net", "status": "processing"}
    )
    assert all(i["order_status"] == "processing" for i in listing["items"])
    gone = listing["items"][0]["order_id"]
    world.call("update_order", {"order_id": gone, "status": "shipped"})
    again = world.call(
        "list_orders", {"customer_email": "lee.park@fastmail.net", "status": "processing"}
    )
    assert gone not in [i["order_id"] for i in again["items"]]


def test_a_write_is_visible_to_a_later_read(world):
    world.call(
        "update_order", {"order_id": "48213", "status": "closed", "note": "called the customer"}
    )
    record = world.call("get_order", {"order_id": "48213"})
    assert record["order_status"] == "closed"
    assert record["note"] == "called the customer"
    refund = world.call("refund_order", {"order_id": "48213", "amount": 12.5})
    assert refund["status"] == "ok"
    assert world.call("get_order", {"order_id": "48213"})["refunded_amount"] == 12.5


def test_deletes_stick_and_creates_exist(world):
    assert world.call("delete_order", {"order_id": "48213"})["deleted"] is True
    assert world.call("get_order", {"order_id": "48213"})["error"]["code"] == "not_found"
    assert world.call("delete_order", {"order_id": "48213"})["error"]["code"] == "not_found"
    created = world.call(
        "create_order", {"customer_email": "ana.ruiz@fastmail.net", "note": "gift wrap"}
    )
    assert created["status"] == "ok"
    new_id = created["order_id"]
    record = world.call("get_order", {"order_id": new_id})
    assert record["status"] == "ok" and record["note"] == "gift wrap"
    assert record["customer_email"] == "ana.ruiz@fastmail.net"


def test_created_ids_exist_even_where_nothing_else_does():
    tools = [
        {
            "name": "create_note",
            "parameters": {"properties": {"text": {"type": "string"}}, "required": ["text"]},
        },
        {
            "name": "get_note",
            "parameters": {"properties": {"note_id": {"type": "string"}}, "required": ["note_id"]},
        },
    ]
    world = wenv.World(tools, options={"exists_share": 0.0})
    assert world.call("get_note", {"note_id": "NOT-1234"})["error"]["code"] == "not_found"
    created = world.call("create_note", {"text": "call back on Monday"})
    assert created["status"] == "ok"
    record = world.call("get_note", {"note_id": created["note_id"]})
    assert record["status"] == "ok" and record["text"] == "call back on Monday"


def test_ids_a_record_hands_out_exist_and_link_both_ways():
    world = wenv.World(SPECS_DIR / "airline.yaml", seed=1, options={"exists_share": 1.0})
    user = world.call("get_user", {"user_id": "u_48213"})
    assert user["status"] == "ok" and user["reservation_ids"]
    listed = world.call("list_reservations", {"user_id": "u_48213"})
    assert [i["reservation_id"] for i in listed["items"]] == user["reservation_ids"]
    reservation = world.call("get_reservation", {"reservation_id": user["reservation_ids"][0]})
    assert reservation["status"] == "ok"
    method = user["payment_methods"][0]["id"]
    strict = wenv.World(SPECS_DIR / "airline.yaml", seed=1, options={"exists_share": 0.0})
    strict.call("get_user", {"user_id": "u_48213"})
    assert strict.call("get_user", {"user_id": "u_48213"})["status"] == "error"
    world2 = wenv.World(SPECS_DIR / "airline.yaml", seed=1, options={"exists_share": 1.0})
    world2.call("get_user", {"user_id": "u_48213"})
    flight = world2.call(
        "search_flights", {"origin": "SFO", "destination": "JFK", "departure_date": "2026-12-03"}
    )
    assert flight["status"] == "ok"
    assert all(
        i["origin"] == "SFO" and i["destination"] == "JFK" and i["date"] == "2026-12-03"
        for i in flight["items"]
    )
    booked = world2.call(
        "book_flight",
        {
            "user_id": "u_48213",
            "flight_number": flight["items"][0]["flight_number"],
            "departure_date": "2026-12-03",
            "cabin": "economy",
            "passenger_count": 1,
            "payment_method_id": method,
        },
    )
    assert booked["status"] == "ok", booked
    new_id = booked["reservation_id"]
    assert new_id in world2.call("get_user", {"user_id": "u_48213"})["reservation_ids"]
    record = world2.call("get_reservation", {"reservation_id": new_id})
    assert record["flights"][0]["flight_number"] == flight["items"][0]["flight_number"]
    assert record["cabin"] == "economy"


def test_two_tools_reading_one_account_agree_and_a_transfer_moves_the_balance():
    world = wenv.World(SPECS_DIR / "bank-support.json", seed=2, options={"exists_share": 1.0})
    before = world.call("get_balance", {"account_id": "AC-5521"})
    assert before["status"] == "ok" and isinstance(before["balance"], float)
    again = world.call("get_balance", {"account_id": "AC-5521"})
    assert _without(before, "as_of") == _without(again, "as_of")
    moved = world.call(
        "transfer_funds",
        {
            "from_account_id": "AC-5521",
            "to_account_id": "AC-7730",
            "amount": 25.0,
            "currency": before["currency"],
        },
    )
    assert moved["status"] == "ok" and moved["transfer_id"]
    after = world.call("get_balance", {"account_id": "AC-5521"})
    assert after["balance"] == round(before["balance"] - 25.0, 2)


def test_files_git_and_shell_see_one_repository():
    world = wenv.World(SPECS_DIR / "coding-agent.json", seed=3)
    listing = world.call("list_directory", {"path": "src/app"})
    path = "src/app/" + next(i["name"] for i in listing["items"] if i["name"].endswith(".py"))
    text = world.call("read_file", {"path": path})["content"]
    assert world.call("run_shell", {"command": f"cat {path}"})["stdout"] == text
    world.call("write_file", {"path": path, "content": "VALUE = 1\n"})
    assert world.call("read_file", {"path": path})["content"] == "VALUE = 1\n"
    status = world.call("git_status", {})
    assert path in status["unstaged"]
    diff = world.call("git_diff", {"path": path})
    assert "+VALUE = 1" in diff["diff"] and diff["insertions"] == 1
    commit = world.call("git_commit", {"message": "Set VALUE"})
    assert commit["status"] == "ok" and len(commit["sha"]) == 40
    assert world.call("git_status", {})["clean"] is True
    assert world.call("git_commit", {"message": "again"})["error"]["code"] == "already_done"
    assert world.call("read_file", {"path": "no/such/file.py"})["error"]["code"] == "not_found"


def test_one_world_writing_never_leaks_into_another(order_tools_spec):
    """Records are shared between worlds of one seed through a cache; writes must stay private."""
    tools = [
        *order_tools_spec.openai_tools(),
        {
            "name": "update_item",
            "parameters": {
                "properties": {
                    "order_id": {"type": "string"},
                    "item_index": {"type": "integer"},
                    "name": {"type": "string"},
                },
                "required": ["order_id", "item_index", "name"],
            },
        },
    ]
    first = wenv.World(tools, seed=21, options={"exists_share": 1.0})
    before = first.call("get_order", {"order_id": "48213"})
    first.call("update_order", {"order_id": "48213", "status": "closed", "note": "x"})
    first.call("update_item", {"order_id": "48213", "item_index": 0, "name": "Renamed mug"})
    after = first.call("get_order", {"order_id": "48213"})
    assert after["items"][0]["name"] == "Renamed mug" and after["order_status"] == "closed"
    second = wenv.World(tools, seed=21, options={"exists_share": 1.0})
    assert second.call("get_order", {"order_id": "48213"}) == before
    assert first.reset().call("get_order", {"order_id": "48213"}) == before


def test_two_tools_reading_one_record_describe_it_the_same_way():
    tools = [
        {
            "name": "get_order",
            "parameters": {
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
        {
            "name": "lookup_order_details",
            "description": "Look up an order.",
            "parameters": {
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    ]
    world = wenv.World(tools, seed=8, options={"exists_share": 1.0})
    for oid in ("48213", "51007", "77120"):
        a = world.call("get_order", {"order_id": oid})
        b = world.call("lookup_order_details", {"order_id": oid})
        assert a["status"] == "ok" and a == b
    other = wenv.World(tools, seed=8, options={"exists_share": 1.0})
    assert other.call("lookup_order_details", {"order_id": "51007"}) == world.call(
        "get_order", {"order_id": "51007"}
    )


def test_a_list_by_a_person_shows_their_own_records_whatever_the_existence_draw():
    """A person's record lists its tickets (``ticket_ids``); a list by that person shows them all,
    and each reads back, even where the hash would have said an unknown id does not exist (the
    helpdesk oracle once read an empty list for an existing requester as "not found")."""
    spec = wenv.load_spec(SPECS_DIR / "helpdesk")
    task = task_in_state(spec, "exists", "create_ticket")
    email = task.world.entities["requester_email"]
    world = wenv.World(spec, task, options={"exists_share": 0.0})
    listed = world.call("list_tickets", {"requester_email": email})
    assert listed["status"] == "ok" and listed["count"] >= 1
    for item in listed["items"]:
        assert item["requester_email"] == email
        assert world.call("get_ticket", {"ticket_id": item["ticket_id"]})["status"] == "ok"


def test_the_checked_out_branch_is_not_the_branch_the_plan_names():
    from whileai_env.world.workspace import Workspace

    named = Workspace.build("k", 0, branches=(["main"], []))
    assert "main" in named.branches and named.branch != "main"
    gone = Workspace.build("k", 0, branches=([], ["main"]))
    assert "main" not in gone.branches and gone.branch != "main"
    done = Workspace.build("k", 0, branches=(["main"], []), current="main")
    assert done.branch == "main"
    spec = wenv.load_spec(SPECS_DIR / "coding-agent.json")
    for state, code in (
        ("exists", None),
        ("missing", "not_found"),
        ("already_done", "already_done"),
    ):
        for seed in range(6):
            cell = next(c for c in build_grid(spec).cells if c.tool == "git_checkout")
            cell = wenv.Cell.from_coordinates(
                {**cell.coordinates(), "world_state": state, "condition": "success", "ask": "tool"}
            )
            task = wenv.make_task(cell, spec, seed=seed, fault_rate=0.0)
            result = wenv.World(spec, task).call(
                "git_checkout", {"branch": task.world.entities["branch"]}
            )
            assert (result.get("error") or {}).get("code") == code, (
                state,
                task.world.entities,
                result,
            )


def _calendar() -> wenv.Spec:
    """Events written with Google Calendar's argument names (``summary`` for the title), read
    back through a list: the shape a user's calendar spec had when a list contradicted a write."""
    cal = {"calendar_id": {"type": "string"}}
    event = {
        "summary": {"type": "string", "description": "Title of the event"},
        "location": {"type": "string"},
        "start": {"type": "string", "format": "date-time"},
    }
    return wenv.load_spec(
        tools=[
            {
                "name": "list_events",
                "description": "List the events of a calendar.",
                "parameters": {"type": "object", "properties": cal, "required": ["calendar_id"]},
            },
            {
                "name": "create_event",
                "description": "Create an event in a calendar.",
                "parameters": {
                    "type": "object",
                    "properties": {**cal, **event},
                    "required": ["calendar_id", "summary", "start"],
                },
            },
            {
                "name": "update_event",
                "description": "Update an event of a calendar.",
                "parameters": {
                    "type": "object",
                    "properties": {**cal, "event_id": {"type": "string"}, **event},
                    "required": ["calendar_id", "event_id"],
                },
            },
        ]
    )


def _listed(world: wenv.World, ident: str) -> dict:
    items = world.call("list_events", {"calendar_id": "CAL-1"})["items"]
    return next(i for i in items if ident in i.values())


def test_a_list_shows_what_a_create_and_an_update_wrote_under_the_names_they_used():
    world = wenv.World(_calendar(), seed=5, options={"exists_share": 1.0})
    made = world.call(
        "create_event",
        {"calendar_id": "CAL-1", "summary": "Dentist", "start": "2026-12-21T09:00:00Z"},
    )
    ident = next(v for k, v in made.items() if k.endswith("_id") and k != "calendar_id")
    listed = _listed(world, ident)
    assert "Dentist" in listed.values() and listed.get("title", "Dentist") == "Dentist"
    world.call(
        "update_event",
        {"calendar_id": "CAL-1", "event_id": ident, "summary": "Renamed", "location": "Room 4"},
    )
    listed = _listed(world, ident)
    assert "Dentist" not in listed.values()
    assert {"Renamed", "Room 4"} <= set(map(str, listed.values()))


def _searchable() -> wenv.Spec:
    cal = {"calendar_id": {"type": "string"}}
    return wenv.load_spec(
        tools=[
            *_calendar().openai_tools(),
            {
                "name": "search_events",
                "description": "Search the events of a calendar by text.",
                "parameters": {
                    "type": "object",
                    "properties": {**cal, "query": {"type": "string"}},
                    "required": ["calendar_id", "query"],
                },
            },
        ]
    )


def test_a_search_finds_the_record_the_episode_holds_under_that_title_and_not_an_unrelated_new_one():
    world = wenv.World(_searchable(), seed=5, options={"exists_share": 1.0})
    made = world.call(
        "create_event",
        {"calendar_id": "CAL-1", "summary": "Dentist", "start": "2026-12-21T09:00:00Z"},
    )
    ident = next(v for k, v in made.items() if k.endswith("_id") and k != "calendar_id")
    listed = world.call("list_events", {"calendar_id": "CAL-1"})["items"]
    other = next(i for i in listed if ident not in i.values())
    title = next(v for k, v in other.items() if k == "title")
    found = world.call("search_events", {"calendar_id": "CAL-1", "query": title})["items"]
    assert other in found and found.index(other) == 0
    assert all(ident not in i.values() for i in found)  # "Dentist" does not match that title
    dentist = world.call("search_events", {"calendar_id": "CAL-1", "query": "dentist"})["items"]
    assert ident in dentist[0].values()
