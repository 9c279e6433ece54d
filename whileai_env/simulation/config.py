"""``SimulationConfig``: every knob of a ``simulate()`` run, as one checked, serialisable object.

The keyword arguments of :func:`~whileai_env.simulate` still work and build one; a YAML file
(``whileai-env simulate SPEC --config configs/simulate/rl.yaml``) loads one. What is not a knob
(the agent, the spec, a grader or user callable, a task set) stays an argument of ``simulate``.

>>> config = SimulationConfig(mode="rl", budget=400, fault_rate=0.8)
>>> config.replace(budget=50).budget, config.to_dict()["mode"]
(50, 'rl')
>>> SimulationConfig(budget=0)
Traceback (most recent call last):
  ...
whileai_env.errors.ConfigError: budget must be a positive number of rows, got 0
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from whileai_env.errors import ConfigError
from whileai_env.scenarios.task import MODES

UNTIL = ("compute", "saturation")
BACKENDS = ("process", "ray")


@dataclass(frozen=True)
class SimulationConfig:
    """The knobs of one run. See ``docs/simulate.md`` for what each does.

    ``mode``: ``explore`` | ``sft`` | ``rl`` | ``adaptive``. ``budget``: the row cap.
    ``time_budget``: seconds (off when ``None``). ``situations`` / ``phrasings`` / ``repeats``:
    the topology (the mode's defaults when ``None``). ``fault_rate``: share of faulted cells
    that keep their fault (0.5, 0.8 in rl, when ``None``). ``seed``: the draw. ``reproducible``:
    rows land in plan order whatever the concurrency. ``concurrency``: rollouts in flight (16 for
    model agents, 1 otherwise, when ``None``). ``until``: ``compute`` or ``saturation``.
    ``avg_turns`` / ``max_turns``: the simulated user's patience and the turn cap. ``probe``:
    rollouts per prompt before rl mode decides to fill a group. ``logprobs``: record per-turn
    logprobs (model agents). ``output`` / ``resume``: stream rows to a JSONL file, continue it.
    ``quiet``: no progress bar. ``workers``: play in that many worker processes (``backend=
    "process"``) or Ray actors (``backend="ray"``, on the cluster at ``ray_address`` or
    ``RAY_ADDRESS``, else a local Ray); ``None`` plays in this process (on Ray: one actor per CPU
    of the cluster). See ``docs/scaling.md``.
    """

    mode: str = "explore"
    budget: int = 1000
    time_budget: float | None = None
    situations: int | None = None
    phrasings: int | None = None
    repeats: int | None = None
    fault_rate: float | None = None
    seed: int = 0
    reproducible: bool = False
    concurrency: int | None = None
    until: str = "compute"
    avg_turns: int = 12
    max_turns: int | None = None
    probe: int = 2
    logprobs: bool = False
    output: str | None = None
    resume: bool = False
    quiet: bool = False
    workers: int | None = None
    backend: str = "process"
    ray_address: str | None = None

    def __post_init__(self) -> None:
        if self.output is not None and not isinstance(self.output, str):
            object.__setattr__(self, "output", os.fspath(self.output))
        if self.time_budget == 0:
            object.__setattr__(self, "time_budget", None)
        for problem in _problems(self):
            raise ConfigError(problem)

    def replace(self, **changes: Any) -> SimulationConfig:
        """A copy with ``changes`` applied (and checked)."""
        _check_names(changes, "SimulationConfig.replace()")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "config") -> SimulationConfig:
        """A config from a mapping; an unknown key is an error naming it and ``source``."""
        if not isinstance(data, Mapping):
            raise ConfigError(
                f"{source}: a simulate config is a mapping of knobs, got {type(data).__name__}"
            )
        _check_names(data, source)
        try:
            return cls(**dict(data))
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> SimulationConfig:
        """A config from a YAML (or JSON) file of knobs."""
        import yaml

        path = Path(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read the config ({exc.strerror or exc})") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
            raise ConfigError(
                f"{where}: not valid YAML ({getattr(exc, 'problem', None) or exc})"
            ) from None
        return cls.from_mapping(data or {}, source=str(path))


def _check_names(data: Mapping[str, Any], source: str) -> None:
    known = {f.name for f in fields(SimulationConfig)}
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise ConfigError(
            f"{source}: unknown key {unknown[0]!r}; known keys: {', '.join(sorted(known))}"
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _problems(c: SimulationConfig) -> list[str]:
    """Every way ``c`` is unusable, first one first (one line each)."""
    out = []
    if c.mode not in MODES:
        out.append(f"mode must be one of {', '.join(MODES)}, got {c.mode!r}")
    if not _is_int(c.budget) or c.budget < 1:
        out.append(f"budget must be a positive number of rows, got {c.budget!r}")
    if c.until not in UNTIL:
        out.append(f"until must be 'compute' or 'saturation', got {c.until!r}")
    if c.time_budget is not None and (
        not isinstance(c.time_budget, int | float) or not c.time_budget >= 0
    ):
        out.append(f"time_budget must be >= 0 seconds, got {c.time_budget!r}")
    if c.reproducible and c.time_budget:
        out.append("reproducible=True needs the clock off (time_budget=None)")
    if c.resume and c.output is None:
        out.append("resume=True needs output= (the JSONL file to continue)")
    if c.fault_rate is not None and not (
        isinstance(c.fault_rate, int | float) and 0.0 <= c.fault_rate <= 1.0
    ):
        out.append(f"fault_rate must be between 0 and 1, got {c.fault_rate!r}")
    if c.backend not in BACKENDS:
        out.append(f"backend must be one of {', '.join(BACKENDS)}, got {c.backend!r}")
    if c.ray_address is not None and c.backend != "ray":
        out.append("ray_address needs backend='ray'")
    for name in ("situations", "phrasings", "repeats", "concurrency", "max_turns", "workers"):
        value = getattr(c, name)
        if value is not None and (not _is_int(value) or value < 1):
            out.append(f"{name} must be a positive integer, got {value!r}")
    for name in ("avg_turns", "probe", "seed"):
        value = getattr(c, name)
        if not _is_int(value) or (name != "seed" and value < 1):
            out.append(
                f"{name} must be {'an' if name == 'seed' else 'a positive'} integer, got {value!r}"
            )
    if isinstance(c.time_budget, float) and math.isnan(c.time_budget):
        out.append("time_budget must be a number of seconds, got nan")
    return out
