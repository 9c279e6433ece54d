"""Realistic values drawn from a private seeded RNG: people, emails, money, times, text.

Every function takes the RNG :func:`whileai_env._util.hashing.rng` makes (``draw`` here) from the
world's key and the entity, so the same entity always gets the same values. People, addresses
and phones come from the Faker-built pools (:mod:`whileai_env.world.pools`); short domain texts
(ticket subjects, product names, commit messages) are curated here because lorem ipsum does
not look like a real system.
"""

from __future__ import annotations

import math
import random
import time
from functools import lru_cache
from typing import Any

from whileai_env._util.hashing import rng as draw
from whileai_env.world.pools import Person, pools

DAY = 86_400


PRODUCTS = (
    "Linen duvet cover",
    "Stoneware mug set",
    "Oak cutting board",
    "Wool throw blanket",
    "Cast iron skillet",
    "Glass storage jars",
    "Bamboo bath mat",
    "Ceramic table lamp",
    "Cotton tea towels",
    "Copper kettle",
    "Rattan laundry basket",
    "Velvet cushion cover",
    "Enamel dinner plates",
    "Merino bed socks",
    "Walnut serving tray",
    "Beeswax candles",
)
TICKET_SUBJECTS = (
    "Cannot sign in to VPN",
    "Laptop battery drains overnight",
    "Outlook keeps asking for password",
    "Printer on 3rd floor offline",
    "Request access to finance share",
    "MFA codes not arriving",
    "Monitor flickers after update",
    "Shared mailbox missing",
    "Wi-Fi drops in meeting room B",
    "Suspicious email with invoice attachment",
    "New starter needs accounts",
    "Teams calls cut out",
)
EMAIL_SUBJECTS = (
    "Q4 budget review",
    "Re: contract renewal",
    "Invoice 2291 overdue",
    "Team offsite logistics",
    "Follow-up from Tuesday",
    "Draft proposal attached",
    "Re: delivery schedule",
    "Lunch Thursday?",
    "Updated slide deck",
    "Board meeting minutes",
    "Re: pricing question",
    "Travel itinerary",
)
EMAIL_BODIES = (
    "Hi, just following up on the numbers we discussed. Can you confirm by Friday?",
    "Please find the updated draft attached. Changes are highlighted in yellow.",
    "Thanks for the quick turnaround. I have forwarded this to the finance team.",
    "Could we move our call to next week? Something came up on my side.",
    "The shipment left the warehouse this morning; tracking should update tonight.",
    "Reminding everyone that the review closes at 5pm today.",
)
MEETING_TITLES = (
    "Weekly sync",
    "Design review",
    "1:1 with manager",
    "Quarterly planning",
    "Customer call: Acme",
    "Sprint retro",
    "Budget check-in",
    "Interview panel",
    "Vendor demo",
    "All-hands",
)
LOCATIONS = (
    "Room 4.12",
    "Zoom",
    "Google Meet",
    "Main boardroom",
    "Cafe on the corner",
    "Room B (2nd floor)",
    "Client office",
    "Microsoft Teams",
)
NOTES = (
    "Customer called to check on progress.",
    "Waiting on a reply from the warehouse.",
    "Escalated to tier 2 after the second failed attempt.",
    "Confirmed the details by phone.",
    "Refund requested in chat; awaiting approval.",
    "Replacement part ordered.",
)
COMMIT_MESSAGES = (
    "Fix off-by-one in pagination",
    "Add retry to HTTP client",
    "Bump dependencies",
    "Refactor config loading",
    "Handle empty responses in parser",
    "Add tests for date helpers",
    "Remove dead feature flag",
    "Log request ids on failure",
    "Speed up CSV export",
)
MERCHANTS = (
    "Tesco Metro",
    "Amazon Marketplace",
    "Shell Petrol",
    "Uber Trip",
    "Netflix",
    "Pret A Manger",
    "Apple.com/bill",
    "IKEA",
    "Deliveroo",
    "Trainline",
    "Spotify",
    "Costa Coffee",
)
DEPARTMENTS = (
    "Finance",
    "Engineering",
    "Sales",
    "Marketing",
    "Operations",
    "People",
    "Legal",
    "Support",
)
DEVICES = (
    "ThinkPad X1 Carbon",
    "MacBook Pro 14",
    "Dell Latitude 7440",
    "iPhone 15",
    "Pixel 8",
    "Surface Pro 9",
)
CARRIERS = ("UPS", "DHL", "FedEx", "Royal Mail", "DPD", "USPS")
AIRPORTS = (
    "SFO",
    "JFK",
    "LHR",
    "CDG",
    "NRT",
    "SYD",
    "FRA",
    "AMS",
    "YYZ",
    "SIN",
    "DXB",
    "BOS",
    "ORD",
    "SEA",
)
AIRCRAFT = ("A320neo", "A321", "B737-800", "B787-9", "A350-900", "E175")
CARD_BRANDS = ("visa", "mastercard", "amex")
TIERS = ("regular", "silver", "gold")


def person(r: random.Random) -> Person:
    """A person from the pools."""
    people = pools().people
    return people[r.randrange(len(people))]


def email(r: random.Random, who: Person | None = None, *, work: bool = False) -> str:
    """An address for ``who`` (or a new person) at a free-mail or a company domain."""
    p = pools()
    who = who or person(r)
    domains = p.company_domains if work or r.random() < 0.3 else p.email_domains
    return f"{who.email_local}@{domains[r.randrange(len(domains))]}"


def phone(r: random.Random) -> str:
    phones = pools().phones
    return phones[r.randrange(len(phones))]


def holder(seed: int) -> dict[str, str]:
    """The task's person as their own record shows them and as they say it: ``name``,
    ``first_name``, ``last_name``, ``email``, ``phone``, drawn from the shipped pools (no
    Faker: every episode that reads the person's record pays for it).

    >>> holder(7) == holder(7) and set(holder(7)) == {"name", "first_name", "last_name", "email", "phone"}
    True
    """
    r = draw("holder", seed)
    who = person(r)
    return {
        "name": who.name,
        "first_name": who.first,
        "last_name": who.last,
        "email": email(r, who),
        "phone": phone(r),
    }


def company(r: random.Random) -> str:
    companies = pools().companies
    return companies[r.randrange(len(companies))]


def address(r: random.Random) -> dict[str, str]:
    """A postal address: ``line1``, ``city``, ``postcode``, ``country`` (ISO code)."""
    line1, city, postcode, country = pools().addresses[r.randrange(len(pools().addresses))]
    return {"line1": line1, "city": city, "postcode": postcode, "country": country}


def money(r: random.Random, low: float, high: float) -> float:
    """An amount in ``[low, high]``, log-uniform, ending like real prices (.99, .00, .50 …)."""
    value = math.exp(r.uniform(math.log(low), math.log(high)))
    whole = max(int(value), math.floor(low))
    cents = r.choice((99, 0, 50, 95, 49, r.randrange(100)))
    return round(min(max(whole + cents / 100, low), high), 2)


def iso(epoch: float) -> str:
    """Seconds since the epoch as ``YYYY-MM-DDTHH:MM:SSZ``.

    >>> iso(1796040000)
    '2026-11-30T12:00:00Z'
    """
    days, seconds = divmod(int(epoch), DAY)
    hours, rest = divmod(seconds, 3600)
    return f"{_date(days)}T{hours:02d}:{rest // 60:02d}:{rest % 60:02d}Z"


def day(epoch: float) -> str:
    """Seconds since the epoch as ``YYYY-MM-DD``."""
    return _date(int(epoch) // DAY)


@lru_cache(maxsize=8192)
def _date(days: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(days * DAY))


def past(r: random.Random, now: float, low_s: float, high_s: float) -> int:
    """A time between ``high_s`` and ``low_s`` seconds before ``now``, on a whole minute."""
    t = int(now - r.uniform(low_s, high_s))
    return t - t % 60


def future(r: random.Random, now: float, low_s: float, high_s: float) -> int:
    """A time between ``low_s`` and ``high_s`` seconds after ``now``, on a quarter hour."""
    t = int(now + r.uniform(low_s, high_s))
    return t - t % 900


def birth_date(r: random.Random) -> str:
    return f"{r.randint(1948, 2004)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def choice(r: random.Random, options: tuple[Any, ...] | list[Any]) -> Any:
    return options[r.randrange(len(options))]
