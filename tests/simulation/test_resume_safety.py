"""``--resume`` appends only to a file it can prove is the same run, and keeps every complete row (issue 13)."""

from __future__ import annotations

import json

import pytest

from whileai_env.data.jsonl import read_rows, sidecar
from whileai_env.grading.checklist import task_checklist
from whileai_env.simulation import ResumeMismatchError, simulate

from ..conftest import SPECS_DIR

ORDER = SPECS_DIR / "order-support.json"
AIRLINE = SPECS_DIR / "airline.yaml"


def _run(out, **kw):
    kw.setdefault("budget", 12)
    return simulate(
        kw.pop("agent", "seeded"),
        spec=kw.pop("spec", ORDER),
        output=str(out),
        quiet=True,
        concurrency=1,
        **kw,
    )


def _snapshot(out):
    meta = sidecar(out)
    return out.read_bytes(), meta.read_bytes() if meta.exists() else None


def test_a_notes_file_is_refused_untouched(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n- eggs\n")
    with pytest.raises(ResumeMismatchError, match=r"notes\.txt"):
        _run(notes, resume=True)
    assert notes.read_text() == "shopping list\n- eggs\n"
    assert not sidecar(notes).exists()


def test_a_run_without_its_sidecar_is_refused_untouched(tmp_path):
    out = tmp_path / "rows.jsonl"
    _run(out, budget=6)
    sidecar(out).unlink()
    before = _snapshot(out)
    with pytest.raises(ResumeMismatchError, match=r"rows\.jsonl\.run\.json"):
        _run(out, resume=True, seed=7)
    assert _snapshot(out) == before


@pytest.mark.parametrize(
    "change",
    [
        {"seed": 7},
        {"mode": "sft"},
        {"agent": "oracle"},
        {"spec": AIRLINE},
        {"grader": task_checklist},
    ],
)
def test_a_different_run_is_refused_untouched(tmp_path, change):
    out = tmp_path / "rows.jsonl"
    _run(out, budget=6)
    before = _snapshot(out)
    with pytest.raises(ResumeMismatchError, match="cannot resume"):
        _run(out, resume=True, **change)
    assert _snapshot(out) == before


def test_ungraded_resume_of_a_graded_run_is_refused(tmp_path):
    out = tmp_path / "rows.jsonl"
    _run(out, budget=6, grader=task_checklist)
    before = _snapshot(out)
    with pytest.raises(ResumeMismatchError, match="grad"):
        _run(out, resume=True)
    assert _snapshot(out) == before


def test_rows_of_another_spec_in_the_file_are_refused(tmp_path):
    out, other = tmp_path / "rows.jsonl", tmp_path / "other.jsonl"
    _run(out, budget=4)
    _run(other, budget=2, spec=AIRLINE)
    with out.open("a") as fh:
        fh.write(other.read_text())
    before = _snapshot(out)
    with pytest.raises(ResumeMismatchError, match=r"rows\.jsonl:5"):
        _run(out, resume=True)
    assert _snapshot(out) == before


def test_a_corrupt_middle_line_is_reported_and_every_complete_row_kept(tmp_path):
    reference = tmp_path / "reference.jsonl"
    _run(reference, budget=30)
    out = tmp_path / "rows.jsonl"
    _run(out, budget=30)
    lines = out.read_text().splitlines(keepends=True)
    lines[9] = '{"task_id": "garbled\n'
    out.write_text("".join(lines))
    with pytest.warns(UserWarning, match=r"rows\.jsonl:10"):
        data = _run(out, resume=True, budget=30)
    assert len(data) == 30
    kept = out.read_text().splitlines(keepends=True)
    assert kept[:9] == lines[:9] and kept[9:29] == lines[10:]  # every complete row, in order
    assert sorted(kept) == sorted(
        reference.read_text().splitlines(keepends=True)
    )  # the lost one played again
    quarantine = out.with_name(out.name + ".corrupt")
    assert json.loads(quarantine.read_text().splitlines()[0]) == {
        "line": 10,
        "text": '{"task_id": "garbled',
    }


def test_read_rows_names_a_corrupt_middle_line(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"a": 1}\nnot json\n{"b": 2}\n')
    with pytest.raises(ValueError, match=r"rows\.jsonl:2"):
        read_rows(path)
