"""Where a v1 taskset's tasks come from, with no verifiers import: a spec file or an exported
package, optional task rows, and the episode options, all as plain strings and numbers.

verifiers 0.4 builds every plugin from a config of flags (``--env.taskset.*``) and starts each
rollout's tool server as its own process (``python -m``), so nothing in-process (a ``Spec``
object, a list of tasks, a callable) can reach either: :func:`materialize` writes such values to
content-named files and the configs carry their paths and reference names.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from whileai_env.envs.verifiers.common import select_tasks
from whileai_env.export.reading import package_config, read_package
from whileai_env.export.references import reference_of, resolve_reference
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec, load_spec

# The options a config carries by value; ``judge`` and ``execute`` travel as "module:attribute".
EPISODE_OPTIONS = ("max_turns", "avg_turns", "error_budget", "user", "world_options")


def read_source(source: str) -> tuple[Spec, dict[str, Any]]:
    """(spec, the package's episode options) for ``source``: an exported package's directory
    (its turn cap, judge and execute names), or a spec file (no options)."""
    if not Path(source).is_dir():
        return load_spec(source), {}
    config = package_config(source)
    options = {k: config.get(k) for k in ("judge", "execute", "max_turns")}
    return load_spec(config["spec"]), {k: v for k, v in options.items() if v is not None}


def package_rows(source: str, split: str | None) -> list[dict[str, Any]] | None:
    """An exported package's rows for ``split`` (both when ``None``), or ``None`` for a spec file."""
    if not Path(source).is_dir():
        return None
    return read_package(source, split)[1]


def episode_kwargs(options: Mapping[str, Any]) -> dict[str, Any]:
    """:class:`~whileai_env.Episode` keywords from config options (references resolved)."""
    kwargs = {k: options[k] for k in EPISODE_OPTIONS if options.get(k) is not None}
    kwargs["judge"] = resolve_reference(options.get("judge"), "judge")
    kwargs["execute"] = resolve_reference(options.get("execute"), "execute")
    return kwargs


def load_tasks(
    source: str,
    rows: str | None,
    *,
    n: int,
    seed: int,
    mode: str,
    split: str | None,
    holdout: float,
) -> tuple[Spec, list[Task]]:
    """The spec and the tasks a taskset config names: ``rows`` (a JSONL file) when given, else
    an exported package's split, else ``n`` situations drawn from the spec."""
    spec = read_source(source)[0]
    given: list[dict[str, Any]] | None
    if rows:
        lines = Path(rows).read_text(encoding="utf-8").splitlines()
        given = [json.loads(line) for line in lines if line.strip()]
    else:
        given = package_rows(source, split)
        split = None if given is not None else split
    tasks = select_tasks(spec, given, n=n, seed=seed, mode=mode, split=split, holdout=holdout)
    return spec, tasks


def materialize(
    spec: Any, tasks: Iterable[Task | Mapping[str, Any]] | None
) -> tuple[str, str | None]:
    """A path for ``spec`` (written as JSON unless it already is a file or package directory)
    and, for given tasks or rows, a JSONL file of them; files are named by their content."""
    if isinstance(spec, str | Path) and Path(spec).exists():
        source = str(spec)
    else:
        source = _write("spec", json.dumps(load_spec(spec).to_dict(), ensure_ascii=False))
    if tasks is None:
        return source, None
    lines = [
        json.dumps(t.to_dict() if isinstance(t, Task) else dict(t), ensure_ascii=False, default=str)
        for t in tasks
    ]
    return source, _write("rows", "".join(f"{line}\n" for line in lines), suffix=".jsonl")


def references(judge: Any, execute: Any) -> dict[str, str | None]:
    """``judge`` and ``execute`` as the names another process imports them by."""
    return {"judge": reference_of(judge, "judge"), "execute": reference_of(execute, "execute")}


def _write(kind: str, text: str, suffix: str = ".json") -> str:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / "whileai-env-v1"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}-{digest}{suffix}"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return str(path)
