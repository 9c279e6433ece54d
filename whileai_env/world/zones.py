"""Time zones by name: an IANA name, an abbreviation people write for one, or a UTC offset.

Kept apart from :mod:`whileai_env.world.clock` so the value maker can check a zone a
description gives as an example (``'America/San_Francisco'`` is no zone) without the world.
Zones come from the IANA database (:mod:`zoneinfo`, with the ``tzdata`` package where the
system has none).

>>> zone_of("JST"), zone_of("UTC+05:30"), zone_of("America/San_Francisco")
(zoneinfo.ZoneInfo(key='Asia/Tokyo'), datetime.timezone(datetime.timedelta(seconds=19800)), None)
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
# The abbreviations people and docs write where an IANA name is meant; zoneinfo knows only a
# few of them (EST, MST), and as fixed offsets, so they are named here, each by its usual zone.
_ABBREVIATIONS = {
    "UTC": "UTC",
    "GMT": "UTC",
    "Z": "UTC",
    "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles",
    "PT": "America/Los_Angeles",
    "MST": "America/Denver",
    "MDT": "America/Denver",
    "CST": "America/Chicago",
    "CDT": "America/Chicago",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "ET": "America/New_York",
    "BST": "Europe/London",
    "CET": "Europe/Paris",
    "CEST": "Europe/Paris",
    "IST": "Asia/Kolkata",
    "JST": "Asia/Tokyo",
    "AEST": "Australia/Sydney",
}


def zone_of(value: Any) -> dt.tzinfo | None:
    """The zone ``value`` names, or ``None`` when no zone is spelt so."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if len(text) > 64:  # no zone name is longer; a path this long is an OSError in zoneinfo
        return None
    named = _ABBREVIATIONS.get(text.upper(), text)
    try:
        return ZoneInfo(named)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: "America", a directory
        pass
    m = _OFFSET.match(text)
    if m is None or int(m.group(2)) > 14 or int(m.group(3) or 0) >= 60:
        return None
    delta = dt.timedelta(hours=int(m.group(2)), minutes=int(m.group(3) or 0))
    return dt.timezone(-delta if m.group(1) == "-" else delta)
