"""Word-level helpers shared by the world's modules: plurals, slugs, and which record field an
argument means (``new_address`` → ``shipping_address``, ``bag_count`` → ``checked_bags``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from whileai_env._util.lexicon import name_tokens, singular

_PREFIXES = ("new_", "updated_", "set_", "target_", "desired_")
_GENERIC = frozenset(
    {"id", "ids", "count", "number", "num", "no", "new", "value", "total", "the", "of"}
)


@lru_cache(maxsize=4096)
def slug(noun: str) -> str:
    """``payment method`` → ``payment_method``."""
    return re.sub(r"[^a-z0-9]+", "_", noun.lower()).strip("_") or "record"


@lru_cache(maxsize=4096)
def status_field(noun: str) -> str:
    """The lifecycle field of a noun's records: ``order`` → ``order_status``."""
    return f"{slug(noun)}_status"


@lru_cache(maxsize=8192)
def word_set(name: str) -> frozenset[str]:
    """The singular words of a name, without generic ones (``bag_count`` → ``{bag}``)."""
    return frozenset(singular(w) for w in name_tokens(name)) - _GENERIC


#: Abbreviations a field name may use for the words it stands for (``dob``: date of birth), so
#: a write's ``dob`` changes the record's ``date_of_birth`` instead of adding a second field.
_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "dob": ("date", "birth"),
    "birthdate": ("date", "birth"),
    "birthday": ("date", "birth"),
    "qty": ("quantity",),
    "addr": ("address",),
    "amt": ("amount",),
    "desc": ("description",),
    "msg": ("message",),
    "tel": ("phone",),
    "ssn": ("social", "security"),
    # not an abbreviation but the same field under another API's name: an event's or an
    # issue's summary is its title (Google Calendar, Jira, PagerDuty call the title so)
    "summary": ("title",),
}


@lru_cache(maxsize=8192)
def spelt_out(name: str) -> frozenset[str]:
    """The words of a name with each known abbreviation spelt out (``dob`` and
    ``date_of_birth`` → ``{date, birth}``)."""
    return frozenset(w for word in word_set(name) for w in _ABBREVIATIONS.get(word, (word,)))


_RESOLVED: dict[tuple[tuple[str, ...], str], str | None] = {}


def resolve_field(record: Mapping[str, Any], arg: str) -> str | None:
    """The field of ``record`` that argument ``arg`` refers to, or ``None``.

    Tries the exact name, the name without ``new_``-like prefixes, a field ending in
    ``_<name>``, then a field whose words contain (or are contained in) the argument's words.

    >>> resolve_field({"shipping_address": {}, "total": 1}, "new_address")
    'shipping_address'
    >>> resolve_field({"checked_bags": 1}, "bag_count")
    'checked_bags'
    """
    if arg in record:
        return arg
    key = (tuple(record), arg)
    found = _RESOLVED.get(key, _MISSING)
    if found is _MISSING:
        if len(_RESOLVED) > 50_000:
            _RESOLVED.clear()
        found = _RESOLVED[key] = _resolve(record, arg)
    return found  # type: ignore[return-value]


_MISSING = object()
_STATUS_WORDS = frozenset({"status", "state", "stage"})


def _resolve(record: Mapping[str, Any], arg: str) -> str | None:
    base = arg
    for prefix in _PREFIXES:
        if base.lower().startswith(prefix):
            base = base[len(prefix) :]
            break
    if base in record:
        return base
    suffix = "_" + base
    for key in record:
        if key.endswith(suffix):
            return key
    wanted = word_set(base)
    if not wanted:
        return None
    # a record's own status field (``collection_status``) is never what an argument named only
    # for the record (``collection``) changes: that argument names the record
    keys = [k for k in record if not k.endswith("_status") or wanted & _STATUS_WORDS]
    for key in keys:
        if wanted <= word_set(key):
            return key
    for key in keys:
        have = word_set(key)
        if have and have <= wanted:
            return key
    spelt = spelt_out(base)
    same = [key for key in record if spelt_out(key) == spelt]
    if len(same) == 1:  # an abbreviation, only when one field fits
        return same[0]
    return _headline(record, base)


#: Names of a record's one headline: a product's ``name`` is what ``update-product(title)``
#: changes, a ticket's ``subject`` what ``save_issue(title)`` does.
_HEADLINES = ("title", "subject", "headline", "name")
#: Fields of a person, whose ``name`` is never a ``title`` (a job title).
_PERSON_WORDS = frozenset({"email", "phone", "first", "last", "birth", "surname"})


def _headline(record: Mapping[str, Any], base: str) -> str | None:
    """The record's headline field that headline argument ``base`` changes, or ``None``."""
    if base.lower() not in _HEADLINES:
        return None
    person = any(word_set(k) & _PERSON_WORDS for k in record)
    held = [k for k in _HEADLINES if k in record and not (person and "name" in (k, base.lower()))]
    return held[0] if held else None
