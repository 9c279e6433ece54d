"""A corpus of foreign specs: real, published tool definitions that this team did not design.

Each ``*.json`` file here is one spec (``name``, ``description``, ``system_prompt``, ``tools``,
``metadata``) converted from a public source named in its ``metadata``; ``labels.json`` holds the
kind a careful human assigns every tool. See README.md for the table and the conventions.
"""

from __future__ import annotations

from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent
LABELS_PATH = CORPUS_DIR / "labels.json"

__all__ = ["CORPUS_DIR", "LABELS_PATH", "corpus_specs"]


def corpus_specs() -> list[Path]:
    """Every spec file of the corpus, sorted by path (``labels.json`` is not a spec)."""
    return sorted(
        path
        for path in CORPUS_DIR.iterdir()
        if path.suffix in (".json", ".yaml", ".yml") and path != LABELS_PATH
    )
