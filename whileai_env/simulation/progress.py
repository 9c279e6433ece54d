"""The run's progress bar: rows, rows per minute, grid coverage and faults fired."""

from __future__ import annotations

import sys
import time
from typing import Any


class Progress:
    """A rich progress bar on stderr, or nothing when ``quiet``."""

    def __init__(self, *, budget: int, quiet: bool) -> None:
        self.budget = budget
        self.quiet = quiet
        self._bar: Any = None
        self._task: Any = None
        self._started = time.perf_counter()

    def __enter__(self) -> Progress:
        if self.quiet:
            return self
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        self._bar = RichProgress(
            TextColumn("[bold]simulate"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("rows"),
            TextColumn("{task.fields[rate]}"),
            TextColumn("{task.fields[coverage]}"),
            TextColumn("{task.fields[faults]}"),
            TextColumn("{task.fields[lost]}"),
            TimeElapsedColumn(),
            console=Console(file=sys.stderr),
            transient=False,
        )
        self._bar.__enter__()
        self._task = self._bar.add_task(
            "simulate", total=self.budget, rate="", coverage="", faults="", lost=""
        )
        return self

    def update(
        self, *, rows: int, lost: int = 0, coverage: float | None = None, faults: int | None = None
    ) -> None:
        if self._bar is None:
            return
        elapsed = max(time.perf_counter() - self._started, 1e-9)
        fields = {"rate": f"{60 * rows / elapsed:,.0f}/min", "lost": f"lost {lost}" if lost else ""}
        if coverage is not None:
            fields["coverage"] = f"coverage {coverage:.0%}"
        if faults is not None:
            fields["faults"] = f"faults {faults}"
        self._bar.update(self._task, completed=rows, **fields)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)
