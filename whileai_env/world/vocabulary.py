"""What a spec's own text names: tables, directories, hosts. Values that refer to them fit it.

A SQL query should name a table the spec mentions (``"Run a read-only query against the
orders and customers tables"``), a path should sit under a directory the system prompt allows
(``"You may only access files under /home/agent/workspace"``), a URL should use a host the
spec shows. :func:`vocabulary` reads these once per spec (keyed by its content hash).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

_TABLE = re.compile(
    r"\bselect\b[^.;]{0,80}?\bfrom\s+[`\"]?([a-z_][a-z0-9_]{2,40})|[`'\"]([a-z_][a-z0-9_]{2,40})[`'\"]\s+tables?\b"
    r"|\btables?\s+(?:named\s+|called\s+)?[`'\"]([a-z_][a-z0-9_]{2,40})[`'\"]",
    re.IGNORECASE,
)
_TABLE_LIST = re.compile(
    r"\bthe\s+([a-z_][a-z0-9_]{2,30}(?:\s*,\s*[a-z_][a-z0-9_]{2,30})*(?:,?\s+and\s+[a-z_][a-z0-9_]{2,30})?)\s+tables?\b",
    re.IGNORECASE,
)
_ABS_PATH = re.compile(
    r"(?<![\w/.:])(/(?:home|Users|app|srv|data|workspace|workspaces|var|tmp|mnt|opt|projects|repo|code)"
    r"(?:/[A-Za-z0-9_.-]+)*)/?(?![\w/])"
)
_HOST = re.compile(r"https?://([a-z0-9.-]+\.[a-z]{2,})", re.IGNORECASE)
_NOT_TABLES = frozenset(
    {
        "the",
        "all",
        "any",
        "each",
        "these",
        "those",
        "their",
        "your",
        "which",
        "multiple",
        "database",
        "read",
        "only",
        "from",
        "and",
        "other",
        "both",
        "new",
        "sql",
        "select",
        "list",
        "its",
        "this",
        "one",
        "following",
        "relevant",
        "given",
        "specified",
        "same",
        "different",
    }
)


@dataclass(frozen=True)
class Vocabulary:
    """Tables, absolute directories and hosts a spec's text names (in the order first seen)."""

    tables: tuple[str, ...] = ()
    directories: tuple[str, ...] = ()
    hosts: tuple[str, ...] = ()


def _texts(spec: Any) -> list[str]:
    out = [spec.system_prompt or ""]
    for tool in spec.tools:
        out.append(tool.description or "")

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                if isinstance(node.get("description"), str):
                    out.append(node["description"])
                for value in node.values():
                    walk(value)
            elif isinstance(node, list | tuple):
                for value in node:
                    walk(value)

        walk(tool.parameters)
    return out


def _tables(texts: list[str]) -> list[str]:
    found: list[str] = []
    for text in texts:
        for m in _TABLE.finditer(text):
            found.extend(g.lower() for g in m.groups() if g)
        for m in _TABLE_LIST.finditer(text):
            found.extend(w.lower() for w in re.split(r"\s*,\s*|\s+and\s+|,", m.group(1)) if w)
    return [t for t in dict.fromkeys(found) if t not in _NOT_TABLES]


def _directories(texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        for m in _ABS_PATH.finditer(text):
            path = m.group(1)
            if "." in path.rsplit("/", 1)[-1] or "/to/" in path:
                continue
            found.append(path)
    return list(dict.fromkeys(found))


def build_vocabulary(spec: Any) -> Vocabulary:
    texts = _texts(spec)
    hosts = [m.group(1).lower() for text in texts for m in _HOST.finditer(text)]
    return Vocabulary(
        tables=tuple(_tables(texts)),
        directories=tuple(_directories(texts)),
        hosts=tuple(dict.fromkeys(h for h in hosts if "example" not in h)),
    )


_CACHE: dict[str, Vocabulary] = {}
_LOCK = threading.Lock()


def vocabulary(spec: Any) -> Vocabulary:
    """The cached :class:`Vocabulary` of ``spec`` (``None`` gives an empty one)."""
    if spec is None:
        return Vocabulary()
    key = spec.content_hash
    found = _CACHE.get(key)
    if found is None:
        found = build_vocabulary(spec)
        with _LOCK:
            if len(_CACHE) > 256:
                _CACHE.clear()
            _CACHE[key] = found
    return found
