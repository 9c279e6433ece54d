"""Shared by the benchmarks: where the example specs are and which one is the largest."""

from __future__ import annotations

from pathlib import Path

import whileai_env as wenv

ROOT = Path(__file__).resolve().parents[2]


def largest_spec() -> Path:
    """The example spec with the most tools (ties: the biggest file)."""
    best: tuple[int, int, Path] | None = None
    for path in sorted((ROOT / "configs" / "specs").iterdir()):
        try:
            spec = wenv.load_spec(path)
        except wenv.SpecError:
            continue
        size = sum(p.stat().st_size for p in ([path] if path.is_file() else path.iterdir()))
        if best is None or (len(spec.tools), size) > best[:2]:
            best = (len(spec.tools), size, path)
    if best is None:
        raise SystemExit("no loadable spec in configs/specs")
    return best[2]
