"""The local dataset store: versions of row sets with lineage, a profile and a card each.

``push`` writes a version and returns its id (``ds_`` + a hash of the name, the parent and the
rows, so the same push twice is one version); ``pull`` reads it back by id or by name (the
latest version of that name). Files live under the store root (:func:`store_root`) in
``versions/<id>/`` (``rows.jsonl``, ``README.md``); the manifest is SQLite
(:mod:`whileai_env.store.manifest`). Two writers at once are serialised by the manifest's lock,
and a push killed at any point leaves the store readable with every complete version.

>>> import tempfile
>>> store = Store(tempfile.mkdtemp())
>>> v1 = store.push([{"task_id": "a", "reward": 1.0}], "demo", description="first")
>>> v2 = store.push([{"task_id": "a", "reward": 0.0}], "demo", parent=v1)
>>> store.pull("demo") == [{"task_id": "a", "reward": 0.0}], store.lineage(v2)["parents"] == [v1]
(True, True)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from whileai_env.data.jsonl import dumps_row, iter_rows, read_rows, write_rows
from whileai_env.data.lines import sidecar
from whileai_env.data.text import clean_str
from whileai_env.errors import StoreError
from whileai_env.export.gate import publish_gate
from whileai_env.store.card import CARD_FILE, ROWS_FILE, render_card
from whileai_env.store.files import VERSIONS, publish, stage, sweep, synced
from whileai_env.store.manifest import Manifest
from whileai_env.store.profile import profile_rows
from whileai_env.store.root import store_root

MANIFEST = "manifest.sqlite"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")

Rows = Iterable[Mapping[str, Any]] | str | os.PathLike


class Store:
    """One store directory (``root``: see :func:`store_root`)."""

    def __init__(self, root: str | os.PathLike | None = None) -> None:
        self.root = store_root(root)
        self.manifest = Manifest(self.root / MANIFEST)

    def push(
        self,
        rows: Rows,
        name: str,
        parent: str | None = None,
        description: str = "",
        *,
        config: Mapping[str, Any] | None = None,
        gate: bool = False,
        mode: str | None = None,
    ) -> str:
        """Store ``rows`` (dicts, or a JSONL path whose run sidecar gives ``config``) as a new
        version of ``name`` and return its id; ``parent`` (an id or a name) records lineage.

        ``gate=True`` runs :func:`~whileai_env.export.gate.publish_gate` first (``mode``, else the
        run config's ``mode``): refused rows raise ``PublishGateError``, kept rows are stored with
        their ``calibration`` stamp, and the gate's report is the version's ``meta["gate"]``."""
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(f"a dataset name is letters, digits, '.', '_', '-': got {name!r}")
        parent_id = self.entry(parent)["id"] if parent is not None else None
        stream: Iterable[dict[str, Any]]
        stream, config = _load(rows, config)
        report = None
        if gate:  # the gate reads every row at once (its bands are per task)
            stream, report = publish_gate(list(stream), mode or (config or {}).get("mode"))
        sweep(self.root)
        tmp = stage(self.root)
        try:
            digest, profile = _write_rows(tmp / ROWS_FILE, stream, f"{name}\0{parent_id}\0")
            version_id = f"ds_{digest[:16]}"
            entry = {
                "id": version_id,
                "name": name,
                "parent": parent_id,
                "description": description,
                "meta": {
                    "config": config,
                    "profile": profile,
                    **({"gate": report} if gate else {}),
                },
            }
            with synced(tmp / CARD_FILE) as fh:
                fh.write(render_card(entry, profile).encode("utf-8"))
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        publish(self.root, tmp, version_id)
        self.manifest.insert(entry)
        return version_id

    def entry(self, name_or_id: str) -> dict[str, Any]:
        """The manifest entry of an id, or of a name's latest version."""
        found = self.manifest.get(name_or_id)
        if found is None:
            raise StoreError(f"no dataset version or name {name_or_id!r} in the store {self.root}")
        return found

    def path(self, name_or_id: str) -> Path:
        """The directory of a version (``rows.jsonl``, ``README.md``)."""
        return self.root / VERSIONS / self.entry(name_or_id)["id"]

    def pull(self, name_or_id: str, path: str | os.PathLike | None = None) -> Any:
        """A version's rows; with ``path``, write them there as JSONL and return the path."""
        rows = read_rows(self.path(name_or_id) / ROWS_FILE)
        return rows if path is None else write_rows(rows, path)

    def versions(self, name: str | None = None) -> list[dict[str, Any]]:
        """The versions of ``name`` (every name when ``None``), oldest first, without the meta."""
        return [_summary(e) for e in self.manifest.versions(name)]

    def lineage(self, name_or_id: str) -> dict[str, Any]:
        """Where a version came from: its parents (nearest first), spec hash, config, agent, counts."""
        entry = self.entry(name_or_id)
        parents, parent = [], entry["parent"]
        while parent is not None:
            parents.append(parent)
            parent = self.entry(parent)["parent"]
        profile = entry["meta"]["profile"]
        return {
            **_summary(entry),
            "parents": parents,
            "spec_hash": _one(profile["spec_hashes"]),
            "config": entry["meta"]["config"],
            "agent": _one(profile["agents"]),
            "counts": {k: profile[k] for k in ("rows", "tasks", "graded", "mixed_tasks")},
        }

    def profile(self, name_or_id: str) -> dict[str, Any]:
        """The version's profile (:func:`~whileai_env.store.profile.profile_rows`)."""
        return dict(self.entry(name_or_id)["meta"]["profile"])

    def finalize(self, name_or_id: str) -> dict[str, Any]:
        """Mark a version finalized (ready to publish) and return its summary."""
        entry = self.entry(name_or_id)
        if not entry["meta"]["profile"]["rows"]:
            raise StoreError(f"{entry['id']} holds no rows: nothing to finalize")
        self.manifest.finalize(entry["id"])
        return _summary(self.entry(entry["id"]))


def _load(rows: Rows, config: Mapping[str, Any] | None) -> tuple[Iterator[dict[str, Any]], Any]:
    """The rows one at a time (a JSONL file is read as it is written out) and the run config."""
    if not isinstance(rows, str | os.PathLike):
        return (dict(r) for r in rows), dict(config) if config is not None else None
    path = Path(rows)
    if not path.exists():
        raise FileNotFoundError(f"no such rows file: {path}")
    if config is None and sidecar(path).is_file():
        config = json.loads(sidecar(path).read_text(encoding="utf-8"))
    return iter_rows(path), config


def _write_rows(
    path: Path, rows: Iterable[Mapping[str, Any]], prefix: str
) -> tuple[str, dict[str, Any]]:
    """Write ``rows`` to ``path`` through the package's row serializer, one line at a time; the
    sha256 of ``prefix`` and the bytes written, and the rows' profile."""
    digest = hashlib.sha256(prefix.encode())
    with synced(path) as fh:

        def written() -> Iterator[Mapping[str, Any]]:
            for row in rows:
                line = clean_str(dumps_row(row) + "\n")[0].encode("utf-8")
                digest.update(line)
                fh.write(line)
                yield row

        profile = profile_rows(written())  # it reads each row once, as the file is written
    return digest.hexdigest(), profile


def _summary(entry: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: entry[k] for k in ("id", "name", "parent", "description", "created", "finalized")}
    out["rows"] = entry["meta"]["profile"]["rows"]
    return out


def _one(values: list[str]) -> str | list[str] | None:
    """A single value as itself, several as the list, none as ``None``."""
    return values[0] if len(values) == 1 else (values or None)
