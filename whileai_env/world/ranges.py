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
        if first[0] < last[0] <= first[0] + _LONGEST[kind]:
            continue
        length = rng("range", *seed, start, end).choice(_LENGTHS[kind])
        moved = _formatted(first[0] + length, out[end], kind)
        schema = properties.get(end)
        if not isinstance(schema, Mapping) or schema_validator(schema).is_valid(moved):
            out[end] = moved
    return out


def _pairs(args: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(start, end)`` names whose words are the same but for one start and one end word."""
    sides: dict[tuple[str, ...], dict[str, str]] = {}
    for name in args:
        words = tuple(w.lower() for w in name_tokens(name))
        for i, word in enumerate(words):
            side = "start" if word in _START else "end" if word in _END else None
            if side is not None:
                sides.setdefault(words[:i] + words[i + 1 :], {}).setdefault(side, name)
                break
    return [(s["start"], s["end"]) for s in sides.values() if {"start", "end"} <= set(s)]


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
