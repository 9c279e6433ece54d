"""Reading an exported package back: its spec, its episode options and its rows.

Apart from :mod:`.package` (which writes packages) so that the faces reading one (``serve``, the
v1 taskset) need nothing of the writer's: the verifiers faces sit under the writer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from whileai_env.spec.load import Spec, load_spec


def package_dir(path: str | Path) -> Path:
    """The module directory (the one holding ``spec.json``) of a package or of its root."""
    root = Path(path)
    candidates = (
        [root] if (root / "spec.json").is_file() else [p.parent for p in root.glob("*/spec.json")]
    )
    if len(candidates) != 1:
        raise ValueError(f"{root} is not an exported package (no single MODULE/spec.json under it)")
    return candidates[0]


def package_config(path: str | Path) -> dict[str, Any]:
    """The package's ``spec.json``: the spec, the turn cap, the judge and execute names."""
    config: dict[str, Any] = json.loads((package_dir(path) / "spec.json").read_text("utf-8"))
    return config


def read_package(path: str | Path, split: str | None = None) -> tuple[Spec, list[dict[str, Any]]]:
    """The spec and rows of an exported package (its directory or its module directory)."""
    package = package_dir(path)
    sides = [split] if split else ["train", "holdout"]
    rows = [
        json.loads(line)
        for side in sides
        for line in (package / "data" / f"{side}.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return load_spec(package_config(package)["spec"]), rows
