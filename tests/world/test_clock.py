"""Tools that tell the time answer the episode's own clock, in the zone asked for (a user's
calendar spec and the MCP time server answered a generic record, a drawn date a month off the
clock, and a ``day_of_week`` of ``"2026-10-06"``)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.world.clock import zone_of
from whileai_env.world.profile import profile_for

_ZONE = {"type": "string", "description": "IANA timezone name (e.g. 'Europe/London')."}


def _tool(name: str, props: dict, required: tuple[str, ...] = (), **extra) -> dict:
    body = {"type": "object", "properties": props, "required": list(required)}
    return {"name": name, "description": f"{name} tool.", "parameters": body, **extra}


def _world(*tools: dict, seed: int = 0) -> wenv.World:
    return wenv.World(wenv.load_spec(tools=list(tools)), seed=seed)


def _instant(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_the_current_time_is_the_episode_clock_in_the_zone_asked_for():
    world = _world(_tool("get_current_time", {"timezone": _ZONE}, ("timezone",)))
    out = world.call("get_current_time", {"timezone": "Asia/Tokyo"})
    now = dt.datetime.fromtimestamp(world.now(0), dt.UTC)
    assert out["status"] == "ok" and out["timezone"] == "Asia/Tokyo"
    assert _instant(out["datetime"]) == now and out["timestamp"] == world.now(0)
    local = now.astimezone(ZoneInfo("Asia/Tokyo"))
    assert out["datetime"].endswith("+09:00") and out["day_of_week"] == local.strftime("%A")
    assert out["date"] == local.date().isoformat()
    assert not {k for k in out if k.endswith("_id") or k in ("owner", "name")}


def test_a_clock_with_no_zone_answers_utc_and_moves_with_the_calls():
    world = _world(_tool("get-date-time", {}))
    first, second = world.call("get-date-time", {}), world.call("get-date-time", {})
    assert first["timezone"] == "UTC" and first["datetime"].endswith("+00:00")
    assert second["timestamp"] > first["timestamp"]


def test_a_conversion_answers_one_instant_in_both_zones():
    tool = _tool(
        "convert_time",
        {"source_timezone": _ZONE, "time": {"type": "string"}, "target_timezone": _ZONE},
        ("source_timezone", "time", "target_timezone"),
    )
    world = _world(tool)
    out = world.call(
        "convert_time",
        {"source_timezone": "America/New_York", "time": "15:45", "target_timezone": "Asia/Tokyo"},
    )
    src, dst = out["source"], out["target"]
    assert src["time"] == "15:45:00" and src["utc_offset"] == "-05:00"
    assert _instant(src["datetime"]) == _instant(dst["datetime"])
    assert dst["time"] == "05:45:00" and out["time_difference"] == "+14.0h"


def test_a_zone_the_world_cannot_place_is_rejected_on_its_argument():
    world = _world(_tool("get_current_time", {"timezone": _ZONE}, ("timezone",)))
    out = world.call("get_current_time", {"timezone": "Mars/Olympus_Mons"})
    assert out["status"] == "error" and out["error"]["field"] == "timezone"


@pytest.mark.parametrize(
    ("text", "hours"), [("UTC+5", 5), ("-03:00", -3), ("+05:30", 5.5), ("PST", -8), ("Z", 0)]
)
def test_offsets_and_abbreviations_are_zones(text, hours):
    zone = zone_of(text)
    assert zone is not None
    offset = dt.datetime(2026, 1, 15, tzinfo=zone).utcoffset()
    assert offset is not None and offset.total_seconds() / 3600 == hours


@pytest.mark.parametrize(
    ("tool", "clock"),
    [
        (_tool("get_current_timestamp", {}), True),
        (_tool("get-current-time", {"timeZone": _ZONE}), True),
        (_tool("get_time_entries", {"project_id": {"type": "string"}}, ("project_id",)), False),
        (_tool("get_delivery_time", {"order_id": {"type": "string"}}, ("order_id",)), False),
        (_tool("update_time", {"time": {"type": "string"}}, ("time",)), False),
    ],
)
def test_only_tools_about_the_time_itself_tell_it(tool, clock):
    spec = wenv.load_spec(tools=[tool])
    assert (profile_for(spec).tools[tool["name"]].family == "clock") is clock


_NAMES = st.sampled_from(
    [
        "current_time",
        "local_time",
        "utc_time",
        "unix_timestamp",
        "timestamp_ms",
        "weekday",
        "day_of_week",
        "date",
        "time",
        "timezone",
        "utc_offset",
        "is_dst",
        "iso",
    ]
)
_TYPES = {
    "unix_timestamp": "integer",
    "timestamp_ms": "integer",
    "is_dst": "boolean",
}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(_NAMES, min_size=1, max_size=6, unique=True), st.sampled_from(["UTC", "Asia/Tokyo"])
)
def test_a_declared_output_gets_clock_values_that_fit_it(names, zone):
    props = {n: {"type": _TYPES.get(n, "string")} for n in names}
    output = {"type": "object", "properties": props, "required": names}
    world = _world(_tool("get_current_time", {"timezone": _ZONE}, outputSchema=output))
    out = world.call("get_current_time", {"timezone": zone})
    body = {k: v for k, v in out.items() if k != "status"}
    jsonschema.validate(body, output)
    now = world.now(0)
    for name in {"current_time", "local_time"} & set(names):
        assert _instant(body[name]).timestamp() == now
    if "unix_timestamp" in names:
        assert body["unix_timestamp"] == now


def test_a_given_moment_is_read_out_not_looked_up():
    """``timestamp_to_datetime_info(timestamp)`` answered ``{"result": 247.73}`` in a user's
    phone spec; it reads the moment it is given, and refuses what is none."""
    stamp = {"type": "number", "description": "POSIX timestamp"}
    tool = _tool("timestamp_to_datetime_info", {"timestamp": stamp}, ("timestamp",))
    tool["description"] = "Convert a POSIX timestamp to a dictionary of datetime information."
    world = _world(tool)
    out = world.call("timestamp_to_datetime_info", {"timestamp": 1796040000})
    assert out["datetime"] == "2026-11-30T12:00:00+00:00" and out["day_of_week"] == "Monday"
    millis = world.call("timestamp_to_datetime_info", {"timestamp": 1796040000000})
    assert millis["timestamp"] == 1796040000
    lookup = _tool("get_order_time", {"order_id": {"type": "string"}}, ("order_id",))
    assert profile_for(wenv.load_spec(tools=[lookup])).tools["get_order_time"].family != "clock"


@pytest.mark.parametrize("zone", ["America", "x" * 5000, "../etc/passwd", "\x00", "UTC+99"])
def test_a_hostile_zone_is_rejected_on_its_argument(zone):
    world = _world(_tool("get_current_time", {"timezone": _ZONE}, ("timezone",)))
    out = world.call("get_current_time", {"timezone": zone})
    assert out["status"] == "error" and out["error"]["code"] == "rejected"


def test_a_time_pushed_past_the_calendar_is_rejected_not_a_server_error():
    tool = _tool(
        "convert_time",
        {"source_timezone": _ZONE, "time": {"type": "string"}, "target_timezone": _ZONE},
        ("source_timezone", "time", "target_timezone"),
    )
    world = _world(tool)
    args = {
        "source_timezone": "UTC",
        "time": "0001-01-01T00:00:00",
        "target_timezone": "Etc/GMT+12",
    }
    out = world.call("convert_time", args)
    assert out["error"]["code"] == "rejected" and not world.internal_errors


def test_an_optional_account_to_read_the_time_for_keeps_a_clock_tool_a_clock():
    """``get-current-time(account?, timeZone?)``: the account is whose calendar, not a record
    the time is of; an optional ``order_id`` would be a record's time."""
    from whileai_env.world.profile import build_profile

    def tool(name: str, props: dict) -> dict:
        return {
            "name": name,
            "description": "Get the current time.",
            "parameters": {"type": "object", "properties": props},
        }

    spec = wenv.load_spec(
        tools=[
            tool(
                "get-current-time", {"account": {"type": "string"}, "timeZone": {"type": "string"}}
            ),
            tool("get_time", {"order_id": {"type": "string"}}),
        ]
    )
    families = {n: t.family for n, t in build_profile(spec).tools.items()}
    assert families["get-current-time"] == "clock" and families["get_time"] != "clock"
    now = wenv.World(spec, seed=0).call("get-current-time", {"timeZone": "Asia/Tokyo"})
    assert now["status"] == "ok" and now["datetime"].endswith("+09:00")
