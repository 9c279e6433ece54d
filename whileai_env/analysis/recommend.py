"""How much to run: :func:`recommend` sizes a ``simulate()`` run from the agent's own grid.

Nothing here is a guess about the agent; every number is read off the spec's covering grid
(:func:`~whileai_env.scenarios.grid.build_grid`), the seeded draw over it, the mode's topology
(:func:`~whileai_env.scenarios.task.topology`) and the selection that follows the run:

saturation
    the situations the seeded draw opens before 95% of the grid's cells were drawn once
    (:func:`saturation`: measured up to a cap, extrapolated past it). The draw favours
    under-visited and risky cells, so this is about four visits per cell. Both modes generate at
    least that many situations.
``sft``
    each situation is played as ``phrasings x repeats`` rows (3 x 2), and rejection sampling
    (``optimize(mode="sft")``, ``top_per_prompt``) keeps at most one passing row per prompt, so a
    ``target`` of selected rows needs ``target`` prompts, ``repeats`` rows each to choose from.
``rl``
    one phrasing per situation; every prompt is probed with ``probe`` rollouts (2) and filled to
    ``k`` (8) only where they disagree, which only a *mixed* group does. A prompt therefore costs
    ``probe + mixed_rate x (k - probe)`` rollouts, and a ``target`` of selected rows is
    ``target / k`` mixed groups, ``target / (k x mixed_rate)`` prompts. The mixed rate is the
    agent's, not ours: ``0.5`` is assumed until it is measured, and the reasoning says how
    (``probe_kwargs``).

The default ``target`` is 800 selected rows (the seed documents' default). ``simulate_kwargs`` go
straight to :func:`~whileai_env.simulate`.

>>> rec = recommend("configs/specs/order-support.json", mode="sft", target=200)
>>> rec.simulate_kwargs["mode"], rec.simulate_kwargs["budget"] == rec.numbers["rows"]
('sft', True)
>>> print(rec.reasoning[0])  # doctest: +ELLIPSIS
covering grid: ... cells for this agent (... base cells, ... from ... policy clauses)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from whileai_env.errors import ConfigError
from whileai_env.scenarios.draw import iter_situations
from whileai_env.scenarios.grid import Grid, build_grid
from whileai_env.scenarios.task import topology
from whileai_env.simulation.config import SimulationConfig
from whileai_env.spec.load import Spec, load_spec

MODES = ("sft", "rl")
#: Selected rows wanted when no ``target`` is given.
DEFAULT_TARGET = 800
#: The mixed share of prompts assumed for ``rl`` until the agent's own is measured.
DEFAULT_MIXED_RATE = 0.5
#: Share of the grid's cells a saturated draw has touched (the last few cells cost as many
#: draws again: all of them took 9 to 12 visits per cell on the example grids, 95% about 4.3).
SATURATION = 0.95
#: Cells x situations the saturation measurement may draw (a draw's cost grows with the grid):
#: exact up to about 1,000 cells, about 10 s of drawing on a 14,000-cell grid.
MEASURE_BUDGET = 5_000_000
#: Half-width of the 95% interval the probe should measure the mixed rate to.
PROBE_HALF_WIDTH = 0.2
#: Below this mixed rate most rollouts are spent on groups with no gradient.
LOW_MIXED_RATE = 0.2
_Z95 = 1.96


@dataclass(frozen=True)
class Recommendation:
    """What :func:`recommend` returns: plain-sentence ``reasoning`` with the numbers, the
    ``simulate_kwargs`` to run, the ``numbers`` behind them and, for ``rl`` with no measured
    mixed rate, the ``probe_kwargs`` of the run that measures it. ``rec["reasoning"]`` works too."""

    mode: str
    reasoning: list[str]
    simulate_kwargs: dict[str, Any]
    numbers: dict[str, Any]
    probe_kwargs: dict[str, Any] | None = field(default=None)

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def format(self) -> str:
        """The reasoning, then the call to make."""
        call = ", ".join(f"{k}={v!r}" for k, v in self.simulate_kwargs.items())
        return "\n".join([*self.reasoning, f"simulate({call})"])


def recommend(
    spec_or_tools: Any,
    system_prompt: str | None = None,
    mode: str = "sft",
    target: int | None = None,
    mixed_rate: float | None = None,
    *,
    seed: int = 0,
) -> Recommendation:
    """Size a run of ``mode`` (``"sft"`` or ``"rl"``) for the spec (a path, dict, ``Spec``, or a
    list of tools with ``system_prompt``) and the draw's ``seed``; see the module docstring."""
    if mode not in MODES:
        raise ConfigError(f"recommend sizes mode 'sft' or 'rl', got {mode!r}")
    wanted = DEFAULT_TARGET if target is None else target
    if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 1:
        raise ConfigError(f"target must be a positive number of selected rows, got {target!r}")
    if mixed_rate is not None and not (
        isinstance(mixed_rate, int | float) and 0.0 < mixed_rate <= 1.0
    ):
        raise ConfigError(f"mixed_rate must be in (0, 1], got {mixed_rate!r}")
    grid, found = _measured(_spec(spec_or_tools, system_prompt), seed)
    lines = [_grid_line(grid), _saturation_line(len(grid), found)]
    if mode == "sft":
        return _sft(len(grid), found.situations, wanted, seed, lines)
    return _rl(len(grid), found.situations, wanted, mixed_rate, seed, lines)


class Saturation(NamedTuple):
    """How many situations the seeded draw needs to saturate the grid: ``situations`` (measured,
    or extrapolated when ``measured`` is ``False``), the ``drawn`` situations it was read from
    and the share of cells they ``covered``."""

    situations: int
    measured: bool
    drawn: int
    covered: float


def saturation(
    spec: Any, grid: Grid | None = None, *, seed: int = 0, budget: int = MEASURE_BUDGET
) -> Saturation:
    """Situations the seeded draw of ``simulate()`` opens before :data:`SATURATION` of the grid's
    cells were drawn at least once. The draw favours under-visited and risky cells, so this is
    several times the number of cells; the mode does not change which cells it draws.

    A draw costs time in proportion to the grid, so the measurement stops after ``budget / cells``
    situations: on a grid too large to saturate within that, the count is
    extrapolated from the share covered so far as if each cell were met at the rate seen,
    ``drawn x ln(1 / (1 - 0.95)) / ln(1 / (1 - covered))``: an estimate, not a measurement (capped
    at two situations per cell on the order-support example it gives 1,514 against the measured
    1,326; read after only a few draws per cell, where nearly every draw is a new cell, it errs
    low).

    >>> spec = load_spec(tools=[{"name": "get_order"}], system_prompt="Be brief.")
    >>> found = saturation(spec)
    >>> found.measured, found.situations >= SATURATION * len(build_grid(spec))
    (True, True)
    >>> saturation(spec, budget=1).measured
    False
    """
    spec = load_spec(spec)
    grid = grid if grid is not None else build_grid(spec)
    cells = len(grid)
    wanted, cap, seen = math.ceil(SATURATION * cells), max(1, budget // cells), set()
    draw = iter_situations(spec, mode="explore", seed=seed, grid=grid)
    for drawn, situation in enumerate(itertools.islice(draw, cap), start=1):
        seen.add(situation[0].scenario_id)
        if len(seen) >= wanted:
            return Saturation(drawn, True, drawn, len(seen) / cells)
    covered = len(seen) / cells
    rate = math.log(1.0 / (1.0 - SATURATION)) / math.log(1.0 / (1.0 - covered))
    return Saturation(math.ceil(cap * rate), False, cap, covered)


@functools.lru_cache(maxsize=16)
def _measured(spec: Spec, seed: int) -> tuple[Grid, Saturation]:
    """The grid and its :func:`saturation`, kept per (spec, seed): sizing both modes draws once."""
    grid = build_grid(spec)
    return grid, saturation(spec, grid, seed=seed)


def _spec(source: Any, system_prompt: str | None) -> Spec:
    if isinstance(source, Iterable) and not isinstance(source, str | bytes | Mapping):
        return load_spec(tools=list(source), system_prompt=system_prompt)
    return load_spec(source, system_prompt=system_prompt)


def _grid_line(grid: Grid) -> str:
    summary = grid.summary()
    clauses = len(summary["clause_cells"])
    return (
        f"covering grid: {summary['cells']} cells for this agent ({summary['base_cells']} base "
        f"cells, {summary['cells'] - summary['base_cells']} from {clauses} policy clauses)"
    )


def _saturation_line(cells: int, found: Saturation) -> str:
    visits = found.situations / cells
    if found.measured:
        return (
            f"saturation: the seeded draw reaches {SATURATION:.0%} of the cells after "
            f"{found.situations} situations, {visits:.2f} visits per cell"
        )
    return (
        f"saturation: the seeded draw covered {found.covered:.0%} of the cells in the "
        f"{found.drawn} situations measured (the cap on a grid this size); at that rate "
        f"{SATURATION:.0%} takes about {found.situations} situations, {visits:.2f} visits per "
        "cell (an extrapolation, not a measurement)"
    )


def _sft(cells: int, saturation: int, target: int, seed: int, lines: list[str]) -> Recommendation:
    shape = topology("sft")
    per_situation = shape.phrasings * shape.repeats
    wanted = math.ceil(target / shape.phrasings)
    situations = max(saturation, wanted)
    rows = situations * per_situation
    lines += [
        f"sft plays each situation as {shape.phrasings} phrasings x {shape.repeats} repeats = "
        f"{per_situation} rows: saturation is {saturation} x {per_situation} = "
        f"{saturation * per_situation} rows",
        f"selection keeps at most one passing row per prompt, so it wants {shape.repeats}x its "
        f"target of {target} to choose from: {target} prompts ({wanted} situations), "
        f"{wanted * per_situation} rows",
        f"generate {rows}, select {target} diverse 1-labeled rows",
    ]
    numbers: dict[str, Any] = {"cells": cells, "saturation_situations": saturation}
    numbers["situations"] = situations
    numbers.update(rows=rows, target=target)
    kwargs = {"mode": "sft", "budget": rows, "seed": seed}
    return Recommendation("sft", lines, kwargs, numbers)


def _rl(
    cells: int,
    saturation: int,
    target: int,
    measured: float | None,
    seed: int,
    lines: list[str],
) -> Recommendation:
    k, probe = topology("rl").repeats, SimulationConfig().probe
    rate = DEFAULT_MIXED_RATE if measured is None else float(measured)
    per_prompt = probe + rate * (k - probe)
    groups = math.ceil(target / k)
    wanted = math.ceil(groups / rate)
    prompts = max(saturation, wanted)
    rows = math.ceil(prompts * per_prompt)
    source = (
        "measured" if measured is not None else "assumed (pass the measured one as mixed_rate=)"
    )
    lines += [
        f"rl plays one phrasing per situation, probes every prompt with {probe} rollouts and "
        f"fills to k={k} only where they disagree",
        f"mixed rate {rate:g} {source}: a prompt costs about {probe} + {rate:g} x {k - probe} = "
        f"{per_prompt:g} rollouts",
        f"a target of {target} rows is {groups} mixed groups of {k}: {wanted} prompts at this "
        f"rate; saturation wants {saturation}",
        f"generate about {rows} rows ({prompts} prompts), expect about "
        f"{math.floor(prompts * rate)} mixed groups",
    ]
    numbers: dict[str, Any] = {"cells": cells, "saturation_situations": saturation}
    numbers["prompts"] = prompts
    numbers.update(rows=rows, target=target, mixed_rate=rate, k=k, probe=probe)
    kwargs = {"mode": "rl", "budget": rows, "repeats": k, "seed": seed}
    probe_kwargs = None if measured is not None else _probe(cells, k, rate, seed, lines)
    if measured is not None and rate < LOW_MIXED_RATE:
        lines.append(
            f"a mixed rate of {rate:g} spends most rollouts on unanimous groups: the grid is too "
            "easy or too hard for this agent; aim it before buying rollouts"
        )
    return Recommendation("rl", lines, kwargs, numbers, probe_kwargs)


def _probe(cells: int, k: int, rate: float, seed: int, lines: list[str]) -> dict[str, Any]:
    """The probe run that measures the mixed rate to within :data:`PROBE_HALF_WIDTH`."""
    asks = min(cells, math.ceil(_Z95**2 * rate * (1 - rate) / PROBE_HALF_WIDTH**2))
    lines.append(
        f"the mixed rate is the agent's, not ours: probe {asks} asks first (budget {asks * k}, "
        "with grader=), read data.search['groups'] (mixed / groups) and pass it as mixed_rate="
    )
    return {"mode": "rl", "budget": asks * k, "repeats": k, "seed": seed}
