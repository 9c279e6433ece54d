"""The value pools and personas: the shipped pools are what ``scripts/make_pools.py`` makes, load
without Faker, and hold what values are made of; personas are put together from the shipped
parts, the same in a process warmed ahead (as the workers' forkserver is) as in one that loads
the pools on a first value."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from faker import Faker

from whileai_env.world import pools as p

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import make_pools  # noqa: E402


def test_the_shipped_pools_are_what_the_script_makes_with_the_faker_that_made_them():
    import faker

    shipped = json.loads(p.POOLS_FILE.read_text(encoding="utf-8"))
    assert shipped["locales"] == list(p.LOCALES)
    made = make_pools.build()
    if shipped["faker"] == faker.VERSION:
        assert made == shipped
        assert make_pools.render(made) == p.POOLS_FILE.read_text(encoding="utf-8")
    else:  # another Faker makes other names; the shipped pools, not Faker's, are the package's
        assert made["faker"] == faker.VERSION and set(made) == set(shipped)


def test_the_pools_load_without_importing_faker():
    code = (
        "import sys\n"
        "from whileai_env.world import pools as p\n"
        "pools = p.pools()\n"
        "print(len(pools.people), len(pools.addresses), 'faker' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    people, addresses, faker_loaded = done.stdout.split()
    assert int(people) >= 400 and int(addresses) == 16 * len(p.LOCALES)
    assert faker_loaded == "False"


def test_the_pools_hold_what_values_are_made_of():
    pools = p.pools()
    for person in pools.people:
        assert person.first and person.last
        assert len(person.email_local) > 2 and person.email_local.isascii()
        assert person.email_local == "".join(
            c for c in person.email_local if c.isalnum() or c == "."
        )
    assert {country for *_, country in pools.addresses} == set(p.COUNTRY.values())
    for pool in (pools.companies, pools.email_domains, pools.company_domains, pools.phones):
        assert pool and all(isinstance(v, str) and v for v in pool)
    assert len(set(pools.companies)) == len(pools.companies)


def test_the_providers_kept_give_what_fakers_default_providers_give():
    # the pools and personas build Faker with six providers, not its 26: the same values only
    # while no provider left out overrides a method they call
    for locale in p.LOCALES:
        full, kept = Faker(locale), Faker(locale, providers=make_pools.PROVIDERS)
        for seed in (1, 7, 2**31 - 5):
            full.seed_instance(seed)
            kept.seed_instance(seed)
            calls = (
                "first_name",
                "last_name",
                "street_address",
                "city",
                "postcode",
                "administrative_unit",
                "company",
                "free_email_domain",
                "domain_name",
                "phone_number",
                "job",
                "random_digit",
            )
            assert [getattr(full, c)() for c in calls] == [getattr(kept, c)() for c in calls]


def test_a_persona_is_the_same_whether_or_not_the_process_was_warmed():
    code = (
        "import sys\n"
        "from whileai_env.world import pools as p\n"
        "if sys.argv[1] == 'warm':\n"
        "    p.warm()\n"
        "print([p.persona(s) for s in (3, 40, 2**40 + 9)], len(p.pools().people))\n"
    )
    outs = [
        subprocess.run(
            [sys.executable, "-c", code, how], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        for how in ("cold", "warm")
    ]
    assert outs[0] == outs[1] and "Persona(" in outs[0]
