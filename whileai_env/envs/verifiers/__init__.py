"""The verifiers faces: ``load_environment`` builds the environment the installed verifiers runs.

verifiers 0.3.x gets the classic ``MultiTurnEnv`` (:mod:`.classic`), 0.4.x a v1 ``Env`` over a
``Taskset`` (:mod:`.v1`); both drive the one :class:`~whileai_env.Episode`. The two releases cannot
share a venv, hence two extras: ``whileai-env[verifiers]`` and ``whileai-env[verifiers-v1]``.
This module imports verifiers only inside :func:`load_environment`.

``vf-eval whileai-env -a '{"spec": "configs/specs/order-support.json", "n": 10}' ...`` works
without an export: verifiers imports the module ``whileai_env`` and calls its ``load_environment``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from whileai_env.envs.verifiers.common import select_tasks, verifiers_generation
from whileai_env.export.references import resolve_reference
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import load_spec


def load_environment(
    spec: Any,
    n: int = 20,
    seed: int = 0,
    mode: str = "rl",
    split: str | None = None,
    judge: Callable[[dict], Any] | str | None = None,
    execute: Callable[[str, dict], Any] | str | None = None,
    *,
    tasks: Iterable[Task | Mapping[str, Any]] | None = None,
    holdout: float = 0.2,
    **episode_kwargs: Any,
) -> Any:
    """A verifiers environment over ``spec``'s tasks, for ``vf-eval`` or a verifiers-based trainer.

    Args:
        spec: a spec path, dict or :class:`~whileai_env.Spec`.
        n, seed, mode: the situations drawn when ``tasks`` is not given (as :func:`draw_tasks`).
        split: ``"train"`` or ``"holdout"`` (by scenario, ``holdout`` share), or ``None`` for all.
        judge, execute: as :class:`~whileai_env.Episode`, or their ``"module:attribute"`` names
            (what a JSON ``-a`` argument can carry).
        tasks: tasks, rows or task dicts to serve instead of drawing (an exported package's rows).
        episode_kwargs: the rest of :class:`~whileai_env.Episode`'s keywords (``max_turns``,
            ``user``, ``avg_turns``, ``error_budget``, ``world_options``).

    Raises :class:`~whileai_env.MissingExtraError` when verifiers is not installed.
    """
    generation = verifiers_generation()
    spec = load_spec(spec)
    chosen = select_tasks(spec, tasks, n=n, seed=seed, mode=mode, split=split, holdout=holdout)
    if not chosen:
        raise ValueError("the environment has no tasks: raise n, or pick a split that holds some")
    kwargs = {**episode_kwargs, "judge": resolve_reference(judge, "judge"),
              "execute": resolve_reference(execute, "execute")}
    if generation == "classic":
        from whileai_env.envs.verifiers.classic import build_environment
    else:
        from whileai_env.envs.verifiers.v1 import build_environment
    return build_environment(spec, chosen, kwargs)


__all__ = ["load_environment"]
