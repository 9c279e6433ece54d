"""A pseudo-production slice held out of a simulation run, for when there are no traces yet.

Split by task, not by row: every row sharing a task key (the ``scenario_id``, else the
``task_id``, else the prompt) lands on the same side, so the held-out slice shares no situation
with the training side (under ``mode="rl"`` a prompt's k rollouts would otherwise straddle the
two). Every distinct flaw signature (:func:`flaw_signature`) sends one of its tasks to the
held-out side first, so each distinct failure is there at least once; then whole tasks, in a
seeded order, until ``fraction`` of the rows is held out (it can overshoot by one task).

>>> rows = [{"scenario_id": f"s{i}", "prompt": f"p{i}", "reward": 1} for i in range(10)]
>>> rows[7]["faults"] = [{"tool": "get_order", "kind": "timeout"}]
>>> prod, train = split_pseudo_production(rows, fraction=0.2)
>>> len(prod), len(train), any(r["scenario_id"] == "s7" for r in prod)
(2, 8, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from whileai_env._util.hashing import stable_hash
from whileai_env.traces.mining import row_flaws


def task_key(row: Mapping[str, Any]) -> str:
    """The unit a split keeps whole: ``scenario_id``, else ``task_id``, else the prompt."""
    for key in ("scenario_id", "task_id"):
        if row.get(key):
            return f"{key}:{row[key]}"
    return f"prompt:{row.get('prompt', '')}"


def flaw_signature(row: Mapping[str, Any]) -> tuple[str, ...] | None:
    """What a flaw row got wrong, as a sortable key: the faults it met (``faults`` and failed
    steps), the world states and tools of :func:`row_flaws`, and a 0 label; ``None`` for a row
    with no flaw."""
    found = row_flaws(row)
    fired = {f"fault:{f.get('kind')}" for f in row.get("faults") or () if isinstance(f, Mapping)}
    if not found and not fired:
        return None
    parts = fired | {
        f"{axis}:{v}" for axis in ("condition", "world_state") for v in found.get(axis, ())
    }
    if row.get("reward") == 0:
        parts.add("label:0")
    return tuple(sorted(parts))


def split_pseudo_production(
    rows: Sequence[Mapping[str, Any]], fraction: float = 0.2, seed: int = 0
) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """``(held_out, train)``, each in the input order (see the module docstring)."""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"fraction must be between 0 and 1, got {fraction}")
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        groups.setdefault(task_key(row), []).append(i)
    order = sorted(groups, key=lambda k: (stable_hash("pseudo-production", seed, k), k))
    held: set[str] = set()
    covered: set[tuple[str, ...]] = set()
    for key in order:
        signatures = {flaw_signature(rows[i]) for i in groups[key]} - {None}
        if signatures - covered:
            held.add(key)
            covered |= signatures  # type: ignore[arg-type]
    target = fraction * len(rows)
    count = sum(len(groups[k]) for k in held)
    for key in order:
        if count >= target:
            break
        if key not in held:
            held.add(key)
            count += len(groups[key])
    side = {i for key in held for i in groups[key]}
    return [r for i, r in enumerate(rows) if i in side], [
        r for i, r in enumerate(rows) if i not in side
    ]
