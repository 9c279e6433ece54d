"""What an entity looks like: plausible fields for its noun, drawn from a seeded RNG.

An order has items, a total and a customer; a reservation has flights, cabin and passengers; a
ticket has a subject, priority and assignee … Unknown nouns get a generic record. A record's
lifecycle field is ``<noun>_status`` (``order_status``), because ``status`` at the top level of
a result is the call's own ``"ok"``/``"error"``. Fields the spec's descriptions mention ("date of
birth", "saved payment methods", "account lock state") are added to the nouns they describe.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from whileai_env.world import phrases as ph
from whileai_env.world import values as v
from whileai_env.world.naming import slug, status_field

Record = dict[str, Any]
DAY = v.DAY


@dataclass
class RecordContext:
    """What a template needs from its world: clock, currency, spec vocabulary, id maker."""

    now: int
    currency: str
    amount_range: tuple[float, float]
    statuses: Mapping[str, tuple[str, ...]]
    enums: Mapping[str, tuple[Any, ...]]
    extras: Mapping[str, tuple[str, ...]]
    related: Mapping[str, tuple[str, ...]]
    id_for: Callable[[str, random.Random], Any]
    #: nouns the spec uses in another of their senses: noun -> the template to use (``card`` on
    #: a board -> ``task``), from :func:`senses_of`
    senses: Mapping[str, str] = field(default_factory=dict)
    _extra_plan: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, repr=False)

    def extras_to_add(self, noun: str, record: Mapping[str, Any]) -> tuple[str, ...]:
        """The extra fields ``noun``'s records get (those the template does not already have)."""
        found = self._extra_plan.get(noun)
        if found is None:
            wanted = []
            for name in self.extras.get(noun, ()):
                base = name[:-1] if name.endswith("s") else name
                if not any(k in (name, base) or k.endswith("_" + name) for k in record):
                    wanted.append(name)
            found = self._extra_plan[noun] = tuple(wanted)
        return found

    def money(self, r: random.Random, low: float | None = None, high: float | None = None) -> float:
        lo, hi = self.amount_range
        a = lo if low is None else min(max(low, lo), hi)
        b = hi if high is None else max(min(high, hi), a)
        return v.money(r, a, b)

    def status(self, noun: str, r: random.Random, default: Sequence[str]) -> str:
        pool = self.statuses.get(noun) or tuple(default)
        return v.choice(r, pool)

    def enum(self, name: str, r: random.Random, default: Sequence[Any]) -> Any:
        pool = self.enums.get(name) or tuple(default)
        return v.choice(r, pool)


def _order(c: RecordContext, noun: str, r: random.Random) -> Record:
    who = v.person(r)
    items = []
    for _ in range(r.randint(1, 3)):
        items.append(
            {
                "sku": c.id_for("product", r),
                "name": v.choice(r, v.PRODUCTS),
                "quantity": r.randint(1, 3),
                "unit_price": c.money(r, 6, 240),
            }
        )
    total = round(math.fsum(i["quantity"] * i["unit_price"] for i in items), 2)
    status = c.status(noun, r, ("processing", "shipped", "delivered", "cancelled"))
    record: Record = {
        status_field(noun): status,
        "created_at": v.iso(v.past(r, c.now, 3600, 45 * DAY)),
        "customer_name": who.name,
        "customer_email": v.email(r, who),
        "items": items,
        "total": total,
        "currency": c.currency,
        "payment": {
            "method": "card",
            "brand": v.choice(r, v.CARD_BRANDS),
            "last4": f"{r.randrange(10000):04d}",
        },
        "shipping_address": v.address(r),
    }
    if status in ("shipped", "delivered"):
        record["tracking_number"] = f"1Z{r.getrandbits(40):010X}"
    return record


def _flights(c: RecordContext, r: random.Random, legs: int, start: int) -> list[Record]:
    out = []
    origin = v.choice(r, v.AIRPORTS)
    for i in range(legs):
        destination = v.choice(r, [a for a in v.AIRPORTS if a != origin])
        when = start + i * 6 * 3600
        out.append(
            {
                "flight_number": c.id_for("flight", r),
                "origin": origin,
                "destination": destination,
                "date": v.day(when),
                "departure_time": v.iso(when)[11:16],
            }
        )
        origin = destination
    return out


def _reservation(c: RecordContext, noun: str, r: random.Random) -> Record:
    start = (
        v.future(r, c.now, 2 * DAY, 90 * DAY)
        if r.random() < 0.8
        else v.past(r, c.now, DAY, 20 * DAY)
    )
    count = r.randint(1, 3)
    passengers = []
    for _ in range(count):
        p = v.person(r)
        passengers.append(
            {"first_name": p.first, "last_name": p.last, "date_of_birth": v.birth_date(r)}
        )
    record: Record = {
        status_field(noun): c.status(noun, r, ("confirmed", "confirmed", "ticketed", "cancelled")),
        "created_at": v.iso(v.past(r, c.now, 3600, 60 * DAY)),
        "cabin": c.enum("cabin", r, ("economy", "economy", "business")),
        "flights": _flights(c, r, r.choice((1, 1, 2)), start),
        "passengers": passengers,
        "checked_bags": r.randint(0, count * 2),
        "total": round(c.money(r, 89, 1400) * count, 2),
        "currency": c.currency,
        "travel_insurance": r.random() < 0.3,
    }
    return record


def _flight(c: RecordContext, noun: str, r: random.Random) -> Record:
    origin = v.choice(r, v.AIRPORTS)
    depart = v.future(r, c.now, 3 * 3600, 30 * DAY)
    duration = r.randint(70, 720) * 60
    status = c.status(
        noun, r, ("on_time", "on_time", "on_time", "delayed", "cancelled", "departed", "landed")
    )
    cabins = c.enums.get("cabin") or ("economy", "business")
    return {
        "origin": origin,
        "destination": v.choice(r, [a for a in v.AIRPORTS if a != origin]),
        "date": v.day(depart),
        "departure_time": v.iso(depart)[11:16],
        "arrival_time": v.iso(depart + duration)[11:16],
        "aircraft": v.choice(r, v.AIRCRAFT),
        status_field(noun): status,
        "delay_minutes": r.randint(20, 300) if status == "delayed" else 0,
        "seats_available": {str(cab): r.randint(0, 30) for cab in cabins},
        "fares": {
            str(cab): c.money(r, 79 * (i + 1), 900 * (i + 1)) for i, cab in enumerate(cabins)
        },
        "currency": c.currency,
    }


def _ticket(c: RecordContext, noun: str, r: random.Random) -> Record:
    who = v.person(r)
    created = v.past(r, c.now, 1800, 20 * DAY)
    return {
        "subject": v.choice(r, v.TICKET_SUBJECTS),
        status_field(noun): c.status(noun, r, ("new", "open", "pending", "resolved", "closed")),
        "priority": c.enum("priority", r, ("low", "normal", "high", "urgent")),
        "requester_name": who.name,
        "requester_email": v.email(r, who, work=True),
        "assignee": v.person(r).name if r.random() < 0.7 else None,
        "created_at": v.iso(created),
        "updated_at": v.iso(v.past(r, c.now, 60, max(120, c.now - created))),
        "comments": [
            {
                "author": v.person(r).name,
                "body": v.choice(r, v.NOTES),
                "created_at": v.iso(v.past(r, c.now, 60, 5 * DAY)),
            }
            for _ in range(r.randint(0, 2))
        ],
    }


def _event(c: RecordContext, noun: str, r: random.Random) -> Record:
    start = v.future(r, c.now, -3 * DAY, 21 * DAY)
    return {
        "title": v.choice(r, v.MEETING_TITLES),
        status_field(noun): c.status(noun, r, ("confirmed", "confirmed", "tentative", "cancelled")),
        "start_time": v.iso(start),
        "end_time": v.iso(start + r.choice((15, 30, 45, 60, 90)) * 60),
        "location": v.choice(r, v.LOCATIONS),
        "organizer": v.email(r, work=True),
        "attendees": [v.email(r, work=True) for _ in range(r.randint(1, 4))],
        "private": r.random() < 0.2,
        "notes": v.choice(r, v.NOTES) if r.random() < 0.5 else "",
    }


def _message(c: RecordContext, noun: str, r: random.Random) -> Record:
    sender = v.person(r)
    return {
        "from": v.email(r, sender),
        "from_name": sender.name,
        "to": [v.email(r) for _ in range(r.randint(1, 2))],
        "subject": v.choice(r, v.EMAIL_SUBJECTS),
        "body": v.choice(r, v.EMAIL_BODIES),
        "sent_at": v.iso(v.past(r, c.now, 600, 30 * DAY)),
        "folder": c.enum("folder", r, ("inbox",)),
        "attachments": ["proposal.pdf"] if r.random() < 0.25 else [],
    }


def _person(c: RecordContext, noun: str, r: random.Random) -> Record:
    who = v.person(r)
    return {
        "name": who.name,
        "email": v.email(r, who),
        "phone": v.phone(r),
        status_field(noun): c.status(noun, r, ("active", "active", "active", "suspended")),
        "created_at": v.iso(v.past(r, c.now, 30 * DAY, 1500 * DAY)),
    }


def _account(c: RecordContext, noun: str, r: random.Random) -> Record:
    balance = c.money(r, 20, 9000)
    return {
        "account_type": v.choice(r, ("current", "savings", "current")),
        "holder_name": v.person(r).name,
        status_field(noun): c.status(noun, r, ("active", "active", "frozen", "closed")),
        "currency": c.currency,
        "balance": balance,
        "available_balance": round(balance - c.money(r, 5, 200) * (r.random() < 0.4), 2),
        "opened_at": v.iso(v.past(r, c.now, 60 * DAY, 3000 * DAY)),
    }


def _card(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "brand": v.choice(r, v.CARD_BRANDS),
        "last4": f"{r.randrange(10000):04d}",
        "expiry": f"{r.randint(1, 12):02d}/{r.randint(27, 31)}",
        status_field(noun): c.status(noun, r, ("active", "active", "frozen")),
        "holder_name": v.person(r).name,
    }


def _transaction(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "amount": -c.money(r, 2, 600),
        "currency": c.currency,
        "merchant": v.choice(r, v.MERCHANTS),
        "posted_at": v.iso(v.past(r, c.now, 3600, 40 * DAY)),
        status_field(noun): c.status(noun, r, ("posted", "posted", "pending")),
        "type": v.choice(r, ("card_payment", "card_payment", "direct_debit", "transfer")),
    }


def _invoice(c: RecordContext, noun: str, r: random.Random) -> Record:
    lines = [
        {
            "description": v.choice(r, v.PRODUCTS),
            "quantity": r.randint(1, 5),
            "unit_price": c.money(r, 10, 400),
        }
        for _ in range(r.randint(1, 4))
    ]
    total = round(math.fsum(x["quantity"] * x["unit_price"] for x in lines), 2)
    status = c.status(noun, r, ("draft", "open", "open", "paid", "void"))
    issued = v.past(r, c.now, DAY, 90 * DAY)
    return {
        status_field(noun): status,
        "customer_name": v.company(r),
        "currency": c.currency,
        "lines": lines,
        "total": total,
        "issued_at": v.iso(issued),
        "due_date": v.day(issued + 30 * DAY),
        "payments": [{"payment_id": c.id_for("payment", r), "amount": total}]
        if status == "paid"
        else [],
    }


def _payment(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "amount": c.money(r),
        "currency": c.currency,
        status_field(noun): c.status(noun, r, ("succeeded", "succeeded", "pending", "failed")),
        "method": v.choice(r, ("card", "bank_transfer", "paypal")),
        "created_at": v.iso(v.past(r, c.now, 3600, 60 * DAY)),
    }


def _payment_method(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "type": "credit_card",
        "brand": v.choice(r, v.CARD_BRANDS),
        "last4": f"{r.randrange(10000):04d}",
        "expiry": f"{r.randint(1, 12):02d}/{r.randint(27, 31)}",
    }


def _product(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "name": v.choice(r, v.PRODUCTS),
        "price": c.money(r, 4.99, 400),
        "currency": c.currency,
        "stock": r.choice((0, r.randint(1, 12), r.randint(10, 400))),
        "category": v.choice(r, ("home", "kitchen", "bedding", "decor")),
    }


def _subscription(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "plan": v.choice(r, ("basic", "standard", "premium")),
        status_field(noun): c.status(noun, r, ("active", "active", "past_due", "cancelled")),
        "price": c.money(r, 4.99, 99),
        "currency": c.currency,
        "renews_at": v.iso(v.future(r, c.now, DAY, 30 * DAY)),
    }


def _shipment(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "carrier": v.choice(r, v.CARRIERS),
        "tracking_number": f"1Z{r.getrandbits(40):010X}",
        status_field(noun): c.status(
            noun, r, ("label_created", "in_transit", "out_for_delivery", "delivered")
        ),
        "service": c.enum("service", r, ("standard", "express")),
        "estimated_delivery": v.day(v.future(r, c.now, DAY, 7 * DAY)),
        "destination": v.address(r),
    }


def _certificate(c: RecordContext, noun: str, r: random.Random) -> Record:
    issued = v.past(r, c.now, DAY, 200 * DAY)
    return {
        "amount": c.money(r, 25, 400),
        "currency": c.currency,
        status_field(noun): c.status(noun, r, ("active", "active", "redeemed")),
        "issued_at": v.iso(issued),
        "expires_at": v.iso(issued + 365 * DAY),
    }


def _task(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "title": v.choice(r, v.TICKET_SUBJECTS),
        status_field(noun): c.status(noun, r, ("todo", "in_progress", "done")),
        "assignee": v.person(r).name,
        "due_date": v.day(v.future(r, c.now, DAY, 20 * DAY)),
        "priority": c.enum("priority", r, ("low", "medium", "high")),
    }


def _work_item(c: RecordContext, noun: str, r: random.Random) -> Record:
    """An issue in a software tracker (Jira, GitHub, GitLab, Linear): a bug or a piece of work,
    reported by one engineer and worked on by another, not a customer's support ticket."""
    created = v.past(r, c.now, 3600, 60 * DAY)
    return {
        "title": v.choice(r, ph.ISSUE_TITLES),
        status_field(noun): c.status(
            noun, r, ("open", "open", "in_progress", "in_review", "closed")
        ),
        "priority": c.enum("priority", r, ("low", "medium", "high")),
        "assignee": v.person(r).name if r.random() < 0.7 else None,
        "reporter": v.person(r).name,
        "labels": r.sample(
            ("bug", "backend", "frontend", "regression", "tech-debt"), r.randint(0, 2)
        ),
        "created_at": v.iso(created),
        "updated_at": v.iso(v.past(r, c.now, 60, max(120, c.now - created))),
    }


def _outage(c: RecordContext, noun: str, r: random.Random) -> Record:
    """An on-call incident (PagerDuty, Opsgenie): a service's alert that pages a responder,
    acknowledged and resolved by engineers, not a customer's complaint."""
    created = v.past(r, c.now, 600, 7 * DAY)
    statuses = ("triggered", "acknowledged", "acknowledged", "resolved")
    return {
        "title": v.choice(r, ph.OUTAGE_TITLES),
        status_field(noun): c.status(noun, r, statuses),
        "urgency": c.enum("urgency", r, ("high", "low")),
        "service": f"{v.choice(r, ph.THING_WORDS)}-{v.choice(r, ph.THING_SUFFIXES)}",
        "assignee": v.person(r).name if r.random() < 0.8 else None,
        "created_at": v.iso(created),
        "updated_at": v.iso(v.past(r, c.now, 60, max(120, c.now - created))),
    }


def _document(c: RecordContext, noun: str, r: random.Random) -> Record:
    return {
        "title": v.choice(r, v.EMAIL_SUBJECTS),
        "owner": v.person(r).name,
        "updated_at": v.iso(v.past(r, c.now, 600, 90 * DAY)),
        "content": v.choice(r, v.EMAIL_BODIES),
    }


def _comment(c: RecordContext, noun: str, r: random.Random) -> Record:
    """A comment or reply on another record: its text and who wrote it, when (a generic record's
    name and owner left a comment with no text, and its ``comments`` list took the body a new
    one was made with, on a trial Linear spec)."""
    return {
        "body": v.choice(r, ph.COMMENTS),
        "author": v.person(r).name,
        "created_at": v.iso(v.past(r, c.now, 600, 30 * DAY)),
    }


def _generic(c: RecordContext, noun: str, r: random.Random) -> Record:
    created = v.past(r, c.now, 3600, 120 * DAY)
    return {
        "name": f"{noun.title()} {r.randint(100, 999)}",
        status_field(noun): c.status(noun, r, ("active", "active", "pending", "archived")),
        "owner": v.person(r).name,
        "created_at": v.iso(created),
        "updated_at": v.iso(v.past(r, c.now, 60, max(120, c.now - created))),
    }


Template = Callable[[RecordContext, str, random.Random], Record]
_TEMPLATES: dict[str, Template] = {
    "order": _order,
    "purchase": _order,
    "cart": _order,
    "reservation": _reservation,
    "booking": _reservation,
    "trip": _reservation,
    "itinerary": _reservation,
    "flight": _flight,
    "ticket": _ticket,
    "case": _ticket,
    "incident": _ticket,
    "issue": _ticket,
    "request": _ticket,
    "event": _event,
    "meeting": _event,
    "appointment": _event,
    "message": _message,
    "email": _message,
    "thread": _message,
    "mail": _message,
    "draft": _message,
    "customer": _person,
    "user": _person,
    "member": _person,
    "profile": _person,
    "contact": _person,
    "employee": _person,
    "passenger": _person,
    "patient": _person,
    "requester": _person,
    "assignee": _person,
    "client": _person,
    "person": _person,
    "operator": _person,
    "traveller": _person,
    "account": _account,
    "card": _card,
    "transaction": _transaction,
    "invoice": _invoice,
    "bill": _invoice,
    "payment": _payment,
    "refund": _payment,
    "charge": _payment,
    "transfer": _payment,
    "dispute": _payment,
    "payment method": _payment_method,
    "method": _payment_method,
    "product": _product,
    "item": _product,
    "sku": _product,
    "subscription": _subscription,
    "plan": _subscription,
    "membership": _subscription,
    "shipment": _shipment,
    "delivery": _shipment,
    "package": _shipment,
    "parcel": _shipment,
    "certificate": _certificate,
    "credit": _certificate,
    "voucher": _certificate,
    "coupon": _certificate,
    "task": _task,
    "todo": _task,
    "document": _document,
    "work item": _work_item,
    "outage": _outage,
    "note": _document,
    "page": _document,
    "article": _document,
    "report": _document,
    "comment": _comment,
    "reply": _comment,
}
OWNED_NOUNS = frozenset(
    {
        "reservation",
        "order",
        "ticket",
        "account",
        "card",
        "subscription",
        "invoice",
        "booking",
        "case",
        "policy",
        "claim",
        "loan",
        "device",
        "certificate",
    }
)


# Nouns with a second common sense, the words that show a spec means it, and the words that
# show it means the first after all: a "card" on a board or in a list (Trello, any kanban
# tool) is a task to do, not a payment card.
_SENSES: dict[str, tuple[re.Pattern[str], re.Pattern[str], str]] = {
    "card": (
        re.compile(
            r"\b(boards?|columns?|lanes?|swimlanes?|kanban|checklists?|sprints?|backlog|list ids?"
            r"|to a list|in a list|the list it|another list)\b"
        ),
        re.compile(
            r"\b(credit|debit|payments?|bank\w*|pin|cvv|cvc|expir\w*|charges?|wallet|balance"
            r"|transactions?|cardholder|spend\w*|frozen|freeze|lost|stolen|issuer|brand)\b"
        ),
        "task",
    ),
    # a tracker's issue (Jira, GitHub, GitLab) is a piece of work, not a customer's complaint
    "issue": (
        re.compile(
            r"\b(jira|jql|sprints?|epics?|backlog|repo\w*|pull requests?|merge requests?|commits?"
            r"|branch\w*|labels?|milestones?|transitions?|projects?|cycles?)\b"
        ),
        re.compile(r"\b(customers?|requesters?|help ?desk|support tickets?|zendesk|freshdesk)\b"),
        "work item",
    ),
    # an on-call incident (PagerDuty, Opsgenie) pages an engineer; no customer asked it
    "incident": (
        re.compile(
            r"\b(on-?calls?|pagerduty|opsgenie|escalation polic\w*|urgenc\w*|alerts?|outages?"
            r"|paging|responders?|acknowledg\w*|severity|postmortems?)\b"
        ),
        re.compile(r"\b(customers?|requesters?|help ?desk|support tickets?|zendesk|freshdesk)\b"),
        "outage",
    ),
    # a booking of a meeting or a call (Cal.com, Calendly) is no airline reservation
    "reservation": (
        re.compile(
            r"\b(event types?|attendees?|meetings?|calendars?|appointments?|hosts?|slots?)\b"
        ),
        re.compile(
            r"\b(flights?|airlines?|passengers?|cabins?|seats?|baggage|bags|fares?|pnr|hotels?"
            r"|rooms?|itinerar\w*|cars?|rentals?)\b"
        ),
        "event",
    ),
}


def senses_of(texts: Mapping[str, str]) -> dict[str, str]:
    """The nouns a spec uses in their second sense, each with the template it takes there: where
    the words of that sense outnumber the words of the first (one "customer needs" flag among
    Linear's labels, projects, cycles and milestones leaves its issues pieces of work).

    ``texts`` maps a noun to what the spec says about it (descriptions, argument names)."""
    out: dict[str, str] = {}
    for noun, (other, first, template) in _SENSES.items():
        text = texts.get(noun, "").lower()
        if len(other.findall(text)) > len(first.findall(text)):
            out[noun] = template
    return out


def template_for(noun: str) -> Template:
    """The template of ``noun``: the whole noun, else its last word, else its first, else generic."""
    words = noun.split()
    for candidate in (noun, words[-1] if words else "", words[0] if words else ""):
        if candidate in _TEMPLATES:
            return _TEMPLATES[candidate]
    return _generic


def has_template(noun: str) -> bool:
    """Whether ``noun`` has its own template (not the generic one)."""
    return template_for(noun) is not _generic


def is_person(noun: str) -> bool:
    return template_for(noun) is _person


# Fields the spec's descriptions mention, added to the nouns they describe.
_EXTRAS: tuple[tuple[re.Pattern[str], str, Callable[[RecordContext, random.Random], Any]], ...] = (
    tuple(
        (re.compile(pattern), name, fn)
        for pattern, name, fn in (
            (r"date of birth|\bdob\b|birth ?date", "date_of_birth", lambda c, r: v.birth_date(r)),
            (r"membership|\btier\b", "membership_tier", lambda c, r: c.enum("tier", r, v.TIERS)),
            (
                r"payment method",
                "payment_methods",
                lambda c, r: [
                    {"id": c.id_for("payment method", r), **_payment_method(c, "payment method", r)}
                    for _ in range(r.randint(1, 3))
                ],
            ),
            (r"department", "department", lambda c, r: v.choice(r, v.DEPARTMENTS)),
            (r"\bmanager\b", "manager", lambda c, r: v.person(r).name),
            (
                r"\bdevices?\b",
                "devices",
                lambda c, r: [v.choice(r, v.DEVICES) for _ in range(r.randint(1, 2))],
            ),
            (r"\block", "locked", lambda c, r: r.random() < 0.35),
            (r"\bphone\b", "phone", lambda c, r: v.phone(r)),
            (r"\baddress\b", "address", lambda c, r: v.address(r)),
            (
                r"attendees",
                "attendees",
                lambda c, r: [v.email(r, work=True) for _ in range(r.randint(1, 4))],
            ),
            (r"\blocation\b", "location", lambda c, r: v.choice(r, v.LOCATIONS)),
            (
                r"\bpriority\b",
                "priority",
                lambda c, r: c.enum("priority", r, ("low", "normal", "high")),
            ),
            (r"assignee", "assignee", lambda c, r: v.person(r).name),
            (
                r"comment",
                "comments",
                lambda c, r: [{"author": v.person(r).name, "body": v.choice(r, v.NOTES)}],
            ),
            (r"\bnotes?\b", "notes", lambda c, r: v.choice(r, v.NOTES)),
            (r"visibility|private", "private", lambda c, r: r.random() < 0.2),
            (r"insurance", "travel_insurance", lambda c, r: r.random() < 0.3),
            (r"\bbags?\b|baggage", "checked_bags", lambda c, r: r.randint(0, 3)),
            (r"\bteam\b", "team", lambda c, r: v.choice(r, v.DEPARTMENTS)),
            (
                r"permission",
                "permissions",
                lambda c, r: ["read", "write"] if r.random() < 0.6 else ["read"],
            ),
            (r"\bpayments\b", "payments", lambda c, r: []),
            (r"\bbalance\b", "balance", lambda c, r: c.money(r)),
            (r"\bdelay", "delay_minutes", lambda c, r: 0),
            (r"recovery", "recovery_email", lambda c, r: v.email(r)),
            (r"attachment", "attachments", lambda c, r: []),
            (r"\bqueue\b", "queue", lambda c, r: c.enum("queue", r, ("service_desk",))),
            (r"\bcategory\b", "category", lambda c, r: c.enum("category", r, ("other",))),
            (r"\btotal", "total", lambda c, r: c.money(r)),
        )
    )
)


def extras_for(text: str) -> tuple[str, ...]:
    """The extra field names a noun's descriptions mention."""
    lowered = text.lower()
    return tuple(name for pattern, name, _ in _EXTRAS if pattern.search(lowered))


_EXTRA_FNS = {name: fn for _, name, fn in _EXTRAS}


def build_record(c: RecordContext, noun: str, r: random.Random) -> Record:
    """A fresh record of ``noun`` (without its id), drawn from ``r``."""
    record = template_for(c.senses.get(noun, noun))(c, noun, r)
    for name in c.extras_to_add(noun, record):
        if name not in record:
            record[name] = _EXTRA_FNS[name](c, r)
    if is_person(noun):
        for other in c.related.get(noun, ()):
            key = f"{slug(other)}_ids"
            if key not in record:
                record[key] = [c.id_for(other, r) for _ in range(r.randint(1, 3))]
    return record


SUMMARY_FIELDS = (
    "name",
    "title",
    "subject",
    "from",
    "origin",
    "destination",
    "date",
    "departure_time",
    "start_time",
    "end_time",
    "sent_at",
    "created_at",
    "posted_at",
    "issued_at",
    "merchant",
    "amount",
    "total",
    "price",
    "currency",
    "email",
    "customer_email",
    "requester_email",
    "priority",
    "private",
    "cabin",
)


def summary(record: Mapping[str, Any], noun: str, limit: int = 7) -> Record:
    """The fields of ``record`` a list shows: its status and its most telling fields."""
    out: Record = {}
    status = status_field(noun)
    if status in record:
        out[status] = record[status]
    for name in SUMMARY_FIELDS:
        if name in record and len(out) < limit:
            out[name] = record[name]
    if not {"name", "title", "subject"} & set(out):  # a comment says what it says, and who did
        out.update({k: record[k] for k in ("body", "author") if k in record})
    if "flights" in record and "flights" not in out:
        out["flights"] = [
            f"{f.get('flight_number')} {f.get('origin')}-{f.get('destination')} {f.get('date')}"
            for f in record["flights"]
            if isinstance(f, Mapping)
        ]
    return out
