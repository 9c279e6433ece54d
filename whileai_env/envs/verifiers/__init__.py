"""The verifiers face: ``load_environment`` builds the environment the installed verifiers runs.

verifiers 0.3.x gets the classic ``MultiTurnEnv`` (:mod:`.classic`), driving the one
:class:`~whileai_env.Episode`; the extra is ``whileai-env[verifiers]``. verifiers 0.4.x (v1 only:
tasksets, harnesses, MCP toolsets) is detected and refused with a clear error until the v1 face
exists. This module imports verifiers only inside :func:`load_environment`.

``vf-eval whileai-env -a '{"spec": "configs/specs/order-support.json", "n": 10}' ...`` works
without an export: verifiers imports the module ``whileai_env`` and calls its ``load_environment``.
"""

from __future__ import annotations

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

    Raises :class:`~whileai_env.MissingExtraError` when verifiers is not installed.
    """
    if verifiers_generation() != "classic":
        raise ConfigError(
            "verifiers 0.4 (the v1 API) is installed, and whileai-env has no v1 face yet: "
            "use verifiers 0.3.x in this venv (pip install 'whileai-env[verifiers]')"
        )
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


__all__ = ["load_environment"]
