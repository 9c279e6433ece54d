"""A range stated in one call ends after it starts, and not months later.

Values are drawn field by field, so a call's ``start`` and ``end`` (``timeMin``/``timeMax``,
``checkin_date``/``checkout_date``, ``from_date``/``to_date``) come from two independent draws:
an event could end before it starts or last 64 days. :func:`ordered_ranges` reads the pairs off
the argument names (the same words, one a start word, the other an end word) and, where the
end is not after the start or lies too far past it, moves the end to a seeded length after the
start, in the end's own format; a moved value that its schema would reject is not used.

>>> args = {"start": "2026-12-09T09:15:00Z", "end": "2027-03-15T12:45:00Z", "timeZone": "UTC"}
>>> ordered_ranges(args, {}, ("t-1",))["end"]
'2026-12-09T10:00:00Z'
>>> ordered_ranges({"checkin_date": "2027-01-28", "checkout_date": "2027-01-02"}, {}, ("t-1",))
{'checkin_date': '2027-01-28', 'checkout_date': '2027-01-30'}
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from whileai_env._util.hashing import rng
from whileai_env._util.lexicon import name_tokens
from whileai_env.world.validation import schema_validator

_START = frozenset({"start", "from", "begin", "since", "min", "checkin", "after", "earliest"})
_END = frozenset({"end", "until", "to", "max", "checkout", "before", "finish", "latest"})
#: The longest a stated range may run: an event or window of times a day, a stay of days.
_LONGEST = {"datetime": dt.timedelta(days=1), "date": dt.timedelta(days=30)}
#: The seeded lengths an end is moved to, after its start.
_LENGTHS = {
    "datetime": tuple(dt.timedelta(minutes=m) for m in (30, 45, 60, 90, 120)),
    "date": tuple(dt.timedelta(days=d) for d in (1, 2, 3, 4, 5, 7)),
}


def ordered_ranges(
    args: Mapping[str, Any], properties: Mapping[str, Any], seed: tuple[Any, ...]
) -> dict[str, Any]:
    """``args`` with every start/end pair in order (see the module docstring); a copy."""
    out = dict(args)
    for start, end in _pairs(out):
        first, last = _moment(out[start]), _moment(out[end])
        if first is None or last is None or first[1] != last[1]:
            continue
        kind = first[1]
        try:  # a start at the calendar's end (year 9999) leaves no room after it
            if first[0] < last[0] <= first[0] + _LONGEST[kind]:
                continue
            length = rng("range", *seed, start, end).choice(_LENGTHS[kind])
            moved = _formatted(first[0] + length, out[end], kind)
        except OverflowError:
            continue
        schema = properties.get(end)
        if not isinstance(schema, Mapping) or schema_validator(schema).is_valid(moved):
            out[end] = moved
    return out


def _pairs(args: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(start, end)`` names whose words are the same but for one start and one end word."""
    return [(s["start"], s["end"]) for s in _sides(args) if {"start", "end"} <= set(s)]


def _sides(args: Mapping[str, Any]) -> list[dict[str, str]]:
    """The names that bound a range, grouped by their other words: ``{"start": name, "end":
    name}``, either side possibly missing (a lone ``timeMin``)."""
    sides: dict[tuple[str, ...], dict[str, str]] = {}
    for name in args:
        words = tuple(w.lower() for w in name_tokens(name))
        for i, word in enumerate(words):
            side = "start" if word in _START else "end" if word in _END else None
            if side is not None:
                sides.setdefault(words[:i] + words[i + 1 :], {}).setdefault(side, name)
                break
    return list(sides.values())


def _moment(value: Any) -> tuple[dt.datetime, str] | None:
    """A date or date-time text as ``(moment, "date" | "datetime")``; ``None`` for anything else."""
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        if len(value) == 10:
            return dt.datetime.fromisoformat(value), "date"
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.replace(tzinfo=None) - (moment.utcoffset() or dt.timedelta()), "datetime"


def _formatted(moment: dt.datetime, like: str, kind: str) -> str:
    """``moment`` (UTC) written as ``like`` is: a date, or a date-time ending ``Z``, with an
    offset (``+00:00``) or bare."""
    if kind == "date":
        return moment.date().isoformat()
    text = moment.isoformat(timespec="seconds")
    if like.endswith("Z"):
        return text + "Z"
    return text + "+00:00" if like[19:].lstrip(".0123456789")[:1] in ("+", "-") else text


#: The record fields a window is read against, most telling first (an event's start, a
#: transaction's date, a message's sending); the record's creation only when it has no other.
_DATED = ("start_time", "date", "departure_time", "sent_at", "posted_at", "issued_at", "due_date")
_FALLBACK = ("created_at", "updated_at")
_SPAN = dt.timedelta(days=14)


def window_of(args: Mapping[str, Any]) -> tuple[dt.datetime | None, dt.datetime | None] | None:
    """The time window a list call asks for: its start/end pair of dates (either side may be
    left open), or ``None`` when it names none.

    >>> window_of({"calendarId": "c", "timeMin": "2026-12-21T00:00:00Z"})[0]
    datetime.datetime(2026, 12, 21, 0, 0)
    """
    for side in _sides(args):
        lo, hi = _moment(args.get(side.get("start", ""))), _moment(args.get(side.get("end", "")))
        if lo is not None or hi is not None:
            return (lo[0] if lo else None), (hi[0] if hi else None)
    return None


def dated_field(record: Mapping[str, Any]) -> str | None:
    """The field of ``record`` a window is read against (see :data:`_DATED`), or ``None``."""
    for name in (*_DATED, *_FALLBACK):
        if _moment(record.get(name)) is not None:
            return name
    return None


def in_window(record: Mapping[str, Any], window: tuple[Any, Any]) -> bool:
    """Whether the record's dated field lies in ``window`` (a record with none does)."""
    name = dated_field(record)
    if name is None:
        return True
    moment = _moment(record[name])
    assert moment is not None
    lo, hi = window
    return (lo is None or moment[0] >= lo) and (hi is None or moment[0] <= hi)


#: Fields that record what already happened: never placed after the episode's clock.
_PAST_FIELDS = frozenset({"created_at", "updated_at", "sent_at", "posted_at", "issued_at"})


def placed_in_window(
    record: Mapping[str, Any],
    window: tuple[Any, Any],
    seed: tuple[Any, ...],
    now: dt.datetime | None = None,
) -> dict[str, Any]:
    """``record`` moved into ``window``: its dated field set to a seeded moment inside it, and
    its end field (``end_time`` beside ``start_time``) moved by as much; a copy. A field of what
    already happened (``created_at``) stays before ``now``: a window wholly after it leaves the
    record where it was (outside the window, so not listed)."""
    out = dict(record)
    name = dated_field(out)
    if name is None or in_window(out, window):
        return out
    lo, hi = window
    if name in _PAST_FIELDS and now is not None:
        hi = now if hi is None or hi > now else hi
        if lo is not None and lo >= hi:
            return out
    try:  # a window at the calendar's ends (year 9999) has no room: the record stays outside
        lo = lo if lo is not None else hi - _SPAN
        hi = hi if hi is not None else lo + _SPAN
        span = max(0, int((hi - lo).total_seconds()) // 900)
        moment = lo + dt.timedelta(minutes=15 * rng("window", *seed).randint(0, span))
        old = _moment(out[name])
        assert old is not None
        shift, kind = moment - old[0], old[1]
        moved = {}
        for field_name in (name, *(e for s, e in _pairs(out) if s == name)):
            was = _moment(out[field_name])
            if was is not None:
                moved[field_name] = _formatted(was[0] + shift, out[field_name], kind)
    except OverflowError:
        return out
    return {**out, **moved}
