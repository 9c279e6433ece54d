"""A range stated in one call ends after it starts, and not months later (a user's calendar
spec had events lasting 64 days and free/busy windows ending before they began)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.world.ranges import ordered_ranges, placed_in_window, window_of

_MOMENTS = st.datetimes(min_value=dt.datetime(2020, 1, 1), max_value=dt.datetime(2030, 1, 1))
_STYLES = st.sampled_from(["Z", "+00:00", ""])


@settings(max_examples=200, deadline=None)
@given(
    _MOMENTS,
    _MOMENTS,
    _STYLES,
    st.sampled_from([("start", "end"), ("timeMin", "timeMax"), ("start_time", "end_time")]),
)
def test_every_datetime_pair_ends_after_it_starts_within_a_day(a, b, style, names):
    args = {
        names[0]: a.isoformat(timespec="seconds") + style,
        names[1]: b.isoformat(timespec="seconds") + style,
    }
    out = ordered_ranges(args, {}, ("t",))
    first, last = (dt.datetime.fromisoformat(out[n].replace("Z", "+00:00")) for n in names)
    assert first < last <= first + dt.timedelta(days=1)
    assert out[names[0]] == args[names[0]] and out[names[1]].endswith(style or out[names[1]][-2:])


@settings(max_examples=100, deadline=None)
@given(_MOMENTS, _MOMENTS)
def test_every_date_pair_ends_after_it_starts(a, b):
    args = {"checkin_date": a.date().isoformat(), "checkout_date": b.date().isoformat()}
    out = ordered_ranges(args, {}, ("t",))
    first, last = (dt.date.fromisoformat(out[n]) for n in args)
    assert first < last <= first + dt.timedelta(days=30)


def test_what_is_no_date_and_a_moved_value_the_schema_rejects_stay_as_they_are():
    places = {"from": "JFK", "to": "LAX"}
    assert ordered_ranges(places, {}, ("t",)) == places
    late = {"start_date": "2027-01-10", "end_date": "2027-01-02"}
    strict = {"end_date": {"type": "string", "enum": ["2027-01-02"]}}
    assert ordered_ranges(late, strict, ("t",)) == late


def test_a_tasks_stated_event_ends_after_it_starts():
    when = {"type": "string", "format": "date-time"}
    tool = {
        "name": "create_event",
        "description": "Create a calendar event.",
        "parameters": {
            "type": "object",
            "properties": {"calendar_id": {"type": "string"}, "start": when, "end": when},
            "required": ["calendar_id", "start", "end"],
        },
    }
    spec = wenv.load_spec(tools=[tool])
    stated = [
        t.world.details["create_event"]
        for t in wenv.draw_tasks(spec, 40, seed=2)
        if "create_event" in t.world.details
    ]
    assert stated
    for d in stated:
        start, end = (
            dt.datetime.fromisoformat(d[k].replace("Z", "+00:00")) for k in ("start", "end")
        )
        assert start < end <= start + dt.timedelta(days=1)


def test_a_list_in_a_time_window_shows_only_records_inside_it():
    when = {"type": "string", "format": "date-time"}
    tool = {
        "name": "list_events",
        "description": "List the events of a calendar between two times.",
        "parameters": {
            "type": "object",
            "properties": {"calendar_id": {"type": "string"}, "timeMin": when, "timeMax": when},
            "required": ["calendar_id"],
        },
    }
    world = wenv.World(wenv.load_spec(tools=[tool]), seed=3)
    everything = world.call("list_events", {"calendar_id": "CAL-1"})["items"]
    window = {"timeMin": "2027-02-01T00:00:00Z", "timeMax": "2027-02-02T00:00:00Z"}
    inside = world.call("list_events", {"calendar_id": "CAL-1", **window})["items"]
    assert everything and inside
    lo, hi = (dt.datetime.fromisoformat(window[k].replace("Z", "+00:00")) for k in window)
    for item in inside:
        start = dt.datetime.fromisoformat(item["start_time"].replace("Z", "+00:00"))
        assert lo <= start <= hi, item
    # the records listed before, outside that window, are not listed in it
    assert not {i["event_id"] for i in everything} & {i["event_id"] for i in inside}


def test_a_window_after_the_clock_lists_nothing_created_in_it():
    when = {"type": "string", "format": "date-time"}
    tool = {
        "name": "search_tickets",
        "description": "Search tickets by when they were created.",
        "parameters": {
            "type": "object",
            "properties": {"created_after": when, "created_before": when},
        },
    }
    world = wenv.World(wenv.load_spec(tools=[tool]), seed=3)
    now = world.call("search_tickets", {})["items"]
    assert now and all("created_at" in i for i in now)
    later = world.call("search_tickets", {"created_after": "2099-01-01T00:00:00Z"})
    assert later["items"] == []
    recent = world.call("search_tickets", {"created_after": "2020-01-01T00:00:00Z"})["items"]
    assert recent and all(i["created_at"] < "2099" for i in recent)


def test_a_window_at_the_calendars_ends_lists_nothing_and_raises_nothing():
    far = {"timeMin": "9999-12-31T23:00:00Z"}, {"timeMax": "0001-01-01T00:00:00Z"}
    for window in far:
        out = placed_in_window(
            {"start_time": "2026-12-01T10:00:00Z"},
            window_of(window),
            ("t",),
            dt.datetime(2026, 11, 30),
        )
        assert out == {"start_time": "2026-12-01T10:00:00Z"}
    late = {"start": "9999-12-31T23:30:00Z", "end": "2026-01-01T00:00:00Z"}
    assert ordered_ranges(late, {}, ("t",)) == late
