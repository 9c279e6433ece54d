"""The tasks a served endpoint knows: an exported package's rows, or a spec's draw.

The draw takes the same ``n``/``seed``/``mode`` as :func:`whileai_env.load_environment`, so a server
started with them answers exactly the prompts that environment asks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from whileai_env.scenarios.draw import draw_tasks, tasks_from_rows
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec, load_spec


def served_tasks(source: Any, *, n: int, seed: int, mode: str) -> tuple[Spec, list[Task]]:
    """``source`` is an exported package's directory or a spec (path, dict or :class:`Spec`)."""
    from whileai_env.export.package import read_package

    if (
        isinstance(source, str | Path)
        and Path(source).is_dir()
        and any(Path(source).glob("**/spec.json"))
    ):
        spec, rows = read_package(source)
        return spec, tasks_from_rows(rows, spec)
    spec = load_spec(source)
    return spec, draw_tasks(spec, n, mode=mode, seed=seed)
