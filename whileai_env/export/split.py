"""Train and holdout by scenario, with the train side decontaminated against the holdout.

Splitting by task is not enough: the phrasings of one situation share a scenario, so a scenario
lands whole on one side. The holdout gets ``round(holdout * scenarios)`` scenarios (at least one
when there are two or more and ``holdout > 0``), the ones whose seeded hash is lowest, so the split
is a function of the scenarios alone. A train task whose opener matches a holdout opener after
case and whitespace folding is dropped (a paraphrase across scenarios would leak the answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from whileai_env._util.hashing import unit
from whileai_env.scenarios.task import Task

SPLITS = ("train", "holdout")


@dataclass(frozen=True)
class Split:
    """The two sides and what decontamination removed from train."""

    train: list[Task]
    holdout: list[Task]
    dropped: list[str]

    def side(self, name: str | None) -> list[Task]:
        """``"train"``, ``"holdout"`` or ``None`` (both, train first)."""
        if name is None:
            return [*self.train, *self.holdout]
        if name not in SPLITS:
            raise ValueError(f"split must be one of {', '.join(SPLITS)} or None, got {name!r}")
        return self.train if name == "train" else self.holdout


def split_by_scenario(tasks: Sequence[Task], holdout: float = 0.2, *, seed: int = 0) -> Split:
    """Split ``tasks`` into train and holdout by scenario (see the module docstring)."""
    if not 0.0 <= holdout < 1.0:
        raise ValueError(f"holdout must be in [0, 1), got {holdout}")
    scenarios = sorted({t.scenario_id for t in tasks}, key=lambda s: (unit("holdout", seed, s), s))
    count = round(holdout * len(scenarios))
    if holdout > 0 and len(scenarios) >= 2:
        count = min(max(count, 1), len(scenarios) - 1)
    held = set(scenarios[:count])
    holdout_tasks = [t for t in tasks if t.scenario_id in held]
    seen = {_folded(t.opener) for t in holdout_tasks}
    train = [t for t in tasks if t.scenario_id not in held and _folded(t.opener) not in seen]
    dropped = [t.task_id for t in tasks if t.scenario_id not in held and _folded(t.opener) in seen]
    return Split(train=train, holdout=holdout_tasks, dropped=dropped)


def _folded(text: str) -> str:
    return " ".join(text.casefold().split())
