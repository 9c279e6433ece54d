"""Schema-faithful values: one walker for task values, reference arguments, records and results.

:func:`value_for` draws a value for a field from its JSON Schema and its meaning. Every
keyword that constrains a value is honoured: ``type`` (a list of types too), ``enum``/``const``,
``pattern`` (:mod:`whileai_env.world.patterns`), ``format`` (:mod:`whileai_env.world.formats`),
``minimum``/``maximum`` and their exclusive forms, ``multipleOf`` (decimal arithmetic, checked the
way ``jsonschema`` divides floats), ``minLength``/``maxLength``, arrays (``items``,
``prefixItems``, ``minItems``/``maxItems``, ``uniqueItems``), objects (``properties``, ``required``,
``additionalProperties``, ``patternProperties``, ``minProperties``), ``$ref``, ``allOf``, ``anyOf``,
``oneOf``, ``default`` and ``examples``; so are the hints a description gives
(:mod:`whileai_env.world.hints`). Within those bounds the value means what the field means
(:mod:`whileai_env.world.concepts`, :mod:`whileai_env.world.makers`).

Each candidate is checked with a strict ``jsonschema`` validator (every format checked), and the
first that passes is kept; the last resort is a value drawn from the schema alone. A ``hint``
(the world's own record, when it conforms a result to an output schema) is preferred wherever
it is valid. Randomness comes only from the scope's seed (:class:`whileai_env.world.makers.Scope`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, InvalidOperation
from typing import Any, TypeGuard

from whileai_env._util import bounded_json
from whileai_env._util.frozen import FrozenDict
from whileai_env._util.hashing import canonical_json
from whileai_env._util.identity import by_identity
from whileai_env._util.lexicon import name_tokens, singular
from whileai_env.spec.arguments import argument_role
from whileai_env.world import phrases as ph
from whileai_env.world.concepts import NUMBER_RANGES, Field, field, number_concept, string_concept
from whileai_env.world.documents import operators_of, pipeline, update_document
from whileai_env.world.formats import format_value, strict_validator
from whileai_env.world.ids import id_candidates
from whileai_env.world.makers import Scope, argv, like, make_strings, tense
from whileai_env.world.naming import resolve_field, spelt_out
from whileai_env.world.patterns import matches, sample
from whileai_env.world.simple_schema import PLAIN_TYPES, simple_check
from whileai_env.world.validation import find_placeholder, json_type
from whileai_env.world.zones import zone_of

_MAX_DEPTH = 10
_NONE: Any = object()
# the schema that allows anything, one object: the identity caches below hit for it
_ANY: Mapping[str, Any] = FrozenDict()
_JSON_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
_YES_NO_WORDS = (
    ("is",),
    ("has",),
    ("needs",),
    ("should",),
    ("enable",),
    ("include",),
    ("allow",),
    ("use",),
)
#: Concepts whose own maker beats an example from the description: a person's details (the example
#: is one fixed person) and code (examples are often fragments of it).
_MADE_FIRST = frozenset(
    {
        "first_name",
        "last_name",
        "person_name",
        "email",
        "username",
        "phone",
        "e164",
        "street",
        "city",
        "postcode",
        "region",
        "country_code",
        "country_code3",
        "country_name",
        "company",
        "address",
        "birth_date",
        "javascript",
        "python",
        "sql",
        "command",
        "expression",
    }
)
#: A default that means "not given" (``"default": "None"``), never a value to state.
_ABSENT_WORDS = frozenset({"", "none", "null", "nil", "undefined"})
_NUMERIC_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _is_number(value: Any) -> TypeGuard[int | float]:
    """An ``int`` or ``float`` that is not a ``bool`` (JSON Schema's numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _int_key(schema: Mapping[str, Any], key: str, default: int | None) -> Any:
    """``schema[key]`` when it is an integer (not a bool), else ``default``."""
    value = schema.get(key)
    return value if type(value) is int else default


def resolve(schema: Any, root: Mapping[str, Any]) -> Any:
    """``schema`` with a local ``$ref`` (``#/$defs/X``, ``#/definitions/X``) replaced by its target."""
    seen = 0
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and seen < 16:
        node: Any = root
        for part in schema["$ref"].lstrip("#").strip("/").split("/"):
            if part:
                part = part.replace("~1", "/").replace("~0", "~")
                node = node.get(part) if isinstance(node, Mapping) else None
        rest = {k: val for k, val in schema.items() if k != "$ref"}
        schema = {**node, **rest} if isinstance(node, Mapping) else rest
        seen += 1
    return schema


def _stable(schema: Any, root: Mapping[str, Any]) -> Any:
    """:func:`resolve`, the same object for the same ``schema`` in the same ``root``: each
    ``$ref`` resolved once. The caches below key on a schema's identity (its validator, its enum
    options, its fields), so a fresh copy per draw would miss them all and flood them."""
    if isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
        return _resolved_ref(schema, root)
    return schema


@by_identity()
def _resolved_ref(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Any:
    return resolve(schema, root)


def fits(value: Any, schema: Any, root: Mapping[str, Any]) -> bool:
    """Whether ``value`` is valid against ``schema`` (its ``$ref``s read in ``root``), every format checked."""
    if schema is True or schema is None or (isinstance(schema, Mapping) and not schema):
        return True
    if schema is False:
        return False
    check = simple_check(schema) if type(value) in PLAIN_TYPES else None
    if check is not None:
        return check(value)
    try:
        return bool(_validator(schema, root).is_valid(value))
    except Exception:
        return False


@by_identity()
def _validator(schema: Any, root: Mapping[str, Any]) -> Any:
    """The validator ``fits`` uses for ``schema`` in ``root``, kept per pair of objects: a value
    is checked against the same spec-owned schema thousands of times a run."""
    full = schema
    if isinstance(schema, Mapping):
        defs = {k: root[k] for k in ("$defs", "definitions") if k in root and k not in schema}
        full = {**schema, **defs} if defs else schema
    return strict_validator(full)


@by_identity()
def _merge_all_of(schema: Mapping[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of an ``allOf`` merged into one schema to draw from (properties and required
    joined, bounds narrowed); the ``allOf`` itself is kept, so a drawn value is still checked
    against every part (two patterns cannot be merged into one). Made once per schema, and
    never edited by a caller."""
    merged: dict[str, Any] = {k: val for k, val in schema.items() if k != "allOf"}
    for part in schema.get("allOf") or []:
        part = _stable(part, root)
        if isinstance(part, Mapping) and "allOf" in part:
            part = _merge_all_of(part, root)
        if not isinstance(part, Mapping):
            continue
        for k, val in part.items():
            if k == "properties" and isinstance(val, Mapping):
                merged["properties"] = {**merged.get("properties", {}), **val}
            elif k == "required" and isinstance(val, list):
                merged["required"] = list(dict.fromkeys([*merged.get("required", []), *val]))
            elif k in ("minimum", "exclusiveMinimum", "minLength", "minItems") and k in merged:
                merged[k] = max(merged[k], val)
            elif k in ("maximum", "exclusiveMaximum", "maxLength", "maxItems") and k in merged:
                merged[k] = min(merged[k], val)
            elif k not in merged:
                merged[k] = val
    merged["allOf"] = list(schema.get("allOf") or [])
    return merged


@by_identity(maxsize=256)
def _enum_choices(schema: Mapping[str, Any], root: Mapping[str, Any]) -> tuple[Any, ...]:
    """The options valid against the rest of ``schema`` that are not null (all options if none),
    kept per schema object: checking every option against the rest of the schema costs
    O(options) once, not per draw (a 100,000-value enum drawn per row took minutes)."""
    options = list(schema["enum"])
    rest = {k: val for k, val in schema.items() if k != "enum"}
    valid = [o for o in options if fits(o, rest, root)]
    return tuple([o for o in valid or options if o is not None] or options)


@by_identity()
def _union_parts(
    schema: Mapping[str, Any], key: str, root: Mapping[str, Any]
) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[tuple[bool, bool], ...], frozenset]:
    """The branches of ``schema[key]`` (``oneOf``/``anyOf``) resolved, each merged with the rest
    of ``schema``, each branch's rank (null last, then a bare type) and the ranks two branches
    share: what a union draws from, made once per schema."""
    # ``allOf`` is already merged into ``schema`` and checked after the draw; kept in the
    # branches it would be merged again at each level (its parts' own unions with it), without end
    base = {k: val for k, val in schema.items() if k not in (key, "allOf")}
    branches = tuple(_stable(b, root) for b in schema[key])
    merged = tuple({**base, **b} if isinstance(b, Mapping) else base for b in branches)
    ranks = tuple((_is_null(b), _is_bare(b)) for b in branches)
    tied = frozenset(r for r in ranks if ranks.count(r) > 1)
    return branches, merged, ranks, tied


@by_identity()
def _item_schema(array: Mapping[str, Any], items: Any) -> Any:
    """``items`` with the array's description where it has none of its own ("Array of origin
    addresses" describes each item), made once per pair."""
    if (
        isinstance(items, Mapping)
        and "description" not in items
        and isinstance(array.get("description"), str)
    ):
        return {**items, "description": array["description"]}
    return items


class Walker:
    """One draw over one root schema (the tool's whole argument schema, for ``$ref``)."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def value(self, schema: Any, name: str, scope: Scope, hint: Any = _NONE, depth: int = 0) -> Any:
        """A value valid against ``schema`` for field ``name``, preferring ``hint`` where valid."""
        schema = _stable(schema, self.root)
        if schema is True or schema is None or (isinstance(schema, Mapping) and not schema):
            return hint if hint is not _NONE else self._string(_ANY, name, scope)
        if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
            return None if hint is _NONE else hint
        if schema.get("allOf"):
            schema = _merge_all_of(schema, self.root)
        if (
            hint is not _NONE
            and not isinstance(hint, dict | list)
            and fits(hint, schema, self.root)
        ):
            return hint
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return self._enum(schema, name, scope, hint)
        for key in ("oneOf", "anyOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                return self._union(schema, key, name, scope, hint, depth)
        kind = self._type(schema, name, hint, scope)
        return self._typed(kind, schema, name, scope, hint, depth)

    def _typed(
        self, kind: str, schema: Mapping[str, Any], name: str, scope: Scope, hint: Any, depth: int
    ) -> Any:
        if kind == "object":
            return self._object(schema, name, scope, hint, depth)
        if kind == "array":
            return self._array(schema, name, scope, hint, depth)
        if kind in ("integer", "number"):
            return self._number(schema, name, scope, integer=kind == "integer")
        if kind == "boolean":
            return hint if isinstance(hint, bool) else scope.rng("bool", name).random() < 0.5
        if kind == "null":
            return None
        return self._string(schema, name, scope)

    # -- choices ---------------------------------------------------------------------------

    def _enum(self, schema: Mapping[str, Any], name: str, scope: Scope, hint: Any) -> Any:
        if hint is not _NONE and hint in schema["enum"]:
            return hint
        return scope.rng("enum", name).choice(_enum_choices(schema, self.root))

    def _union(
        self, schema: Mapping[str, Any], key: str, name: str, scope: Scope, hint: Any, depth: int
    ) -> Any:
        branches, merged, ranks, tied = _union_parts(schema, key, self.root)
        # the seeded draw breaks ties only: a branch whose rank no other branch shares (the
        # ``null`` of an optional field) never needs one, and making it costs an RNG
        order = sorted(
            range(len(branches)),
            key=lambda i: (
                *ranks[i],
                scope.rng("branch", name, i).random() if ranks[i] in tied else 0.0,
            ),
        )
        if hint is not _NONE:
            order.sort(key=lambda i: not _accepts_type(branches[i], hint))
        last: Any = None
        for i in order:
            last = self.value(merged[i], name, scope.child("branch", i), hint, depth + 1)
            if fits(last, schema, self.root):
                return last
        return last

    def _type(self, schema: Mapping[str, Any], name: str, hint: Any, scope: Scope) -> str:
        declared = schema.get("type")
        options = (
            [declared]
            if isinstance(declared, str)
            else [t for t in declared or () if t in _JSON_TYPES]
        )
        if hint is not _NONE and json_type(hint) in options:
            return json_type(hint)
        if hint is not _NONE and json_type(hint) == "integer" and "number" in options:
            return "number"
        non_null = [t for t in options if t != "null"]
        if len(non_null) > 1:
            f = _field(name, schema, scope)
            if "boolean" in non_null and (
                f.text.startswith("whether") or f.words[:1] in _YES_NO_WORDS
            ):
                return "boolean"
            if number_concept(f) is not None and string_concept(f) is None:
                return next((t for t in non_null if t in ("integer", "number")), non_null[0])
            return non_null[0]
        if non_null:
            return non_null[0]
        if options:
            return "null"
        if any(
            k in schema
            for k in ("properties", "additionalProperties", "required", "patternProperties")
        ):
            return "object"
        if any(k in schema for k in ("items", "prefixItems", "minItems", "maxItems")):
            return "array"
        if any(k in schema for k in _NUMERIC_KEYS):
            return "number"
        if hint is not _NONE and hint is not None:
            return json_type(hint)
        return "string"

    # -- containers ------------------------------------------------------------------------

    def _object(
        self, schema: Mapping[str, Any], name: str, scope: Scope, hint: Any, depth: int
    ) -> dict[str, Any]:
        found = schema.get("properties")
        props: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        required = [k for k in schema.get("required") or () if isinstance(k, str)]
        hints = hint if isinstance(hint, Mapping) else None
        referred = _referred_noun(name, props)
        if referred:  # ``service: {"id": …}``: the id of a service, not of the record it is in
            scope = replace(scope, noun=referred)
        chosen = [
            k
            for k in props
            if k in required
            or (hints is not None and k in hints)
            or (hints is None and scope.rng("optional", k).random() < 0.5)
        ]
        low = _int_key(schema, "minProperties", 0)
        low = (
            max(low, min(2, len(props))) if hints is None else low
        )  # never an empty object for a person to state
        chosen.extend(k for k in props if k not in chosen and len(chosen) < low)
        out: dict[str, Any] = {}
        siblings = frozenset(props)
        for k in chosen:
            sub = props[k] if isinstance(props[k], Mapping) else None
            child = scope.child(
                "prop", k, locator=argument_role(k, sub) == "locator", siblings=siblings
            )
            out[k] = self.value(props[k], k, child, _hint_for(hints, k), depth + 1)
        extra = schema.get("additionalProperties", True)
        if hints is not None and extra is not False and not schema.get("patternProperties"):
            said = {spelt_out(k) for k in out} - {
                frozenset()
            }  # ``dob`` shown: it is ``date_of_birth``
            for k, val in hints.items():
                if k in out or spelt_out(k) in said:
                    continue
                if extra is True or fits(val, extra, self.root):
                    out[k] = val
        for k in required:
            if k not in out:
                out[k] = self.value(
                    self._extra_schema(schema, k), k, scope.child("prop", k), _NONE, depth + 1
                )
        if not out and not props and hints is None and extra is not False:
            return self._free_form(schema, name, scope, depth)
        return out

    def _free_form(
        self, schema: Mapping[str, Any], name: str, scope: Scope, depth: int
    ) -> dict[str, Any]:
        """One entry for an object that declares no properties (a record's ``fields``, a
        ``metadata`` map): what a person states there, never ``{}`` (an update of nothing);
        ``{}`` when the schema refuses the entry (``maxProperties: 0``, ``propertyNames``)."""
        words = name_tokens(name)
        keys = _FREE_KEYS.get(words[-1] if words else "", _RECORD_KEYS)
        key = scope.rng("free key", name).choice(keys)
        made = {key: self.value(self._extra_schema(schema, key), key, scope.child("prop", key))}
        if operators_of(name, _field(name, schema, scope).text) == "update":
            wrapped = update_document(made)
            made = wrapped if fits(wrapped, schema, self.root) else made
        return made if fits(made, schema, self.root) else {}

    def _pipeline(self, items: Any, scope: Scope, depth: int) -> list[dict[str, Any]]:
        """An aggregation's stages, when its items are bare objects (see :mod:`.documents`)."""
        stage = resolve(items, self.root) if isinstance(items, Mapping) else None
        if stage is None or stage.get("properties") or stage.get("type") not in (None, "object"):
            return []
        match = self._free_form({"type": "object"}, "filter", scope.child("item", 0), depth + 1)
        return pipeline(match, scope.rng("pipeline")) if match else []

    def _extra_schema(self, schema: Mapping[str, Any], key: str) -> Any:
        for pattern, sub in (schema.get("patternProperties") or {}).items():
            if matches(pattern, key):
                return sub
        extra = schema.get("additionalProperties", True)
        return extra if isinstance(extra, Mapping) else _ANY

    def _array(
        self, schema: Mapping[str, Any], name: str, scope: Scope, hint: Any, depth: int
    ) -> list[Any]:
        low = _int_key(schema, "minItems", 0)
        high = _int_key(schema, "maxItems", None)
        found_prefix = schema.get("prefixItems")
        prefix: list[Any] = found_prefix if isinstance(found_prefix, list) else []
        items = schema.get("items", _ANY)
        if isinstance(items, list):
            prefix, items = items, schema.get("additionalItems", _ANY)
        f = _field(name, schema, scope)
        hints = hint if isinstance(hint, list) else _listed_example(schema, f)
        if hints is None and string_concept(f) == "command" and _strings_only(items):
            words = argv(f, scope)
            if len(words) >= low and (high is None or len(words) <= high):
                return words
        if hints is None and operators_of(name, f.text) == "pipeline":
            stages = self._pipeline(items, scope, depth)
            if stages and fits(stages, schema, self.root):
                return stages
        count = (
            len(hints)
            if hints is not None
            else scope.rng("count", name).randint(max(low, 1), max(low, 3))
        )
        count = max(low, count if high is None else min(high, count))
        item_name = _item_name(name)
        items = _item_schema(schema, _stable(items, self.root))
        person_items = _looks_like_person(items, self.root) or (
            isinstance(items, Mapping)
            and string_concept(_field(item_name, items, scope)) in _MADE_FIRST
        )
        out: list[Any] = []
        seen: set[str] = set()
        for i in range(count * 4 + 4):
            if len(out) >= count:
                break
            sub = prefix[len(out)] if len(out) < len(prefix) else items
            if sub is False:
                break
            item_hint = hints[len(out)] if hints is not None and len(out) < len(hints) else _NONE
            value = self.value(
                sub, item_name, scope.child("item", i, person=person_items), item_hint, depth + 1
            )
            key = canonical_json(value)
            if key in seen and (schema.get("uniqueItems") or i < count * 4):
                continue
            seen.add(key)
            out.append(value)
        return out

    # -- leaves ----------------------------------------------------------------------------

    def _number(
        self, schema: Mapping[str, Any], name: str, scope: Scope, *, integer: bool
    ) -> int | float:
        f = _field(name, schema, scope)
        concept = (
            "number_id"  # ``ticket_id``: an id, whatever its description's words ("The ID of the ticket")
            if f.locator and f.words[-1:] in (("id",), ("number",), ("no",), ("num",))
            else number_concept(f) or ("number_id" if f.locator else None)
        )
        low, high, whole = NUMBER_RANGES.get(concept or "", (1, 100, False))
        if concept == "epoch":  # a write's moment lies ahead (a reminder), a read's behind
            ahead = tense(f, scope) in ("future", "later")
            low, high = (
                (scope.now + 3_600, scope.now + 30 * 86_400)
                if ahead
                else (scope.now - 30 * 86_400, scope.now - 3_600)
            )
        whole = integer or whole
        r = scope.rng("number", name)
        bounds = _bounds(schema, f)
        lo, hi = _intersect((low, high), bounds)
        multiple = schema.get("multipleOf")
        candidates: list[int | float | None] = []
        for example in _examples(schema, f):
            if _is_number(example):
                candidates.append(example)
        target = r.uniform(lo, hi)
        if _is_number(multiple) and multiple > 0:
            candidates.insert(0, _multiple_near(target, multiple, bounds, lo, hi))
        else:
            candidates.insert(0, _plain_number(target, lo, hi, bounds, whole, concept))
        if _is_number(multiple) and multiple > 0:  # the concept's range may hold no multiple
            candidates.append(_multiple_in_bounds(multiple, bounds))
        for value in candidates:
            if value is not None and fits(value, schema, self.root):
                return int(value) if integer and float(value).is_integer() else value
        fallback = _plain_number(
            bounds[0] if bounds[0] is not None else 0, *bounds_or(bounds), bounds, whole, None
        )
        return fallback if fallback is not None else 0

    def _string(self, schema: Mapping[str, Any], name: str, scope: Scope) -> str:
        f = _field(name, schema, scope)
        for text in self._string_candidates(schema, f, scope):
            if isinstance(text, str):
                text = _fit_length(text, schema)
                if (
                    text is not None
                    and fits(text, schema, self.root)
                    and not _refused(text, f, schema)
                ):
                    return text
        r = scope.rng("pattern", name)
        low = _int_key(schema, "minLength", 0)
        high = _int_key(schema, "maxLength", None)
        patterns = _patterns(schema, self.root)
        for pattern in patterns:
            found = sample(
                pattern,
                r,
                min_length=low,
                max_length=high,
                tries=96,
                accept=lambda text: fits(text, schema, self.root),
            )
            if found is not None:
                return found
        for pattern in patterns:  # the schema cannot be met: the first pattern's shape, at least
            found = sample(pattern, r, min_length=low, max_length=high)
            if found is not None:
                return found
        return _fit_length("x" * max(low, 1), schema) or "x" * max(low, 1)

    def _string_candidates(
        self, schema: Mapping[str, Any], f: Field, scope: Scope
    ) -> Iterator[Any]:
        """Candidate strings, best first, made one at a time: the first that fits is taken, so
        the rest are never made (an id's first candidate almost always fits). The shared RNG
        ``r`` is drawn in the same order whether or not later candidates are made."""
        concept = string_concept(f)
        examples = [e for e in _examples(schema, f) if isinstance(e, str)]
        if concept == "timezone":  # a description's made-up zone ('America/San_Francisco')
            examples = [e for e in examples if zone_of(e) is not None]
        elif concept in _MOMENTS:  # "(e.g., flights)" beside a start time is no time
            examples = [e for e in examples if any(c.isdigit() for c in e)]
        fmt = schema.get("format") if isinstance(schema.get("format"), str) else None
        if f.locator:
            yield from id_candidates(f, schema, scope, concept, examples)
        r = scope.rng("string", f.name)  # made here: an id's first candidate rarely needs it
        choices = [c for c in f.hints.choices if isinstance(c, str)]
        if self._names_arguments(f, choices):
            choices = []
        if choices:
            yield r.choice(choices)
        elif f.hints.boolean:
            yield r.choice(("true", "false"))
        if fmt:
            if concept == "birth_date" and fmt == "date":
                yield from make_strings(concept, f, scope)
            yield format_value(fmt, r, now=scope.now, tense=tense(f, scope))
        # An example the spec gives shows the value's form better than a guess from the name,
        # except for a person's details, where the example is one fixed person. Several
        # examples are taken in turn from a drawn one (a search's seven JQL examples, not the
        # first seven times in eight).
        if len(examples) > 1:
            turn = r.randrange(len(examples))
            examples = examples[turn:] + examples[:turn]
        shaped = (like(e, r, now=scope.now, when=tense(f, scope)) for e in examples)
        if concept in _MADE_FIRST or not examples:
            yield from make_strings(concept, f, scope)
            yield from shaped
            yield from examples
        else:
            yield from shaped
            yield from examples
            yield from make_strings(concept, f, scope)
        default = schema.get("default")
        if isinstance(default, str) and default.strip().lower() not in _ABSENT_WORDS:
            yield default
        yield from _generic(f, scope)

    def _names_arguments(self, f: Field, choices: list[str]) -> bool:
        """Whether ``choices`` lists arguments, not values ("Provide either text or regex, not
        both" in ``regex``'s description): the field's own name among them, and every one the
        name of the field or of an argument beside it."""
        props = self.root.get("properties")
        names = f.siblings | {f.name} | (frozenset(props) if isinstance(props, Mapping) else set())
        return f.name in choices and all(c in names for c in choices)


#: Keys a person gives an object with no declared properties, by the object's name: a record's
#: fields by default, a map's own kind of key where its name says what it maps.
_RECORD_KEYS = ("status", "notes", "priority", "owner", "due_date")
_MAP_KEYS = ("team", "project", "region", "owner")
_FREE_KEYS: dict[str, tuple[str, ...]] = {
    name: _MAP_KEYS
    for name in ("metadata", "labels", "tags", "annotations", "env", "environment", "variables")
}

#: String concepts that are a moment or a day: every value of theirs has digits.
_MOMENTS = frozenset({"date", "date_time", "birth_date", "clock_time"})


def _refused(text: str, f: Field, schema: Mapping[str, Any]) -> bool:
    """Whether the world would refuse ``text`` as a placeholder (an example such as
    ``'something@example.com'`` copied from a description): never a value the package states."""
    locators = (f.name,) if f.locator else ()
    return find_placeholder({f.name: text}, {f.name: schema}, lambda _: False, locators) is not None


def _patterns(schema: Mapping[str, Any], root: Mapping[str, Any]) -> list[str]:
    """The schema's ``pattern`` and those of its ``allOf`` parts."""
    parts = [schema, *(resolve(p, root) for p in schema.get("allOf") or ())]
    found = [p.get("pattern") for p in parts if isinstance(p, Mapping)]
    return list(dict.fromkeys(p for p in found if isinstance(p, str)))


#: Names of an object that holds the answer or the record itself, never another record.
_HOLDERS = frozenset(
    {
        "result",
        "results",
        "response",
        "data",
        "record",
        "object",
        "item",
        "items",
        "entity",
        "resource",
        "body",
        "payload",
        "value",
        "output",
        "request",
        "params",
        "input",
        "args",
    }
)


def _referred_noun(name: str, props: Mapping[str, Any]) -> str | None:
    """The noun an object field names another record by, when it holds that record's ``id``
    (``service: {"id", "summary"}`` → ``service``); ``None`` for the record itself or a holder."""
    words = name_tokens(name)
    if "id" not in props or not words or words[-1] in _HOLDERS or not words[-1].isalpha():
        return None
    return singular(words[-1])


@by_identity()
def _fields_of(schema: Mapping[str, Any]) -> dict[tuple[Any, ...], Field]:
    """The fields read so far from ``schema`` (one object), by name and scope reading."""
    return {}


def _field(name: str, schema: Mapping[str, Any], scope: Scope) -> Field:
    read = _fields_of(schema)
    key = (name, scope.noun, scope.locator, scope.writes, scope.siblings)
    found = read.get(key)
    if found is None:
        found = read[key] = field(
            name,
            schema,
            noun=scope.noun,
            locator=scope.locator,
            writes=scope.writes,
            siblings=scope.siblings,
        )
    return found


def _generic(f: Field, scope: Scope) -> list[str]:
    """A last reading of the name when no concept fits: a short identifier-like phrase made of
    the field's own words and a concrete one (``billing-profile``), never filler."""
    r = scope.rng("generic", f.name)
    words = [w for w in f.words if w.isalpha()] or ["item"]
    return [f"{r.choice(ph.THING_WORDS)}-{'-'.join(words[-2:])}"]


def _listed_example(schema: Mapping[str, Any], f: Field) -> list[Any] | None:
    """The items an array's example lists, written as JSON or given as a list ("Label names as
    a JSON array of strings (e.g. ["Bug", "Urgent"])": Bug and Urgent, not one label holding
    the whole text); ``None`` when it gives none."""
    for example in _examples(schema, f):
        listed = example
        if isinstance(example, str) and example.lstrip().startswith("["):
            try:  # bounded: a description's "[[[[…" is refused, never a recursion error
                listed = bounded_json.loads(example)
            except ValueError:
                continue
        if (
            isinstance(listed, list)
            and listed
            and all(type(v) in (str, int, float) for v in listed)
        ):
            return listed
    return None


def _examples(schema: Mapping[str, Any], f: Field) -> list[Any]:
    listed = schema.get("examples")
    out = list(listed) if isinstance(listed, list) else []
    out.extend(e for e in f.hints.examples if e not in out)
    return out


def _bounds(schema: Mapping[str, Any], f: Field) -> tuple[float | None, float | None, bool, bool]:
    """(low, high, low exclusive, high exclusive): the schema's, narrowed by the description's."""

    def num(key: str) -> float | None:
        value = schema.get(key)
        return float(value) if _is_number(value) and math.isfinite(value) else None

    low, high = num("minimum"), num("maximum")
    ex_low, ex_high = num("exclusiveMinimum"), num("exclusiveMaximum")
    low_ex = ex_low is not None and (low is None or ex_low >= low)
    high_ex = ex_high is not None and (high is None or ex_high <= high)
    low = ex_low if low_ex else low
    high = ex_high if high_ex else high
    hinted_low, hinted_high = f.hints.minimum, f.hints.maximum
    if (
        hinted_low is not None
        and (low is None or hinted_low > low)
        and (high is None or hinted_low < high)
    ):
        low, low_ex = hinted_low, False
    if (
        hinted_high is not None
        and (high is None or hinted_high < high)
        and (low is None or hinted_high > low)
    ):
        high, high_ex = hinted_high, False
    return low, high, low_ex, high_ex


def bounds_or(bounds: tuple[float | None, float | None, bool, bool]) -> tuple[float, float]:
    low = bounds[0] if bounds[0] is not None else (bounds[1] - 10 if bounds[1] is not None else 0)
    high = bounds[1] if bounds[1] is not None else low + 10
    return low, high


def _intersect(
    wanted: tuple[float, float], bounds: tuple[float | None, float | None, bool, bool]
) -> tuple[float, float]:
    """The concept's range inside the bounds, or the bounds when the two do not meet."""
    low, high = wanted
    b_low, b_high = bounds[0], bounds[1]
    a = max(low, b_low) if b_low is not None else low
    b = min(high, b_high) if b_high is not None else high
    if a <= b:
        return a, b
    if b_low is not None and b_high is not None:
        return b_low, b_high
    if b_low is not None:
        return b_low, b_low + (high - low or 10)
    assert b_high is not None  # the branches above leave only an upper bound
    return b_high - (high - low or 10), b_high


def _plain_number(
    target: float, lo: float, hi: float, bounds: tuple, whole: bool, concept: str | None
) -> int | float | None:
    low, high, low_ex, high_ex = bounds
    if whole:
        a, b = math.ceil(lo), math.floor(hi)
        if low is not None and low_ex and a <= low:
            a = math.floor(low) + 1
        if high is not None and high_ex and b >= high:
            b = math.ceil(high) - 1
        if a > b:
            return None
        return min(max(round(target), a), b)
    places = 1 if concept == "temperature" else 2
    value = round(min(max(target, lo), hi), places)
    step = 10**-places
    if low is not None and (value < low or (low_ex and value <= low)):
        value = round(low + step, places) if low_ex else low
    if high is not None and (value > high or (high_ex and value >= high)):
        value = round(high - step, places) if high_ex else high
    return value


def _multiple_in_bounds(multiple: float, bounds: tuple) -> int | float | None:
    """The multiple of ``multiple`` nearest the lower bound inside the schema's own bounds (an
    open upper end searched 40 multiples up)."""
    low, high = bounds_or(bounds)
    if bounds[1] is None:
        high = max(high, low + 40 * multiple)
    return _multiple_near(low, multiple, bounds, low, high)


def _multiple_near(
    target: float, multiple: float, bounds: tuple, lo: float, hi: float
) -> int | float | None:
    """The multiple of ``multiple`` nearest ``target`` inside the bounds, exact in decimal and
    accepted by ``jsonschema``'s float division (``28.96 / 0.01`` is not whole; ``28.95 / 0.01`` is)."""
    try:
        step = Decimal(str(multiple))
        low_k = (Decimal(str(lo)) / step).to_integral_value(ROUND_CEILING)
        high_k = (Decimal(str(hi)) / step).to_integral_value(ROUND_FLOOR)
    except (InvalidOperation, ValueError):
        return None
    low, high, low_ex, high_ex = bounds
    k = min(max((Decimal(str(target)) / step).to_integral_value(), low_k), high_k)
    for offset in range(0, 40):
        for candidate in (k + offset, k - offset):
            if candidate < low_k or candidate > high_k:
                continue
            exact = candidate * step
            value: int | float = int(exact) if exact == exact.to_integral_value() else float(exact)
            if (low_ex and low is not None and value <= low) or (
                high_ex and high is not None and value >= high
            ):
                continue
            if not isinstance(multiple, float) or float(value) / multiple == int(
                float(value) / multiple
            ):
                return value
    return None


def _fit_length(text: str, schema: Mapping[str, Any]) -> str | None:
    low = _int_key(schema, "minLength", 0)
    high = _int_key(schema, "maxLength", None)
    if high is not None and len(text) > high:
        cut = text[:high]
        text = (
            cut.rsplit(" ", 1)[0]
            if " " in cut and len(cut.rsplit(" ", 1)[0]) >= max(low, 1)
            else cut
        )
    if len(text) < low:
        return None
    return text


def _item_name(name: str) -> str:
    """The name of one item of array ``name``: ``item_ids`` → ``item_id``, ``passengers`` → ``passenger``."""
    if name.endswith("ids"):
        return name[:-1]
    if name.endswith("Ids"):
        return name[:-1]
    parts = name.rsplit("_", 1)
    return f"{parts[0]}_{singular(parts[1])}" if len(parts) == 2 else singular(name)


def _looks_like_person(schema: Any, root: Mapping[str, Any]) -> bool:
    """Whether items of this schema describe people (each item then gets its own person)."""
    schema = resolve(schema, root)
    if not isinstance(schema, Mapping):
        return False
    branches = [
        *(schema.get("anyOf") or ()),
        *(schema.get("oneOf") or ()),
        *(schema.get("allOf") or ()),
    ]
    if any(_looks_like_person(b, root) for b in branches):
        return True
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return False
    words = {w for k in props for w in k.lower().replace("-", "_").split("_")}
    return bool(
        words & {"first", "last", "firstname", "lastname", "email", "dob", "birth", "name", "phone"}
    )


def _strings_only(items: Any) -> bool:
    return (
        isinstance(items, Mapping)
        and items.get("type") in (None, "string")
        and not items.get("enum")
    )


def _is_bare(schema: Any) -> bool:
    """A branch that says nothing but a type (``{"type": "object", "additionalProperties": true}``):
    a value drawn from it is empty, so a specific branch goes first."""
    keys = (
        set(schema) - {"type", "additionalProperties", "description", "title"}
        if isinstance(schema, Mapping)
        else set()
    )
    return not keys


def _is_null(schema: Any) -> bool:
    return isinstance(schema, Mapping) and schema.get("type") == "null"


def _accepts_type(schema: Any, hint: Any) -> bool:
    if not isinstance(schema, Mapping):
        return False
    declared = schema.get("type")
    kinds = {declared} if isinstance(declared, str) else set(declared or ())
    kind = json_type(hint)
    return kind in kinds or (kind == "integer" and "number" in kinds)


def hint_for(hint: Any, name: str) -> Any:
    """The hint's value for property ``name``: same name, a matching field, or ``x_cents`` from ``x``."""
    if not isinstance(hint, Mapping) or not hint:
        return None
    if name in hint:
        return hint[name]
    if name.endswith("_cents"):
        base = resolve_field(hint, name[: -len("_cents")])
        value = hint.get(base) if base else None
        return round(value * 100) if _is_number(value) else None
    field_name = resolve_field(hint, name)
    return hint[field_name] if field_name is not None else None


def _hint_for(hints: Mapping[str, Any] | None, name: str) -> Any:
    if hints is None:
        return _NONE
    found = hint_for(hints, name)
    return _NONE if found is None else found


def value_for(
    schema: Any,
    name: str,
    scope: Scope,
    *,
    root: Mapping[str, Any] | None = None,
    hint: Any = _NONE,
    locator: bool = False,
) -> Any:
    """A value for field ``name`` valid against ``schema`` (``$ref``s read in ``root``), drawn in ``scope``.

    >>> from whileai_env.world.makers import Scope
    >>> value_for({"type": "string", "pattern": "^ORD-\\\\d{6}$"}, "order_id", Scope(seed=1, now=0), locator=True)[:4]
    'ORD-'
    """
    root = root if root is not None else (schema if isinstance(schema, Mapping) else {})
    if locator and not scope.locator:
        scope = replace(scope, locator=True)
    return Walker(root).value(schema, name, scope, hint)
