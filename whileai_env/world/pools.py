"""Pools of realistic values (people, addresses, companies, phones), and one persona per seed.

The pools are Faker's output for fixed seeds, made once by ``scripts/make_pools.py`` and shipped
as ``pools.json`` beside this module: loaded the first time a world needs a value (a few
milliseconds, where making them took about 0.15 s of CPU in every process), the same whatever
Faker a user has installed. Every value is *picked* from a pool by hash, never generated per
call. A persona (:func:`persona`: a name, an email, a phone and an address that belong
together) is put together from one locale's persona parts, each picked by the persona's seed:
about 20 us, where having Faker make each one cost about half a millisecond (a third of the
draw on a spec whose tools take people's details), and Faker is not imported at run time.
"""

from __future__ import annotations

import json
import random
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

# Locales whose Faker output depends only on the seed. (it_IT is left out: its city names
# come from a set, so they change with PYTHONHASHSEED; tests/world/test_determinism.py catches that.)
LOCALES = (
    "en_US",
    "en_GB",
    "de_DE",
    "fr_FR",
    "es_ES",
    "es_MX",
    "nl_NL",
    "pt_BR",
    "en_IN",
    "pl_PL",
    "sv_SE",
    "en_CA",
)
COUNTRY = {
    "en_US": "US",
    "en_GB": "GB",
    "de_DE": "DE",
    "fr_FR": "FR",
    "es_ES": "ES",
    "es_MX": "MX",
    "nl_NL": "NL",
    "pt_BR": "BR",
    "en_IN": "IN",
    "pl_PL": "PL",
    "sv_SE": "SE",
    "en_CA": "CA",
}
POOLS_FILE = Path(__file__).with_name("pools.json")


@dataclass(frozen=True)
class Person:
    first: str
    last: str
    email_local: str

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


@dataclass(frozen=True)
class Pools:
    """The value pools: tuples, so picking by ``hash % len`` is stable."""

    people: tuple[Person, ...]
    addresses: tuple[tuple[str, str, str, str], ...]  # line1, city, postcode, country
    companies: tuple[str, ...]
    email_domains: tuple[str, ...]
    company_domains: tuple[str, ...]
    phones: tuple[str, ...]
    job_titles: tuple[str, ...]
    personas: dict[str, PersonaParts]


@dataclass(frozen=True)
class PersonaParts:
    """What one locale's personas are made of (each a tuple, so a pick by index is stable)."""

    first: tuple[str, ...]
    last: tuple[str, ...]
    street: tuple[str, ...]
    city: tuple[str, ...]
    postcode: tuple[str, ...]
    region: tuple[str, ...]
    company: tuple[str, ...]
    email_domain: tuple[str, ...]
    phone: tuple[str, ...]


_LOCK = threading.Lock()
_POOLS: list[Pools] = []


def ascii_fold(text: str) -> str:
    """``text`` as the lowercase ASCII letters and digits of an email's local part."""
    text = text.replace("ł", "l").replace("Ł", "L").replace("ß", "ss").replace("ø", "o")
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "".join(c for c in folded.lower() if c.isalnum())


def _load() -> Pools:
    data = json.loads(POOLS_FILE.read_text(encoding="utf-8"))
    return Pools(
        people=tuple(Person(*person) for person in data["people"]),
        addresses=tuple(tuple(address) for address in data["addresses"]),
        companies=tuple(data["companies"]),
        email_domains=tuple(data["email_domains"]),
        company_domains=tuple(data["company_domains"]),
        phones=tuple(data["phones"]),
        job_titles=tuple(data["job_titles"]),
        personas={
            locale: PersonaParts(**{part: tuple(items) for part, items in parts.items()})
            for locale, parts in data["personas"].items()
        },
    )


def pools() -> Pools:
    """The process-wide pools, built on first use (thread-safe)."""
    if not _POOLS:
        with _LOCK:
            if not _POOLS:
                _POOLS.append(_load())
    return _POOLS[0]


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """Every first name the pools hold, lowercase: whether a name searched for is a first name."""
    found = pools()
    return frozenset(
        name.lower()
        for name in (
            *(p.first for p in found.people),
            *(n for parts in found.personas.values() for n in parts.first),
        )
    )


_CALLING_CODES = {
    "US": "1",
    "CA": "1",
    "GB": "44",
    "DE": "49",
    "FR": "33",
    "ES": "34",
    "MX": "52",
    "NL": "31",
    "BR": "55",
    "IN": "91",
    "PL": "48",
    "SE": "46",
}


@dataclass(frozen=True)
class Persona:
    """One person, all of a piece: a name, an email built from it, a phone and a postal address
    of one locale, so the fields of one call (or one passenger) belong to the same person."""

    first: str
    last: str
    email: str
    username: str
    phone: str
    e164: str
    street: str
    city: str
    region: str
    postcode: str
    country: str
    company: str

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


def warm() -> None:
    """Load the pools now, not on a first value: a process that forks workers (the process
    backend's forkserver) does it once for all of them."""
    pools()


@lru_cache(maxsize=4096)
def persona(seed: int) -> Persona:
    """The persona of ``seed`` (a stable hash): one locale's parts, each picked by an RNG
    seeded for this persona alone (never the global ``random``).

    >>> persona(7) == persona(7), persona(7).country in COUNTRY.values()
    (True, True)
    """
    locale = LOCALES[seed % len(LOCALES)]
    country = COUNTRY[locale]
    parts = pools().personas[locale]
    r = random.Random(seed)
    first, last = r.choice(parts.first), r.choice(parts.last)
    phone, street = r.choice(parts.phone), r.choice(parts.street)
    city, postcode, region = r.choice(parts.city), r.choice(parts.postcode), r.choice(parts.region)
    company, domain = r.choice(parts.company), r.choice(parts.email_domain)
    count = 10 if country in ("US", "CA", "IN") else 9
    digits = str(r.randrange(10**count)).zfill(count)
    local = (
        f"{ascii_fold(first)}.{ascii_fold(last)}"
        if seed % 3
        else f"{ascii_fold(first)[:1]}{ascii_fold(last)}"
    )
    return Persona(
        first=first,
        last=last,
        email=f"{local}@{domain}",
        username=f"{ascii_fold(first)[:1]}{ascii_fold(last)}{(seed >> 16) % 100}",
        phone=phone,
        e164=f"+{_CALLING_CODES[country]}{'2' if digits[0] in '01' else ''}{digits[1:] if digits[0] in '01' else digits}",
        street=street,
        city=city,
        region=region,
        postcode=postcode,
        country=country,
        company=company,
    )
