"""The verifiers face: ``load_environment`` builds the environment the installed verifiers runs.

verifiers 0.3.x gets the classic ``MultiTurnEnv`` (:mod:`.classic`); the extra is
``whileai-env[verifiers]``. verifiers 0.4.x (v1 only) gets a ``vf.Env`` over a taskset, a
per-rollout MCP tool server and the simulated user (:mod:`.v1`); the extra is
``whileai-env[verifiers-v1]``. Both drive the one :class:`~whileai_env.Episode`. This module
imports verifiers only inside :func:`load_environment`.

Without an export, 0.3's ``vf-eval whileai-env -a '{"spec": PATH, "n": 10}' ...`` imports the
module ``whileai_env`` and calls its ``load_environment``. 0.4's ``vf-eval`` takes an exported
package's module (it finds the taskset and env in the module's ``__all__``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from whileai_env.envs.verifiers.common import select_tasks, verifiers_generation
from whileai_env.errors import ConfigError
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

    Returns the classic ``MultiTurnEnv`` under verifiers 0.3, the v1 ``vf.Env`` under 0.4 (whose
    episode options must be plain values: its tool server reads them in another process).
    Raises :class:`~whileai_env.MissingExtraError` when verifiers is not installed.
    """
    if verifiers_generation() == "v1":
        draw = {"n": n, "seed": seed, "mode": mode, "split": split, "holdout": holdout}
        return _v1_environment(spec, tasks, judge, execute, episode_kwargs, draw)
    spec = load_spec(spec)
    chosen = select_tasks(spec, tasks, n=n, seed=seed, mode=mode, split=split, holdout=holdout)
    if not chosen:
        raise ValueError("the environment has no tasks: raise n, or pick a split that holds some")
    kwargs = {
        **episode_kwargs,
        "judge": resolve_reference(judge, "judge"),
        "execute": resolve_reference(execute, "execute"),
    }
    from whileai_env.envs.verifiers.classic import build_environment

    return build_environment(spec, chosen, kwargs)


def _v1_environment(
    spec: Any,
    tasks: Iterable[Task | Mapping[str, Any]] | None,
    judge: Any,
    execute: Any,
    options: dict[str, Any],
    draw: dict[str, Any],
) -> Any:
    """The v1 env: what it needs travels as files and names (another process reads them)."""
    from whileai_env.envs.verifiers.v1 import build_environment
    from whileai_env.envs.verifiers.v1_source import EPISODE_OPTIONS, materialize, references
    from whileai_env.episode.user import DEFAULT_AVG_TURNS

    unknown = sorted(set(options) - set(EPISODE_OPTIONS))
    if unknown or callable(options.get("user")):
        raise ConfigError(
            f"verifiers v1 takes the episode options {', '.join(EPISODE_OPTIONS)} as values "
            f"(user as 'openai:MODEL'); got {unknown or ['a callable user']}"
        )
    source, rows = materialize(spec, tasks)
    world = options.get("world_options")
    if world is not None and not isinstance(world, Mapping):
        options = {**options, "world_options": dataclasses.asdict(world)}
    config = {"spec": source, "rows": rows, **draw, **references(judge, execute), **options}
    cap = options.get("max_turns") or 2 * (options.get("avg_turns") or DEFAULT_AVG_TURNS)
    return build_environment(config, cap + 1)


__all__ = ["load_environment"]
