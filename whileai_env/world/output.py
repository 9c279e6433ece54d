"""A result shaped by the tool's output schema, read from the one entity store.

The world first builds its usual result (a record, a list, a write's echo); this module fits it
to the declared output schema without making a second model of the world:

- a declared field takes the stored record's value (the same name, a matching field, or for a
  ``status``/``state``-named field the entity's one status field), so a read never shows two
  statuses or a value the store does not hold;
- a list's items are read from the records they name, so a list and a get agree;
- an ``ok``/``success`` flag says what happened: the call succeeded (a failure is an error
  result, never an ok one with ``success: false``);
- a field the schema requires and the store does not hold is drawn once and added to the stored
  record (on reads and creates), so a later read returns the same value, never a redrawn one.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.lexicon import VERB_KINDS, name_tokens, past_forms, plural
from whileai_env.world.naming import status_field
from whileai_env.world.profile import SpecProfile
from whileai_env.world.schema_values import fits, hint_for, resolve
from whileai_env.world.store import Entity, Store

_OK_WORDS = frozenset({"ok", "success", "succeeded", "successful"})
_STATUS_WORDS = frozenset({"status", "state"})


@dataclass
class StoreReader:
    """Finds the stored entity a part of a result is about, and reads its fields."""

    store: Store
    spec: SpecProfile
    args: Mapping[str, Any] = field(default_factory=dict)

    def entity_of(self, obj: Any) -> Entity | None:
        """The stored entity whose id ``obj`` (a dict of a result) carries under its id key; of
        several (a record that names its base), not one the call named as an argument (the
        base a list was asked for is the parent of its items, not what an item is)."""
        if not isinstance(obj, Mapping):
            return None
        parent = None
        for (noun, ident), ent in self.store.entities.items():
            key = self.spec.id_key(noun)
            if key in obj and str(obj[key]) == ident:
                if str(self.args.get(key)) != ident:
                    return ent
                parent = parent or ent
        return parent

    def source(self, obj: Mapping[str, Any], ent: Entity | None) -> dict[str, Any]:
        """What a declared field may read: the entity's stored view, with ``obj`` over it."""
        if ent is None:
            return dict(obj)
        return {**ent.view(self.spec.id_key(ent.noun)), **obj}


def is_ok_flag(name: str, schema: Any, *, writes: bool, tool: str = "") -> bool:
    """A boolean field that says whether the call succeeded: ``ok``, ``success``,
    ``is_success``, a write's yes/no status of what it did (``added_status`` of ``add_contact``;
    a read's ``login_status`` is a fact about the world, not the call's outcome), or the past
    form of the write's own verb (``renamed`` of ``rename-collection``, ``dropped`` of
    ``drop-database``; an ``archived`` field of ``unarchive_card`` is the record's state).

    >>> is_ok_flag("renamed", {"type": "boolean"}, writes=True, tool="rename-collection")
    True
    """
    words = name_tokens(name)
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    boolean = kind == "boolean" or (isinstance(kind, list) and "boolean" in kind)
    if not boolean or not words:
        return False
    flag = bool(set(words) & _OK_WORDS) and set(words) <= _OK_WORDS | {"is", "was"}
    done = _own_past_forms(tool) if writes else frozenset()
    own = bool(set(words) & done) and set(words) <= done | {"is", "was", "successfully"}
    return flag or own or (writes and words[-1] in _STATUS_WORDS)


def _own_past_forms(tool: str) -> frozenset[str]:
    """The past forms of the verbs that change the world in a tool's name (``rename`` of
    ``rename-collection``: "renamed")."""
    writing = {v for kind in ("create", "update", "delete") for v in VERB_KINDS[kind]}
    return frozenset(f for w in name_tokens(tool) if w in writing for f in past_forms(w))


def _is_status_name(name: str, noun: str) -> bool:
    """``status``/``state``, or the entity's own ``<noun>_status`` (not a ``mention_status``)."""
    words = name_tokens(name)
    if not words or words[-1] not in _STATUS_WORDS:
        return False
    return len(words) == 1 or words[:-1] == name_tokens(noun)


def _holds_text(schema: Any) -> bool:
    """Whether a field of ``schema`` may hold a string (a status word, not an object of states)."""
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    return kind is None or kind == "string" or (isinstance(kind, list) and "string" in kind)


_FAILURE_WORDS = frozenset({"failure", "failures", "failed", "error", "errors", "rejected"})
_TALLY_WORDS = frozenset({"success", "succeeded", "successful", "total", "requested", "processed"})
#: What a write's list of ids done is named: the past form of any verb that changes the world
#: (``completed``, ``deleted``, ``rescheduled``), read off the package's one lexicon.
_DONE_WORDS = frozenset(
    form
    for kind in ("create", "update", "delete")
    for verb in VERB_KINDS[kind]
    for form in past_forms(verb)
)
#: Names of a field that holds the one record a result is about.
_RECORD_WRAPPERS = frozenset({"object", "record", "item", "entity", "resource"})
#: Names of the field that holds a call's whole answer (``{"result": {...}}``).
_ANSWERS = frozenset({"result", "response", "data"})


def _asked_ids(args: Mapping[str, Any]) -> list[Any]:
    """The ids a batch write was given: its first argument that is a list of ids or strings."""
    for name, value in args.items():
        words = name_tokens(name)
        listed = isinstance(value, list) and value and all(type(v) in (str, int) for v in value)
        if listed and (words[-1:] in (["ids"], ["id"], ["keys"]) or len(words) == 1):
            return value
    return []


def _holds_record(name: str, schema: Any, noun: str) -> bool:
    """A declared object field that is the record itself: named as the record's noun (``table``
    of a table) or as a record in general (``object``, ``record``)."""
    if not isinstance(schema, Mapping):
        return False
    objects = [schema, *(b for k in ("anyOf", "oneOf") for b in schema.get(k) or ())]
    if not any(
        isinstance(b, Mapping) and ("properties" in b or b.get("type") == "object") for b in objects
    ):
        return False
    words = name_tokens(name)
    return (
        name in _RECORD_WRAPPERS or name in _ANSWERS or (bool(words) and words == name_tokens(noun))
    )


#: Names of a declared list that holds what the call was about (``response``, ``results``).
_LISTINGS = _ANSWERS | {"results", "items", "records", "entries"}


def _lists_records(name: str, schema: Any, noun: str, root: Mapping[str, Any]) -> bool:
    """A declared list of records that is the answer itself: named as a listing or as the
    noun's plural (``incidents``), its items objects. An ``assignments`` list is a field."""
    items = _item_schema(schema, root)
    if not isinstance(items, Mapping) or not (
        "properties" in items or items.get("type") == "object"
    ):
        return False
    words = name_tokens(name)
    return name in _LISTINGS or (bool(words) and words == name_tokens(plural(noun)))


def _norm(value: Any) -> str:
    return re.sub(r"[^a-z0-9]", "", str(value).lower()).replace("canceled", "cancelled")


def _in_enum(value: Any, schema: Any) -> Any:
    """``value`` as the schema's enum spells it (``"closed"`` → ``"CLOSED"``), else ``value``."""
    enum = schema.get("enum") if isinstance(schema, Mapping) else None
    if not isinstance(enum, list) or value in enum:
        return value
    return next((e for e in enum if _norm(e) == _norm(value)), value)


def _properties(schema: Any) -> Mapping[str, Any]:
    found = schema.get("properties") if isinstance(schema, Mapping) else None
    return found if isinstance(found, Mapping) else {}


def _item_schema(schema: Any, root: Mapping[str, Any]) -> Any:
    """The items schema of an array schema (``None`` when ``schema`` is no array)."""
    schema = resolve(schema, root)
    if not isinstance(schema, Mapping):
        return None
    if schema.get("type") == "array" or "items" in schema:
        return resolve(schema.get("items"), root)
    return None


class Hinter:
    """Builds the hint a schema walk prefers: every declared field the store can answer."""

    def __init__(
        self,
        reader: StoreReader,
        root: Mapping[str, Any],
        args: Mapping[str, Any],
        writes: bool,
        tool: str = "",
    ) -> None:
        self.reader = reader
        self.root = root
        self.args = args
        self.writes = writes
        self.tool = tool

    def hint(self, schema: Any, obj: Any, ent: Entity | None, *, top: bool = True) -> Any:
        """``obj`` (the world's result, or a part) with the declared fields the store holds."""
        schema = resolve(schema, self.root)
        items_schema = _item_schema(schema, self.root)
        if items_schema is not None and isinstance(obj, Mapping):
            listed = obj.get("items")
            return self.items(items_schema, listed) if isinstance(listed, list) else obj
        if not isinstance(obj, Mapping):
            return obj
        source = self.reader.source(obj, ent)
        out = dict(obj)
        for name, sub in _properties(schema).items():
            if top and name not in obj and name in self.args:
                obj = {**obj, name: self.args[name]}  # a field named as an argument echoes it
            found = self.field(name, resolve(sub, self.root), obj, source, ent)
            if found is not None:
                out[name] = found
        return out

    def items(self, schema: Any, listed: list[Any]) -> list[Any]:
        return [self.hint(schema, item, self.reader.entity_of(item), top=False) for item in listed]

    def field(
        self,
        name: str,
        schema: Any,
        obj: Mapping[str, Any],
        source: Mapping[str, Any],
        ent: Entity | None,
    ) -> Any:
        """The value the store gives declared field ``name`` (``obj`` first, then the stored
        view ``source``), or ``None``."""
        if is_ok_flag(name, schema, writes=self.writes, tool=self.tool):
            return True  # before the payload: a write's ``insurance_status`` flag is no status word
        if name in obj:
            return obj[name]
        outcome = self._outcome(name, schema) if self.writes else None
        if outcome is not None:
            return outcome
        if name == "id" and ent is not None and "id" not in source:
            # a bare ``id`` of a record the world keys by ``recordId``: that record's own id
            found: Any = ent.ident
            if type(found) is str and not fits(found, schema, self.root) and found.isdigit():
                found = int(found)
            return found if fits(found, schema, self.root) else None
        if name_tokens(name)[-1:] in (["status"], ["state"]) and _holds_text(schema):
            # a status is the entity's own or another thing's (``mention_status``): never a near name
            own = ent is not None and _is_status_name(name, ent.noun)
            found = source.get(status_field(ent.noun)) if own and ent is not None else None
        else:
            found = hint_for(source, name)
        if found is not None:
            found = _in_enum(found, schema)
            if type(found) is int and not fits(found, schema, self.root):
                found = str(found)  # a numeric id a string field declares is its digits
            if fits(found, schema, self.root):
                return found  # a near name that does not fit is no answer
        if isinstance(obj.get("items"), list):
            items_schema = _item_schema(schema, self.root)
            if items_schema is not None:  # the declared list (``records``) is the listing
                return self.items(items_schema, obj["items"])
        if ent is not None and _holds_record(name, schema, ent.noun):
            # ``{"object": {...}}`` of ``fetch_object``, ``{"table": {...}}`` of ``describe_table``
            return {"id": ent.ident, **source} if "id" not in source else dict(source)
        if self.writes and ent is not None and _lists_records(name, schema, ent.noun, self.root):
            return self._written(schema, obj, ent)
        return None

    def _written(self, schema: Any, obj: Mapping[str, Any], ent: Entity) -> list[Any]:
        """The records a write changed, in a declared list of them (``response`` of
        ``manage_incidents``): each id the call named, as the store now holds it."""
        key = self.reader.spec.id_key(ent.noun)
        idents = obj.get("updated_ids") or [ent.ident]
        found = [self.reader.store.peek(ent.noun, i) for i in idents]
        listed = [e.view(key) for e in found if e is not None]
        return self.items(_item_schema(schema, self.root), listed)

    def _outcome(self, name: str, schema: Any) -> Any:
        """What a successful write's tally field says: no failures, every item asked for done,
        and the ids done the ones the call gave (``completed``, ``deletedIds``)."""
        words = set(name_tokens(name))
        kind = schema.get("type") if isinstance(schema, Mapping) else None
        asked = _asked_ids(self.args)
        if words & _FAILURE_WORDS:
            if kind == "array":
                return []
            if kind in ("integer", "number"):
                return 0
            return None
        if kind in ("integer", "number") and words & _TALLY_WORDS:
            return len(asked) or 1
        items = resolve(schema.get("items"), self.root) if kind == "array" else None
        done = words & _DONE_WORDS or bool(words & {"id", "ids"})
        if asked and done and isinstance(items, Mapping) and items.get("type") == "string":
            return [str(a) for a in asked]
        return None


def keep_drawn(
    value: Any,
    hint: Any,
    ent: Entity | None,
    reader: StoreReader,
    echoed: Mapping[str, Any] | None = None,
) -> None:
    """Add to the stored records the fields the walk drew that the store did not hold, so a
    later read shows the same values (never redrawn); a drawn status replaces the record's
    own status field (one status per entity), except on the task's own entities. ``echoed``:
    the arguments of a create, whose declared fields it echoes (``fields`` of a new record) and
    which a later read of that record shows too."""
    if isinstance(value, list) and isinstance(hint, list):
        for item, item_hint in zip(value, hint, strict=False):
            keep_drawn(item, item_hint, reader.entity_of(item), reader)
        return
    if ent is None or not isinstance(value, dict) or not isinstance(hint, Mapping):
        return
    record = ent.record
    own_status = status_field(ent.noun)
    planned = ent.ident in reader.store.plan.values
    for name, drawn in value.items():
        if name in hint and hint[name] == drawn and not (echoed and name in echoed):
            continue
        if _is_status_name(name, ent.noun) and own_status in record and isinstance(drawn, str):
            if not planned and name not in record:
                ent.writable()[own_status] = drawn
            continue
        if name not in record and hint_for(record, name) is None:
            ent.writable()[name] = copy.deepcopy(drawn)
