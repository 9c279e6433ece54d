"""Pools of realistic values (people, addresses, companies, phones), and one persona per seed.

The pools are Faker's output for fixed seeds, made once by ``scripts/make_pools.py`` and shipped
as ``pools.json`` beside this module: loaded the first time a world needs a value (a few
milliseconds, where making them took about 0.15 s of CPU in every process), the same whatever
Faker a user has installed. Every value is *picked* from a pool by hash, never generated per
call. A persona (:func:`persona`: a name, an email, a phone and an address that belong
together) is made by Faker, seeded for that persona alone; its locale's Faker is built on the
first persona of that locale.
"""

from __future__ import annotations

import json
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
# The providers the pools and personas call (a company's or a street's format can name a
# person's field, hence person): Faker builds the 26 of its default list otherwise, looking up
# each one's locale modules, which is half of making a locale's Faker.
PROVIDERS = [
    f"faker.providers.{name}"
    for name in ("address", "company", "internet", "job", "person", "phone_number")
]
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
    )


def pools() -> Pools:
    """The process-wide pools, built on first use (thread-safe)."""
    if not _POOLS:
        with _LOCK:
            if not _POOLS:
                _POOLS.append(_load())
    return _POOLS[0]


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
_FAKERS: dict[str, object] = {}


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


def _faker(locale: str) -> object:
    from faker import Faker

    found = _FAKERS.get(locale)
    if found is None:
        found = _FAKERS[locale] = Faker(locale, providers=PROVIDERS)
    return found


def warm() -> None:
    """Load the pools and build every locale's Faker now, not on a first value: a process that
    forks workers (the process backend's forkserver) does it once for all of them."""
    pools()
    with _LOCK:
        for locale in LOCALES:
            _faker(locale)


@lru_cache(maxsize=4096)
def persona(seed: int) -> Persona:
    """The persona of ``seed`` (a stable hash): Faker seeded for this persona alone, under a
    lock (a Faker instance holds its RNG), never the global ``random``."""
    locale = LOCALES[seed % len(LOCALES)]
    country = COUNTRY[locale]
    with _LOCK:
        fake = _faker(locale)
        fake.seed_instance(seed % 2**32)  # type: ignore[attr-defined]
        first, last = fake.first_name(), fake.last_name()  # type: ignore[attr-defined]
        phone = fake.phone_number()  # type: ignore[attr-defined]
        street = fake.street_address().replace("\n", ", ")  # type: ignore[attr-defined]
        city, postcode = fake.city(), fake.postcode()  # type: ignore[attr-defined]
        region = fake.administrative_unit()  # type: ignore[attr-defined]
        company = fake.company()  # type: ignore[attr-defined]
        domain = fake.free_email_domain()  # type: ignore[attr-defined]
        count = 10 if country in ("US", "CA", "IN") else 9
        digits = "".join(str(fake.random_digit()) for _ in range(count))  # type: ignore[attr-defined]
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
