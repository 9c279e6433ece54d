"""Values shaped by a description's examples (a trial user's Jira spec: ``time_spent`` drawn as
``"3o 42e"`` from the example ``'1h 30m'``, ``jql`` always ``"data-jql"`` because its examples
were listed one per line, and a made-up zone example taken as a zone)."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env.world.makers import Scope, like
from whileai_env.world.schema_values import value_for
from whileai_env.world.zones import zone_of


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    example=st.sampled_from(["1h 30m", "3w 4d 12h", "5kg", "-7d", "2.5GB"]),
)
def test_a_unit_after_a_number_is_kept(seed, example):
    drawn = like(example, random.Random(seed), now=0, when="past")
    assert re.sub(r"\d", "0", drawn) == re.sub(r"\d", "0", example)
    assert not re.search(r"(?<![\d.])0\d*[a-zA-Z]", drawn)  # never "0h", "03m"


def test_a_codes_letters_after_its_digits_are_drawn_and_other_words_kept():
    drawn = {like("ZFA04Y", random.Random(i), now=0, when="past") for i in range(20)}
    assert len({d[-1] for d in drawn}) > 3 and all(d.startswith("ZFA") for d in drawn)
    prose = like("updated >= -7d AND project = PROJ", random.Random(1), now=0, when="past")
    assert re.fullmatch(r"updated >= -[1-9]d AND project = PROJ", prose)


JQL = {
    "type": "string",
    "description": 'JQL query string. Examples:\n- Find Epics: "issuetype = Epic AND project = PROJ"\n'
    '- Find issues in Epic: "parent = PROJ-123"\n- Find by status: "status = \'In Progress\'"',
}


def test_examples_listed_one_per_line_are_read_and_taken_in_turn():
    drawn = {value_for(JQL, "jql", Scope(seed=s, now=0)) for s in range(40)}
    assert {"issuetype = Epic AND project = PROJ", "status = 'In Progress'"} <= drawn
    assert all(re.fullmatch(r"parent = PROJ-\d{3}", d) for d in drawn if d.startswith("parent"))
    assert not any("jql" in d for d in drawn)


def test_a_zone_example_that_is_no_zone_is_never_drawn():
    schema = {
        "type": "string",
        "description": "Target IANA timezone name (e.g., 'Asia/Tokyo', 'America/San_Francisco').",
    }
    drawn = {value_for(schema, "target_timezone", Scope(seed=s, now=0)) for s in range(40)}
    assert drawn and all(zone_of(d) is not None for d in drawn)


def test_a_description_that_is_a_list_of_words_gives_the_fields_values():
    """A trial Zendesk spec: ``status`` described "new, open, pending, on-hold, solved, closed"
    and tickets read 'resolved' or 'completed' (57 of 86 tasks)."""
    import collections

    import whileai_env as wenv
    from whileai_env.world.hints import hints_of

    listed = "new, open, pending, on-hold, solved, closed"
    assert hints_of({"type": "string", "description": listed}).choices[-1] == "closed"
    assert hints_of({"type": "string", "description": "The name, please."}).choices == ()
    ticket = {"ticket_id": {"type": "integer"}}
    tools = [
        {
            "name": "get_ticket",
            "description": "Get a ticket.",
            "parameters": {"type": "object", "properties": ticket},
        },
        {
            "name": "update_ticket",
            "description": "Update a ticket.",
            "parameters": {
                "type": "object",
                "properties": {**ticket, "status": {"type": "string", "description": listed}},
            },
        },
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=1, options={"exists_share": 1.0})
    seen = collections.Counter(
        world.call("get_ticket", {"ticket_id": 100 + i}).get("ticket_status") for i in range(30)
    )
    assert set(seen) - {None} <= set(listed.split(", "))
