"""``simulate`` with ``output=`` keeps O(1) rows in memory and reads them back lazily (issue 13)."""

from __future__ import annotations

import gc

from whileai_env.data.jsonl import read_rows
from whileai_env.grading.checklist import task_checklist
from whileai_env.simulation import simulate

from ..conftest import SPECS_DIR

ORDER = SPECS_DIR / "order-support.json"


def _live_rows() -> int:
    """Row dicts alive in this process (a row has a task id and a transcript)."""
    gc.collect()
    return sum(
        1 for o in gc.get_objects() if type(o) is dict and "task_id" in o and "messages" in o
    )


def test_a_streamed_run_keeps_no_row_in_memory(tmp_path):
    before = _live_rows()
    data = simulate(
        "seeded",
        spec=ORDER,
        budget=120,
        output=str(tmp_path / "rows.jsonl"),
        quiet=True,
        concurrency=4,
        grader=task_checklist,
    )
    assert len(data) == 120 and data.search["rows"] == 120
    assert _live_rows() - before <= 4  # at most the rollouts in flight, never the run's rows
    assert len(list(data.rows)) == 120


def test_an_in_memory_run_keeps_its_rows():
    before = _live_rows()
    data = simulate("seeded", spec=ORDER, budget=30, quiet=True)
    assert _live_rows() - before >= 30 and len(data) == 30


def test_file_backed_run_reads_back_what_an_in_memory_run_holds(tmp_path):
    out = tmp_path / "rows.jsonl"
    kept = simulate("seeded", spec=ORDER, budget=25, quiet=True, grader=task_checklist)
    streamed = simulate(
        "seeded", spec=ORDER, budget=25, output=str(out), quiet=True, grader=task_checklist
    )
    assert not isinstance(streamed.trajectories, list)
    assert list(streamed.trajectories) == list(kept.trajectories)
    assert list(streamed.rows) == list(kept.rows) == read_rows(out)
    assert streamed.rows[3] == kept.rows[3] and len(streamed.rows) == 25
    assert streamed.search == {
        **kept.search,
        "elapsed_s": streamed.search["elapsed_s"],
        "rows_per_min": streamed.search["rows_per_min"],
    }
    assert str(streamed.pass_at) == str(kept.pass_at)
    assert [r["reward"] for r in streamed.grade().trajectories] == [
        r["reward"] for r in kept.grade().trajectories
    ]
    assert [t.task_id for t in streamed.tasks] == [t.task_id for t in kept.tasks]
