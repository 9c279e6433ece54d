"""Rules of a system prompt that allow a write only with listed values ("Only create invoices
and orders in USD, EUR or GBP", "Only ship orders to US, CA or MX"), or forbid a value of one
field ("Never set a ticket's status to "closed"").

Such a rule is kept by every task that is not pushing against it: a task that asks for an
invoice in CHF and expects it made would reward the very breach the rule forbids (a trial
user's PayPal spec: the oracle made CHF, JPY and BRL invoices for full marks, and an agent that
declined as the prompt said scored 0). So the values a task states for the field the rule
restricts are drawn from the listed ones (:func:`whileai_env.scenarios.limits.within_allowed`).

>>> from whileai_env.spec.load import load_spec
>>> spec = load_spec(tools=[{"name": "create_invoice", "description": "Create an invoice."}],
...                  system_prompt="Only create invoices and orders in USD, EUR or GBP.")
>>> allowed_values(spec, "create_invoice")
('USD', 'EUR', 'GBP')
"""

from __future__ import annotations

import re
from functools import lru_cache

from whileai_env._util.lexicon import singular, verb_kind
from whileai_env.spec.load import Spec
from whileai_env.spec.prohibitions import names_act

_ONLY = re.compile(
    r"^(?:you (?:may|can|should|must) |please )?only (?P<verb>[a-z]+) (?P<things>[a-z' ,-]+?)"
    r" (?:in|with|to|for|using|via|from|as) (?:the )?(?P<values>[^.;:]+?)\.?$",
    re.IGNORECASE,
)
_LIST = re.compile(r"\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+")
_ARTICLES = frozenset({"a", "an", "the", "any", "new"})


def _values(text: str) -> tuple[str, ...]:
    """The listed values (two or more, each a short name), or ``()``."""
    values = tuple(v.strip() for v in _LIST.split(text) if v.strip())
    if len(values) < 2 or any(len(v.split()) > 3 for v in values):
        return ()
    return values


def _things(text: str) -> list[tuple[str, ...]]:
    """The things a rule's verb acts on: "invoices and orders" → ``[("invoice",), ("order",)]``."""
    out = []
    for part in _LIST.split(text):
        words = tuple(singular(w) for w in part.lower().split() if w not in _ARTICLES)
        if words:
            out.append(words)
    return out


@lru_cache(maxsize=256)
def _allowed(spec: Spec) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for clause in spec.clauses:
        found = _ONLY.match(clause.text.strip())
        if found is None or verb_kind(found["verb"].lower()) not in ("create", "update", "delete"):
            continue
        values = _values(found["values"])
        if not values:
            continue
        verb = found["verb"].lower()
        things = _things(found["things"])
        for tool in spec.tools:
            if (
                tool.is_write
                and tool.name not in out
                and any(names_act(tool, verb, t) for t in things)
            ):
                out[tool.name] = values
    return out


def allowed_values(spec: Spec, tool: str) -> tuple[str, ...]:
    """The values a rule of ``spec``'s prompt allows write ``tool`` to use, or ``()``."""
    return _allowed(spec).get(tool, ())


_NEVER_SET = re.compile(
    r"^(?:never|do not|don't|must not|you must not|you may not) (?P<verb>set|change|mark|move"
    r"|update|put|switch) (?:a |an |the |any )?(?P<thing>[a-z]+)(?:'s| of (?:a |the )?\w+)? "
    r"(?P<field>[a-z_]+(?: [a-z_]+)?) (?:to|as) (?P<values>[^;:.]+)",
    re.IGNORECASE,
)


@lru_cache(maxsize=256)
def _forbidden_values(spec: Spec) -> dict[str, tuple[str, tuple[str, ...]]]:
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for clause in spec.clauses:
        found = _NEVER_SET.match(clause.text.strip())
        if found is None:
            continue
        values = tuple(v.strip().strip("\"'“”‘’`").strip() for v in _LIST.split(found["values"]))
        values = tuple(v for v in values if v and len(v.split()) <= 3)
        if not values:
            continue
        verb, thing = found["verb"].lower(), (singular(found["thing"].lower()),)
        field = found["field"].lower().replace(" ", "_")
        for tool in spec.tools:
            if tool.kind == "update" and tool.name not in out and names_act(tool, verb, thing):
                out[tool.name] = (field, values)
    return out


def forbidden_values(spec: Spec, tool: str) -> tuple[str, tuple[str, ...]] | None:
    """The field and the values a rule of ``spec``'s prompt forbids update ``tool`` to set
    ("Never set a ticket's status to "closed"" → ``("status", ("closed",))``), or ``None``.

    >>> from whileai_env.spec.load import load_spec
    >>> spec = load_spec(tools=[{"name": "update_ticket", "description": "Update a ticket."}],
    ...                  system_prompt='Never set ticket status to "closed"; solve it.')
    >>> forbidden_values(spec, "update_ticket")
    ('status', ('closed',))
    """
    return _forbidden_values(spec).get(tool)
