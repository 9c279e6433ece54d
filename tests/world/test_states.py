"""World states act on the world: exists, missing, already done, duplicate, partially completed."""

from __future__ import annotations

import jsonschema
import pytest

import whileai_env as wenv
from whileai_env._util.frozen import thaw

from .conftest import task_in_state

#: A calendar with calendars, their events, and a read of one event (Google Calendar's shape).
CALENDAR = {
    "tools": [
        {
            "name": "list_calendars",
            "description": "List the user's calendars.",
            "parameters": {"type": "object", "properties": {}},
        },
        {
            "name": "list_events",
            "description": "List the events of a calendar.",
            "parameters": {
                "type": "object",
                "properties": {"calendar_id": {"type": "string"}},
                "required": ["calendar_id"],
            },
        },
        {
            "name": "get_event",
            "description": "Get one event by its id.",
            "parameters": {
                "type": "object",
                "properties": {"event_id": {"type": "string"}},
                "required": ["event_id"],
            },
        },
        {
            "name": "delete_event",
            "description": "Delete an event from a calendar.",
            "parameters": {
                "type": "object",
                "properties": {"calendar_id": {"type": "string"}, "event_id": {"type": "string"}},
                "required": ["calendar_id", "event_id"],
            },
        },
    ],
    "system_prompt": "You manage the user's calendar.",
}


@pytest.fixture(scope="module")
def spec(order_tools_spec: wenv.Spec) -> wenv.Spec:
    return order_tools_spec


def _order(task: wenv.Task) -> str:
    return task.world.entities["order_id"]


def test_exists_reads_and_writes_succeed(spec):
    task = task_in_state(spec, "exists", "cancel_order")
    world = wenv.World(spec, task)
    read = world.call("get_order", {"order_id": _order(task)})
    assert read["status"] == "ok" and read["order_id"] == _order(task)
    assert read["order_status"] != "cancelled", (
        "an 'exists' plan leaves the target write something to do"
    )
    write = world.call("cancel_order", {"order_id": _order(task), "reason": "changed my mind"})
    assert write["status"] == "ok" and write["order_status"] == "cancelled"


def test_missing_answers_not_found_for_reads_and_writes(spec):
    task = task_in_state(spec, "missing", "cancel_order")
    world = wenv.World(spec, task, options={"exists_share": 1.0})
    for name, args in (
        ("get_order", {}),
        ("cancel_order", {"reason": "x"}),
        ("refund_order", {"amount": 5}),
    ):
        result = world.call(name, {"order_id": _order(task), **args})
        assert result["status"] == "error"
        assert result["error"]["code"] == "not_found"
        assert result["error"]["field"] == "order_id"


def test_already_done_reads_show_the_done_state_and_writes_answer_already_done(spec):
    task = task_in_state(spec, "already_done", "cancel_order")
    world = wenv.World(spec, task)
    read = world.call("get_order", {"order_id": _order(task)})
    assert read["status"] == "ok" and read["order_status"] == "cancelled"
    for name, args in (
        ("cancel_order", {"reason": "again"}),
        ("refund_order", {"amount": 5}),
        ("update_order", {"note": "x"}),
    ):
        result = world.call(name, {"order_id": _order(task), **args})
        assert result["status"] == "error", name
        assert result["error"]["code"] == "already_done"
        assert "cancelled" in result["error"]["message"]
    assert world.call("get_order", {"order_id": _order(task)})["order_status"] == "cancelled"


def test_a_repeated_status_write_is_already_done_in_any_world(spec):
    world = wenv.World(spec, seed=4, options={"exists_share": 1.0})
    first = world.call("cancel_order", {"order_id": "58213", "reason": "x"})
    if first["status"] == "error":
        assert first["error"]["code"] == "already_done"
    again = world.call("cancel_order", {"order_id": "58213", "reason": "x"})
    assert again["error"]["code"] == "already_done"


def test_duplicate_lookup_returns_two_candidates_and_a_write_flags_the_ambiguity(spec):
    task = task_in_state(spec, "duplicate", "cancel_order")
    world = wenv.World(spec, task)
    read = world.call("get_order", {"order_id": _order(task)})
    assert read["status"] == "ok" and read["count"] == 2
    first, second = read["matches"]
    assert first["order_id"] == second["order_id"] == _order(task)
    assert first != second
    write = world.call("cancel_order", {"order_id": _order(task), "reason": "x"})
    assert write["status"] == "ok"
    assert write["ambiguous"] is True and write["matches"] == 2 and "2 records" in write["warning"]


def test_partial_read_reveals_a_half_written_record(spec):
    task = task_in_state(spec, "partial", "cancel_order")
    world = wenv.World(spec, task)
    read = world.call("get_order", {"order_id": _order(task)})
    assert read["status"] == "ok"
    assert read["state"] == "partially_completed" and read["incomplete"] is True
    assert read["missing_fields"] and not set(read["missing_fields"]) & set(read)
    assert "corrupted" not in read
    world.call("cancel_order", {"order_id": _order(task), "reason": "x"})
    after = world.call("get_order", {"order_id": _order(task)})
    assert "incomplete" not in after and "total" in after, (
        "a write after a read completes the record"
    )


def test_partial_blind_write_corrupts_the_record(spec):
    task = task_in_state(spec, "partial", "cancel_order")
    world = wenv.World(spec, task)
    write = world.call("cancel_order", {"order_id": _order(task), "reason": "x"})
    assert write["status"] == "ok"
    after = world.call("get_order", {"order_id": _order(task)})
    assert (
        after["corrupted"] is True and after["state"] == "corrupted" and after["incomplete"] is True
    )


def test_unknown_ids_exist_at_about_the_exists_share(spec):
    world = wenv.World(spec, seed=9)
    found = sum(
        world.call("get_order", {"order_id": f"{70000 + i}"})["status"] == "ok" for i in range(400)
    )
    assert 0.6 < found / 400 < 0.8
    none = wenv.World(spec, seed=9, options={"exists_share": 0.0})
    assert none.call("get_order", {"order_id": "70001"})["error"]["code"] == "not_found"


def test_every_example_spec_plays_its_plan_in_each_state():
    """Target calls stated as the task's user states them get the answer the state calls for."""
    from .conftest import load_examples

    counts: dict[str, int] = {}
    for spec in load_examples().values():
        for task in wenv.draw_tasks(spec, 40, seed=5, fault_rate=0.0):
            world = wenv.World(spec, task)
            target = task.world.targets[-1] if task.world.targets else None
            if target is None or task.world.withheld:
                continue
            tool = spec.tool(target)
            args = {**task.world.entities_for(target), **task.world.details_for(target)}
            schema = thaw(tool.parameters)
            if not jsonschema.validators.validator_for(schema)(schema).is_valid(args):
                continue  # the plan states too little for this schema (an anyOf of required fields)
            result = world.call(target, args)
            assert world.internal_errors == []
            code = "ok" if result["status"] == "ok" else result["error"]["code"]
            state = task.world.state
            if state == "missing" and task.world.entities_for(target) and tool.kind != "create":
                assert code == "not_found", (spec.name, target, result)
            if state == "already_done" and tool.is_write and task.world.entities_for(target):
                assert code == "already_done", (spec.name, target, result)
            if state in ("exists", "duplicate", "partial") and code != "ok":
                assert code in ("rejected", "already_done"), (spec.name, target, state, result)
            counts[state] = counts.get(state, 0) + 1
    assert set(counts) == {"exists", "missing", "already_done", "duplicate", "partial"}


def test_a_duplicate_list_by_the_parent_shows_the_tasks_record_and_a_second_under_its_own_id():
    """Two matches with two ids: the task's own record first, then one a later read of its id
    finds as listed (a user's calendar listed one id twice, with two different titles, and not
    the task's own event)."""
    spec = wenv.load_spec(CALENDAR)
    task = next(
        t
        for t in wenv.draw_tasks(spec, 400, seed=2, fault_rate=0.0)
        if t.world.state == "duplicate" and {"calendar_id", "event_id"} <= set(t.world.entities)
    )
    world = wenv.World(spec, task)
    listed = world.call("list_events", {"calendar_id": task.world.entities["calendar_id"]})
    first, second = listed["items"]
    assert first["event_id"] == task.world.entities["event_id"] != second["event_id"]
    again = world.call("get_event", {"event_id": second["event_id"]})
    assert {k: again[k] for k in second} == second


def test_a_list_with_no_filter_shows_the_tasks_own_record():
    spec = wenv.load_spec(CALENDAR)
    for task in wenv.draw_tasks(spec, 60, seed=4, fault_rate=0.0):
        if task.world.state in ("exists", "already_done") and "calendar_id" in task.world.entities:
            listed = wenv.World(spec, task).call("list_calendars", {})
            assert task.world.entities["calendar_id"] in [i["calendar_id"] for i in listed["items"]]


def test_a_parent_given_as_a_list_of_one_id_lists_as_the_id_alone():
    """``calendarId`` may be one id or a list of them (Google Calendar's ``oneOf``): a list
    holding the task's calendar shows the task's event first, as the id alone does."""
    one_or_many = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    spec_dict = {**CALENDAR, "tools": [dict(t) for t in CALENDAR["tools"]]}
    spec_dict["tools"][1] = {
        **spec_dict["tools"][1],
        "parameters": {
            "type": "object",
            "properties": {"calendar_id": one_or_many},
            "required": ["calendar_id"],
        },
    }
    spec = wenv.load_spec(spec_dict)
    task = next(
        t
        for t in wenv.draw_tasks(spec, 300, seed=2, fault_rate=0.0)
        if t.world.state == "exists" and {"calendar_id", "event_id"} <= set(t.world.entities)
    )
    cal = task.world.entities["calendar_id"]
    alone = wenv.World(spec, task).call("list_events", {"calendar_id": cal})["items"]
    listed = wenv.World(spec, task).call("list_events", {"calendar_id": [cal]})["items"]
    assert alone[0]["event_id"] == listed[0]["event_id"] == task.world.entities["event_id"]


def test_a_list_filtered_by_the_tasks_missing_entity_finds_nothing():
    """``search_issues(assignee_email)`` for an assignee the task says does not exist: no issue
    is theirs (a user's Linear spec listed six, and its oracle could not report the absence)."""
    search = {
        "name": "search_issues",
        "description": "Search issues assigned to a person.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Text to search for in issue titles"},
                "team_id": {"type": "string", "format": "uuid"},
                "assignee_email": {"type": "string", "format": "email"},
            },
        },
    }
    spec = wenv.load_spec(tools=[search], system_prompt="You manage the team's issues.")
    task = next(
        t
        for t in wenv.draw_tasks(spec, 200, seed=0, fault_rate=0.0)
        if t.world.state == "missing" and "assignee_email" in t.world.entities
    )
    found = wenv.World(spec, task).call("search_issues", dict(task.world.entities))
    assert found["status"] == "ok" and found["items"] == [] and found["count"] == 0


def test_a_coding_tool_on_the_tasks_missing_record_answers_not_found():
    """A user's GitLab spec: ``list_pipelines(project_id)`` of the task's missing project
    answered a running pipeline while ``get_project`` said 404, so the oracle could not tell."""
    number = {"type": "integer", "description": "The project's ID."}
    reads = {"readOnlyHint": True}
    spec = wenv.load_spec(
        tools=[
            {
                "name": "get_project",
                "description": "Get a GitLab project.",
                "annotations": reads,
                "parameters": {
                    "type": "object",
                    "properties": {"project_id": number},
                    "required": ["project_id"],
                },
            },
            {
                "name": "list_pipelines",
                "description": "List pipelines in a GitLab project.",
                "annotations": reads,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "project_id": number,
                        "ref": {"type": "string", "description": "Branch name, e.g. main"},
                    },
                    "required": ["project_id"],
                },
            },
        ]
    )
    tasks = [
        t
        for t in wenv.draw_tasks(spec, 200, seed=0, fault_rate=0)
        if t.world.targets == ("list_pipelines",) and t.world.state in ("missing", "exists")
    ]
    assert {t.world.state for t in tasks} == {"missing", "exists"}
    for task in tasks:
        answer = wenv.World(spec, task=task).call("list_pipelines", thaw(task.world.entities))
        assert (answer["status"] == "ok") == (task.world.state == "exists"), answer


BOOKINGS = [
    {
        "name": "getBooking",
        "description": "Get a booking with its attendees.",
        "annotations": {"readOnlyHint": True},
        "parameters": {
            "type": "object",
            "properties": {"bookingUid": {"type": "string"}},
            "required": ["bookingUid"],
        },
    },
    {
        "name": "createBooking",
        "description": "Create a booking of an event type for an attendee.",
        "parameters": {
            "type": "object",
            "properties": {
                "eventTypeId": {"type": "integer"},
                "start": {"type": "string", "format": "date-time"},
            },
            "required": ["eventTypeId", "start"],
        },
    },
]


def test_a_create_made_already_is_said_of_what_it_makes_not_of_its_parent():
    """A user's Cal.com spec answered "event type 1436 is already completed" to a create, and
    the oracle said "Event type 1436 was already created"."""
    spec = wenv.load_spec(tools=BOOKINGS)
    task = task_in_state(spec, "already_done", "createBooking")
    world = wenv.World(spec, task)
    event_type = task.world.entities["eventTypeId"]
    result = world.call(
        "createBooking", {"eventTypeId": event_type, "start": "2027-01-05T10:00:00Z"}
    )
    assert result["status"] == "error" and result["error"]["code"] == "already_done", result
    assert f"for event type {event_type} was already made" in result["error"]["message"], result
    rows = wenv.simulate("oracle", spec=spec, budget=60, seed=1, fault_rate=0.0, quiet=True).rows
    done = [r for r in rows if r["world"]["state"] == "already_done" and r["steps"]]
    assert done, "an already-done create was played"
    for row in done:
        assert (
            "was already made" in row["final_text"] and "already created" not in row["final_text"]
        )
