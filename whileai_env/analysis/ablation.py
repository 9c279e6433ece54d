"""Fault-ablation preference pairs: the same task played with and without its fault.

For each task whose schedule holds a fault, the agent plays it ``repeats`` times as drawn and
``repeats`` times with the fault removed (the same world, opener and seed), through the one
episode engine, and every rollout is graded by ``judge`` (the task checklist by default). Pairs
are made inside the faulted world only, so both sides saw the same failing tool result: the
*robust* rollout (the fault fired and the agent handled it: a high reward) is chosen over a
*brittle* one (the fault fired and it did not). The clean plays are the control that says the
brittle side failed because of the fault and not because the task is hard: each pair carries
``clean_pass_rate`` and ``faulted_pass_rate``, and ``fault_sensitive`` is true when the agent
passes more often without the fault.

>>> import whileai_env as wenv
>>> spec = wenv.load_spec("configs/specs/order-support.json")
>>> tasks = [t for t in wenv.draw_tasks(spec, 40, seed=1) if t.faults][:4]
>>> agent = wenv.seeded_agent(spec, rate=0.5, flaws=["ignore_fault"])
>>> pairs, report = fault_ablation_pairs(spec, tasks, agent, repeats=4)
>>> report["tasks"], all(p["chosen"]["faults"] and p["rejected"]["faults"] for p in pairs)
(4, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from whileai_env.analysis.groups import fault_kind, stats
from whileai_env.analysis.pairs import build_preference_pairs


def fault_ablation_pairs(
    spec: Any,
    tasks: Iterable[Any],
    agent: Any,
    *,
    judge: Callable[[dict[str, Any]], Any] | None = None,
    repeats: int = 4,
    min_margin: float = 0.5,
    max_pairs_per_task: int = 1,
    episode_options: Mapping[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Pairs (as :func:`~whileai_env.analysis.pairs.build_preference_pairs` makes them, plus
    ``fault_kind``, ``clean_pass_rate``, ``faulted_pass_rate`` and ``fault_sensitive``) and a
    report counting ``tasks`` played, ``no_fault`` (skipped: nothing to ablate),
    ``fault_never_fired`` (the agent never made the failing call), ``fault_sensitive``,
    ``no_robust_rollout`` (every faulted play failed: nothing to choose) and ``paired``."""
    from whileai_env.grading.checklist import task_checklist
    from whileai_env.grading.judge import run_judge
    from whileai_env.simulation.players import make_player
    from whileai_env.spec.load import load_spec

    the_spec = load_spec(spec)
    player = make_player(agent, spec=the_spec)
    grade = judge if judge is not None else task_checklist
    report = dict.fromkeys(
        ("tasks", "no_fault", "fault_never_fired", "fault_sensitive", "no_robust_rollout"), 0
    )
    pairs: list[dict[str, Any]] = []
    for task in tasks:
        if not task.faults:
            report["no_fault"] += 1
            continue
        report["tasks"] += 1
        faulted, clean = (
            run_judge(_plays(the_spec, variant, player, repeats, episode_options), grade)
            for variant in (task, dataclasses.replace(task, faults=None))
        )
        pairs += _task_pairs(faulted, clean, min_margin, max_pairs_per_task, report)
    report["paired"] = len({p["task_id"] for p in pairs})
    report["pairs"] = len(pairs)
    return pairs, report


def _plays(
    spec: Any, task: Any, player: Any, repeats: int, options: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """``repeats`` rollouts of ``task`` through the episode engine, ungraded."""
    from whileai_env.episode.engine import Episode

    rows = []
    for index in range(repeats):
        episode = Episode(spec, task, rollout_index=index, grade=False, **dict(options or {}))
        extra = player.play(episode)
        rows.append({**episode.row(), **(extra or {})})
    return rows


def _task_pairs(
    faulted: list[dict[str, Any]],
    clean: list[dict[str, Any]],
    min_margin: float,
    limit: int,
    report: dict[str, int],
) -> list[dict[str, Any]]:
    """The robust-over-brittle pairs of one task, among the rollouts whose fault fired."""
    fired = [row for row in faulted if row.get("faults")]
    if not fired:
        report["fault_never_fired"] += 1
        return []
    clean_rate = stats(clean)["pass_rate"]
    faulted_rate = stats(fired)["pass_rate"]
    sensitive = clean_rate is not None and faulted_rate is not None and clean_rate > faulted_rate
    report["fault_sensitive"] += sensitive
    if faulted_rate == 0:
        report["no_robust_rollout"] += 1
    pairs, _ = build_preference_pairs(fired, min_margin=min_margin, max_pairs_per_prompt=limit)
    extra = {
        "fault_kind": fault_kind(fired[0]),
        "clean_pass_rate": clean_rate,
        "faulted_pass_rate": faulted_rate,
        "fault_sensitive": sensitive,
    }
    return [{**pair, **extra} for pair in pairs]
