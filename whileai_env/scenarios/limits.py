"""An amount a task states keeps the cap its rule sets, unless the user is pushing past it.

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
