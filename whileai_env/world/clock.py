"""Tools that tell the time: the episode's own clock, in the zone asked for.

``get_current_time(timezone)``, ``get-date-time()``, ``get_current_timestamp()`` answer the
moment of the call on the episode clock (never a drawn date, never a record with an owner), and
``convert_time(source_timezone, time, target_timezone)`` answers the same instant in both zones.
Zones come from the IANA database (:mod:`zoneinfo`, with the ``tzdata`` package where the system
has none), a fixed offset (``+05:30``, ``UTC-3``) or a common abbreviation; one the world cannot
place is rejected on its argument, as a real time service rejects it.

>>> import datetime as dt
>>> fields = moment_fields(dt.datetime(2026, 11, 30, 12, tzinfo=dt.timezone.utc), "UTC")
>>> fields["datetime"], fields["day_of_week"], fields["timestamp"]
('2026-11-30T12:00:00+00:00', 'Monday', 1796040000)
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from whileai_env._util.lexicon import name_tokens
from whileai_env.world.context import Call, error, ok
from whileai_env.world.roles import is_zone_argument
from whileai_env.world.zones import zone_of

#: Words of an argument that names the other end of a conversion.
_TARGET_WORDS = frozenset({"target", "to", "destination", "dest", "output"})
_CLOCK_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?$", re.IGNORECASE)


def moment_fields(moment: dt.datetime, zone: str) -> dict[str, Any]:
    """The fields a time service answers for ``moment`` (an aware datetime) in ``zone``."""
    offset = moment.utcoffset() or dt.timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return {
        "timezone": zone,
        "datetime": moment.isoformat(timespec="seconds"),
        "date": moment.date().isoformat(),
        "time": moment.strftime("%H:%M:%S"),
        "day_of_week": moment.strftime("%A"),
        "is_dst": bool(moment.dst()),
        "utc_offset": f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}",
        "timestamp": int(moment.timestamp()),
    }


def clock_value(name: str, schema: Any, moment: dt.datetime, zone: str) -> Any:
    """The value of declared output field ``name`` at ``moment``, read off its name, type and
    format (``unix_timestamp`` seconds, ``weekday`` a day's name, ``local_time`` the datetime),
    or ``None`` when the name says nothing about time."""
    words = set(name_tokens(name))
    spec = schema if isinstance(schema, Mapping) else {}
    kind, fmt = spec.get("type"), spec.get("format")
    fields = moment_fields(moment, zone)
    if "dst" in words:
        return fields["is_dst"]
    if "offset" in words:
        hours = (moment.utcoffset() or dt.timedelta(0)).total_seconds() / 3600
        return hours if kind in ("number", "integer") else fields["utc_offset"]
    if is_zone_argument(name):
        return zone
    if words & {"timestamp", "epoch", "unix"} or kind in ("integer", "number"):
        scale = 1000 if words & {"ms", "millis", "milliseconds"} else 1
        return fields["timestamp"] * scale
    if words & {"weekday", "day"} and "date" not in words:
        return fields["day_of_week"]
    if fmt == "date" or words == {"date"}:
        return fields["date"]
    if fmt == "time" or words == {"time"}:
        return fields["time"]
    if words & {"time", "datetime", "date", "now", "current", "iso", "local", "utc"}:
        return fields["datetime"]
    return None


def _answer(moment: dt.datetime, zone: str, schema: Any) -> dict[str, Any]:
    """The fields for ``moment``, with every declared field of ``schema`` the clock can fill."""
    out = moment_fields(moment, zone)
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    for name, sub in (props or {}).items() if isinstance(props, Mapping) else ():
        value = clock_value(name, sub, moment, zone)
        if value is not None and name not in out:
            out[name] = value
    return out


def _zones(call: Call) -> list[str]:
    return [a for a in call.profile.properties if is_zone_argument(a)]


def _zone(call: Call, arg: str | None) -> tuple[dt.tzinfo, str] | dict[str, Any]:
    """The zone argument ``arg`` names (UTC when it is not given), or the rejection of it."""
    value = call.args.get(arg) if arg is not None else None
    if value is None or value == "":
        return dt.UTC, "UTC"
    zone = zone_of(value)
    if zone is None:
        return error(
            "rejected",
            f"{arg}: unknown time zone {str(value)[:60]!r} (an IANA name such as 'Europe/London')",
            field=arg,
            problem="invalid",
        )
    return zone, str(value)


def _stated_time(text: Any, zone: dt.tzinfo, today: dt.datetime) -> dt.datetime | None:
    """The moment ``text`` states in ``zone``: a clock time (``15:45``, ``3:45 pm``) on the
    episode's day there, or an ISO datetime (its own offset wins)."""
    if not isinstance(text, str):
        return None
    m = _CLOCK_TIME.match(text.strip())
    if m is not None:
        hour, minute, second = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        if m.group(4):
            hour = hour % 12 + (12 if m.group(4).lower().startswith("p") else 0)
        if hour > 23 or minute > 59 or second > 59:
            return None
        local = today.astimezone(zone)
        return local.replace(hour=hour, minute=minute, second=second, microsecond=0)
    try:
        moment = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


def _given_moment(
    call: Call, zone: dt.tzinfo, now: dt.datetime
) -> dt.datetime | dict[str, Any] | None:
    """The moment a call gives to read out (``timestamp_to_datetime_info(timestamp)``: seconds
    or milliseconds since the epoch, an ISO datetime), its rejection, or ``None`` for none."""
    for arg in call.profile.tool.required:
        if is_zone_argument(arg) or arg not in call.args:
            continue
        moment = _moment_of(call.args[arg], zone, now)
        if moment is None:
            return error(
                "rejected",
                f"{arg}: cannot read {str(call.args[arg])[:60]!r} as a moment",
                field=arg,
                problem="invalid",
            )
        return moment
    return None


def _moment_of(value: Any, zone: dt.tzinfo, now: dt.datetime) -> dt.datetime | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        seconds = value / 1000 if abs(value) > 10**11 else value
        try:
            return dt.datetime.fromtimestamp(seconds, dt.UTC)
        except (OverflowError, OSError, ValueError):
            return None
    return _stated_time(value, zone, now)


def _output_part(schema: Any, *words: str) -> Any:
    """The declared sub-object of the output named by one of ``words`` (``source``, ``target``)."""
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    for name, sub in (props or {}).items() if isinstance(props, Mapping) else ():
        if set(name_tokens(name)) & set(words):
            return name, sub
    return None


def clock(call: Call) -> dict[str, Any]:
    """The time now on the episode clock in the zone asked for, or a stated time converted from
    one zone to another; a time the calendar cannot hold there (year 1 moved west) is rejected."""
    try:
        return _clock(call)
    except OverflowError:
        return error("rejected", "the time is out of the calendar's range", problem="out_of_range")


def _clock(call: Call) -> dict[str, Any]:
    zones = _zones(call)
    targets = [a for a in zones if set(name_tokens(a)) & _TARGET_WORDS]
    now = dt.datetime.fromtimestamp(call.now, dt.UTC)
    schema = call.profile.output_schema
    if not targets or len(zones) < 2:
        found = _zone(call, zones[0] if zones else None)
        if isinstance(found, dict):
            return found
        stated = _given_moment(call, found[0], now)
        if isinstance(stated, dict):
            return stated
        return ok(_answer((stated or now).astimezone(found[0]), found[1], schema))
    source = _zone(call, next(a for a in zones if a not in targets))
    if isinstance(source, dict):
        return source
    target = _zone(call, targets[0])
    if isinstance(target, dict):
        return target
    return _converted(call, source, target, now, schema)


def _converted(
    call: Call,
    source: tuple[dt.tzinfo, str],
    target: tuple[dt.tzinfo, str],
    now: dt.datetime,
    schema: Any,
) -> dict[str, Any]:
    stated = next(
        (
            a
            for a in call.profile.properties
            if not is_zone_argument(a) and set(name_tokens(a)) & {"time", "datetime", "date"}
        ),
        None,
    )
    moment = now.astimezone(source[0])
    if stated is not None and stated in call.args:
        found = _stated_time(call.args[stated], source[0], now)
        if found is None:
            return error(
                "rejected",
                f"{stated}: cannot read {str(call.args[stated])[:60]!r} as a time (HH:MM, 24-hour)",
                field=stated,
                problem="invalid",
            )
        moment = found
    there = moment.astimezone(target[0])
    gap = ((there.utcoffset() or dt.timedelta(0)) - (moment.utcoffset() or dt.timedelta(0))) / (
        dt.timedelta(hours=1)
    )
    part_from = _output_part(schema, "source", "from", "input", "original")
    part_to = _output_part(schema, *_TARGET_WORDS, "converted", "result")
    return ok(
        {
            (part_from[0] if part_from else "source"): _answer(
                moment, source[1], part_from[1] if part_from else None
            ),
            (part_to[0] if part_to else "target"): _answer(
                there, target[1], part_to[1] if part_to else None
            ),
            "time_difference": f"{gap:+.1f}h",
        }
    )
