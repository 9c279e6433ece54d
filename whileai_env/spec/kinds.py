"""Classify a tool as read, create, update or delete from its name, then its description.

Unknown verbs count as writes (``update``) on purpose: the costly mistake is a write taken for
a read, because a checklist that thinks a write is a read lets an agent act without asking.
"""

from __future__ import annotations

from whileai_env._util.lexicon import name_tokens, verb_kind

KINDS = ("read", "create", "update", "delete")
WRITE_KINDS = frozenset({"create", "update", "delete"})

_ALIASES = {"write": "update", "modify": "update", "remove": "delete", "get": "read"}


def normalise_kind(kind: str) -> str:
    """Map a user-given kind (``read``, ``write``, ``delete`` …) to one of :data:`KINDS`."""
    value = _ALIASES.get(kind.strip().lower(), kind.strip().lower())
    if value not in KINDS:
        raise ValueError(f"unknown tool kind {kind!r}; use one of {', '.join(KINDS)} or 'write'")
    return value


def classify_tool(name: str, description: str = "") -> str:
    """Return the kind of a tool: ``read``, ``create``, ``update`` or ``delete``.

    >>> classify_tool("get_order"), classify_tool("cancelOrder"), classify_tool("sync")
    ('read', 'update', 'update')
    """
    tokens = name_tokens(name)
    for word in tokens[:2]:
        kind = verb_kind(word)
        if kind:
            return kind
    for word in name_tokens(description)[:3]:
        kind = verb_kind(word)
        if kind:
            return kind
    return "update"
