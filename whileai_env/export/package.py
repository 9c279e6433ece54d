"""``export_environment``: a run's tasks, the world and the reward as an installable verifiers package.

On-policy RL samples its own rollouts, so what a trainer needs is not rows but what they came
from. The package holds::

    DIR/pyproject.toml            hatchling; depends on whileai-env; [tool.verifiers.eval] defaults
    DIR/README.md                 the gate report: band, split, decontamination
    DIR/MODULE/__init__.py        load_environment(split="train", **kwargs)
    DIR/MODULE/spec.json          the spec (tool schemas verbatim), the turn cap, judge/execute names
    DIR/MODULE/data/train.jsonl   one task per row in the verifiers shape (prompt, info, task_id)
    DIR/MODULE/data/holdout.jsonl the held-out scenarios

The privileged block (hidden state, reference, fault plan) is only in ``info``, read by the
environment; the prompt is the system prompt and the opener.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from whileai_env.envs.verifiers.common import dataset_row
from whileai_env.episode.engine import Episode
from whileai_env.export.gate import band_gate
from whileai_env.export.reading import read_package  # noqa: F401 (its public name, kept)
from whileai_env.export.readme import readme
from whileai_env.export.references import reference_of
from whileai_env.export.split import split_by_scenario
from whileai_env.scenarios.draw import draw_tasks, tasks_from_rows
from whileai_env.scenarios.task import Task, task_columns
from whileai_env.spec.load import Spec, load_spec

_MODULE = '''"""{name}: a whileai-env environment (written by whileai_env.export_environment)."""

import json
from pathlib import Path

_HERE = Path(__file__).parent
# verifiers 0.4 finds a taskset and an env here by name; 0.3 calls load_environment.
__all__ = ["Env", "Taskset", "load_environment"]


def __getattr__(name):
    """The verifiers 0.4 taskset and env over this package, built on first use."""
    if name not in ("Env", "Taskset"):
        raise AttributeError(name)
    from whileai_env.envs.verifiers.v1 import package_classes

    config = json.loads((_HERE / "spec.json").read_text(encoding="utf-8"))
    return package_classes(str(_HERE), config["max_turns"] + 1)[name]


def load_environment(split: str = "train", **kwargs):
    """The verifiers environment over this package's ``split`` ("train" or "holdout")."""
    import whileai_env

    config = json.loads((_HERE / "spec.json").read_text(encoding="utf-8"))
    path = _HERE / "data" / f"{{split}}.jsonl"
    if not path.is_file():
        raise ValueError(f"no split {{split!r}} in this package; use 'train' or 'holdout'")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    options = {{"judge": config.get("judge"), "execute": config.get("execute"), "max_turns": config["max_turns"]}}
    return whileai_env.load_environment(config["spec"], tasks=rows, **{{**options, **kwargs}})
'''

_PYPROJECT = """[build-system]
requires = ["hatchling>=1.24"]
build-backend = "hatchling.build"

[project]
name = "{dist}"
version = "0.1.0"
description = "A whileai-env RL environment for verifiers: {name}"
requires-python = ">=3.11"
dependencies = ["whileai-env>=0.1.0"]

[tool.hatch.build.targets.wheel]
packages = ["{module}"]

[tool.verifiers.eval]
num_examples = 5
rollouts_per_example = 3
"""


def export_environment(
    source: Any,
    path: str | Path,
    judge: Callable[[dict], Any] | str | None = None,
    execute: Callable[[str, dict], Any] | str | None = None,
    holdout: float = 0.2,
    band: tuple[float, float] | None = (0.2, 0.8),
    *,
    spec: Any = None,
    n: int = 50,
    seed: int = 0,
    mode: str = "rl",
    name: str | None = None,
    max_turns: int | None = None,
) -> dict[str, Any]:
    """Write ``source`` as an installable verifiers package at ``path``; return the gate report.

    ``source`` is a ``SimulationData`` (its spec is used), graded or ungraded rows, tasks, or a
    spec (``n`` situations are drawn with ``mode`` and ``seed``); rows and tasks need ``spec=``.
    Graded rows are kept by task when the task's pass rate lies in ``band``; the tasks are split
    by scenario (``holdout`` share) and train is decontaminated against holdout. ``judge`` and
    ``execute`` must import by name (a module-level function, or ``"module:attribute"``): the
    package is loaded in another process. Refuses a non-empty ``path``.
    """
    spec, rows, tasks = _sources(source, spec, n=n, seed=seed, mode=mode)
    references = {
        "judge": reference_of(judge, "judge"),
        "execute": reference_of(execute, "execute"),
    }
    kept, gate = band_gate(rows, band)
    if kept is not None:
        tasks = [t for t in tasks if t.task_id in kept]
    split = split_by_scenario(tasks, holdout, seed=seed)
    if not split.train:
        raise ValueError(
            f"nothing left to train on after the gate ({gate}); widen band= or export more tasks"
        )
    cap = max_turns or Episode(spec, split.train[0]).max_turns
    module = _module_name(name or spec.name)
    report = {
        "name": module,
        "gate": gate,
        "holdout": holdout,
        "tasks_in": len(tasks),
        "train": len(split.train),
        "holdout_tasks": len(split.holdout),
        "decontaminated": len(split.dropped),
        "train_scenarios": len({t.scenario_id for t in split.train}),
        "holdout_scenarios": len({t.scenario_id for t in split.holdout}),
        **references,
    }
    root = _empty_dir(Path(path))
    package = root / module
    (package / "data").mkdir(parents=True)
    config = {"spec": spec.to_dict(), "max_turns": cap, **references}
    (package / "spec.json").write_text(
        json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    for side, chosen in (("train", split.train), ("holdout", split.holdout)):
        lines = [
            json.dumps(dataset_row(spec, t, max_turns=cap), ensure_ascii=False) for t in chosen
        ]
        (package / "data" / f"{side}.jsonl").write_text(
            "".join(f"{line}\n" for line in lines), encoding="utf-8"
        )
    (package / "__init__.py").write_text(_MODULE.format(name=module), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        _PYPROJECT.format(dist=module.replace("_", "-"), module=module, name=module),
        encoding="utf-8",
    )
    (root / "README.md").write_text(readme(report), encoding="utf-8")
    return {"path": str(root), **report}


def _sources(
    source: Any, spec: Any, *, n: int, seed: int, mode: str
) -> tuple[Spec, list[dict[str, Any]], list[Task]]:
    """(spec, what the gate reads of each graded row, tasks) from whatever ``source`` is.

    Rows are read once, one at a time, and only what the gate and the tasks need is kept: each
    rollout's task and reward, and each task's columns once (a 15,000-row run took 596 MB held
    whole)."""
    if hasattr(source, "trajectories"):
        spec = spec if spec is not None else getattr(source, "spec", None)
        source = source.trajectories
    elif isinstance(source, Spec | str | Path | Mapping):
        drawn_spec = load_spec(source)
        return drawn_spec, [], draw_tasks(drawn_spec, n, mode=mode, seed=seed)
    if spec is None:
        raise ValueError("export_environment needs spec= when given rows or tasks")
    spec = load_spec(spec)
    rollouts: list[dict[str, Any]] = []
    firsts: dict[str, Task | dict[str, Any]] = {}
    for item in source if isinstance(source, Iterable) else [source]:
        if isinstance(item, Task):
            firsts.setdefault(item.task_id, item)
            continue
        if not isinstance(item, Mapping):
            raise TypeError("export_environment takes a SimulationData, rows, tasks or a spec")
        columns = task_columns(item)
        if columns:
            keys = ("task_id", "prompt")
            rollouts.append({**{k: columns[k] for k in keys if k in columns}, **_reward_of(item)})
        firsts.setdefault(str(columns.get("task_id")), columns)
    return spec, rollouts, tasks_from_rows(firsts.values(), spec)


def _reward_of(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"reward": row["reward"]} if "reward" in row else {}


def _module_name(name: str) -> str:
    module = re.sub(r"[^0-9a-zA-Z]+", "_", name).strip("_").lower() or "environment"
    return module if module[0].isalpha() else f"env_{module}"


def _empty_dir(path: Path) -> Path:
    if path.exists() and any(path.iterdir()):
        raise FileExistsError(f"{path} is not empty; export into a new directory")
    path.mkdir(parents=True, exist_ok=True)
    return path
