"""The entity store: which ids exist, what their records say, and what the episode changed.

Existence is decided once per id, in this order: created or deleted in the episode; the task's
plan (its ids exist, except in world state ``missing``); handed out by the world in an earlier
result; else by hash of the task and the id, ``exists_share`` of the time. Records are generated
on first touch from a hash of (seed, noun, id), so two tools reading one id see one record, and
every later write changes that record in place.

World states from the plan act on the plan's entities: ``already_done`` (the record shows the
done state, every write answers ``already_done``), ``duplicate`` (a second record with the same
id), ``partial`` (a half-written record; a write before any read corrupts it).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from whileai_env._util.frozen import copy_json
from whileai_env._util.hashing import unit
from whileai_env._util.lexicon import name_tokens
from whileai_env.world.naming import resolve_field, slug, status_field
from whileai_env.world.profile import SpecProfile, role_of
from whileai_env.world.record_fields import spec_record
from whileai_env.world.records import RecordContext, is_person, summary
from whileai_env.world.values import draw, holder, iso, person

_PERSONAL = ("email", "username", "phone", "handle", "login")
_BEFORE = {
    "unlock": "locked",
    "unfreeze": "frozen",
    "reactivate": "suspended",
    "activate": "inactive",
    "enable": "disabled",
    "reopen": "closed",
    "unarchive": "archived",
    "resume": "paused",
}


@dataclass
class Entity:
    """One record in the world and what the episode has done to it."""

    noun: str
    ident: str
    record: dict[str, Any]
    state: str = "normal"
    seen: bool = False
    corrupted: bool = False
    twin: dict[str, Any] | None = None
    missing_fields: tuple[str, ...] = ()
    owned: bool = True
    shown: bool = False
    source: list[Any] | None = None
    created: bool = False  # made by a create in this episode (a list of its noun shows it)
    written: tuple[str, ...] = ()  # fields a write set: a list shows them, so reads see writes

    def writable(self) -> dict[str, Any]:
        """The record, ready to change at the top level: a record shared with the cache is
        copied (shallowly; replace a nested value instead of changing it in place)."""
        if not self.owned:
            self.record = dict(self.record)
            self.owned = True
        return self.record

    def summary(self, noun: str) -> dict[str, Any]:
        """What a list shows of this entity (a copy), half-written when ``partial``."""
        shown = summary(self.record, noun)
        for name in self.written:
            if name in self.record:
                shown.setdefault(name, self.record[name])
        if self.state == "partial":
            shown = {k: v for k, v in shown.items() if k not in self.missing_fields}
            shown["incomplete"] = True
        return copy_json(shown)

    @property
    def status(self) -> Any:
        return self.record.get(status_field(self.noun))

    def view(self, id_key: str) -> dict[str, Any]:
        """What a read shows: a copy of the record, half-written when ``partial``."""
        out: dict[str, Any] = {id_key: self.ident} if id_key not in self.record else {}
        if self.state == "partial":
            for k, v in self.record.items():
                if k not in self.missing_fields:
                    out[k] = copy_json(v)
            out["state"] = "corrupted" if self.corrupted else "partially_completed"
            out["incomplete"] = True
            out["missing_fields"] = list(self.missing_fields)
            if self.corrupted:
                out["corrupted"] = True
            return out
        for k, v in self.record.items():
            out[k] = copy_json(v)
        return out

    def twin_view(self, id_key: str) -> dict[str, Any]:
        out = {id_key: self.ident}
        out.update(copy_json(self.twin or {}))
        return out


@dataclass
class PlanView:
    """The parts of a task's ``WorldPlan`` the store acts on."""

    state: str = "exists"
    values: dict[str, str] = field(default_factory=dict)  # id -> locator argument name
    targets: tuple[str, ...] = ()
    details: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    stated: frozenset[str] = frozenset()
    nouns: dict[str, str] = field(default_factory=dict)  # id -> the noun it names
    #: The seed of the task's person (``None`` without a task): the plan's own person record
    #: carries that person's name, email and phone, so what the user says of themselves is
    #: what a lookup shows.
    person_seed: int | None = None


_CACHE_SIZE = 20_000
_BUILT: dict[
    tuple[str, str, str], list[Any]
] = {}  # key -> [record, its ids (worked out when first shown)]
_SAMPLES: dict[tuple[str, str], dict[str, Any]] = {}


def clear_cache() -> None:
    """Forget every cached record (each world then generates its records afresh)."""
    _BUILT.clear()


def _ids_in(obj: Any, key: str, out: list[str]) -> list[str]:
    """Every id-like value inside ``obj`` (a value under a locator-named key)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if type(v) in (str, int):
                if role_of(k) == "locator":
                    out.append(str(v))
            elif isinstance(v, dict | list):
                _ids_in(v, k, out)
    elif isinstance(obj, list):
        for v in obj:
            if type(v) in (str, int):
                if key and role_of(key) == "locator":
                    out.append(str(v))
            else:
                _ids_in(v, key, out)
    return out


def named_ids(value: Any) -> list[str]:
    """The ids a locator's value names: a string or an integer, or each one a list holds.

    A list of ids or paths (``seed_ids=[...]``, ``paths=[...]``) names every item as a single
    locator names its one id, so the plan states them, the store decides each one's existence
    and a read finds each one missing or there alike.
    """
    items = value if isinstance(value, list) else [value]
    return [str(v) for v in items if type(v) in (str, int)]


#: The roles of a record's person who asked for it or holds it: the task's person, on the
#: task's own order, ticket or booking (an assignee or a recipient is someone else).
_OWNER_ROLES = frozenset(
    {
        "customer",
        "requester",
        "requestor",
        "reporter",
        "client",
        "buyer",
        "purchaser",
        "member",
        "patient",
        "guest",
        "submitter",
        "account",
        "holder",
        "passenger",
        "traveler",
        "traveller",
    }
)
_CONTACT = {"email": "email", "mail": "email", "name": "name", "phone": "phone", "mobile": "phone"}


def _owned_by(record: dict[str, Any], who: Mapping[str, str]) -> None:
    """The task's person is the one who holds or asked for the task's record: its
    ``customer_email``, ``reporter_name``, ``customer: {email, name}`` are theirs (a user verified
    by email against their own order met another person's address on it, 7 of 7 tasks)."""
    for key, value in list(record.items()):
        words = name_tokens(key)
        if isinstance(value, dict) and words and words[-1] in _OWNER_ROLES:
            inner = dict(value)
            _owned_fields(inner, who, lambda w: w)
            record[key] = inner
        elif len(words) >= 2 and words[0] in _OWNER_ROLES and isinstance(value, str):
            _owned_fields(record, who, lambda w: w[1:], only=key)


def _owned_fields(
    record: dict[str, Any], who: Mapping[str, str], rest: Any, only: str | None = None
) -> None:
    """Set the contact fields of ``record`` (each read by ``rest`` of its words) to ``who``'s."""
    for key in [only] if only is not None else list(record):
        words = rest(name_tokens(key))
        if not isinstance(record.get(key), str) or not words or words[-1] not in _CONTACT:
            continue
        kind = _CONTACT[words[-1]]
        if kind == "name" and words[:1] in (["first"], ["given"]):
            kind = "first_name"
        elif kind == "name" and words[:1] in (["last"], ["family"], ["sur"]):
            kind = "last_name"
        record[key] = who[kind]


@lru_cache(maxsize=1024)
def _personal_field(id_key: str) -> str:
    """The record field an email/username-like id key fills (``customer_email`` → ``email``)."""
    last = name_tokens(id_key)[-1:]
    return last[0] if last and last[0] in _PERSONAL else ""


class Store:
    """Entities of one episode. Not thread-safe: one world per rollout.

    Freshly generated records are shared across worlds with the same ``signature`` (spec,
    options, world key) through a bounded cache, and copied on use: the k rollouts of one task
    pay for each record once.
    """

    def __init__(
        self,
        *,
        key: str,
        ctx: RecordContext,
        spec: SpecProfile,
        exists_share: float,
        plan: PlanView,
        now: int,
        signature: str = "",
        record_key: str | None = None,
    ) -> None:
        self.key = key
        self.record_key = key if record_key is None else record_key
        self.signature = signature
        self.ctx = ctx
        self.spec = spec
        self.exists_share = exists_share
        self.plan = plan
        self.now = now
        self.override: dict[str, bool] = {}
        self.known: set[str] = set()
        self.entities: dict[tuple[str, str], Entity] = {}
        self.files: dict[str, str] = {}
        self._exists: dict[str, bool] = {}

    def copy(self) -> Store:
        """A copy whose changes never reach this store (records shared with the cache stay shared
        until written, as in any store)."""
        other = copy.copy(self)
        other.override = dict(self.override)
        other.known = set(self.known)
        other.files = dict(self.files)
        other._exists = dict(self._exists)
        other.entities = {k: _copy_entity(e) for k, e in self.entities.items()}
        return other

    # -- existence -------------------------------------------------------------------------

    def exists(self, value: Any) -> bool:
        """Whether the id ``value`` names something in this world."""
        text = value if type(value) is str else str(value)
        found = self.override.get(text)
        if found is not None:
            return found
        cached = self._exists.get(text)
        if cached is not None:
            return cached
        if text in self.plan.values:
            result = self.plan.state != "missing"
        elif text in self.known or text in self.plan.stated:
            result = True  # shown by the world, or another record the person names in passing
        else:
            result = unit(self.key, "exists", text) < self.exists_share
        self._exists[text] = result
        return result

    def is_known(self, value: Any) -> bool:
        """Whether ``value`` was handed out by the world or stated by the task's user."""
        text = str(value)
        return text in self.known or text in self.plan.stated or text in self.override

    def register(self, obj: Any) -> None:
        """Remember every id-like value inside ``obj`` as existing (the world showed it)."""
        self._register_ids(_ids_in(obj, "", []))

    def show(self, ent: Entity) -> None:
        """``ent``'s record is being shown to the agent: the ids in it exist from now on."""
        if ent.shown:
            return
        ent.shown = True
        if ent.owned or ent.source is None:
            self.register(ent.record)
        else:
            if ent.source[1] is None:
                ent.source[1] = tuple(_ids_in(ent.record, "", []))
            self._register_ids(ent.source[1])
        if ent.twin is not None:
            self.register(ent.twin)

    def _register_ids(self, ids: Iterable[str]) -> None:
        hidden = self.plan.state == "missing"
        for text in ids:
            if text not in self.override and not (hidden and text in self.plan.values):
                self.known.add(text)
                self._exists.pop(text, None)

    def build(self, noun: str, ident: str, salt: str = "record") -> dict[str, Any]:
        """A fresh record of ``noun``/``ident``. The dict may be shared with other worlds: copy
        it (or use :meth:`Entity.writable`) before changing it."""
        return self._built(noun, ident, salt)[0]

    def _built(self, noun: str, ident: str, salt: str) -> list[Any]:
        cache_key = (self.signature, f"{salt}|{noun}", ident)
        found = _BUILT.get(cache_key) if self.signature else None
        if found is None:
            found = [
                spec_record(self.spec, self.ctx, noun, draw(self.record_key, salt, noun, ident)),
                None,
            ]
            if self.signature:
                if len(_BUILT) >= _CACHE_SIZE:
                    for old in list(_BUILT)[: _CACHE_SIZE // 4]:
                        _BUILT.pop(old, None)
                _BUILT[cache_key] = found
        return found

    # -- entities --------------------------------------------------------------------------

    def entity(self, noun: str, ident: Any) -> Entity:
        """The entity ``noun``/``ident``, generating its record on first touch."""
        text = ident if type(ident) is str else str(ident)
        ent = self.entities.get((noun, text))
        if ent is None:
            ent = self._make(noun, text)
            self.entities[(noun, text)] = ent
        return ent

    def peek(self, noun: str, ident: Any) -> Entity | None:
        return self.entities.get((noun, str(ident)))

    def create(self, noun: str, ident: Any, record: dict[str, Any]) -> Entity:
        """Add a new entity (an agent's create, or a list item with the filter applied)."""
        text = str(ident)
        ent = Entity(noun=noun, ident=text, record=record, created=True)
        self.entities[(noun, text)] = ent
        self.override[text] = True
        return ent

    def created(self, noun: str) -> list[str]:
        """The ids of ``noun`` records this episode created, oldest first."""
        return [e.ident for e in self.entities.values() if e.created and e.noun == noun]

    def remove(self, ent: Entity) -> None:
        """Delete ``ent``: later reads answer ``not_found``."""
        self.entities.pop((ent.noun, ent.ident), None)
        self.override[ent.ident] = False

    def sample(self, noun: str) -> dict[str, Any]:
        """A throwaway record of ``noun``, to learn its field names and types (one per spec)."""
        key = (self.spec.spec.content_hash, noun)
        found = _SAMPLES.get(key)
        if found is None:
            found = _SAMPLES[key] = spec_record(self.spec, self.ctx, noun, draw("sample", noun))
        return found

    def field_for(self, noun: str, arg: str) -> str | None:
        """The field of ``noun`` records that argument ``arg`` means."""
        return resolve_field(self.sample(noun), arg)

    def rng_for(self, *parts: str) -> random.Random:
        return draw(self.key, *parts)

    def _make(self, noun: str, ident: str) -> Entity:
        source = self._built(noun, ident, "record")
        record = source[0]
        personal = _personal_field(self.spec.id_key(noun))
        if personal in record and record[personal] != ident:
            record = copy_json(record)
            record[personal] = ident
        ent = Entity(
            noun=noun, ident=ident, record=record, owned=record is not source[0], source=source
        )
        if ident in self.plan.values:
            self._apply_plan(ent)
        return ent

    # -- plan states -------------------------------------------------------------------------

    def done_status(self, noun: str) -> str | None:
        """The status a done write leaves on ``noun`` (``cancelled`` after ``cancel_order``)."""
        for name in self.plan.targets:
            tp = self.spec.tools.get(name)
            if (
                tp is not None
                and tp.done
                and tp.primary is not None
                and tp.nouns[tp.primary] == noun
            ):
                return self.adapt_status(noun, tp.done)
        for tp in self.spec.tools.values():
            if (
                tp.done
                and tp.primary is not None
                and tp.nouns[tp.primary] == noun
                and not tp.removes
            ):
                return self.adapt_status(noun, tp.done)
        return None

    def adapt_status(self, noun: str, candidates: Iterable[str]) -> str:
        """The first of ``candidates`` the spec uses for ``noun``, else the first candidate."""
        options = tuple(candidates)
        pool = self.spec.statuses.get(noun, ())
        return next((c for c in options if c in pool), options[0])

    def _apply_plan(self, ent: Entity) -> None:
        state = self.plan.state
        field_name = status_field(ent.noun)
        record = ent.writable()
        if state == "already_done":
            ent.state = "already_done"
            done = self.done_status(ent.noun) or "completed"
            record[field_name] = done
            record["updated_at"] = iso(
                self.now - 3600 * (2 + int(unit(self.key, "done-at", ent.ident) * 70))
            )
        elif field_name in record:
            blocked: set[str] = set()
            for name in self.plan.targets:
                tp = self.spec.tools.get(name)
                if tp is not None and tp.done:
                    blocked.update(tp.done)
                if tp is not None and tp.is_write and tp.kind != "create" and state == "exists":
                    # a record the task's write is to act on is not already over (a cancelled
                    # order read before a return, which the prompt says to check, stops the task)
                    blocked.update(_OVER)
            if record[field_name] in blocked:
                record[field_name] = self._actionable_status(ent.noun, blocked)
                if "locked" in record:
                    record["locked"] = record[field_name] == "locked"
        if state == "duplicate":
            ent.state = "duplicate"
            ent.twin = self.build(ent.noun, ent.ident, "twin")
        elif state == "partial":
            ent.state = "partial"
            fields = [k for k in record if k != field_name]
            r = draw(self.key, "partial", ent.ident)
            r.shuffle(fields)
            ent.missing_fields = tuple(sorted(fields[: max(1, len(fields) // 2)]))
        if is_person(ent.noun) and state != "missing":
            self._link_plan_ids(ent.noun, record)
            self._as_the_person(ent, record)
        elif state != "missing" and self.plan.person_seed is not None:
            _owned_by(record, holder(self.plan.person_seed))
        self._apply_details(ent)

    def _as_the_person(self, ent: Entity, record: dict[str, Any]) -> None:
        """The plan's first person record describes the task's person: their name, email and
        phone (a field that holds the record's own id, an email it was looked up by, stays)."""
        seed = self.plan.person_seed
        first = next((i for i, n in self.plan.nouns.items() if is_person(n)), None)
        if seed is None or ent.ident != first:
            return
        who = holder(seed)
        own = _personal_field(self.spec.id_key(ent.noun))
        for key, value in (*who.items(), ("full_name", who["name"])):
            if key in record and key != own and record[key] != ent.ident:
                record[key] = value

    def _link_plan_ids(self, noun: str, record: dict[str, Any]) -> None:
        """The plan's person owns the plan's other entities: its ``reservation_ids`` list them."""
        for other in self.ctx.related.get(noun, ()):
            mine = [v for v, n in self.plan.nouns.items() if n == other]
            key = f"{slug(other)}_ids"
            if mine and isinstance(record.get(key), list):
                rest = [i for i in record[key] if i not in mine]
                record[key] = mine + rest[: max(0, len(record[key]) - 1)]

    def _actionable_status(self, noun: str, blocked: set[str]) -> str:
        """A status a plan's write can still act on (``locked`` for an unlock, ``open`` for a close)."""
        for name in self.plan.targets:
            tp = self.spec.tools.get(name)
            if tp is not None and tp.verb in _BEFORE:
                return _BEFORE[tp.verb]
        pool = [s for s in self.spec.statuses.get(noun, ()) if s not in blocked]
        return (
            pool[0]
            if pool
            else next(s for s in ("open", "pending", "active", "processing") if s not in blocked)
        )

    def _apply_details(self, ent: Entity) -> None:
        """Make the record fit what the task's user states: the facts a check compares (date of
        birth …) are true, an index a write names (``passenger_index``) is in range, and an
        update already done holds the values it asks for."""
        record = ent.writable()
        for name in self.plan.targets:
            tp = self.spec.tools.get(name)
            if tp is None or tp.primary is None or tp.nouns.get(tp.primary) != ent.noun:
                continue
            for arg, value in (self.plan.details.get(name) or {}).items():
                if tp.family == "check":
                    set_checked_fact(record, arg, value)
                elif self.plan.state == "already_done" and tp.kind == "update" and not tp.done:
                    # the change was made before: the record already holds what is asked for
                    record[resolve_field(record, arg) or arg] = copy_json(value)
                elif arg.endswith("_index") and type(value) is int:
                    _grow_list(
                        record, arg[: -len("_index")], value + 1, draw(self.key, "grow", ent.ident)
                    )


#: Statuses a record is over in: no write but a reopen acts on it.
_OVER = frozenset(
    {
        "cancelled",
        "canceled",
        "deleted",
        "archived",
        "voided",
        "void",
        "closed",
        "expired",
        "refunded",
    }
)


def _copy_entity(ent: Entity) -> Entity:
    out = copy.copy(ent)
    if ent.owned:
        out.record = copy.deepcopy(ent.record)
    if ent.twin is not None:
        out.twin = copy.deepcopy(ent.twin)
    return out


def _grow_list(record: dict[str, Any], name: str, size: int, r: random.Random) -> None:
    """Give the list field ``name`` (``passengers`` for ``passenger``) at least ``size`` items."""
    field_name = resolve_field(record, name)
    items = record.get(field_name) if field_name else None
    if isinstance(items, list) and items and isinstance(items[-1], dict) and len(items) < size:
        record[field_name] = items = copy_json(items)  # type: ignore[index]
        while len(items) < min(size, 20):
            item = copy_json(items[-1])
            who = person(r)
            for key, value in (
                ("first_name", who.first),
                ("last_name", who.last),
                ("name", who.name),
            ):
                if key in item:
                    item[key] = value
            items.append(item)


def set_checked_fact(record: dict[str, Any], arg: str, value: Any, *, add: bool = True) -> bool:
    """Store ``value`` of check argument ``arg`` (``phone_last4`` sets the phone's last digits)
    so a later comparison with it succeeds; ``False`` when no field fits and ``add`` is off."""
    words = name_tokens(arg)
    if words[-2:] == ["last", "4"] or words[-1:] == ["last4"]:
        base = "_".join(w for w in words if w not in ("last", "4", "last4"))
        target = resolve_field(record, base) if base else None
        if (
            target
            and isinstance(record.get(target), str)
            and len(str(value)) <= len(record[target])
        ):
            record[target] = record[target][: -len(str(value))] + str(value)
            return True
        return False
    target = resolve_field(record, arg)
    if target is None and not add:
        return False
    record[target or arg] = copy.deepcopy(value)
    return True
