"""The values a person states for a tool's arguments: entity ids and details, by schema and meaning.

Reference-like arguments (``id``, ``*_id``, ``path``, ``key``, ``sku`` …) name entities in the
world (:func:`locator_value`); the others are details a person would state
(:func:`detail_value`). Both go through one schema walker
(:mod:`whileai_env.world.schema_values`), so every value validates against the tool's schema
(patterns, formats, bounds, arrays, unions …) and means what the field means (a name for a
first name, a future date for a departure). The writer, the planner and the world share these
rules, so the id a user mentions is the id the world knows.

Values are a function of ``(name, *parts)`` alone (plus ``person``, the seed of the person the
values describe: one per task, so the first name, the email and the phone of one call agree).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from whileai_env._util.hashing import stable_hash
from whileai_env.world.makers import Scope
from whileai_env.world.schema_values import value_for
from whileai_env.world.vocabulary import Vocabulary, vocabulary

#: The world's default clock (2026-11-30T12:00:00Z): dates a person states sit around it.
DETAIL_CLOCK = 1_796_040_000


def _scope(
    kind: str,
    name: str,
    parts: tuple[Any, ...],
    *,
    person: tuple[Any, ...] | None,
    noun: str,
    writes: bool,
    vocab: Vocabulary,
    now: int,
    root: Mapping[str, Any] | None = None,
    locator: bool = False,
) -> Scope:
    props = root.get("properties") if isinstance(root, Mapping) else None
    return Scope(
        seed=stable_hash(kind, name, *parts),
        now=now,
        noun=noun,
        locator=locator,
        writes=writes,
        vocab=vocab,
        person_seed=stable_hash("person", *(parts if person is None else person)),
        # the tool's other arguments: an ``owner`` beside a ``repo`` is an account
        siblings=frozenset(props) if isinstance(props, Mapping) and name in props else frozenset(),
    )


def locator_value(
    name: str,
    schema: Mapping[str, Any] | None,
    *parts: Any,
    root: Mapping[str, Any] | None = None,
    spec: Any = None,
    noun: str = "",
    person: tuple[Any, ...] | None = None,
    now: int = DETAIL_CLOCK,
) -> Any:
    """A realistic identifier for argument ``name`` that satisfies ``schema``, chosen by hash.

    Its format, an example the description gives ("such as 'ZFA04Y'"), its meaning (a path, a
    branch, an email) and its pattern shape it, in that order; ``spec`` supplies the spec's
    vocabulary (directories, tables, hosts).

    >>> locator_value("order_id", {"type": "string", "pattern": "^ORD-\\\\d{6}$"}, 1)[:4]
    'ORD-'
    """
    scope = _scope(
        "locator",
        name,
        parts,
        person=person,
        noun=noun,
        writes=False,
        vocab=vocabulary(spec),
        now=now,
        root=root,
        locator=True,
    )
    return value_for(schema or {}, name, scope, root=root, locator=True)


def detail_value(
    name: str,
    schema: Mapping[str, Any] | None,
    *parts: Any,
    root: Mapping[str, Any] | None = None,
    spec: Any = None,
    noun: str = "",
    writes: bool = False,
    person: tuple[Any, ...] | None = None,
    now: int = DETAIL_CLOCK,
) -> Any:
    """A plausible value a person would state for a non-locator argument, satisfying ``schema``.

    Objects, arrays and ``$ref``/``anyOf``/``oneOf`` schemas are filled field by field (``root``
    is the tool's whole argument schema, for resolving ``$ref``); ``writes`` says the tool
    changes something (its dates lie ahead: a booking, a due date).

    >>> detail_value("target_celsius", {"type": "number", "maximum": 32}, 1) <= 32
    True
    """
    scope = _scope(
        "detail",
        name,
        parts,
        person=person,
        noun=noun,
        writes=writes,
        vocab=vocabulary(spec),
        now=now,
        root=root,
    )
    return value_for(schema or {}, name, scope, root=root)
