"""Classify a tool as read, create, update or delete from its name, then its description.

Unknown verbs count as writes (``update``) on purpose: the costly mistake is a write taken for
a read, because a checklist that thinks a write is a read lets an agent act without asking.
"""

from __future__ import annotations

import re

KINDS = ("read", "create", "update", "delete")
WRITE_KINDS = frozenset({"create", "update", "delete"})

_VERBS: dict[str, frozenset[str]] = {
    "read": frozenset(
        ["get", "list", "search", "find", "lookup", "look", "fetch", "read", "query", "show", "view", "check", "describe", "count", "retrieve", "browse", "inspect", "status", "calculate", "calc", "compute", "evaluate", "preview", "diff", "log", "ls", "cat", "grep", "head", "tail", "stat", "estimate", "quote", "track", "verify", "whois", "convert", "lint", "explain", "summarize", "summarise", "analyze", "analyse", "compare", "validate", "download", "export", "ping", "poll", "peek", "test", "tests", "translate", "resolve_id", "locate", "see", "watch", "which", "who", "where", "when", "what", "how", "measure"]
    ),
    "create": frozenset(
        ["create", "add", "new", "make", "book", "insert", "post", "send", "submit", "open", "schedule", "register", "upload", "generate", "place", "issue", "invite", "reserve", "commit", "clone", "fork", "draft", "compose", "reply", "forward", "start", "init", "initialize", "initialise", "launch", "spawn", "provision", "enqueue", "file", "log_", "mkdir", "touch", "publish"]
    ),
    "update": frozenset(
        ["update", "edit", "modify", "change", "set", "patch", "put", "rename", "move", "assign", "apply", "approve", "reject", "cancel", "refund", "transfer", "merge", "push", "rebook", "reschedule", "mark", "close", "resolve", "enable", "disable", "toggle", "replace", "upgrade", "downgrade", "sync", "save", "write", "append", "accept", "decline", "confirm", "pay", "charge", "restart", "deploy", "checkout", "reset", "run", "exec", "execute", "escalate", "reopen", "restore", "rollback", "revert", "tag", "label", "link", "unlink", "lock", "unlock", "pause", "resume", "suspend", "reactivate", "extend", "redeem"]
    ),
    "delete": frozenset(
        ["delete", "remove", "destroy", "drop", "purge", "erase", "revoke", "unsubscribe", "rm", "clear", "void", "terminate", "kill", "uninstall", "discard", "deactivate", "unregister", "detach", "wipe"]
    ),
}
_ALIASES = {"write": "update", "modify": "update", "remove": "delete", "get": "read"}
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def name_tokens(name: str) -> list[str]:
    """Split a snake_case, camelCase, dashed or dotted name into lowercase words."""
    return [w.lower() for w in _WORD.findall(name)]


def _verb_kind(word: str) -> str | None:
    for candidate in (word, word[:-1] if word.endswith("s") else "", word[:-2] if word.endswith("es") else ""):
        if not candidate:
            continue
        for kind, verbs in _VERBS.items():
            if candidate in verbs:
                return kind
    return None


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
        kind = _verb_kind(word)
        if kind:
            return kind
    for word in name_tokens(description)[:3]:
        kind = _verb_kind(word)
        if kind:
            return kind
    return "update"
