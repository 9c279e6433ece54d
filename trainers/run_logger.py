"""``RunLogger``: a run record on disk, as a ``transformers.TrainerCallback``.

A run directory holds ``config.json`` (the trainer's arguments and anything passed as
``config=``), ``metrics.jsonl`` (one line per log event: loss, learning rate, rewards, KL …),
``summary.json`` (status ``done`` or ``stopped`` with the reason, the last metrics, the holdout
verdict, notes) and ``curves.png`` (every logged series against the step). It only writes
files, so it runs beside ``report_to`` (tensorboard, trackio, wandb) without touching them. A
record already in the directory (an earlier or crashed run) is moved to ``earlier/<n>/`` first.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from trainers.verdict import holdout_verdict

#: The files a run record owns (evaluation files beside them belong to the program).
_RECORD_FILES = ("config.json", "metrics.jsonl", "summary.json", "curves.png")


class RunLogger(TrainerCallback):
    """Write the run record under ``path`` (created); ``config`` adds to the trainer's arguments."""

    def __init__(self, path: str | Path, *, config: Mapping[str, Any] | None = None) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.config = dict(config or {})
        self.status = "running"
        self.reason: str | None = None
        self.notes: list[str] = []
        self.last: dict[str, Any] = {}
        self.holdout_record: dict[str, Any] | None = None
        self.series: dict[str, list[tuple[int, float]]] = {}
        self._metrics = self.path / "metrics.jsonl"
        self._set_aside_earlier_record()

    def _set_aside_earlier_record(self) -> None:
        """Move an earlier run's record out of the way (into ``earlier/<n>/``): a run started
        again in the same directory (after a crash, say) would otherwise append its metrics to
        the old run's, and the curves would mix two runs. Nothing is deleted."""
        owned = [self.path / name for name in _RECORD_FILES if (self.path / name).exists()]
        if not owned:
            return
        n = 1
        while (self.path / "earlier" / str(n)).exists():
            n += 1
        target = self.path / "earlier" / str(n)
        target.mkdir(parents=True)
        for file in owned:
            file.rename(target / file.name)

    # -- the record -------------------------------------------------------------------------------

    def log(self, step: int, **metrics: Any) -> None:
        """Append one metrics line (the trainer's logs arrive here; a custom loop may call it)."""
        clean = {k: _jsonable(v) for k, v in metrics.items()}
        with self._metrics.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"step": int(step), **clean}, sort_keys=True) + "\n")
        for key, value in clean.items():
            if (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and math.isfinite(value)
            ):
                self.series.setdefault(key, []).append((int(step), value))
        self.last.update(clean)

    def holdout(
        self, before: Any, after: Any, *, metric: str = "pass_at_1", seed: int = 0
    ) -> dict[str, Any]:
        """Record the held-out measure before and after (numbers, per-task outcomes or graded
        rows) and its verdict word; see :func:`trainers.verdict.holdout_verdict`."""
        self.holdout_record = holdout_verdict(before, after, metric=metric, seed=seed)
        self._write_summary()
        return self.holdout_record

    def note(self, text: str) -> None:
        """Put a line on the run's summary."""
        self.notes.append(str(text))
        self._write_summary()

    def stop(self, reason: str) -> None:
        """Mark the run ``stopped`` with ``reason`` (a monitor calls this when it halts training)."""
        self.status, self.reason = "stopped", reason

    def finish(self, status: str | None = None) -> dict[str, Any]:
        """Close the record: the status (``done`` unless stopped), the summary and the curves."""
        if status is not None:
            self.status = status
        elif self.status == "running":
            self.status = "done"
        curves = self._draw_curves()
        return self._write_summary(curves=curves)

    def summary(self) -> dict[str, Any]:
        """What ``summary.json`` holds."""
        return (
            json.loads((self.path / "summary.json").read_text())
            if (self.path / "summary.json").exists()
            else {}
        )

    # -- TrainerCallback hooks ----------------------------------------------------------------------

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        config = {
            "args": _jsonable(args.to_dict()) if hasattr(args, "to_dict") else {},
            **_jsonable(self.config),
        }
        (self.path / "config.json").write_text(
            json.dumps(config, indent=2, sort_keys=True, default=str)
        )

    def on_log(
        self,
        args: Any,
        state: Any,
        control: Any,
        logs: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if logs:
            self.log(state.global_step, **logs)

    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self.finish()

    # -- files ----------------------------------------------------------------------------------------

    def _write_summary(self, curves: str | None = None) -> dict[str, Any]:
        summary = {
            "status": self.status,
            "reason": self.reason,
            "last": self.last,
            "holdout": self.holdout_record,
            "notes": self.notes,
        }
        if curves is not None:
            summary["curves"] = curves
        elif (old := self.summary()).get("curves"):
            summary["curves"] = old["curves"]
        (self.path / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True))
        return summary

    def _draw_curves(self) -> str | None:
        """``curves.png``: one panel per series with two or more points (matplotlib, headless)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            self.notes.append("no curves: matplotlib is not installed")
            return None
        keys = [
            k
            for k, points in self.series.items()
            if len(points) >= 2 and k not in ("epoch", "step_time")
        ]
        if not keys:
            return None
        cols = min(3, len(keys))
        rows = math.ceil(len(keys) / cols)
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 2.6 * rows), squeeze=False)
        for ax, key in zip(axes.flat, keys, strict=False):
            steps, values = zip(*self.series[key], strict=True)
            ax.plot(steps, values, marker=".")
            ax.set_title(key, fontsize=8)
            ax.tick_params(labelsize=7)
        for ax in list(axes.flat)[len(keys) :]:
            ax.axis("off")
        fig.tight_layout()
        out = self.path / "curves.png"
        fig.savefig(out, dpi=90)
        plt.close(fig)
        return out.name


def _jsonable(value: Any) -> Any:
    """Numbers as floats, mappings and sequences recursively, anything else as text."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    item = getattr(value, "item", None)
    return _jsonable(item()) if callable(item) else str(value)
