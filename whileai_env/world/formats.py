"""JSON Schema ``format`` values: one generator and one strict check per format.

The generators make values a real service would send (an RFC 3339 date-time on a whole minute,
a UUID of version 4, an address in a documentation IP range …). The checks are as strict as
``jsonschema``'s own checkers with their optional libraries installed (``rfc3339-validator``,
``rfc3986-validator``, ``fqdn``), written with the standard library so the package needs none of
them; :func:`strict_validator` uses them to make sure a drawn value validates wherever it goes.
The world's own validator (:mod:`whileai_env.world.validation`) checks fewer formats, on purpose:
it must accept what a real agent sends.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import random
import re
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

import jsonschema

from whileai_env._util.hashing import canonical_json
from whileai_env.world import values as v
from whileai_env.world.pools import pools

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATE_TIME = re.compile(
    r"^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$"
)
_TIME = re.compile(r"^(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")
_DURATION = re.compile(r"^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$")
_URI_CHARS = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")


def _date_ok(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _is_date(value: Any) -> bool:
    return not isinstance(value, str) or (bool(_DATE.match(value)) and _date_ok(value))


def _is_date_time(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    m = _DATE_TIME.match(value)
    return (
        m is not None
        and _date_ok(m.group(1))
        and int(m.group(2)) < 24
        and int(m.group(3)) < 60
        and int(m.group(4)) < 61
    )


def _is_time(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    m = _TIME.match(value)
    return m is not None and int(m.group(1)) < 24 and int(m.group(2)) < 60 and int(m.group(3)) < 61


def _is_ip(version: int) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        if not isinstance(value, str):
            return True
        try:
            return ipaddress.ip_address(value).version == version
        except ValueError:
            return False

    return check


def _is_hostname(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    labels = value.rstrip(".").split(".")
    return 0 < len(value) <= 253 and all(_LABEL.match(label) for label in labels)


def _is_uri(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    parts = urllib.parse.urlsplit(value)
    return (
        bool(parts.scheme)
        and bool(_URI_CHARS.match(value))
        and re.match(r"^[A-Za-z][A-Za-z0-9+.-]*$", parts.scheme) is not None
    )


def _is_uri_reference(value: Any) -> bool:
    return not isinstance(value, str) or bool(_URI_CHARS.match(value))


def _is_regex(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    try:
        re.compile(value)
    except re.error:
        return False
    return True


CHECKS: dict[str, Callable[[Any], bool]] = {
    "date": _is_date,
    "date-time": _is_date_time,
    "time": _is_time,
    "email": lambda x: not isinstance(x, str) or bool(_EMAIL.match(x)),
    "idn-email": lambda x: not isinstance(x, str) or bool(_EMAIL.match(x)),
    "ipv4": _is_ip(4),
    "ipv6": _is_ip(6),
    "hostname": _is_hostname,
    "idn-hostname": _is_hostname,
    "uuid": lambda x: not isinstance(x, str) or bool(_UUID.match(x)),
    "uri": _is_uri,
    "iri": _is_uri,
    "uri-reference": _is_uri_reference,
    "iri-reference": _is_uri_reference,
    "duration": lambda x: not isinstance(x, str) or bool(_DURATION.match(x)),
    "json-pointer": lambda x: not isinstance(x, str) or x == "" or x.startswith("/"),
    "regex": _is_regex,
}


def _checker() -> jsonschema.FormatChecker:
    checker = jsonschema.FormatChecker(formats=())
    for name, fn in CHECKS.items():
        checker.checks(name)(fn)
    return checker


STRICT_CHECKER = _checker()
_VALIDATORS: dict[str, Any] = {}


def strict_validator(schema: Any) -> Any:
    """A ``jsonschema`` validator of ``schema`` (its draft, 2020-12 by default) checking every
    format above; built once per schema content."""
    key = canonical_json(schema)
    found = _VALIDATORS.get(key)
    if found is None:
        if len(_VALIDATORS) > 4096:
            _VALIDATORS.clear()
        cls = (
            jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
            if isinstance(schema, Mapping)
            else jsonschema.Draft202012Validator
        )
        found = _VALIDATORS[key] = cls(schema, format_checker=STRICT_CHECKER)
    return found


def uuid4(r: random.Random) -> str:
    """A version-4 UUID drawn from ``r``."""
    h = f"{r.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[r.randrange(4)]}{h[17:20]}-{h[20:32]}"


def moment(r: random.Random, now: int, tense: str) -> int:
    """A time on a whole quarter hour: ``past`` (up to 60 days back), ``future`` (1 to 60 days
    ahead), ``later`` (61 to 120 days ahead: the end of a range that starts in the future),
    ``recent`` (the last 7 days) or ``near`` (either side)."""
    spans = {
        "past": (-60, -1),
        "recent": (-7, 0),
        "future": (1, 60),
        "later": (61, 120),
        "near": (-14, 30),
    }
    low, high = spans.get(tense, spans["near"])
    t = int(now + r.uniform(low, high) * v.DAY)
    return t - t % 900


def format_value(
    fmt: str, r: random.Random, *, now: int, tense: str = "near", domain: str = ""
) -> str | None:
    """A value of JSON Schema format ``fmt`` (``None`` for a format with no generator here)."""
    domain = domain or v.choice(r, pools().company_domains)
    if fmt == "date":
        return v.day(moment(r, now, tense))
    if fmt == "date-time":
        return v.iso(moment(r, now, tense))
    if fmt == "time":
        return f"{r.randint(8, 18):02d}:{r.choice((0, 15, 30, 45)):02d}:00Z"
    if fmt == "duration":
        return r.choice(("PT15M", "PT30M", "PT1H", "PT2H30M", "P1D", "P7D"))
    if fmt in ("email", "idn-email"):
        return v.email(r)
    if fmt in ("uri", "iri", "url"):
        return f"https://{domain}/{r.choice(('docs', 'blog', 'products', 'help', 'about'))}/{r.randrange(100, 9999)}"
    if fmt in ("uri-reference", "iri-reference"):
        return f"/{r.choice(('docs', 'api', 'help'))}/{r.choice(('getting-started', 'billing', 'limits'))}"
    if fmt == "uri-template":
        return f"https://{domain}/api/{{id}}"
    if fmt in ("hostname", "idn-hostname"):
        return f"{r.choice(('api', 'www', 'mail', 'app', 'db'))}.{domain}"
    if fmt == "ipv4":
        return f"{r.choice(('10.0', '192.168', '172.16'))}.{r.randrange(256)}.{r.randrange(1, 255)}"
    if fmt == "ipv6":
        return f"2001:db8:{r.randrange(65536):x}::{r.randrange(1, 65536):x}"
    if fmt == "uuid":
        return uuid4(r)
    if fmt == "json-pointer":
        return f"/{r.choice(('items', 'data', 'results'))}/{r.randrange(5)}"
    if fmt == "relative-json-pointer":
        return f"{r.randrange(3)}/name"
    if fmt == "regex":
        return r.choice((r"^[a-z]+$", r"\d{4}", r"error|warning"))
    if fmt == "byte":
        return r.choice(("SGVsbG8sIHdvcmxkIQ==", "eyJvayI6dHJ1ZX0="))
    return None
