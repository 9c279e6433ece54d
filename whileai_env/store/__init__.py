"""A local dataset store with versions and lineage, the local equivalent of a hosted push/pull.

``push(rows, name, parent=None, description=)`` returns a version id; ``pull``, ``versions``,
``lineage``, ``profile``, ``finalize`` read and mark versions; every version has a dataset card
(``README.md`` with its profile); ``to_hub`` publishes a finalized version to a Hugging Face
dataset repo. Each function takes ``root=`` (default: ``$WHILEAI_STORE`` or
``~/.cache/whileai-env/store``). See ``docs/store.md``.

>>> import tempfile
>>> root = tempfile.mkdtemp()
>>> v1 = push([{"task_id": "a", "reward": 1.0}], "demo", root=root)
>>> [v["id"] for v in versions("demo", root=root)] == [v1], pull(v1, root=root)[0]["reward"]
(True, 1.0)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from whileai_env.store.hub import to_hub
from whileai_env.store.root import STORE_ENV, store_root
from whileai_env.store.store import Rows, Store

Root = str | os.PathLike | None


def push(
    rows: Rows,
    name: str,
    parent: str | None = None,
    description: str = "",
    *,
    config: Mapping[str, Any] | None = None,
    gate: bool = False,
    mode: str | None = None,
    root: Root = None,
) -> str:
    """Store ``rows`` as a new version of ``name``; its id (see :meth:`Store.push`; ``gate=True``
    runs the publish gate first)."""
    return Store(root).push(rows, name, parent, description, config=config, gate=gate, mode=mode)


def pull(name_or_id: str, path: str | os.PathLike | None = None, *, root: Root = None) -> Any:
    """A version's rows, or the path they were written to (see :meth:`Store.pull`)."""
    return Store(root).pull(name_or_id, path)


def versions(name: str | None = None, *, root: Root = None) -> list[dict[str, Any]]:
    """The versions of ``name`` (every name when ``None``), oldest first."""
    return Store(root).versions(name)


def lineage(name_or_id: str, *, root: Root = None) -> dict[str, Any]:
    """Parents, spec hash, config, agent and counts of a version (see :meth:`Store.lineage`)."""
    return Store(root).lineage(name_or_id)


def profile(name_or_id: str, *, root: Root = None) -> dict[str, Any]:
    """A version's numbers: counts, reward mean, pass rate, by fault kind, world state, tool."""
    return Store(root).profile(name_or_id)


def finalize(name_or_id: str, *, root: Root = None) -> dict[str, Any]:
    """Mark a version finalized, ready for :func:`to_hub`."""
    return Store(root).finalize(name_or_id)


__all__ = [
    "STORE_ENV",
    "Store",
    "finalize",
    "lineage",
    "profile",
    "pull",
    "push",
    "store_root",
    "to_hub",
    "versions",
]
