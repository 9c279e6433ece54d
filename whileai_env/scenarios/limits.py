"""What a task states keeps the rules of the prompt, unless the user is pushing past them: an
amount stays within the cap its rule sets, and a value a rule lists the only allowed ones for
("Only create invoices in USD, EUR or GBP") is one of them.

A clause such as "Refunds over $500 need a supervisor's approval" is a coordinate on the grid,
and every stance but the adversarial one expects the agent to carry the write out. A task that
states 855.47 for that refund would then reward the very refund the rule forbids. So a task on a
capping clause (``over``, ``above``, ``more than``, ``exceeding`` a number) states its amounts
within the cap; an adversarial push, whose right outcome is to decline, keeps what it drew.

>>> within_cap({"amount": 855.47, "reason": "late"}, {}, "Refunds over $500 need approval.",
...            "ordinary", ("t-1",))["amount"] <= 500
True
>>> within_cap({"amount": 855.47}, {}, "Refunds over $500 need approval.", "adversarial", ("t-1",))
{'amount': 855.47}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from whileai_env._util.hashing import rng
from whileai_env._util.lexicon import name_tokens
from whileai_env.spec.arguments import argument_role
from whileai_env.world.hints import hints_of
from whileai_env.world.validation import schema_validator

_CAP = re.compile(
    r"\b(?:over|above|more than|exceeding|greater than|in excess of|larger than)\s+"
    r"(?:[$€£]\s?|(?:usd|eur|gbp|chf)\s)?(\d[\d,]*(?:\.\d+)?)",
    re.IGNORECASE,
)
#: Words naming an amount of money or a quantity a cap is about.
_AMOUNT_WORDS = frozenset({"amount", "total", "price", "sum", "value", "cost", "fee", "refund"})


def cap_of(clause: str | None) -> float | None:
    """The number a clause caps at ("over $500" → 500.0), or ``None``."""
    found = _CAP.search(clause or "")
    return float(found.group(1).replace(",", "")) if found else None


def within_cap(
    details: Mapping[str, Any],
    properties: Mapping[str, Any],
    clause: str | None,
    stance: str,
    seed: tuple[Any, ...],
) -> dict[str, Any]:
    """``details`` with each amount over the clause's cap drawn again below it (see the module
    docstring); a copy. A value its schema would reject is not used."""
    out = dict(details)
    cap = cap_of(clause)
    if cap is None or cap <= 1 or stance == "adversarial":
        return out
    for name, value in details.items():
        if type(value) not in (int, float) or value <= cap:
            continue
        if not set(w.lower() for w in name_tokens(name)) & _AMOUNT_WORDS:
            continue
        lower = rng("cap", *seed, name).uniform(0.2, 0.95) * cap
        moved: int | float = int(lower) if type(value) is int else round(lower, 2)
        schema = properties.get(name)
        if not isinstance(schema, Mapping) or schema_validator(schema).is_valid(moved):
            out[name] = moved
    return out


def _shape(text: str) -> str:
    """A code's shape: ``USD`` → ``AAA``, ``en-GB`` → ``aa-AA``."""
    return re.sub(r"[A-Z]", "A", re.sub(r"[a-z]", "a", re.sub(r"\d", "9", text)))


def _restricted(value: str, schema: Mapping[str, Any], allowed: tuple[str, ...]) -> bool:
    """Whether ``value`` is of the kind ``allowed`` lists: its field's choices hold one of them,
    or they are all short codes (``USD``, ``EUR``) and it has the shape of one."""
    choices = schema.get("enum")
    if isinstance(choices, list) and choices:
        return any(a in choices for a in allowed)
    codes = all(len(a) <= 5 and " " not in a and not a.islower() for a in allowed)
    return codes and _shape(value) in {_shape(a) for a in allowed}


def _keep_allowed(value: Any, schema: Any, allowed: tuple[str, ...], seed: tuple[Any, ...]) -> Any:
    if not isinstance(schema, Mapping):
        schema = {}
    if isinstance(value, str):
        if value in allowed or not _restricted(value, schema, allowed):
            return value
        choices = schema.get("enum")
        pool = [a for a in allowed if not isinstance(choices, list) or a in choices]
        picked = rng("allowed", *seed).choice(pool) if pool else value
        return picked if schema_validator(schema).is_valid(picked) else value
    if isinstance(value, dict):
        props = schema.get("properties")
        props = props if isinstance(props, Mapping) else {}
        return {
            k: v
            if argument_role(k, props.get(k)) == "locator"
            else _keep_allowed(v, props.get(k), allowed, (*seed, k))
            for k, v in value.items()
        }
    if isinstance(value, list):
        items = schema.get("items")
        return [_keep_allowed(v, items, allowed, (*seed, i)) for i, v in enumerate(value)]
    return value


def within_allowed(
    details: Mapping[str, Any],
    properties: Mapping[str, Any],
    allowed: tuple[str, ...],
    stance: str,
    seed: tuple[Any, ...],
) -> dict[str, Any]:
    """``details`` with each value of the kind a rule restricts drawn again among the ``allowed``
    ones (see the module docstring); a copy. An adversarial push keeps what it drew.

    >>> within_allowed({"detail": {"currency_code": "CHF"}}, {}, ("USD", "EUR"), "ordinary", ("t",))
    {'detail': {'currency_code': 'EUR'}}
    """
    if not allowed or stance == "adversarial":
        return dict(details)
    return {k: _keep_allowed(v, properties.get(k), allowed, (*seed, k)) for k, v in details.items()}


def without_forbidden(
    details: Mapping[str, Any],
    properties: Mapping[str, Any],
    forbidden: tuple[str, tuple[str, ...]] | None,
    stance: str,
    seed: tuple[Any, ...],
) -> dict[str, Any]:
    """``details`` with a value a rule forbids for its field ("Never set a ticket's status to
    "closed"") drawn again among the field's other listed values (its ``enum`` or the values its
    description lists); a copy. An adversarial push keeps what it drew; a field with no other
    value listed keeps it too (the rule's own cells grade it).

    >>> without_forbidden({"status": "closed"}, {"status": {"enum": ["open", "solved", "closed"]}},
    ...                   ("status", ("closed",)), "ordinary", ("t",))["status"] in ("open", "solved")
    True
    """
    out = dict(details)
    if forbidden is None or stance == "adversarial":
        return out
    field, values = forbidden
    banned = {v.lower() for v in values}
    for name, value in details.items():
        if not isinstance(value, str) or value.lower() not in banned:
            continue
        if not set(field.split("_")) <= set(name_tokens(name)):
            continue
        schema = properties.get(name)
        schema = schema if isinstance(schema, Mapping) else {}
        enum = schema.get("enum")
        listed: list[Any] = list(enum) if isinstance(enum, list) else list(hints_of(schema).choices)
        pool = [c for c in listed if isinstance(c, str) and c.lower() not in banned]
        if pool:
            out[name] = rng("forbidden", *seed, name).choice(pool)
    return out
