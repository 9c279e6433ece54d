"""What a simulation run returns: its rows, its trajectories, its own report, and grading.

A run that streamed to ``output=`` keeps no row in memory: its ``rows`` and ``trajectories`` read
the file back lazily (:class:`FileTrajectories`), each trajectory getting its privileged block
rebuilt from the row's public task columns (:func:`~whileai_env.scenarios.draw.rebuild_task`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from whileai_env.analysis import PassAt, pass_at
from whileai_env.data.jsonl import RowFile, read_rows, write_rows


class RowList(list):
    """A list of rows that can also be called (``data.rows()``), as older code expects."""

    def __call__(self) -> RowList:
        return self


def _export(rows: Iterable[dict[str, Any]]) -> RowList:
    from whileai_env.data.rows import export_row

    return RowList(export_row(r, refuse_leaks=False) for r in rows)


class StreamedRows(RowFile):
    """A streamed run's rows (its JSONL file, read lazily); callable like :class:`RowList`."""

    def __call__(self) -> StreamedRows:
        return self


class FileTrajectories(Sequence):
    """A streamed run's trajectories, read back lazily from its JSONL file.

    The file holds export-safe rows; each is handed out with the privileged block its task
    carries (rebuilt from the row's public columns, exactly what the run graded against), so
    judges see what they would have seen in memory. ``rows`` is the file itself.
    """

    def __init__(self, path: str | os.PathLike, offsets: Sequence[int] | None, spec: Any) -> None:
        self.rows = StreamedRows(path, offsets)
        self.spec = spec

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._privileged(row) for row in self.rows[index]]
        return self._privileged(self.rows[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self._privileged(row) for row in self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def _privileged(self, row: dict[str, Any]) -> dict[str, Any]:
        from whileai_env.scenarios.draw import rebuild_task

        try:
            task = rebuild_task(row, self.spec)
        except (ValueError, KeyError, TypeError):
            return row
        block = task.privileged.to_dict()
        if self.spec.rubric:
            block = {**block, "rubric": self.spec.rubric}
        if (
            block.get("hidden_state")
            or block.get("reference")
            or block.get("principle")
            or block.get("rubric")
        ):
            row["privileged"] = block
        return row


class ScoredData:
    """Graded copies of a run's trajectories (``SimulationData.grade(judge=...)``)."""

    def __init__(self, trajectories: list[dict[str, Any]], judge_name: str) -> None:
        self.trajectories = trajectories
        self.judge_name = judge_name

    @property
    def rows(self) -> RowList:
        """Export-safe rows (no privileged block at any depth)."""
        return _export(self.trajectories)

    @property
    def pass_at(self) -> PassAt:
        return pass_at(self.trajectories)

    def passes(self, threshold: float = 1.0) -> list[dict[str, Any]]:
        """Export-safe rows whose reward reached ``threshold``."""
        return [
            r
            for r in self.rows
            if isinstance(r.get("reward"), int | float) and r["reward"] >= threshold
        ]

    def save(self, path: str | os.PathLike) -> Path:
        return write_rows(self.rows, path)

    def __len__(self) -> int:
        return len(self.trajectories)


class SimulationData:
    """A finished run: ``rows`` (export-safe), ``trajectories`` (privileged kept, for judges),
    ``search`` (the run's own report), ``stopped_because``, and grading.

    >>> from whileai_env import simulate
    >>> data = simulate("oracle", spec="configs/specs/order-support.json", budget=20, quiet=True)
    >>> data.grade().pass_at.pass_at_1
    1.0
    """

    def __init__(
        self,
        trajectories: Sequence[dict[str, Any]],
        *,
        search: dict[str, Any],
        spec: Any,
        mode: str,
        phrasings: int,
        repeats: int,
        output: Path | None = None,
    ) -> None:
        self.trajectories = trajectories
        self.search = search
        self.spec = spec
        self.mode = mode
        self.requests_per_situation = phrasings
        self.rollouts_per_request = repeats
        self.output = output

    @property
    def stopped_because(self) -> str:
        return self.search["stopped_because"]

    @property
    def rows(self) -> RowList | RowFile:
        """Export-safe rows: what ``output=`` and ``save()`` write (the file itself, read lazily,
        when the run streamed to one)."""
        if isinstance(self.trajectories, FileTrajectories):
            return self.trajectories.rows
        return _export(self.trajectories)

    @property
    def pass_at(self) -> PassAt | None:
        """pass@1 / pass^k / pass@k over the rows' rewards, or ``None`` when nothing is graded."""
        rows = self._public()
        if not any(isinstance(r.get("reward"), int | float) for r in rows):
            return None
        return pass_at(rows)

    def _public(self) -> Sequence[dict[str, Any]]:
        """Rows to read public columns from (rewards, prompts): the file when the run streamed,
        so no privileged block is rebuilt just to be ignored."""
        return (
            self.trajectories.rows
            if isinstance(self.trajectories, FileTrajectories)
            else self.trajectories
        )

    def grade(
        self,
        judge: Callable[[dict], Any] | None = None,
        *,
        timeout: float | None = None,
        concurrency: int = 1,
        name: str | None = None,
        rubric: str | os.PathLike | bool | None = None,
        model: str | None = None,
    ) -> ScoredData:
        """Graded copies of the trajectories; the run itself is left untouched.

        With no judge, ``task_checklist`` grades (conduct × the task's own outcome checks).
        ``rubric=`` grades with :func:`~whileai_env.judges.rubric.rubric_judge` instead, on
        ``model`` (default ``$WHILEAI_JUDGE``): the rubric's text or path, or ``True`` for each
        row's own (the spec's ``rubric.md``, or per-prompt criteria from ``write_rubrics``).
        Any judge honours the judge contract: a number or ``{"reward", "reason", "markers"}``;
        anything else marks the row (``judge_status``) with ``reward=None``, never a silent 0.
        """
        from whileai_env.grading.judge import run_judge

        if rubric is not None and rubric is not False:
            if judge is not None:
                raise ValueError("grade() takes judge= or rubric=, not both")
            from whileai_env.judges.rubric import rubric_judge

            by_rubric = rubric_judge(model, rubric=None if rubric is True else rubric)
            judge, concurrency = by_rubric, max(concurrency, by_rubric.concurrency)
        if judge is None:
            from whileai_env.grading import task_checklist

            judge, name = task_checklist, name or "task_checklist"
        graded = run_judge(
            self.trajectories, judge, timeout=timeout, concurrency=concurrency, name=name
        )
        return ScoredData(
            graded, judge_name=graded[0]["judge_name"] if graded else (name or "judge")
        )

    @property
    def tasks(self) -> list[Any]:
        """The run's tasks, once each, in the order they were first played (for ``tasks=``)."""
        from whileai_env.scenarios.draw import tasks_from_rows

        return tasks_from_rows(self.trajectories, self.spec)

    def save(self, path: str | os.PathLike) -> Path:
        """Write the export-safe rows as JSONL."""
        return write_rows(self.rows, path)

    def __len__(self) -> int:
        return len(self.trajectories)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def __repr__(self) -> str:
        return (
            f"SimulationData({len(self)} rows, mode={self.mode!r}, k={self.rollouts_per_request}, "
            f"stopped_because={self.stopped_because!r})"
        )


def load_run_rows(source: Any) -> list[dict[str, Any]]:
    """Rows from a ``SimulationData``, a list of rows, or a JSONL path."""
    if isinstance(source, SimulationData | ScoredData):
        return list(source.trajectories)
    if isinstance(source, str | os.PathLike):
        return read_rows(source)
    rows = list(source)
    for i, row in enumerate(rows):
        if isinstance(row, str):
            rows[i] = json.loads(row)
    return rows
