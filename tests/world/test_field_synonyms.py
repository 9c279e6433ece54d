"""A write's argument changes the stored field it means under another name (issue 11, item 3).

``update_user(dob)`` on a record holding ``date_of_birth`` changes that field: names are matched
by their words with known abbreviations spelt out, and only when one field fits, so a later read
shows one date of birth, never two that disagree.
"""

from __future__ import annotations

import whileai_env as wenv
from whileai_env.world.naming import resolve_field, spelt_out

_PAX = {
    "type": "object",
    "properties": {
        "first_name": {"type": "string"},
        "last_name": {"type": "string"},
        "dob": {"type": "string", "description": "date of birth, YYYY-MM-DD"},
    },
    "required": ["first_name", "last_name", "dob"],
}


def _tool(name: str, description: str, props: dict, required: list[str], read: bool) -> dict:
    return {
        "name": name,
        "description": description,
        **({"annotations": {"readOnlyHint": True}} if read else {}),
        "parameters": {"type": "object", "properties": props, "required": required},
    }


def _spec() -> wenv.Spec:
    uid = {"user_id": {"type": "string"}}
    rid = {"reservation_id": {"type": "string"}}
    return wenv.load_spec(
        tools=[
            _tool(
                "get_user", "A user's profile: name, email, date of birth.", uid, ["user_id"], True
            ),
            _tool(
                "update_user",
                "Update a user's profile.",
                {**uid, "dob": {"type": "string"}},
                ["user_id", "dob"],
                False,
            ),
            _tool("get_reservation_details", "Get a reservation.", rid, ["reservation_id"], True),
            _tool(
                "update_reservation_passengers",
                "Update the passengers of a reservation.",
                {**rid, "passengers": {"type": "array", "items": _PAX}},
                ["reservation_id", "passengers"],
                False,
            ),
        ]
    )


def _dates(record: dict) -> dict:
    return {k: v for k, v in record.items() if spelt_out(k) == spelt_out("date_of_birth")}


def test_an_abbreviation_names_the_field_it_stands_for_only_when_one_fits():
    assert resolve_field({"date_of_birth": "1990-01-01", "name": "A"}, "dob") == "date_of_birth"
    assert resolve_field({"dob": "1990-01-01"}, "date_of_birth") == "dob"
    assert resolve_field({"birthday": 1, "date_of_birth": 2}, "dob") is None  # ambiguous


def test_an_update_under_an_abbreviation_changes_the_one_stored_field():
    world = wenv.world(_spec())
    before = world.call("get_user", {"user_id": "u_1"})
    assert list(_dates(before)) == ["date_of_birth"]
    done = world.call("update_user", {"user_id": "u_1", "dob": "1990-01-02"})
    assert done["status"] == "ok"
    after = world.call("get_user", {"user_id": "u_1"})
    assert _dates(after) == {"date_of_birth": "1990-01-02"}


def test_a_listed_item_shows_one_date_of_birth_before_and_after_a_write():
    world = wenv.world(_spec())
    read = world.call("get_reservation_details", {"reservation_id": "R10001"})
    assert all(len(_dates(p)) == 1 for p in read["passengers"])
    new = [{"first_name": "Ann", "last_name": "Lee", "dob": "1990-01-02"}]
    world.call("update_reservation_passengers", {"reservation_id": "R10001", "passengers": new})
    after = world.call("get_reservation_details", {"reservation_id": "R10001"})
    assert [_dates(p) for p in after["passengers"]] == [{"dob": "1990-01-02"}]


def test_a_headline_argument_changes_the_record_s_one_headline():
    """``update-product(title)`` on a product named by ``name``, ``save_issue(title)`` on a ticket
    with a ``subject``: the headline changes, no second one is added beside it (trial Shopify
    and Linear specs: reads showed two names)."""
    assert resolve_field({"name": "Oak board", "price": 3}, "title") == "name"
    assert resolve_field({"subject": "Login fails", "status": "open"}, "title") == "subject"
    assert resolve_field({"title": "Q3 plan"}, "name") == "title"
    # a person's name is never their (job) title
    assert resolve_field({"name": "Ana Diaz", "email": "ana@example.com"}, "title") is None
