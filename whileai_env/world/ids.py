"""Identifiers that look like the spec's: candidate ids for one locator field.

(One format per entity type across the spec is :mod:`whileai_env.world.entity_ids`.) Within its
schema an id takes, in order: its ``format`` (a UUID, an email …), the shape of an
example the schema or its description gives (``"such as 'ZFA04Y'"`` → ``KQT31B``), what the
name means (a path, a branch, a commit sha, a username, a slug), its ``pattern``, and last a
prefix by noun and digits (``T-10442``, ``INV-58213``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

from whileai_env._util.hashing import stable_hash
from whileai_env.world.concepts import Field
from whileai_env.world.formats import format_value
from whileai_env.world.makers import Scope, like, make_strings
from whileai_env.world.patterns import sample

_PREFIXES = {
    "order": "",
    "booking": "BK-",
    "reservation": "R",
    "ticket": "T-",
    "invoice": "INV-",
    "customer": "C-",
    "account": "AC-",
    "user": "u_",
    "event": "evt_",
    "message": "msg_",
    "thread": "th_",
    "issue": "",
    "pr": "",
    "flight": "",
    "payment": "pay_",
    "refund": "rf_",
    "product": "SKU-",
    "item": "IT-",
    "subscription": "sub_",
    "project": "prj_",
    "task": "TSK-",
    "case": "CS-",
    "incident": "INC",
    "claim": "CLM-",
    "policy": "POL-",
    "shipment": "SH-",
    "card": "card_",
    "transaction": "txn_",
    "session": "sess_",
    "job": "job_",
    "document": "doc_",
}
#: Concepts whose value is prose, never an identifier: a locator with one of these gets a noun id.
_PROSE = frozenset(
    {
        "title",
        "text",
        "reason",
        "query",
        "commit_message",
        "tag",
        "label",
        "image_prompt",
        "plain_value",
        "status",
        "priority",
        "role",
        "sql",
        "command",
        "javascript",
        "python",
        "expression",
    }
)


def id_candidates(
    f: Field, schema: Mapping[str, Any], scope: Scope, concept: str | None, examples: list[str]
) -> Iterator[str | None]:
    """Candidate ids for locator ``f``, best first (see the module docstring), made one at a
    time: a caller that takes the first that fits never makes the rest."""
    draws: list[random.Random] = []  # the RNG, made on first use (a noun id needs none)

    def r() -> random.Random:
        if not draws:
            draws.append(scope.rng("id", f.name))
        return draws[0]

    fmt = schema.get("format")
    if isinstance(fmt, str):
        yield format_value(fmt, r(), now=scope.now)
    web = f.has("url", "uri", "link", "href", "endpoint", "webhook", "site", "page_url")
    stamped = f.has("ts", "timestamp")
    for e in examples:
        epoch = _EPOCH.fullmatch(e) if stamped else None
        if epoch:  # "in the format '1234567890.123456'": a recent moment, the example's decimals
            yield _recent_stamp(scope.now, r(), len(epoch.group(1) or ""))
            continue
        # "in 'https://…/pages/123456789/…' the page ID is '123456789'": where the id sits, not it
        # and a JSON list of ids a field also takes ('["cal1", "cal2"]') is ids, not an id; an id
        # in a scheme of its own ("gid://shopify/Product/123") is the id
        if any(c.isalnum() for c in e) and (web or not _WEB.match(e)) and e[:1] not in "[{":
            yield like(e, r(), now=scope.now, when="past")
    if concept is not None and concept not in _PROSE:
        yield from make_strings(concept, f, scope)
    if stamped:  # Slack's message ``ts``: seconds of a recent moment, microseconds
        yield _recent_stamp(scope.now, r(), 6)
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        loose = _LOOSE.fullmatch(pattern)
        if loose:  # a validator, not a format: an id like the spec's others, or a long enough one
            yield noun_id(f, scope)
        yield sample(
            _lengthened(loose) if loose else pattern,
            r(),
            min_length=schema.get("minLength") or 0,
            max_length=schema.get("maxLength"),
        )
    yield noun_id(f, scope)


#: Seconds since the epoch, with a fraction or none ("1234567890.123456").
_EPOCH = re.compile(r"\d{9,10}(?:\.(\d{1,9}))?")


def _recent_stamp(now: int, r: random.Random, decimals: int) -> str:
    """Epoch seconds up to 60 days before ``now``, with ``decimals`` drawn digits after a point."""
    seconds = str(now - r.randrange(60 * 86400))
    return f"{seconds}.{r.randrange(10**decimals):0{decimals}d}" if decimals else seconds


#: An address on the web, which holds an id rather than being one.
_WEB = re.compile(r"(?:https?|ftp|wss?)://|www\.", re.IGNORECASE)


def _lengthened(loose: re.Match[str]) -> str:
    """A loose pattern's characters at an id's length: 8 to 16 of them, within its own bounds."""
    low, high = loose["low"], loose["high"]
    top = int(high) if high else 16
    least = max(int(low or 0), min(8, top))
    return f"^{loose['chars']}{{{least},{max(least, min(top, 16))}}}$"


#: A pattern that only says which characters an id may hold and how long it may be at most
#: (PayPal's ``^[A-Za-z0-9_-]{1,127}$``, ``^.{1,255}$``, ``^[A-Z0-9-]+$``): sampled as it is,
#: it gave invoice ids ``"D"`` and ``"E_"``.
_LOOSE = re.compile(
    r"\^?(?P<chars>\[[^\]]+\]|\.|\\[wdS])(?:[+*]|\{(?P<low>[0-4]?),(?P<high>\d{2,})?\})\$?"
)


def noun_id(f: Field, scope: Scope) -> str:
    """An id prefixed by its noun (``T-10442``, ``u_48213``; ``ORD-`` style for nouns with no prefix)."""
    words = [
        w
        for w in f.words
        if w not in ("id", "ids", "uuid", "number", "no", "num", "ref", "key", "code")
    ]
    noun = words[-1] if words else (scope.noun.split()[-1] if scope.noun else "record")
    prefix = _PREFIXES.get(noun)
    if prefix is None:
        prefix = f"{noun[:3].upper()}-" if noun.isalpha() and noun != "record" else "ID-"
    h = stable_hash("id", scope.seed, *f.words)
    digits = 5 + stable_hash("id digits", noun) % 2
    return f"{prefix}{1 + h % 9}{(h // 9) % 10 ** (digits - 1):0{digits - 1}d}"
