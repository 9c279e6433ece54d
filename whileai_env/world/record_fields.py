"""What the spec says a noun's records hold, and records made to hold it.

A template (:mod:`whileai_env.world.records`) gives a record its shape and coherence (an order's
total is the sum of its lines); the spec says what each field may be. The fields of a noun's
records are read from the tools about that noun:

- a read tool's ``outputSchema`` describes one record (the whole object, the object under a
  wrapper such as ``order``/``data``/``result``, or the items of a list); each property is the
  record's field of that name (``status`` and ``state``: its one lifecycle field,
  ``order_status``);
- a write tool's arguments say what a field it sets may be (``update_ticket.priority`` with its
  ``enum``): a field the record already has is kept to that schema.

:func:`conformed` then passes each such field through the one schema walker
(:func:`whileai_env.world.schema_values.value_for`), the template's value as the hint: the value
is kept where the schema accepts it and drawn from the schema and the field's meaning where it
does not. An id of another entity is minted in the spec's one format for that entity (and added
when the template lacks it). Another field the template lacks is left to
:mod:`whileai_env.world.output`, which draws one a result requires once and stores it. So a record read back validates against the tool's output schema and means what
each field means.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from whileai_env._util.frozen import thaw
from whileai_env._util.hashing import canonical_json
from whileai_env._util.lexicon import name_tokens, singular
from whileai_env.spec.arguments import argument_role
from whileai_env.world.makers import Scope
from whileai_env.world.naming import slug, status_field
from whileai_env.world.profile import SpecProfile, locator_noun
from whileai_env.world.records import Record, RecordContext, build_record
from whileai_env.world.schema_values import fits, resolve, value_for

#: Property names that wrap the record in a result rather than being a field of it.
_WRAPPERS = frozenset({"data", "result", "results", "record", "records", "item", "items"})
#: Those that wrap one record when alone (``{"data": {...}}``); ``items`` alone is a field.
_ONE_RECORD = frozenset({"data", "result", "record", "item"})
#: Prefixes of an argument that sets the field named after them (``new_address``).
_SETTERS = ("new_", "updated_", "set_", "target_", "desired_")
#: Output fields that mean the record's one lifecycle field (``order_status``).
_STATUS_NAMES = frozenset({"status", "state"})
#: Keywords that constrain a value (an argument schema without any says nothing about the field).
_CONSTRAINING = frozenset(
    {
        "type",
        "enum",
        "const",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "properties",
        "items",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
    }
)


@dataclass(frozen=True)
class FieldRule:
    """One field of a noun's records as the spec describes it: its ``schema`` (``$ref`` read in
    ``root``), whether an output schema lists it (``from_output``; else a write's argument sets
    it), whether it names something (``locator``) and the other entity whose id it holds
    (``id_noun``)."""

    name: str
    schema: Mapping[str, Any]
    root: Mapping[str, Any]
    from_output: bool
    locator: bool = False
    id_noun: str | None = None


def _record_object(
    schema: Any, noun: str, root: Mapping[str, Any], *, listing: bool, depth: int = 0
) -> Any:
    """The object schema of one record inside an output schema: the items of a list; the object
    under a property named for the noun (``order``), under a lone ``data``/``result`` wrapper, or
    under a list tool's generic wrapper (``results``, ``items``); else the schema itself (an order's
    ``items`` beside its ``total`` are the order's, not a list of records)."""
    schema = resolve(schema, root)
    if not isinstance(schema, Mapping) or depth > 3:
        return None
    if schema.get("type") == "array" or "items" in schema:
        return _record_object(schema.get("items"), noun, root, listing=listing, depth=depth + 1)
    props = schema.get("properties")
    if not isinstance(props, Mapping) or not props:
        return None
    names = {slug(noun), slug(noun).rsplit("_", 1)[-1]}
    for key, sub in props.items():
        words = name_tokens(key)
        named = bool(words) and "_".join(map(singular, words)) in names
        lone = len(props) == 1 and key in _ONE_RECORD
        wrapped = named or lone or (listing and key in _WRAPPERS)
        inner = resolve(sub, root)
        if wrapped and isinstance(inner, Mapping) and _holds_records(inner, root):
            return _record_object(inner, noun, root, listing=listing, depth=depth + 1)
    return schema


def _holds_records(schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """Whether ``schema`` is an object with properties, or a list of them."""
    if schema.get("type") == "array" or "items" in schema:
        items = resolve(schema.get("items"), root)
        return isinstance(items, Mapping) and _holds_records(items, root)
    return isinstance(schema.get("properties"), Mapping) and bool(schema["properties"])


def _own_id(name: str, noun: str, profile: SpecProfile) -> bool:
    """Whether field ``name`` is the record's own id (``id``, ``order_id``): the store supplies it."""
    words = name_tokens(name)
    if name == profile.id_key(noun) or words in (["id"], ["uuid"]):
        return True
    return bool(words) and words[-1] in ("id", "uuid") and locator_noun(name) == noun


def _rule(
    name: str,
    schema: Mapping[str, Any],
    root: Mapping[str, Any],
    from_output: bool,
    profile: SpecProfile,
) -> FieldRule:
    """The rule of field ``name``; an id of another known entity notes that entity."""
    locator = argument_role(name, schema) == "locator"
    other = locator_noun(name) if locator else None
    id_noun = other if other is not None and other in profile.id_keys else None
    return FieldRule(name, schema, root, from_output, locator=locator, id_noun=id_noun)


def _output_rules(profile: SpecProfile, noun: str) -> dict[str, FieldRule]:
    """The fields the output schemas of ``noun``'s read tools declare for one record (its own id
    and a call-status ``status`` left out)."""
    rules: dict[str, FieldRule] = {}
    for tp in profile.tools.values():
        if tp.noun != noun or tp.tool.is_write or tp.output_schema is None:
            continue
        root = thaw(tp.output_schema)
        found = _record_object(root, noun, root, listing=tp.family == "list")
        props = found.get("properties") if isinstance(found, Mapping) else None
        for name, sub in (props or {}).items():
            sub = resolve(sub, root)
            if not isinstance(sub, Mapping) or name in rules or _own_id(name, noun, profile):
                continue
            if name == "status" and "ok" in (sub.get("enum") or ()):
                continue  # the call's own status, not the record's
            rules[name] = _rule(name, sub, root, True, profile)
    return rules


def _argument_rules(profile: SpecProfile, noun: str) -> dict[str, FieldRule]:
    """The fields ``noun``'s write tools set, as their arguments' schemas describe them
    (locators left out: they name a record, they set no field)."""
    rules: dict[str, FieldRule] = {}
    for tp in profile.tools.values():
        if tp.noun != noun or not tp.tool.is_write:
            continue
        root = thaw(tp.tool.parameters)
        for name, sub in tp.properties.items():
            sub = resolve(thaw(sub), root) if isinstance(sub, Mapping) else None
            if name in tp.locators or not isinstance(sub, Mapping) or name in rules:
                continue
            if _CONSTRAINING & set(sub) and argument_role(name, sub) != "locator":
                rules[name] = _rule(name, sub, root, False, profile)
    return rules


_RULES: dict[tuple[str, str], tuple[FieldRule, ...]] = {}
_LOCK = threading.Lock()


def field_rules(profile: SpecProfile, noun: str) -> tuple[FieldRule, ...]:
    """The fields of ``noun``'s records the spec describes, cached per spec. A field both an
    output schema and a write's argument describe must meet both (``allOf``)."""
    key = (profile.spec.content_hash, noun)
    found = _RULES.get(key)
    if found is None:
        outputs, arguments = _output_rules(profile, noun), _argument_rules(profile, noun)
        both = {
            name: _both(rule, arguments[name])
            for name, rule in outputs.items()
            if name in arguments
        }
        found = tuple({**arguments, **outputs, **both}.values())
        with _LOCK:
            if len(_RULES) > 4096:
                _RULES.clear()
            _RULES[key] = found
    return found


def _both(output: FieldRule, argument: FieldRule) -> FieldRule:
    """``output``'s rule held to ``argument``'s schema too (each part's local ``$ref`` read in its
    own root first; a nested one keeps the output's schema alone)."""
    if "$ref" in canonical_json(output.schema) + canonical_json(argument.schema):
        return output
    return replace(output, schema={"allOf": [dict(output.schema), dict(argument.schema)]})


def _target(record: Record, rule: FieldRule, noun: str) -> str | None:
    """The record's field that ``rule`` describes, or ``None``: the lifecycle field for a
    ``status``/``state`` field that holds a word; else the field of the same name, or for an argument the field
    it names after a setter's prefix (``new_priority``). Never a field of a similar name: a
    write's ``entities`` list is not the record's ``entity_status``, and the output maps its
    own fields (:mod:`whileai_env.world.output`)."""
    if rule.name in _STATUS_NAMES or rule.name == status_field(noun):
        if not _text(rule.schema):
            return None  # a status that is an object or a flag is not the lifecycle field
        key = status_field(noun)
    elif rule.from_output or rule.name in record:
        key = rule.name
    else:
        key = next((rule.name[len(p) :] for p in _SETTERS if rule.name.startswith(p)), "")
    return key if key in record else None


def _text(schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` holds a word: a string, or an enum of strings."""
    declared = schema.get("type")
    kinds = {declared} if isinstance(declared, str) else set(declared or ())
    options = schema.get("enum")
    if isinstance(options, list) and options:
        return all(isinstance(o, str) for o in options if o is not None)
    return not kinds or "string" in kinds


def _drawn(
    rule: FieldRule, hint: Any, c: RecordContext, noun: str, r: random.Random, person: int
) -> Any:
    """A value for ``rule``'s field valid against its schema, ``hint`` kept where it is valid
    (an enum's member spelt otherwise, ``open`` for ``OPEN``, taken as it); ``person`` seeds the
    one person a record's drawn names, emails and phones describe."""
    options = rule.schema.get("enum")
    if isinstance(hint, str) and isinstance(options, list):
        same = [o for o in options if isinstance(o, str) and o.lower() == hint.lower()]
        if same:
            return same[0]
    if rule.id_noun is not None:
        minted = c.id_for(rule.id_noun, r)
        if fits(minted, rule.schema, rule.root):
            return minted
    seed = r.getrandbits(64)
    scope = Scope(seed=seed, now=c.now, noun=noun, person_seed=person)
    kwargs: dict[str, Any] = {} if hint is None else {"hint": hint}
    return value_for(rule.schema, rule.name, scope, root=rule.root, locator=rule.locator, **kwargs)


def conformed(
    record: Record, rules: tuple[FieldRule, ...], c: RecordContext, noun: str, r: random.Random
) -> Record:
    """``record`` with every field the spec describes valid against its schema: a field that
    fits is kept, one that does not is redrawn in place with its value as the hint. An output
    field holding another entity's id is added in that entity's format; other fields the record
    lacks are left to the output layer (:mod:`whileai_env.world.output` stores a required one
    the first time a result needs it)."""
    if not rules:
        return record
    draws = random.Random(r.getrandbits(64))
    person = draws.getrandbits(64)
    for rule in rules:
        key = _target(record, rule, noun)
        if key is not None and not fits(record[key], rule.schema, rule.root):
            record[key] = _drawn(rule, record[key], c, noun, draws, person)
        elif key is None and rule.from_output and rule.id_noun is not None:
            record[rule.name] = _drawn(rule, None, c, noun, draws, person)
    return record


def spec_record(profile: SpecProfile, c: RecordContext, noun: str, r: random.Random) -> Record:
    """A fresh record of ``noun`` (without its id): the template's, conformed to the spec."""
    return conformed(build_record(c, noun, r), field_rules(profile, noun), c, noun, r)
