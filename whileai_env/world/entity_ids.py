"""One id format per entity type across the spec.

Every tool that takes an order's id must accept the id minted for that order, so an entity's id
is drawn against *all* the schemas the spec gives it (``get_order.order_id``,
``refund_order.order_id``, the items of ``list_orders.order_ids`` …), merged with ``allOf``.
Different forms of one entity's reference (``issueId`` and ``issueUrl``, ``user_id`` and
``user_email``) are kept apart: an id and a URL are not the same string.
When no value satisfies them all, the spec is inconsistent: :func:`find_id_conflicts` says so (for
``check-spec``, which prints each tool, argument and format), and the id follows the first tool's schema.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from whileai_env._util.frozen import thaw
from whileai_env._util.hashing import canonical_json
from whileai_env._util.lexicon import name_tokens
from whileai_env.world.makers import Scope
from whileai_env.world.profile import profile_for
from whileai_env.world.schema_values import fits, value_for

_SCHEMAS: dict[str, dict[tuple[str, str], list[tuple[str, str, Any]]]] = {}
_LOCK = threading.Lock()
_FORMS = {
    "url": "url",
    "uri": "url",
    "link": "url",
    "href": "url",
    "email": "email",
    "path": "path",
    "file": "path",
    "filename": "path",
    "name": "name",
    "slug": "name",
    "handle": "name",
    "username": "name",
}


def form(arg: str) -> str:
    """The form of reference argument ``arg`` carries: ``id``, ``url``, ``email``, ``path`` or ``name``."""
    words = name_tokens(arg)
    return _FORMS.get(words[-1], "id") if words else "id"


def _id_schemas(spec: Any) -> dict[tuple[str, str], list[tuple[str, str, Any]]]:
    """Per (noun, form), every ``(tool, argument, schema)`` that carries its ids (array items included)."""
    key = spec.content_hash
    found = _SCHEMAS.get(key)
    if found is not None:
        return found
    table: dict[tuple[str, str], list[tuple[str, str, Any]]] = {}
    for name, tp in profile_for(spec).tools.items():
        for arg in tp.locators:
            schema = (
                thaw(tp.properties.get(arg)) if isinstance(tp.properties.get(arg), Mapping) else {}
            )
            schema = one_id_schema(schema) or {}
            if _scalar_id(schema):
                table.setdefault((tp.nouns[arg], form(arg)), []).append((name, arg, schema))
    with _LOCK:
        if len(_SCHEMAS) > 256:
            _SCHEMAS.clear()
        _SCHEMAS[key] = table
    return table


def one_id_schema(schema: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The schema of one id where ``schema`` takes several or none: an array's items, an
    ``anyOf``/``oneOf``'s branch that is not null (FastMCP's ``list[str] | None``), else
    ``schema`` itself; ``None`` for an array whose items say nothing."""
    for key in ("anyOf", "oneOf"):
        branches = [b for b in schema.get(key) or () if isinstance(b, Mapping)]
        kept = [b for b in branches if b.get("type") != "null"]
        if len(kept) == 1 and len(branches) == len(schema.get(key) or ()):
            rest = {k: v for k, v in schema.items() if k != key}
            return one_id_schema({**rest, **kept[0]})
    if schema.get("type") == "array":
        items = schema.get("items")
        return items if isinstance(items, Mapping) else None
    return schema


def _scalar_id(schema: Mapping[str, Any]) -> bool:
    declared = schema.get("type")
    kinds = {declared} if isinstance(declared, str) else set(declared or ())
    return not kinds or bool(kinds & {"string", "integer", "number"})


_PROSE = ("description", "title", "examples", "default")


def _constraint(schema: Any) -> Any:
    """The parts of an id schema that constrain its value: descriptions, titles, examples and
    defaults dropped at every depth (two tools that word an id differently agree on it)."""
    if isinstance(schema, Mapping):
        out = {k: _constraint(v) for k, v in schema.items() if k not in _PROSE}
        for key in ("properties", "patternProperties", "$defs", "definitions"):
            if isinstance(schema.get(key), Mapping):  # names there are properties, not keywords
                out[key] = {name: _constraint(v) for name, v in schema[key].items()}
        return out
    if isinstance(schema, list):
        return [_constraint(v) for v in schema]
    return schema


def id_schema(
    spec: Any, noun: str, arg: str, fallback: Mapping[str, Any] | None = None
) -> Mapping[str, Any]:
    """The schema an id of ``noun`` in argument ``arg``'s form must meet in every tool of
    ``spec``: ``fallback`` (the calling tool's own schema, whose description still shapes the id)
    plus the others with ``allOf``; just ``fallback`` when no other tool carries that noun's ids
    in that form, or the tools disagree."""
    if fallback is not None:
        fallback = one_id_schema(fallback)
    entries = _id_schemas(spec).get((noun, form(arg))) if spec is not None else None
    if not entries:
        return fallback or {}
    first = entries[0][2] if fallback is None else fallback
    constraints = _distinct_constraints(spec, noun, form(arg))
    if len(constraints) == 1:
        return first
    if (noun, form(arg)) in conflicting(spec):
        return first
    return {**first, "allOf": list(constraints)}


_CONSTRAINTS: dict[tuple[str, str, str], tuple[Any, ...]] = {}


def _distinct_constraints(spec: Any, noun: str, kind: str) -> tuple[Any, ...]:
    """The distinct constraining parts of the schemas that carry ``noun``'s ids in form ``kind``
    (cached per spec content: every id a task states or a write mints asks for them)."""
    key = (spec.content_hash, noun, kind)
    found = _CONSTRAINTS.get(key)
    if found is None:
        entries = _id_schemas(spec)[(noun, kind)]
        distinct = {canonical_json(_constraint(s)): s for _, _, s in entries}.values()
        found = tuple(_constraint(s) for s in distinct)
        with _LOCK:
            if len(_CONSTRAINTS) > 4096:
                _CONSTRAINTS.clear()
            _CONSTRAINTS[key] = found
    return found


@dataclass(frozen=True)
class IdConflict:
    """Tools whose schemas no single id of one entity type satisfies: the entity ``noun``, the
    reference ``form`` (``id``, ``url`` …) and each distinct ``(tool, argument, format)``, the
    format being the schema's constraining keywords as canonical JSON."""

    noun: str
    form: str
    uses: tuple[tuple[str, str, str], ...]

    def line(self) -> str:
        """The finding in one line, as ``check-spec`` prints it."""
        where = ", ".join(f"{tool}.{arg} {fmt}" for tool, arg, fmt in self.uses)
        return f"{self.noun} {self.form}s: no value satisfies every tool that takes one: {where}"


def conflicting(spec: Any) -> frozenset[tuple[str, str]]:
    """The (noun, form) pairs whose tools' schemas no single id satisfies."""
    return frozenset((c.noun, c.form) for c in find_id_conflicts(spec))


_CONFLICTS: dict[str, tuple[IdConflict, ...]] = {}


def find_id_conflicts(spec: Any) -> tuple[IdConflict, ...]:
    """Every entity type whose ids no single value can satisfy in every tool that takes one
    (cached per spec)."""
    key = f"conflicts|{spec.content_hash}"
    found = _CONFLICTS.get(key)
    if found is None:
        found = _CONFLICTS[key] = tuple(_find_conflicts(spec))
    return found


def _find_conflicts(spec: Any) -> list[IdConflict]:
    out = []
    for (noun, kind), entries in _id_schemas(spec).items():
        distinct = list(
            {canonical_json(_constraint(s)): (tool, arg, s) for tool, arg, s in entries}.values()
        )
        if len(distinct) < 2:
            continue
        merged = {"allOf": [_constraint(s) for _, _, s in distinct]}
        ok = any(
            all(fits(value, s, s) for _, _, s in distinct)
            for value in (
                value_for(merged, distinct[0][1], Scope(seed=i, now=0), locator=True)
                for i in range(6)
            )
        )
        if not ok:
            uses = tuple((tool, arg, canonical_json(_constraint(s))) for tool, arg, s in distinct)
            out.append(IdConflict(noun=noun, form=kind, uses=uses))
    return out


def id_conflicts(spec: Any) -> list[str]:
    """One line per entity type whose ids no single value can satisfy in every tool (for ``check-spec``)."""
    return [c.line() for c in find_id_conflicts(spec)]


def mint_id(
    spec: Any, noun: str, key: str, r: Any, fallback: Mapping[str, Any] | None = None
) -> Any:
    """A new id of ``noun`` (a created record's, a related record's), drawn from ``r``: the same
    format as the ids the task's user states, valid in every tool that takes it."""
    from whileai_env.world.arguments import locator_value

    schema = id_schema(spec, noun, key, fallback)
    minted = locator_value(key, schema, noun, str(r.getrandbits(48)), spec=spec, noun=noun)
    return int(minted) if isinstance(minted, float) and minted.is_integer() else minted


_NUMERIC = re.compile(r"-?\d+(?:\.0+)?")
_NUMBER_TYPES = frozenset({"integer", "number"})
_NUMERIC_ARGS: dict[str, frozenset[str]] = {}


def numeric_id_args(spec: Any) -> frozenset[str]:
    """The id arguments (by name) that every tool taking them wants as an integer or number
    (``get_ticket(ticket_id: integer)``): a result shows those ids as ints, never ``"2"`` or
    ``"16216.0"``, so an id read from a list is accepted where it is used. An argument some tool
    takes as a string is left out (a text id fits it)."""
    key = f"numeric|{spec.content_hash}"
    found = _NUMERIC_ARGS.get(key)
    if found is None:
        kinds: dict[str, set[str]] = {}
        for (_, kind), entries in _id_schemas(spec).items():
            for _, arg, schema in entries if kind == "id" else ():
                declared = schema.get("type")
                kinds.setdefault(arg, set()).update(
                    {declared} if isinstance(declared, str) else set(declared or ("string",))
                )
        found = frozenset(arg for arg, types in kinds.items() if types <= _NUMBER_TYPES)
        _NUMERIC_ARGS[key] = found
    return found


def as_number(value: Any) -> Any:
    """``value`` as the int it spells (``"2"``, ``"16216.0"``, ``16216.0`` → the int); anything
    else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _NUMERIC.fullmatch(value):
        return int(value.split(".")[0])
    return value


def typed_ids(value: Any, numeric: frozenset[str]) -> Any:
    """``value`` (a result) with every field named by one of the ``numeric`` id arguments shown
    as an int, at any depth (a list's items, a record's related ids)."""
    if isinstance(value, dict):
        return {
            k: (
                [as_number(x) for x in v]
                if k in numeric and isinstance(v, list)
                else as_number(v)
                if k in numeric
                else typed_ids(v, numeric)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [typed_ids(v, numeric) for v in value]
    return value
