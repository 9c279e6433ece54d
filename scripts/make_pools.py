"""Write the value pools the package ships (``whileai_env/world/pools.json``) from Faker.

The pools (people, addresses, companies, phones, job titles of twelve locales) are Faker's
output for fixed seeds. Made at every start they cost about 0.15 s of CPU in each process (the
CLI's start-up, each Gymnasium sub-env, each worker) and changed with every Faker release that
touched its locale data, and so did the rows; shipped, they load in milliseconds and stay the
same whatever Faker a user has. Run this only to change what the pools hold; the file records
the Faker version that made it, and ``tests/world/test_pools.py`` checks the file against this
script whenever that version is the one installed.

    .venv/bin/python scripts/make_pools.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from whileai_env._util.hashing import stable_hash  # noqa: E402
from whileai_env.world import pools as p  # noqa: E402

# The providers the pools call (a company's or a street's format can name a person's field,
# hence person): Faker builds the 26 of its default list otherwise, looking up each one's locale
# modules, which is half of making a locale's Faker.
PROVIDERS = [
    f"faker.providers.{name}"
    for name in ("address", "company", "internet", "job", "person", "phone_number")
]
PEOPLE_PER_LOCALE = 40
ADDRESSES_PER_LOCALE = 16
# Parts a persona is put together from (each locale's): first x last names give 9,600 names a
# locale; Faker draws each part independently too (its city does not follow its postcode).
PERSONA_PARTS = {
    "first": ("first_name", 120),
    "last": ("last_name", 80),
    "street": ("street_address", 48),
    "city": ("city", 48),
    "postcode": ("postcode", 48),
    "region": ("administrative_unit", 48),
    "company": ("company", 32),
    "email_domain": ("free_email_domain", 48),
    "phone": ("phone_number", 48),
}


def persona_parts(fake: Any) -> dict[str, list[str]]:
    """One locale's persona parts: up to the count of each, distinct, in Faker's order."""
    parts: dict[str, list[str]] = {}
    for part, (method, count) in PERSONA_PARTS.items():
        found: dict[str, None] = {}
        for _ in range(count * 4):
            found[getattr(fake, method)().replace("\n", ", ")] = None
            if len(found) == count:
                break
        parts[part] = list(found)
    return parts


def build() -> dict[str, Any]:
    """The pools as ``pools.json`` holds them, made by the installed Faker."""
    import faker

    people: list[list[str]] = []
    addresses: list[list[str]] = []
    companies: list[str] = []
    email_domains: set[str] = set()
    company_domains: list[str] = []
    phones: list[str] = []
    jobs: list[str] = []
    personas: dict[str, dict[str, list[str]]] = {}
    for locale in p.LOCALES:
        fake: Any = faker.Faker(locale, providers=PROVIDERS)
        fake.seed_instance(stable_hash("pools", locale) % 2**32)
        for i in range(PEOPLE_PER_LOCALE):
            first, last = fake.first_name(), fake.last_name()
            local = (
                f"{p.ascii_fold(first)}.{p.ascii_fold(last)}"
                if i % 3
                else f"{p.ascii_fold(first)[:1]}{p.ascii_fold(last)}"
            )
            if len(local) > 2:
                people.append([first, last, local])
        for _ in range(ADDRESSES_PER_LOCALE):
            line1 = fake.street_address().replace("\n", ", ")
            addresses.append([line1, fake.city(), fake.postcode(), p.COUNTRY[locale]])
        companies.extend(fake.company() for _ in range(6))
        email_domains.update(fake.free_email_domain() for _ in range(6))
        company_domains.extend(fake.domain_name() for _ in range(4))
        phones.extend(fake.phone_number() for _ in range(10))
        if locale.startswith("en"):
            jobs.extend(fake.job() for _ in range(10))
        personas[locale] = persona_parts(fake)
    return {
        "faker": faker.VERSION,
        "locales": list(p.LOCALES),
        "people": people,
        "addresses": addresses,
        "companies": list(dict.fromkeys(companies)),
        "email_domains": sorted(email_domains),
        "company_domains": list(dict.fromkeys(company_domains)),
        "phones": phones,
        "job_titles": list(dict.fromkeys(jobs)),
        "personas": personas,
    }


def render(pools: dict[str, Any]) -> str:
    """``pools`` as JSON with one entry a line, so a change to the pools reads as a diff."""
    fields = []
    for key, value in pools.items():
        if isinstance(value, list):
            items = ",\n  ".join(json.dumps(v, ensure_ascii=False) for v in value)
            fields.append(f"{json.dumps(key)}: [\n  {items}\n]")
        elif isinstance(value, dict):  # personas: a locale's part a line
            locales = ",\n  ".join(
                f"{json.dumps(locale)}: {{\n"
                + ",\n".join(
                    f"   {json.dumps(part)}: {json.dumps(items, ensure_ascii=False)}"
                    for part, items in parts.items()
                )
                + "\n  }"
                for locale, parts in value.items()
            )
            fields.append(f"{json.dumps(key)}: {{\n  {locales}\n}}")
        else:
            fields.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    made = render(build())
    if args.check:
        same = p.POOLS_FILE.read_text(encoding="utf-8") == made
        print("pools.json is what this Faker makes" if same else "pools.json differs")
        raise SystemExit(0 if same else 1)
    p.POOLS_FILE.write_text(made, encoding="utf-8")
    print(f"wrote {p.POOLS_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
