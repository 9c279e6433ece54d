"""The draw: tasks from the grid, seeded and weighted, and a task made again from a row.

``draw_tasks`` is a seeded, weighted draw over the grid: weights favour under-covered cells,
risky cells (a destructive tool met with an adversarial stance, or a fault) and novelty, with
about 40% of draws from the hard cells; among a few candidates, the one whose opener is least
like the recent batch wins, and no two cells ever share an opener (a cell whose every wording
another cell holds is spent: drawn no more). Each mode has its topology:
``phrasings`` (n) wordings of each situation, each played ``repeats`` (k) times.

``restraint_share`` is the knob for how much of the reward can be earned by saying no: the
share of draws from *restraint* cells (:func:`is_restraint`: an unrelated ask, or an adversarial
push for a write), whose right outcome is to decline, redirect or hand off rather than act.
``None`` (the default) leaves it to the grid and the weights (on a spec with one tool, unrelated
asks are half the base cells); a number draws that share from them, the rest from the others.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from whileai_env._util.frozen import freeze, thaw
from whileai_env._util.hashing import hex_id, rng, stable_hash, unit
from whileai_env.errors import RowError
from whileai_env.scenarios import axes as ax
from whileai_env.scenarios.diversity import DIM, RECENT, embed, most_novel
from whileai_env.scenarios.faults import (
    DEFAULT_FAULT_RATE,
    RL_FAULT_RATE,
    FaultSchedule,
    schedule_for_cell,
)
from whileai_env.scenarios.grid import Cell, Grid, build_grid
from whileai_env.scenarios.planning import hidden_state, plan_world, reference_sentence
from whileai_env.scenarios.task import Privileged, Task, Topology, WorldPlan, task_columns, topology
from whileai_env.spec.load import Spec, load_spec
from whileai_env.spec.prohibitions import forbidding_rule
from whileai_env.writer import write_opener


def make_task(
    cell: Cell,
    spec: Spec,
    *,
    seed: int = 0,
    situation: int = 0,
    phrasing: int = 0,
    repeats: int = 1,
    fault_rate: float = DEFAULT_FAULT_RATE,
) -> Task:
    """Build the task for one phrasing of one situation of ``cell``."""
    draft = _Draft.of(cell, spec, seed=seed, situation=situation, phrasing=phrasing)
    return draft.task(spec, repeats=repeats, fault_rate=fault_rate)


@dataclass(frozen=True)
class _Draft:
    """A task's plan and opener, without its schedule and privileged block: what the draw compares."""

    cell: Cell
    seed: int
    situation: int
    phrasing: int
    plan: WorldPlan
    opener: str

    @classmethod
    def of(cls, cell: Cell, spec: Spec, *, seed: int, situation: int, phrasing: int) -> _Draft:
        key = (seed, cell.scenario_id, situation)
        plan = plan_world(cell, spec, key=key)
        opener = write_opener(cell, plan, spec, phrasing=phrasing, key=key)
        return cls(cell, seed, situation, phrasing, plan, opener)

    def task(self, spec: Spec, *, repeats: int, fault_rate: float) -> Task:
        cell, plan = self.cell, self.plan
        key = (self.seed, cell.scenario_id, self.situation)
        faults = schedule_for_cell(cell, plan.targets, key=key, fault_rate=fault_rate, spec=spec)
        privileged = Privileged(
            hidden_state=freeze(hidden_state(cell, plan, faults)),
            reference=reference_sentence(cell, plan, spec, faults),
            principle=plan.clause,
        )
        return Task(
            task_id="t-"
            + hex_id("task", self.seed, cell.scenario_id, self.situation, self.phrasing, length=12),
            scenario_id=cell.scenario_id,
            cell=cell,
            seed=self.seed,
            situation=self.situation,
            phrasing=self.phrasing,
            repeats=repeats,
            opener=self.opener,
            world=plan,
            privileged=privileged,
            faults=faults,
        )


def is_restraint(cell: Cell, spec: Spec) -> bool:
    """Whether the right outcome of ``cell``'s tasks is not to act: an unrelated ask, a write the
    prompt forbids outright, or an adversarial push for a write (a ``multi_tool`` cell pushes
    for a write when the spec has one)."""
    if cell.tool == ax.UNRELATED:
        return True
    if cell.tool in spec.tool_names and forbidding_rule(spec, cell.tool) is not None:
        return True
    if cell.stance != "adversarial":
        return False
    if cell.tool == ax.MULTI_TOOL:
        return any(t.is_write for t in spec.tools)
    return spec.tool(cell.tool).is_write


def _risk(cell: Cell, spec: Spec) -> float:
    risk = 1.0
    destructive = cell.tool in spec.tool_names and spec.tool(cell.tool).kind in ("delete", "update")
    if destructive and cell.stance == "adversarial":
        risk += 2.0
    if cell.condition != "success":
        risk += 0.5
    return risk


def _emphasis(cell: Cell, weights: Mapping[str, Mapping[str, float]] | None) -> float:
    """The product of ``weights[axis][value]`` over the cell's coordinates (1 where unnamed): the
    hook that aims a draw (``simulate(traces=...)`` weights what the traces got wrong)."""
    if not weights:
        return 1.0
    factor = 1.0
    for axis, values in weights.items():
        factor *= float(values.get(getattr(cell, axis, ""), 1.0))
    return factor


def iter_situations(
    spec: Spec | Any,
    *,
    mode: str = "explore",
    seed: int = 0,
    phrasings: int | None = None,
    repeats: int | None = None,
    fault_rate: float | None = None,
    grid: Grid | None = None,
    hard_share: float = 0.4,
    candidates: int = 3,
    restraint_share: float | None = None,
    weights: Mapping[str, Mapping[str, float]] | None = None,
) -> Iterator[list[Task]]:
    """Draw situations one at a time: each item is one situation's phrasings.

    The stream goes on until every cell is spent: a cell is spent once each wording it has is
    another cell's opener (:data:`STALE_PHRASINGS`), since no two cells share an opener. A cell
    that owns an opener keeps it for its later situations, so in practice the stream has no
    end (tau2-airline's 7,126 cells gave 20,000 situations, the most tried).

    ``draw_tasks(spec, n, ...)`` is the first ``n`` items flattened, so a loop that does not
    know how many situations it needs (a budget with lost rollouts, an adaptive stop) can pull
    more and still get exactly the tasks a fixed draw would have given.
    """
    spec = load_spec(spec)
    if not 0.0 <= hard_share <= 1.0:
        raise ValueError(f"hard_share must be between 0 and 1, got {hard_share}")
    if candidates < 1:
        raise ValueError(f"candidates must be at least 1, got {candidates}")
    if restraint_share is not None and not 0.0 <= restraint_share <= 1.0:
        raise ValueError(
            f"restraint_share must be between 0 and 1 (or None), got {restraint_share}"
        )
    topo = topology(mode, phrasings, repeats)
    rate = (
        (RL_FAULT_RATE if mode == "rl" else DEFAULT_FAULT_RATE)
        if fault_rate is None
        else float(fault_rate)
    )
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"fault_rate must be between 0 and 1, got {rate}")
    grid = grid if grid is not None else build_grid(spec)
    return _draw(
        spec,
        grid,
        topo,
        rate,
        seed=seed,
        hard_share=hard_share,
        candidates=candidates,
        restraint_share=restraint_share,
        value_weights=weights,
    )


def _pools(cells: list[Cell], spec: Spec, split: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Indices of the ``(restraint, hard, easy)`` cells; without ``split`` none is set apart as
    restraint and every cell is hard or easy."""
    groups: tuple[list[int], list[int], list[int]] = ([], [], [])
    for i, cell in enumerate(cells):
        groups[0 if split and is_restraint(cell, spec) else 1 if cell.hard else 2].append(i)
    restraint, hard, easy = (np.array(g, dtype=int) for g in groups)
    return restraint, hard, easy


def _choices(r: Any, population: np.ndarray, weights: np.ndarray, k: int) -> list[int]:
    """``r.choices(population, weights, k=k)``, the same picks from the same draws of ``r``, with
    the cumulative weights summed and searched by numpy: the stock one turns a pool of thousands
    of cells into Python lists at every draw. ``np.cumsum`` adds in order, as ``accumulate``
    does, so the sums are the same floats."""
    cumulative = np.cumsum(weights)
    total = float(cumulative[-1]) + 0.0
    points = np.array([r.random() * total for _ in range(k)])
    found = np.searchsorted(cumulative[: len(population) - 1], points, side="right")
    return [int(i) for i in population[found]]


def _row_sums(columns: np.ndarray) -> np.ndarray:
    """``columns.T.sum(axis=1)``, the same floats, a whole row of ``columns`` added at a time.

    numpy sums each short row of an ``(n, k)`` array in a loop of its own, which on a grid of
    thousands of cells was most of a draw's weights; adding the ``k`` rows of the ``(k, n)``
    array as vectors, in the order numpy's pairwise summation adds a row's ``k`` items (one by
    one below 8, else eight running sums joined as a tree, then the rest), gives each cell's
    sum bit for bit (``tests/scenarios/test_draw.py`` checks it against numpy) in a third of
    the time."""
    k = len(columns)
    if k < 8:
        total = np.zeros(columns.shape[1:])
        for row in columns:
            total = total + row
        return total
    if k > 128:  # numpy splits longer rows in halves; no grid has that many axes
        return np.ascontiguousarray(columns.T).sum(axis=1)
    acc = [columns[j].copy() for j in range(8)]
    i = 8
    while i < k - k % 8:
        for j in range(8):
            acc[j] += columns[i + j]
        i += 8
    total = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
    for row in columns[i:]:
        total = total + row
    return total


class _Pool:
    """One pool's cells and what its weights read, held by the pool: a draw's weights read no
    array of the whole grid (gathering the grid's coordinates, visits and liveness for the pool
    at every draw was most of the weights' cost on a 3,681-cell grid). ``idx``: the cells'
    indices in the grid; ``coords``: one row per axis (see :func:`_row_sums`); ``square``:
    ``(1 + visits) ** 2``, and ``live``: 0 once a cell is spent, both kept in step by
    :meth:`drawn` and :meth:`spent`."""

    def __init__(self, idx: np.ndarray, coords: np.ndarray, risk: np.ndarray) -> None:
        self.idx = idx
        self.coords = np.ascontiguousarray(coords[idx].T)
        self.risk = risk[idx]
        self.visits = np.zeros(len(idx))
        self.square = (1.0 + self.visits) ** 2
        self.live = np.ones(len(idx))

    def weights(self, value_counts: np.ndarray) -> np.ndarray:
        """Each cell's weight: risk times novelty, over its squared visits, zero once spent."""
        novelty = _row_sums((1.0 / (1.0 + value_counts))[self.coords])
        return self.risk * novelty / self.square * self.live

    def drawn(self, at: int) -> None:
        """The cell at position ``at`` was drawn once more."""
        self.visits[at] += 1
        self.square[at : at + 1] = (1.0 + self.visits[at : at + 1]) ** 2

    def spent(self, at: int) -> None:
        """The cell at position ``at`` has no wording left that is its own."""
        self.live[at] = 0.0


class _Drafts:
    """The phrasing-0 draft of each cell's next situation, with its opener's embedding, made
    once: a candidate that loses is met again with the same situation (about half of all
    candidates on a large grid), and its draft is a pure function of the cell and situation."""

    def __init__(self, cells: list[Cell], spec: Spec, seed: int, visits: np.ndarray) -> None:
        self.cells, self.spec, self.seed, self.visits = cells, spec, seed, visits
        self._made: dict[int, tuple[_Draft, np.ndarray]] = {}

    def get(self, i: int) -> tuple[_Draft, np.ndarray]:
        """Cell ``i``'s draft for its next situation (``visits[i]``) and its embedding."""
        hit = self._made.get(i)
        if hit is None:
            draft = _Draft.of(
                self.cells[i], self.spec, seed=self.seed, situation=int(self.visits[i]), phrasing=0
            )
            hit = self._made[i] = (draft, embed(draft.opener))
        return hit

    def pop(self, i: int) -> tuple[_Draft, np.ndarray]:
        """Cell ``i``'s draft, forgotten: the cell is drawn, so its next situation is another."""
        hit = self.get(i)
        self._made.pop(i, None)
        return hit


def _pick(chosen: list[int], drafts: _Drafts, recent: np.ndarray, *, key: tuple) -> int:
    """Index in ``chosen`` of the candidate whose opener is least like ``recent`` (the first when
    there is nothing to compare, without drafting the others)."""
    if len(recent) == 0 or len(chosen) == 1:
        return 0
    return most_novel([drafts.get(i)[1] for i in chosen], recent, key=key)


def _draw(
    spec: Spec,
    grid: Grid,
    topo: Topology,
    rate: float,
    *,
    seed: int,
    hard_share: float,
    candidates: int,
    restraint_share: float | None = None,
    value_weights: Mapping[str, Mapping[str, float]] | None = None,
) -> Iterator[list[Task]]:
    cells = list(grid.cells)
    risk = np.array([_risk(c, spec) * _emphasis(c, value_weights) for c in cells])
    restraint_idx, hard_idx, easy_idx = _pools(cells, spec, restraint_share is not None)
    if not len(hard_idx) and not len(easy_idx):
        restraint_share = 1.0
    visits = np.zeros(len(cells))
    value_ids: dict[tuple[str, str], int] = {}
    coords = np.array(
        [
            [value_ids.setdefault(item, len(value_ids)) for item in c.coordinates().items()]
            for c in cells
        ]
    )
    value_counts = np.zeros(len(value_ids))
    recent = np.zeros((RECENT, DIM), dtype=np.float32)
    filled = 0
    # each opener's 64-bit hash to the cell that owns it: the one thing here that grows with a
    # run's length, about 90 bytes a situation (by text, the draw held 0.37 KB a situation in
    # all on the airline example; 0.23 KB by hash)
    owner: dict[int, str] = {}
    drafts = _Drafts(cells, spec, seed, visits)
    pools = {id(p): _Pool(p, coords, risk) for p in (restraint_idx, hard_idx, easy_idx)}
    # each cell's pool and place in it
    where = {int(c): (pool, at) for pool in pools.values() for at, c in enumerate(pool.idx)}

    def pool_weights(idx: np.ndarray) -> np.ndarray:
        return pools[id(idx)].weights(value_counts)

    s = 0
    while True:
        if (
            restraint_share is not None
            and len(restraint_idx)
            and unit("restraint", seed, s) < restraint_share
        ):
            idx = restraint_idx
        else:
            idx = (
                hard_idx
                if (unit("pool", seed, s) < hard_share and len(hard_idx)) or not len(easy_idx)
                else easy_idx
            )
        weights = pool_weights(idx)
        if not weights.any():  # every cell of the pool is spent or weighted 0: another pool's
            drawable = [p for p in (hard_idx, easy_idx, restraint_idx) if pool_weights(p).any()]
            if not drawable:
                return
            idx = drawable[0]
            weights = pool_weights(idx)
        r = rng("draw", seed, s)
        chosen = _choices(r, idx, weights, min(candidates, len(idx)))
        pick_i = _pick(chosen, drafts, recent[: min(filled, len(recent))], key=(seed, s))
        ci = chosen[pick_i]
        draft, vector = drafts.pop(ci)
        first = draft.task(spec, repeats=topo.repeats, fault_rate=rate)
        situation = _worded(first, spec, topo, rate, owner)
        pool, at = where[ci]
        if situation is None:
            pool.spent(at)  # drawn again at the same ``s``, among the cells still live
            continue
        pool.drawn(at)
        visits[ci] += 1
        value_counts[coords[ci]] += 1
        recent[filled % len(recent)] = vector
        filled += 1
        yield situation
        s += 1


#: A cell is spent, and drawn no more, when this many phrasings in a row bring no opener it has
#: not met already in the search, and every one met is another cell's. A cell's wordings are
#: finite: a tool without arguments asked tersely has a handful, shared by every cell that
#: differs only on axes such an opener does not show (its rule, its world state), so once the
#: others hold them all no phrasing number gives a new one. (On the corpus, a search that did
#: end on a free opener met a new wording at least every 11 phrasings.)
STALE_PHRASINGS = 24
#: Phrasings one search tries at most, new wordings or not.
MAX_PHRASINGS = 512


def _worded(
    first: Task, spec: Spec, topo: Topology, rate: float, owner: dict[int, str]
) -> list[Task] | None:
    """The situation's ``topo.phrasings`` tasks, ``first`` the first, each with an opener no other
    cell owns (``owner`` maps an opener's hash to its cell's ``scenario_id``), or ``None`` when
    the cell is spent (:data:`STALE_PHRASINGS`); the openers this call claimed are given back."""
    claimed: list[int] = []
    situation: list[Task] = []
    phrasing = 0
    for _ in range(topo.phrasings):
        task = first if phrasing == 0 else _phrased(first, spec, topo, rate, phrasing)
        met, stale, tries = {task.opener}, 0, 1
        while (holder := owner.get(key := stable_hash(task.opener))) != task.scenario_id:
            if holder is None:
                owner[key] = task.scenario_id
                claimed.append(key)
                break
            if stale >= STALE_PHRASINGS or tries >= MAX_PHRASINGS:
                for key in claimed:
                    del owner[key]
                return None
            phrasing, tries = phrasing + 1, tries + 1
            task = _phrased(first, spec, topo, rate, phrasing)
            stale = 0 if task.opener not in met else stale + 1
            met.add(task.opener)
        phrasing += 1
        situation.append(task)
    return situation


def _phrased(first: Task, spec: Spec, topo: Topology, rate: float, phrasing: int) -> Task:
    return make_task(
        first.cell,
        spec,
        seed=first.seed,
        situation=first.situation,
        phrasing=phrasing,
        repeats=topo.repeats,
        fault_rate=rate,
    )


def draw_tasks(
    spec: Spec | Any,
    situations: int = 100,
    *,
    mode: str = "explore",
    seed: int = 0,
    phrasings: int | None = None,
    repeats: int | None = None,
    fault_rate: float | None = None,
    grid: Grid | None = None,
    hard_share: float = 0.4,
    candidates: int = 3,
    restraint_share: float | None = None,
    weights: Mapping[str, Mapping[str, float]] | None = None,
) -> list[Task]:
    """Draw ``situations`` situations from the grid, each as ``phrasings`` tasks.

    Seeded: the same arguments give the same tasks in any process. ``fault_rate`` defaults to
    0.5 (0.8 in ``rl`` mode); ``0`` switches faults off. ``restraint_share`` sets the share of
    situations whose right outcome is not to act (see the module docstring); ``None`` keeps the
    grid's own mix. ``weights`` (``{axis: {value: multiplier}}``) scales the draw weight of the
    cells on those values; a cell weighted 0 is never drawn (with every cell at 0 the draw is
    empty).

    >>> tasks = draw_tasks(load_spec(tools=[{"name": "get_order", "parameters": {"properties":
    ...     {"order_id": {"type": "string"}}, "required": ["order_id"]}}]), 3, seed=1)
    >>> len(tasks), all(t.opener for t in tasks)
    (3, True)
    """
    if situations < 0:
        raise ValueError(f"situations must be >= 0, got {situations}")
    stream = iter_situations(
        spec,
        mode=mode,
        seed=seed,
        phrasings=phrasings,
        repeats=repeats,
        fault_rate=fault_rate,
        grid=grid,
        hard_share=hard_share,
        candidates=candidates,
        restraint_share=restraint_share,
        weights=weights,
    )
    return [task for situation in itertools.islice(stream, situations) for task in situation]


def rebuild_task(row: Mapping[str, Any], spec: Spec | Any) -> Task:
    """The task a row was played on, privileged block included, from the row's public columns.

    Rows on disk carry no ``privileged`` block (every export drops it); the task is a function of
    the spec, the cell, the seed, the situation and the phrasing, so it is made again and checked
    against the row's ``task_id``. The row's own fault plan is kept.
    """
    row = task_columns(row)
    if isinstance(row.get("privileged"), Mapping) and row["privileged"].get("hidden_state"):
        return Task.from_dict(row)
    spec = load_spec(spec)
    missing = [k for k in ("task_id", "scenario_dimensions", "seed") if k not in row]
    if missing:
        raise ValueError(f"the row lacks {', '.join(missing)}, needed to rebuild its task")
    cell = Cell.from_coordinates(row["scenario_dimensions"])
    try:
        task = make_task(
            cell,
            spec,
            seed=int(row["seed"]),
            situation=int(row.get("situation", 0)),
            phrasing=int(row.get("phrasing", 0)),
            repeats=int(row.get("repeats", 1)),
            fault_rate=0.0,
        )
    except KeyError:
        task = None
    if task is None or task.task_id != row.get("task_id"):
        raise ValueError(
            f"row {row.get('task_id')!r} was not drawn from this spec; pass the spec the run used"
        )
    plan = row.get("fault_plan")
    faults = FaultSchedule.from_dict(plan) if plan else None
    privileged = task.privileged
    if faults:
        hidden = {**thaw(privileged.hidden_state), "faults": faults.to_dict()}
        privileged = Privileged(
            freeze(hidden), reference_sentence(cell, task.world, spec, faults), privileged.principle
        )
    return replace(
        task, faults=faults, privileged=privileged, opener=str(row.get("prompt", task.opener))
    )


def tasks_from_rows(items: Iterable[Task | Mapping[str, Any]], spec: Spec | Any) -> list[Task]:
    """The tasks a set of rows (or task dicts, or tasks) was played on, once each, in first-seen
    order: the package's one way from rows back to tasks (``simulate(tasks=...)``,
    ``SimulationData.tasks``, the Gymnasium env's ``tasks=``, ``Episode.from_row``)."""
    seen: dict[str, Task] = {}
    for at, item in enumerate(items):
        if not isinstance(item, Task | Mapping):
            raise RowError(
                [f"$[{at}]: expected a Task or a row (a dict), got {type(item).__name__}"]
            )
        task_id = item.task_id if isinstance(item, Task) else task_columns(item).get("task_id")
        if task_id not in seen:
            seen[str(task_id)] = item if isinstance(item, Task) else rebuild_task(item, spec)
    return list(seen.values())
