"""What the person of a task knows, as they would say it: the facts a simulated user gives when asked.

The person knows what the task holds: the ids it is about (also the ones a vague ask left out),
the details it states, the request itself ("cancel order 4412 because it arrived damaged"), and
their own data (name, email, phone, date of birth, address), drawn by hash of the task so every
turn says the same. Asked for another argument of the spec's tools (a reason, a date, a
priority), they give the value the planner would have stated for it. They do not know ids the
task does not hold, nor a record's state (its status, balance, total): that is the agent's to
look up. Everything follows from the spec's names and schemas and the task's plan.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from whileai_env._util.hashing import rng, stable_hash
from whileai_env._util.lexicon import name_tokens, short_form, singular
from whileai_env.spec.arguments import argument_role, entity_noun
from whileai_env.world.values import holder
from whileai_env.writer.action import build_action
from whileai_env.writer.spoken import spoken_id, spoken_value
from whileai_env.writer.tool_phrasing import tool_names, tool_words
from whileai_env.writer.vocabulary import ID_WORDS, PERSONAL_FACTS

if TYPE_CHECKING:
    from whileai_env.scenarios.task import Task
    from whileai_env.spec.load import Spec, Tool


@dataclass(frozen=True)
class Fact:
    """One thing the person knows: its ``key`` (an argument name or a personal attribute), what
    it is called (``label``: "order number", "date of birth"), its value as said, and whether it
    is the id of a record (said with its noun: "order 4412")."""

    key: str
    label: str
    value: str
    entity: bool = False
    #: What the field's own schema calls it, when its description is a short name ("Title of
    #: the event" for ``summary``): a question may use that name.
    described: str = ""

    @property
    def said(self) -> str:
        """The fact as the person says it: "order 4412", a bare email, "1984-03-12"."""
        if not self.entity or "@" in self.value or "/" in self.value:
            return self.value
        noun = self.label.rsplit(" ", 1)[0] if self.label.split()[-1] in ID_WORDS else self.label
        return f"{noun} {self.value}" if noun and noun != "record" else self.value


@lru_cache(maxsize=4096)
def _words(text: str) -> tuple[str, ...]:
    """The singular words of a label or question subject, each in its short form (a question's
    "repository" is a field's ``repo``; kept: every follow-up of every episode compares the same
    few labels again)."""
    return tuple(short_form(singular(w)) for w in name_tokens(text.replace("#", " number ")))


def _short_name(schema: Any) -> str:
    """A field's description when it is a name, not a sentence ("Title of the event", "Event
    location"): at most five words, no sentence punctuation; else ``""``."""
    text = schema.get("description") if isinstance(schema, Mapping) else None
    if not isinstance(text, str):
        return ""
    text = text.strip().rstrip(".")
    return text if 0 < len(text.split()) <= 5 and not re.search(r"[,;:()?!.]", text) else ""


#: The personal facts the person's own record holds (:func:`~whileai_env.world.values.holder`).
_HOLDER_FACTS = {
    "name": "name",
    "first name": "first_name",
    "last name": "last_name",
    "email": "email",
    "phone number": "phone",
}


#: A question about what something says or holds ("What should the message say?").
_SAYING = frozenset({"say", "said", "contain", "read", "write", "wording"})
#: The fields such a question, or a "when" question, asks for.
_TEXT_FIELDS = frozenset({"content", "body", "text", "message", "note", "description"})
_TIME_FIELDS = frozenset({"date", "time", "timestamp", "datetime", "at", "due", "deadline", "when"})
#: A question for the change itself ("What values do you want me to set?"): the task's details.
_CHANGE_WORDS = frozenset({"value", "change", "field", "setting", "detail", "update"})
#: Names of an argument that holds a write's changes (``update``, ``patch``, ``fields`` …).
_CHANGE_KEYS = frozenset({"patch", "set", "data", "properties", "attribute", "modification"})


def _nested_facts(name: str, value: Any, schema: Any, known: list[Fact]) -> list[Fact]:
    """The fields of a stated record (``properties: {"amount": 805.77, "dealname": …}``), each a
    fact of its own, so a question about one of them gets its value."""
    if not isinstance(value, Mapping):
        return []
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    out = []
    for key, inner in value.items():
        sub = props.get(key) if isinstance(props, Mapping) else None
        said = spoken_value(inner, sub)
        if said and not isinstance(inner, Mapping | list) and all(f.key != key for f in known):
            out.append(Fact(str(key), " ".join(name_tokens(str(key))), said))
    return out


@lru_cache(maxsize=4096)
def _names(key: str, label: str, entity: bool, described: str = "") -> frozenset[tuple[str, ...]]:
    """Every way a question may name a fact: its label, its argument's words, what its schema
    calls it ("title of the event", and its head, "title"), and for an id its noun with or
    without an id word ("order", "order number", "order id"); kept per fact."""
    names = {_words(label), _words(key.replace("_", " "))}
    if described:
        names |= {_words(described), _words(re.split(r"\s+of\s+", described, maxsplit=1)[0])}
    if entity:
        noun = _words(entity_noun(key))
        names |= {noun} | {(*noun, w) for w in ID_WORDS}
    for attribute, synonyms in PERSONAL_FACTS.items():
        if _words(label) == _words(attribute):
            names |= {_words(s) for s in synonyms}
    return frozenset(n for n in names if n)


def _runs_in(name: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """Whether ``name``'s words come one after another in ``words`` ("object type" in "want the
    object type to be", where "to object type" is not)."""
    width = len(name)
    return any(words[i : i + width] == name for i in range(len(words) - width + 1))


def _match(
    subject: tuple[str, ...], names: frozenset[tuple[str, ...]] | set[tuple[str, ...]]
) -> int:
    """How well a question's subject names a fact: 3 exactly, 2 when a name's words are all in
    it ("new shipping address" holds "new address"), 1 when its words are all in a name
    ("number" in "order number"); 0 not."""
    best, asked = 0, set(subject)
    for name in names:
        if subject == name:
            return 3
        if set(name) <= asked:
            best = max(best, 2)
        elif asked <= set(name):
            best = max(best, 1)
    return best


class Person:
    """The person of one task: :meth:`recall` a fact by what a question calls it, :meth:`request`
    for what they want done. ``spec`` shapes values and phrases the request; without it the
    person still knows the task's ids and details."""

    def __init__(self, task: Task, spec: Spec | None = None) -> None:
        self.task = task
        self.spec = spec
        self.key = (task.seed, task.scenario_id, task.situation)
        self._drawn: dict[str, Fact | None] = {}

    @cached_property
    def facts(self) -> list[Fact]:
        """What the task holds: its ids (the withheld ones too), then each target's details."""
        plan = self.task.world
        out = [
            Fact(name, _entity_label(name), spoken_id(value), entity=True)
            for name, value in plan.entities.items()
        ]
        for target, details in plan.details.items():
            tool = self._tool(target)
            schemas = tool.properties if tool is not None else {}
            for name, value in details.items():
                said = spoken_value(value, schemas.get(name))
                if said and all(f.key != name for f in out):
                    described = _short_name(schemas.get(name))
                    out.append(Fact(name, " ".join(name_tokens(name)), said, described=described))
                out.extend(_nested_facts(name, value, schemas.get(name), out))
        return out

    def _tool(self, name: str) -> Tool | None:
        return (
            self.spec.tool(name)
            if self.spec is not None and name in tool_names(self.spec)
            else None
        )

    def recall(self, subject: str) -> Fact | None:
        """The fact a question's ``subject`` ("order number", "date of birth") asks for: one the
        task holds, else the person's own data, else a value the spec's tools take, else ``None``
        (an id the task does not hold, a record's state, or nothing the spec knows)."""
        words = _words(subject)
        if not words:
            return None
        told = self._by_meaning(words)
        if told is not None:
            return told
        scored = [
            (_match(words, _names(f.key, f.label, f.entity, f.described)), -i, f)
            for i, f in enumerate(self.facts)
        ]
        score, _, held = max(scored, default=(0, 0, None), key=lambda s: s[:2])
        if score >= 2:
            return held
        if subject not in self._drawn:
            self._drawn[subject] = (
                self._personal(words) or (held if score else None) or self._argument(words)
            )
        return self._drawn[subject]

    def detail_named_in(self, text: str) -> Fact | None:
        """The task detail a yes/no question is about, named anywhere in it ("Should the priority
        be high or low?" names ``priority``): the person knows what they want there, whatever
        the choices offered. The detail whose name has the most words wins; ``None`` when the
        question names none (its words in a row: "to object type" is not in "the object type to
        be")."""
        asked = _words(text)
        best: tuple[int, Fact | None] = (0, None)
        for fact in self.facts:
            if fact.entity:
                continue
            names = _names(fact.key, fact.label, fact.entity, fact.described)
            size = max((len(n) for n in names if _runs_in(n, asked)), default=0)
            if size > best[0]:
                best = (size, fact)
        return best[1]

    def _by_meaning(self, words: tuple[str, ...]) -> Fact | None:
        """A detail a question asks for by what it does rather than by its name: "What should the
        message say?" asks for its text, "When …?" (subject ``date``) for its time, when no fact
        is named so."""
        if any(
            _match(words, _names(f.key, f.label, f.entity, f.described)) >= 2 for f in self.facts
        ):
            return None
        if set(words) & _SAYING:
            wanted = _TEXT_FIELDS
        elif words in (("date",), ("time",)):
            wanted = _TIME_FIELDS
        elif set(words) & _CHANGE_WORDS and len(words) <= 2:
            # the detail that holds the change (MongoDB's ``update``), before the database it is in
            details = [f for f in self.facts if not f.entity]
            named = [f for f in details if set(_words(f.key)) & (_CHANGE_WORDS | _CHANGE_KEYS)]
            return next(iter(named or details), None)
        else:
            return None
        return next((f for f in self.facts if not f.entity and set(_words(f.key)) & wanted), None)

    def own(self, subject: str) -> Fact | None:
        """The person's own data a question's ``subject`` names ("full name", "email"), never a
        detail of the task; ``None`` when it names none."""
        key = f"own:{subject}"
        if key not in self._drawn:  # kept with what was drawn: the texture leaves it alone
            self._drawn[key] = self._personal(_words(subject)) if _words(subject) else None
        return self._drawn[key]

    def _personal(self, words: tuple[str, ...]) -> Fact | None:
        """The person's own data, drawn once per task: name, email, phone, date of birth … The
        name, email and phone are the ones the world's record of this person carries (a
        person's name, never one drawn for a service or a file)."""
        for attribute, synonyms in PERSONAL_FACTS.items():
            if _match(words, {_words(s) for s in (attribute, *synonyms)}) >= 2:
                own = _HOLDER_FACTS.get(attribute)
                if own is not None:
                    who = holder(stable_hash("person", *self.key, "person"))
                    return Fact(attribute, attribute, who[own])
                schema = (
                    {"type": "string", "format": "date"}
                    if "birth" in attribute
                    else {"type": "string"}
                )
                value = self._value("_".join(attribute.split()), schema, None)
                return (
                    Fact(attribute, attribute, spoken_value(value))
                    if value not in (None, "")
                    else None
                )
        return None

    def _argument(self, words: tuple[str, ...]) -> Fact | None:
        """A value for an argument of the spec's tools named like ``words`` (targets first), drawn
        as the planner draws stated details; never a record's id or a fact about its state."""
        if self.spec is None:
            return None
        targets = [t for t in self.task.world.targets if t in tool_names(self.spec)]
        tools = [self.spec.tool(t) for t in targets] + [
            t for t in self.spec.tools if t.name not in targets
        ]
        for tool in tools:
            for name, schema in tool.properties.items():
                if _match(words, _names(name, " ".join(name_tokens(name)), False)) < 2:
                    continue
                if argument_role(name, schema) != "text" and not _is_value(name, schema):
                    return None
                said = spoken_value(self._value(name, schema, tool), schema)
                return Fact(name, " ".join(name_tokens(name)), said) if said else None
        return None

    def _value(self, name: str, schema: Mapping[str, Any] | None, tool: Tool | None) -> Any:
        from whileai_env.world.arguments import detail_value

        if tool is None:
            return detail_value(name, schema, *self.key, "person")
        return detail_value(name, schema, *self.key, tool.name, root=tool.parameters)

    def request(self) -> str:
        """What the person wants done, said plainly with every id and detail: "cancel order 4412
        because it arrived damaged, then refund it for 42.10 USD"; empty for an unrelated ask."""
        plan = self.task.world
        r = rng("request", self.task.task_id)
        mentioned: set[str] = set()
        pieces = []
        for target in plan.targets:
            entities = {
                n: plan.entities[n] for n in plan.required.get(target, ()) if n in plan.entities
            }
            if self._tool(target) is None or self.spec is None:
                ids = " and ".join(f.said for f in self.facts if f.key in entities)
                pieces.append(" ".join(name_tokens(target)) + (f" for {ids}" if ids else ""))
                continue
            words = tool_words(self.spec, target)
            pieces.append(
                build_action(words, entities, plan.details_for(target), r, mentioned).text
            )
        return ", then ".join(pieces)

    def protected(self) -> list[str]:
        """Every value the person may say, for the texture to leave alone."""
        return [f.value for f in self.facts] + [
            f.value for f in self._drawn.values() if f is not None
        ]


def _entity_label(name: str) -> str:
    """An id's label: ``order_id`` → "order id", ``flight_number`` → "flight number"."""
    return " ".join(name_tokens(name)) or name


def _is_value(name: str, schema: Mapping[str, Any] | None) -> bool:
    """A non-text argument the person can still state: a date, a time, a choice from an enum,
    a number that is no record's state ("finding" words like status or balance are not)."""
    schema = schema or {}
    if argument_role(name, schema) == "finding":
        return False
    return bool(schema.get("enum")) or schema.get("type") in ("number", "integer", "boolean")
