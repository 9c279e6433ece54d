"""The value pools and personas: Faker's output for the providers they use, the same in a process
warmed ahead (as the workers' forkserver is) as in one that builds them on a first value."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from faker import Faker

from whileai_env.world import pools as p

ROOT = Path(__file__).resolve().parents[2]


def test_the_providers_kept_give_what_fakers_default_providers_give():
    # the pools and personas build Faker with six providers, not its 26: the same values only
    # while no provider left out overrides a method they call
    for locale in p.LOCALES:
        full, kept = Faker(locale), Faker(locale, providers=p._PROVIDERS)
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
