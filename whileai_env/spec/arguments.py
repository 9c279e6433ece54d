"""What a tool argument means, by its name and schema: a locator, a finding or free text.

Reference-like arguments (``id``, ``*_id``, ``path``, ``key``, ``sku`` …) name entities in the
world; "finding" arguments (status, owner, amount) state facts the world must not take from
the agent; the rest is free text. The writer, the world, the reward and the reference agents
all read these rules, so the id a user mentions is the id the world knows.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from whileai_env._util.identity import by_identity
from whileai_env._util.lexicon import name_tokens

_LOCATOR_WORDS = frozenset(
    [
        "id",
        "ids",
        "uuid",
        "path",
        "file",
        "filename",
        "key",
        "ref",
        "reference",
        "number",
        "no",
        "num",
        "sku",
        "code",
        "slug",
        "handle",
        "username",
        "user",
        "email",
        "address",
        "url",
        "uri",
        "branch",
        "repo",
        "repository",
        "sha",
        "commit",
        "pnr",
        "confirmation",
        "ticket",
        "invoice",
        "order",
        "booking",
        "reservation",
        "account",
        "customer",
        "calendar",
        "event",
        "thread",
        "message",
        "channel",
        "issue",
        "pr",
        "record",
    ]
)
_FINDING_WORDS = frozenset(
    [
        "status",
        "state",
        "owner",
        "amount",
        "total",
        "price",
        "balance",
        "cost",
        "count",
        "quantity",
        "verified",
        "approved",
        "eligible",
        "paid",
        "refunded",
        "result",
        "outcome",
        "score",
        "rating",
        "stock",
        "available",
        "availability",
    ]
)
_FREE_TEXT_WORDS = frozenset(
    [
        "query",
        "q",
        "text",
        "body",
        "content",
        "message",
        "reason",
        "note",
        "notes",
        "comment",
        "description",
        "subject",
        "title",
        "prompt",
        "question",
        "summary",
        "details",
        "command",
        "cmd",
        "expression",
        "expr",
        "search",
        "keyword",
        "keywords",
        "pattern",
        "diff",
        "patch",
    ]
)


#: What a ``…_code`` names when it is a value from a standard list (ISO 4217, ISO 3166, a
#: postal code, an HTTP status), not a record the world must hold.
_VALUE_CODES = frozenset(
    {
        "currency",
        "country",
        "language",
        "lang",
        "locale",
        "postal",
        "post",
        "zip",
        "area",
        "dial",
        "calling",
        "region",
        "state",
        "province",
        "status",
        "http",
        "response",
        "error",
        "reason",
        "color",
        "colour",
        "unit",
        "timezone",
        "tax",
    }
)


def schema_types(schema: Mapping[str, Any]) -> set[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    return set()


#: A description saying a name picks the record a call acts on.
_FINDS_BY = re.compile(
    r"\bto (?:search for|look up|find|identify|match)\b"
    r"|\bof the \w+ to (?:update|delete|remove|complete|close|archive|modify|edit|cancel|get|read|find)\b",
    re.IGNORECASE,
)


#: A timestamp that is a record's name ("The timestamp of the parent message"), not a moment
#: given ("Timestamp for the engagement", "Only messages before this Unix timestamp").
_STAMP_OF = re.compile(r"\btimestamp of (?:the|a|an) (?:parent |original )?[a-z]+", re.IGNORECASE)


def _description(schema: Mapping[str, Any] | None) -> str:
    text = schema.get("description") if isinstance(schema, Mapping) else None
    return text if isinstance(text, str) else ""


def argument_role(name: str, schema: Mapping[str, Any] | None = None) -> str:
    """``locator``, ``finding`` or ``text``: how the world treats an argument of this name.

    >>> argument_role("order_id"), argument_role("status"), argument_role("body")
    ('locator', 'finding', 'text')
    >>> argument_role("message_body"), argument_role("messageIds")
    ('text', 'locator')
    >>> argument_role("task_name", {"description": "Name of the task to search for and delete"})
    'locator'
    """
    words = name_tokens(name)
    if not words:
        return "text"
    last = words[-1]
    if last in _FREE_TEXT_WORDS or (
        len(words) > 1 and words[0] in _FREE_TEXT_WORDS and last not in ("id", "ids")
    ):
        return "text"
    if last in (
        "id",
        "ids",
        "uuid",
        "path",
        "sku",
        "sha",
        "pnr",
        "key",
        "ref",
        "slug",
        "url",
        "handle",
    ):
        return "locator"
    if last == "ts" or (words == ["timestamp"] and _STAMP_OF.search(_description(schema))):
        return "locator"  # Slack's ``ts``: "Timestamp of the message to delete" names the message
    if last in _FINDING_WORDS:
        return "finding"
    if last in ("name", "title") and _FINDS_BY.search(_description(schema)):
        return "locator"  # "Name of the task to search for and update": the record it acts on
    if "sort" in words or words[:2] == ["order", "by"] or words[-2:] == ["order", "by"]:
        return "text"  # ``sort_order``, ``order_by``: how a list is ordered, not an order
    if last == "code" and words[-2:-1] and words[-2] in _VALUE_CODES:
        return "text"  # ``currency_code``, ``country_code``: a value from a standard list
    if last in ("number", "no", "num", "code") and len(words) > 1:
        return "locator"
    if last in _LOCATOR_WORDS:
        schema = schema or {}
        if isinstance(schema.get("enum"), list):
            return "text"  # a choice among listed values (a sort ``order`` of asc/desc), not an entity's name
        types = schema_types(schema)
        for branch in list(schema.get("anyOf") or []) + list(schema.get("oneOf") or []):
            if isinstance(branch, Mapping):
                types |= schema_types(branch)
        structured = any(k in schema for k in ("$ref", "properties", "items", "allOf"))
        if types & {"string", "integer"} or not (types or structured):
            return "locator"
    return "text"


@lru_cache(maxsize=4096)
def entity_noun(name: str) -> str:
    """The thing an argument names: ``order_id`` → ``order``, ``filePath`` → ``file``."""
    words = [
        w
        for w in name_tokens(name)
        if w not in ("id", "ids", "uuid", "number", "no", "num", "ref", "key", "code")
    ]
    if not words:
        return "record"
    if words[-1] == "path":
        return "file" if len(words) == 1 else " ".join(words[:-1])
    return " ".join(words)


def _required_names(schema: Mapping[str, Any]) -> list[str]:
    names = schema.get("required")
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def _dependencies(schema: Mapping[str, Any]) -> dict[str, list[str]]:
    """``dependentRequired`` (and draft-7 ``dependencies`` with name lists) of an object schema."""
    out: dict[str, list[str]] = {}
    for key in ("dependentRequired", "dependencies"):
        table = schema.get(key)
        if isinstance(table, Mapping):
            for name, needs in table.items():
                if isinstance(needs, list | tuple):
                    out.setdefault(str(name), []).extend(n for n in needs if isinstance(n, str))
    return out


@by_identity()
def required_sets(schema: Mapping[str, Any] | None) -> list[tuple[str, ...]]:
    """The sets of argument names that meet an object schema's requirement keywords, smallest first.

    Each set holds ``required``, the ``required`` of one branch of every ``anyOf``/``oneOf``
    whose branches list names (also inside ``allOf``), and is closed under ``dependentRequired``
    (or draft-7 ``dependencies`` lists). A schema with none of these gives one set: its
    ``required``. Names keep the schema's order.

    >>> required_sets({"required": ["ticket_id"], "anyOf": [{"required": ["assignee_email"]},
    ...                                                    {"required": ["queue"]}]})
    [('ticket_id', 'assignee_email'), ('ticket_id', 'queue')]
    >>> required_sets({"required": ["a"], "dependentRequired": {"a": ["b"]}})
    [('a', 'b')]
    """
    schema = schema or {}
    base: list[str] = []
    groups: list[list[list[str]]] = []
    deps: dict[str, list[str]] = {}

    def walk(node: Mapping[str, Any]) -> None:
        base.extend(_required_names(node))
        for name, needs in _dependencies(node).items():
            deps.setdefault(name, []).extend(needs)
        for key in ("anyOf", "oneOf"):
            branches = [b for b in node.get(key) or () if isinstance(b, Mapping)]
            options = [_required_names(b) for b in branches]
            if any(options):
                groups.append(options)
        for sub in node.get("allOf") or ():
            if isinstance(sub, Mapping):
                walk(sub)

    walk(schema)
    out: list[tuple[str, ...]] = []
    for choice in itertools.product(*groups) if groups else [()]:
        names = list(base)
        for option in choice:
            names.extend(option)
        i = 0
        while i < len(names):
            names.extend(deps.get(names[i], ()))
            i += 1
        found = tuple(dict.fromkeys(names))
        if found not in out:
            out.append(found)
    return sorted(out, key=len)


#: A literal a description offers for its field: a quoted word (``use 'primary' for the main
#: calendar``, ``"me" for yourself``), short and without spaces, so prose in quotes is no value.
#: A documented value that is a keyword (``primary``, ``me``, ``main``), not an example id
#: (``ZFA04Y``, ``sara_doe_496``): passing a copied example id is still an invented reference.
_KEYWORD = re.compile(r"[A-Za-z][A-Za-z_-]{0,39}")
_QUOTED = re.compile(r"""(?<![\w'"`])['"`]([^\s'"`]{1,40})['"`](?![\w'"`])""")


def documented_values(schema: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The keywords a field's own schema offers: its ``const``, ``default``, ``enum`` and
    ``examples``, and the quoted words of its description, when they are words (no digits: an
    example id is no keyword). A value an agent may pass because the tool's documentation told
    it so, not because anyone in the conversation said it.

    >>> documented_values({"type": "string", "description": "calendar id (use 'primary' for the main one)"})
    ('primary',)
    >>> documented_values({"type": "string", "examples": ["me", "ZFA04Y"], "description": "id (say 'self')"})
    ('me', 'self')
    """
    if not isinstance(schema, Mapping):
        return ()
    found: list[Any] = [schema.get("const"), schema.get("default")]
    for key in ("enum", "examples"):
        if isinstance(schema.get(key), list):
            found.extend(schema[key])
    description = schema.get("description")
    if isinstance(description, str):
        found.extend(_QUOTED.findall(description))
    for key in ("oneOf", "anyOf"):
        for part in schema.get(key) or ():
            found.extend(documented_values(part))
    return tuple(dict.fromkeys(v for v in found if type(v) is str and _KEYWORD.fullmatch(v)))
